"""Determinized search for Bohemian Schneider (perfect-information Monte Carlo).

What is hidden is the opponent's hand and the order of the pile: everything
else (both seats' plays, the tricks, my hand and draws) is public to me. So for
each card it may play, the bot deals the unseen cards many times at random into
an opponent's hand of the right size and a pile order, solves each such deal as
a perfect-information game, and plays the card of best mean value.

Dealing the hidden cards
------------------------
Every split of the unseen cards fits what was seen (there is no duty to follow,
so no void proves anything). But a sensible opponent's last plays hint at its
hand: it takes a trick when it holds the card above the lead, throws a counter
only when it has no plain card, and leads a card that may be beaten only when
it has no safe lead. Deals that contradict its play in this trick and the last
one are kept less often (rejection sampling with :class:`OpponentPlay`'s odds),
not ruled out: an opponent may play otherwise.

Solving a deal
--------------
The rest of a round, once the pile order is fixed, is a two-player zero-sum
game over the counter points still out (hands and pile). The solver works on
one number: the points the *leader* of a trick captures from that trick to the
end of the round. A trick is the leader's max over leads of the follower's min
over replies; the loser's future points are the remaining points minus the
winner's, so one recursion (alpha-beta with a transposition table keyed on the
two hands and the pile position) serves both seats. Cards whose neighbours in
rank are both out of play (an Ace with the King gone, a 9 with 8 and 10 gone)
can neither be beaten when led nor beat anything, so such cards of equal worth
are one move.

With at most ``exact_tricks`` tricks left the deal is solved to the end; the
last six tricks (pile empty) are perfect information, so one deal is then the
whole truth and the bot does not sample. Earlier, the search looks ``depth``
tricks ahead and estimates the rest with :func:`estimate_future`, a linear
model of the leader's future points per tricks left, fitted by
``training/fit_schneider_eval.py`` (``agents/schneider_eval.json``).

What a move is worth
--------------------
Every outcome is valued as what it means for the match, not as raw points: the
round score counts doubling (16+ points) and tripling (all 20), and the match
value is +1 for a won match, -1 for a lost one, 0 for a draw. In the last round
that is the sign of my final total minus the opponent's (plus a tiny tiebreak
on the margin so a won or lost match is still played out well); before the last
round it is ``2*Phi(lead / (ROUND_MARGIN_SD * sqrt(rounds after this))) - 1``,
the chance of the lead holding over the rounds still to play, mapped to -1..1.
Minimax commutes with a monotone function of the final points, so each deal is
solved in points and valued afterwards; an estimate (a depth-limited search) is
valued as the mean over a normal spread of ``ESTIMATE_SD`` points per root of
the counters still out, since the estimate is only an estimate.

The card of best mean is played, except that among the cards within ``tiebreak``
standard errors of it (paired over the same deals: sampling noise) the plain
heuristic's favourite goes first (:func:`preference`): do not throw a counter,
lead a safe card, keep the card that may beat a lead.

``samples`` bounds the number of sampled deals and ``time_budget`` (seconds)
the time per decision; the search stops at whichever comes first (at least one
deal). Everything random comes from the agent's own seeded RNG.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent, Decision
from smear_env.cards import cards_of, mask_of, parse_card, parse_cards
from smear_env.checks import as_int, as_real
from smear_env.schneider.game import (
    COUNTERS_MASK,
    DECK,
    DECK_MASK,
    HAND_SIZE,
    PILE_SIZE,
    ROUND_POINTS,
    TRICKS_PER_ROUND,
    card_above,
    is_counter,
    multiplier,
)

#: standard deviation of one round's score margin between two good players (round score with its
#: multipliers, mine minus the opponent's): how far a lead can swing in each round still to play
ROUND_MARGIN_SD = 12.0

#: spread of the depth-limited estimate, in points per square root of the counters still out: the
#: evaluation's residual sd per root of those is 0.33 (7 tricks left) to 0.74 (16) in its fit
ESTIMATE_SD = 0.6

#: how likely a sensible opponent is to play against the hints of :class:`OpponentPlay` while the pile
#: lasts. The rule bot never does; this search, against itself (12 matches, 16 samples), let 0 of 17
#: takeable tricks go, threw a counter in 54 of 169 tricks it lost holding a plain card, and led a
#: card that might be beaten in 11 of 207 leads with a safe one in hand. The odds sit near the search's
DECLINED_TAKE_ODDS = 0.05  # lets a trick go that it could take with the card above the lead
COUNTER_THROW_ODDS = 0.3  # throws a counter while it holds a plain card (7, 8, 9)
UNSAFE_LEAD_ODDS = 0.1  # leads a card the other player might beat while it holds a safe lead

#: sampled deals drawn (and weighed against the opponent's recent plays) for each one kept
HINT_TRIES = 20

#: weight of one point of round-score margin next to a won (+1) or lost (-1) match: breaks ties only
MARGIN_TIEBREAK = 1e-4


# ---------------------------------------------------------------------- card tables
def _card_tables() -> tuple[list[int], list[int], list[int]]:
    """Per card id: its counter point, the bit of the card above it, the bit of the card below it."""
    points = [0] * 64
    above = [0] * 64
    below = [0] * 64
    for card in DECK:
        points[card] = int(is_counter(card))
        up = card_above(card)
        if up >= 0:
            above[card] = 1 << up
            below[up] = 1 << card
    return points, above, below


POINT, ABOVE, BELOW = _card_tables()


# ---------------------------------------------------------------------- the evaluation
#: names of :func:`eval_features`, in order (L: the leader's hand, F: the follower's, S: the pile's cards;
#: "safe": the card above it is not in the other hand; "sure": nor in the pile)
FEATURE_NAMES = (
    "bias",
    "remaining points",
    "L points",
    "F points",
    "L safe leads",
    "L safe counter leads",
    "L sure leads",
    "L sure counter leads",
    "F cards beating an L card",
    "F sure leads",
    "F sure counter leads",
    "L cards beating an F card",
)


def eval_features(lead_hand: int, follow_hand: int, pile_rest: int) -> tuple[int, ...]:
    """Counts of cards and counter points at a trick boundary (see :data:`FEATURE_NAMES`).

    Bit tricks: ``F >> 1`` holds the card below each of F's cards, so ``L & ~(F >> 1)``
    are the leads F cannot beat (the bit above an Ace is a 2, never in this deck).
    """
    c = COUNTERS_MASK
    lead, follow = lead_hand, follow_hand
    safe = lead & ~(follow >> 1)
    sure = lead & ~((follow | pile_rest) >> 1)
    follow_sure = follow & ~((lead | pile_rest) >> 1)
    return (
        1,
        ((lead | follow | pile_rest) & c).bit_count(),
        (lead & c).bit_count(),
        (follow & c).bit_count(),
        safe.bit_count(),
        (safe & c).bit_count(),
        sure.bit_count(),
        (sure & c).bit_count(),
        (follow & (lead << 1)).bit_count(),
        follow_sure.bit_count(),
        (follow_sure & c).bit_count(),
        (lead & (follow << 1)).bit_count(),
    )


#: where :data:`EVAL_WEIGHTS` live: written by ``python -m training.fit_schneider_eval --out ...``
EVAL_WEIGHTS_FILE = Path(__file__).with_name("schneider_eval.json")


def load_eval_weights(path: Path = EVAL_WEIGHTS_FILE) -> tuple[tuple[float, ...], ...]:
    """Weights of :func:`eval_features` by tricks left in the round (index 0 unused), from ``path``."""
    data = json.loads(path.read_text())
    if data.get("features") != list(FEATURE_NAMES):
        raise ValueError(f"{path} weighs features {data.get('features')}, expected {list(FEATURE_NAMES)}: refit it")
    weights = tuple(tuple(float(w) for w in row) for row in data["weights"])
    if len(weights) != TRICKS_PER_ROUND + 1 or any(len(row) != len(FEATURE_NAMES) for row in weights):
        raise ValueError(
            f"{path} holds {len(weights)} weight rows: expected {TRICKS_PER_ROUND + 1} of {len(FEATURE_NAMES)}"
        )
    return weights


#: the evaluation's weights, fitted to solved positions and playouts (see ``training/fit_schneider_eval.py``)
EVAL_WEIGHTS = load_eval_weights()


def estimate_future(
    lead_hand: int, follow_hand: int, pile_rest: int, weights: Sequence[Sequence[float]] = EVAL_WEIGHTS
) -> float:
    """Estimated counter points the leader captures from here to the end of the round.

    The linear model of :func:`eval_features`, written out: it runs at every leaf of the search.
    """
    c = COUNTERS_MASK
    lead, follow = lead_hand, follow_hand
    safe = lead & ~(follow >> 1)
    sure = lead & ~((follow | pile_rest) >> 1)
    follow_sure = follow & ~((lead | pile_rest) >> 1)
    remaining = ((lead | follow | pile_rest) & c).bit_count()
    w = weights[(lead.bit_count() + follow.bit_count() + pile_rest.bit_count()) >> 1]
    value = (
        w[0]
        + w[1] * remaining
        + w[2] * (lead & c).bit_count()
        + w[3] * (follow & c).bit_count()
        + w[4] * safe.bit_count()
        + w[5] * (safe & c).bit_count()
        + w[6] * sure.bit_count()
        + w[7] * (sure & c).bit_count()
        + w[8] * (follow & (lead << 1)).bit_count()
        + w[9] * follow_sure.bit_count()
        + w[10] * (follow_sure & c).bit_count()
        + w[11] * (lead & (follow << 1)).bit_count()
    )
    return 0.0 if value < 0.0 else remaining if value > remaining else value


# ---------------------------------------------------------------------- what an outcome is worth
@dataclass(frozen=True)
class MatchSituation:
    """What the round's outcome means for the match, from one seat's side."""

    captured: int  # counter points I captured this round so far
    opp_captured: int  # counter points the opponent captured this round so far
    lead: int  # my match total minus the opponent's, before this round
    rounds_after: int  # rounds still to play after this one

    def value(self, my_points: int) -> float:
        """Match value (-1 lost .. +1 won) of ending this round with ``my_points`` counter points."""
        margin = my_points * multiplier(my_points) - (ROUND_POINTS - my_points) * multiplier(ROUND_POINTS - my_points)
        total = self.lead + margin
        if self.rounds_after == 0:
            outcome = (total > 0) - (total < 0)
        else:
            outcome = math.erf(total / (ROUND_MARGIN_SD * math.sqrt(2 * self.rounds_after)))
        return outcome + MARGIN_TIEBREAK * margin

    def value_table(self) -> list[float]:
        """:meth:`value` for every final point count 0..20."""
        return [self.value(p) for p in range(ROUND_POINTS + 1)]


def smoothed_value(table: Sequence[float], low: int, high: int, estimate: float, spread: float) -> float:
    """Mean of ``table[p]`` over final points ``p`` in ``low..high``, normally spread around ``estimate``."""
    if spread <= 0.0 or low == high:
        return table[min(max(round(estimate), low), high)]
    weights = [math.exp(-0.5 * ((p - estimate) / spread) ** 2) for p in range(low, high + 1)]
    return sum(w * table[p] for w, p in zip(weights, range(low, high + 1), strict=True)) / sum(weights)


# ---------------------------------------------------------------------- what a seat knows
@dataclass(frozen=True)
class OpponentPlay:
    """A card the opponent played recently, with what it knew then: the hint it gives about its hand."""

    card: int
    led: int  # the card it followed, -1 when it led
    before: int  # cards played this round before it (both seats)
    drew_since: bool  # it drew a card after this play, so its hand then held one card not in it now
    played_since: int = 0  # cards it played after this one (it held them then)

    def likelihood(self, hand_then: int) -> float:
        """How likely a sensible player holding ``hand_then`` (with ``card``) plays ``card`` here, 0..1.

        It takes a trick it can take; it throws a counter only when it holds no plain
        card; it leads a card that may be beaten only when it has no safe lead.
        """
        if self.led >= 0:
            if hand_then & ABOVE[self.led] and ABOVE[self.led] != 1 << self.card:
                return DECLINED_TAKE_ODDS
            if POINT[self.card] and hand_then & ~COUNTERS_MASK:
                return COUNTER_THROW_ODDS
            return 1.0
        unseen_then = DECK_MASK & ~(hand_then | self.before)
        safe = hand_then & ~(unseen_then >> 1)
        if safe and not safe >> self.card & 1:
            return UNSAFE_LEAD_ODDS
        return 1.0

    def likelihood_now(self, hand: int) -> float:
        """:meth:`likelihood` for an opponent holding ``hand`` now (the card it drew since is any of them)."""
        held = 1 << self.card | self.played_since
        if not self.drew_since:
            return self.likelihood(hand | held)
        cards = cards_of(hand)
        return sum(self.likelihood((hand ^ 1 << c) | held) for c in cards) / len(cards) if cards else 1.0


@dataclass(frozen=True)
class SchneiderKnowledge:
    """Everything one seat may use, from its view: cards as bit masks."""

    seat: int
    hand: int
    unseen: int  # cards in the opponent's hand or the pile
    opp_hand_size: int
    pile_size: int
    led: int  # the card led to me when I follow, else -1
    situation: MatchSituation
    hints: tuple[OpponentPlay, ...] = ()  # the opponent's plays in this trick and the last one

    def hint_weight(self, opp_hand: int) -> float:
        """How well an opponent's hand fits its recent plays (1: as a sensible player would play)."""
        weight = 1.0
        for hint in self.hints:
            weight *= hint.likelihood_now(opp_hand)
        return weight

    @property
    def remaining_points(self) -> int:
        """Counter points not yet captured: in the hands, the pile and on the table."""
        return ROUND_POINTS - self.situation.captured - self.situation.opp_captured


def knowledge_from_view(view: dict[str, Any]) -> SchneiderKnowledge:
    """What ``view`` (``player_view``) tells its seat, checked for consistency."""
    seat = view["seat"]
    hand = mask_of(parse_cards(view["hand"]))
    played = [mask_of(parse_cards(cards)) for cards in view["played"]]
    trick = view["trick"]
    led = parse_card(trick[0][1]) if trick else -1
    seen = hand | played[0] | played[1]
    unseen = DECK_MASK & ~seen
    opp_hand_size = unseen.bit_count() - view["pile_size"]
    if opp_hand_size < 0 or opp_hand_size > HAND_SIZE:
        raise ValueError(
            f"view of seat {seat} is inconsistent: {unseen.bit_count()} unseen cards for a pile of "
            f"{view['pile_size']} leaves the opponent {opp_hand_size} cards (expected 0..{HAND_SIZE})"
        )
    points = view["round_points"]
    scores = view["scores"]
    situation = MatchSituation(
        captured=points[seat],
        opp_captured=points[1 - seat],
        lead=scores[seat] - scores[1 - seat],
        rounds_after=view["num_rounds"] - view["rounds_played"] - 1,
    )
    hints = _opponent_plays(view, seat, played[0] | played[1])
    return SchneiderKnowledge(seat, hand, unseen, opp_hand_size, view["pile_size"], led, situation, hints)


def _opponent_plays(view: dict[str, Any], seat: int, played: int) -> tuple[OpponentPlay, ...]:
    """The opponent's play in the current trick (when it led) and in the last finished one."""
    hints = []
    tricks = view["tricks"]
    before = played
    since = 0  # the opponent's card in the current trick
    if view["trick"]:
        opp, name = view["trick"][0]
        card = parse_card(name)
        before &= ~(1 << card)
        if opp != seat:
            hints.append(OpponentPlay(card, -1, before, drew_since=False))
            since = 1 << card
    if tricks:
        plays = [(s, parse_card(name)) for s, name in tricks[-1]["cards"]]
        for _, card in plays:
            before &= ~(1 << card)
        drew = len(tricks) <= PILE_SIZE // 2  # both drew after each of the first ten tricks
        for i, (s, card) in enumerate(plays):
            if s != seat:
                led = plays[0][1] if i else -1
                known = before | (1 << led if led >= 0 else 0)
                hints.append(OpponentPlay(card, led, known, drew_since=drew, played_since=since))
    return tuple(hints)


# ---------------------------------------------------------------------- the solver
class DealSolver:
    """Alpha-beta over one fully known deal: both hands and the pile order.

    Values are the counter points the leader of a trick captures from that trick
    to the end of the round (exact, or estimated beyond the depth limit).
    """

    def __init__(self, pile: Sequence[int], weights: Sequence[Sequence[float]] = EVAL_WEIGHTS) -> None:
        self.pile = tuple(pile)
        self.weights = weights
        # pile_rest[pos]: the cards still in the pile when its top is pile[pos]
        rest = [0] * (len(self.pile) + 1)
        for pos in range(len(self.pile) - 1, -1, -1):
            rest[pos] = rest[pos + 1] | (1 << self.pile[pos])
        self.pile_rest = rest
        self.table: dict[tuple[int, int, int], tuple[int, float, float]] = {}  # bounds found by search
        self.leaves: dict[tuple[int, int, int], float] = {}  # estimates at the depth limit
        self.nodes = 0

    # ------------------------------------------------------------------ nodes
    def lead_value(self, lead_hand: int, follow_hand: int, pos: int, alpha: float, beta: float, depth: int) -> float:
        """Points the leader captures from here, searched ``depth`` more tricks (exact within ``alpha..beta``)."""
        if not lead_hand:
            return 0.0
        key = (lead_hand, follow_hand, pos)
        if depth <= 0:
            value = self.leaves.get(key)
            if value is None:
                value = self.leaves[key] = estimate_future(lead_hand, follow_hand, self.pile_rest[pos], self.weights)
            return value
        self.nodes += 1
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, lower, upper = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        alpha0, beta0 = alpha, beta
        best = -1.0
        for card in _ordered_leads(lead_hand, follow_hand, lead_hand | follow_hand | self.pile_rest[pos]):
            value = self.follow_value(lead_hand ^ (1 << card), follow_hand, card, pos, alpha, beta, depth)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best <= alpha0:
            self.table[key] = (depth, -math.inf, best)  # failed low: an upper bound
        elif best >= beta0:
            self.table[key] = (depth, best, math.inf)  # failed high: a lower bound
        else:
            self.table[key] = (depth, best, best)
        return best

    def follow_value(
        self, lead_hand: int, follow_hand: int, led: int, pos: int, alpha: float, beta: float, depth: int
    ) -> float:
        """The leader's points from the trick ``led`` opened (the follower replies to minimize them)."""
        best = math.inf
        in_play = lead_hand | follow_hand | self.pile_rest[pos] | 1 << led
        for card in _ordered_replies(follow_hand, led, in_play):
            value = self.trick_value(lead_hand, follow_hand ^ (1 << card), led, card, pos, alpha, beta, depth)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best

    def trick_value(
        self,
        lead_hand: int,
        follow_hand: int,
        led: int,
        followed: int,
        pos: int,
        alpha: float,
        beta: float,
        depth: int,
    ) -> float:
        """The leader's points once ``led`` and ``followed`` are played: the trick, the draws, the rest."""
        leader_wins = ABOVE[led] != 1 << followed
        pile = self.pile
        if pos < len(pile):
            first, second = 1 << pile[pos], 1 << pile[pos + 1]
            if leader_wins:
                lead_hand, follow_hand = lead_hand | first, follow_hand | second
            else:
                lead_hand, follow_hand = lead_hand | second, follow_hand | first
            pos += 2
        if leader_wins:
            gain = POINT[led] + POINT[followed]
            return gain + self.lead_value(lead_hand, follow_hand, pos, alpha - gain, beta - gain, depth - 1)
        rest = ((lead_hand | follow_hand | self.pile_rest[pos]) & COUNTERS_MASK).bit_count()
        return rest - self.lead_value(follow_hand, lead_hand, pos, rest - beta, rest - alpha, depth - 1)


def _distinct(hand: int, in_play: int) -> int:
    """``hand`` less all but one of each set of interchangeable "dead" cards, as a mask.

    A card whose neighbours in rank are both out of play (not in ``in_play``) can
    neither be beaten when led nor beat a lead; two such cards of equal worth are
    the same move. (The bit below a 7 or above an Ace is a card this deck lacks.)
    """
    dead = hand & ~(in_play >> 1) & ~(in_play << 1)
    if not dead:
        return hand
    dead_plain, dead_counters = dead & ~COUNTERS_MASK, dead & COUNTERS_MASK
    return (hand & ~dead) | (dead_plain & -dead_plain) | (dead_counters & -dead_counters)


def _ordered_leads(hand: int, other_hand: int, in_play: int) -> list[int]:
    """Leads to try, likeliest best first: safe counters, other safe cards, unsafe plain cards, unsafe counters."""
    hand = _distinct(hand, in_play)
    safe = hand & ~(other_hand >> 1)
    unsafe = hand ^ safe
    return (
        cards_of(safe & COUNTERS_MASK)
        + cards_of(safe & ~COUNTERS_MASK)
        + cards_of(unsafe & ~COUNTERS_MASK)
        + cards_of(unsafe & COUNTERS_MASK)
    )


def _ordered_replies(hand: int, led: int, in_play: int) -> list[int]:
    """Replies to try: the card that beats the lead first, then plain cards before counters."""
    hand = _distinct(hand, in_play)
    winner = hand & ABOVE[led]
    hand ^= winner
    return cards_of(winner) + cards_of(hand & ~COUNTERS_MASK) + cards_of(hand & COUNTERS_MASK)


# ---------------------------------------------------------------------- the agent
class SchneiderSearchAgent(Agent):
    """Plays the card with the best mean match value over sampled deals, each solved by alpha-beta."""

    name = "schneider_search"

    def __init__(
        self,
        rules: Any = None,
        seed: int | None = None,
        samples: int = 32,
        time_budget: float = 0.1,
        depth: int = 2,
        exact_tricks: int = 6,
        tiebreak: float = 1.0,
    ) -> None:
        super().__init__(seed)
        what = "Schneider search"
        self.samples = as_int(samples, f"{what} samples", 1)
        self.time_budget = as_real(time_budget, f"{what} time_budget (seconds)", 0.0, low_open=True)
        self.depth = as_int(depth, f"{what} depth", 1)
        self.exact_tricks = as_int(exact_tricks, f"{what} exact_tricks", 1)
        self.tiebreak = as_real(tiebreak, f"{what} tiebreak (standard errors)", 0.0)

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        return self.decide(view, observation).action

    def decide(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> Decision:
        """The card :meth:`act` plays, with every card in hand's mean match value (-1 lost .. +1 won)."""
        self.legal_actions(view)
        k = knowledge_from_view(view)
        per_sample = self.sample_values(k)
        means = {card: sum(values) / len(values) for card, values in per_sample.items()}
        return Decision(choose_card(per_sample, preference(k), self.tiebreak), means, "value")

    def sample_values(self, k: SchneiderKnowledge) -> dict[int, list[float]]:
        """Each card in hand's match value in every sampled deal (the same deals for every card)."""
        moves = cards_of(k.hand)
        values: dict[int, list[float]] = {move: [] for move in moves}
        tricks_left = (k.hand.bit_count() + k.opp_hand_size + (k.led >= 0) + k.pile_size) // 2
        depth = 99 if tricks_left <= self.exact_tricks else self.depth
        spread = 0.0 if depth >= tricks_left else ESTIMATE_SD * math.sqrt(max(k.remaining_points, 1))
        samples = 1 if k.pile_size == 0 else self.samples  # nothing hidden once the pile is empty
        table = k.situation.value_table()
        low, high = k.situation.captured, k.situation.captured + k.remaining_points
        deadline = time.perf_counter() + self.time_budget
        unseen = cards_of(k.unseen)
        done = 0
        while done < samples and (done == 0 or time.perf_counter() < deadline):
            opp_hand = self.sample_opponent(k, unseen)
            solver = DealSolver(unseen[k.opp_hand_size :])
            for move, future in self._futures(k, solver, opp_hand, moves, depth).items():
                values[move].append(smoothed_value(table, low, high, k.situation.captured + future, spread))
            done += 1
        return values

    def sample_opponent(self, k: SchneiderKnowledge, unseen: list[int]) -> int:
        """Shuffle ``unseen`` (the opponent's hand first, then the pile) to fit the opponent's recent plays.

        A uniform deal is kept with probability :meth:`SchneiderKnowledge.hint_weight`
        (rejection sampling); after ``HINT_TRIES`` the likeliest deal drawn is used.
        """
        best, best_weight = list(unseen), -1.0
        for _ in range(HINT_TRIES):
            self.rng.shuffle(unseen)
            opp_hand = mask_of(unseen[: k.opp_hand_size])
            weight = k.hint_weight(opp_hand) if k.hints and k.pile_size else 1.0
            if weight >= 1.0 or self.rng.random() < weight:
                return opp_hand
            if weight > best_weight:
                best, best_weight = list(unseen), weight
        unseen[:] = best
        return mask_of(unseen[: k.opp_hand_size])

    @staticmethod
    def _futures(
        k: SchneiderKnowledge, solver: DealSolver, opp_hand: int, moves: list[int], depth: int
    ) -> dict[int, float]:
        """The counter points I capture from now on after each of ``moves``, in one deal."""
        inf = math.inf
        if k.led < 0:  # I lead
            return {
                card: solver.follow_value(k.hand ^ (1 << card), opp_hand, card, 0, -inf, inf, depth) for card in moves
            }
        remaining = k.remaining_points
        return {  # the opponent led: my points are what the leader does not take
            card: remaining - solver.trick_value(opp_hand, k.hand ^ (1 << card), k.led, card, 0, -inf, inf, depth)
            for card in moves
        }


def choose_card(per_sample: dict[int, list[float]], preference: dict[int, int], tiebreak: float) -> int:
    """The card to play: of the cards whose mean is within ``tiebreak`` standard errors of the best
    mean (of the paired per-deal differences), the one ``preference`` ranks first (lowest rank)."""
    means = {card: sum(values) / len(values) for card, values in per_sample.items()}
    best = max(means, key=lambda card: (means[card], -preference[card]))
    close = [card for card in means if means[best] - means[card] <= tiebreak * _paired_se(per_sample, best, card)]
    return min(close, key=lambda card: (preference[card], -means[card]))


def _paired_se(per_sample: dict[int, list[float]], a: int, b: int) -> float:
    """Standard error of the mean of ``a``'s value minus ``b``'s over the same deals (0 for one deal)."""
    diffs = [x - y for x, y in zip(per_sample[a], per_sample[b], strict=True)]
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


def preference(k: SchneiderKnowledge) -> dict[int, int]:
    """A rank for each card in hand (0 first) by the plain heuristics of the game, for near-ties.

    Following: the card that beats the lead, then plain cards before counters, each
    keeping safe leads and cards that may still beat a lead. Leading: safe counters,
    other safe cards, plain cards, then counters, lowest rank first. "Safe": the card
    above it cannot be in the opponent's hand.
    """
    unseen = k.unseen
    safe = k.hand & ~(unseen >> 1)
    may_beat = k.hand & (unseen << 1)  # the card below it may yet be led to me

    def follow_key(card: int) -> tuple[int, ...]:
        bit = 1 << card
        return (bit != ABOVE[k.led], POINT[card], bool(safe & bit), bool(may_beat & bit), card % 13)

    def lead_key(card: int) -> tuple[int, ...]:
        bit = 1 << card
        if safe & bit:
            return (0 if POINT[card] else 1, card % 13)
        return (2 if not POINT[card] else 3, card % 13)

    key = follow_key if k.led >= 0 else lead_key
    return {card: rank for rank, card in enumerate(sorted(cards_of(k.hand), key=lambda c: (key(c), c)))}
