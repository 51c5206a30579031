"""Determinized search for Smear (perfect-information Monte Carlo).

For a card to play, the bot samples the hidden cards many times, each sample
consistent with everything it has seen: cards played, its own discards, the
cards other seats showed they lack (``shown_lacks``: a suit neither followed
nor, where trumping in is allowed, trumped; under ``joker_follows_trump`` the
jokers too, after a plain card on a trump lead), hand sizes and a revealed
called card, and (where trumps are discarded only when forced) trumps lying in
hands rather than among the discards. Each sample is solved by alpha-beta over the hand's score: the points
settled by who holds a card (High/Low "played") plus those the play decides
(captured point cards and Game), with the bid made or set, my side maximizing
its score change over the best other side's; the move with the best average
wins. A position with at most ``EXACT_CARDS`` cards left is solved to the end;
before that the search looks two tricks deep and values the points captured by
then (Game as a fraction), which keeps the first tricks within the time budget.

To bid, it samples the hidden cards (every card but its own hand, placed at
random) ``bid_samples`` times and, for each sample and each candidate trump,
plays the hand out with everyone using the rule-based policy and itself as
bidder; it names the suit with the best mean, and its ceiling is the points it
took in all but ``bid_risk`` of the samples (a moon only when nearly every
sample took every point). A made bid scores the points taken, not the bid, so
it bids the least that keeps the opponents still to bid from outbidding it in
all but ``outbid_risk`` of the samples (each bidding what the rule bot would
with its sampled hand), up to that ceiling; the dealer, bidding last, bids just
enough to win. Discards and partner calls are the rule-based bot's.

On the presets in ``RULE_BIDDING_PRESETS``, where rollout bidding did no better
than the rule bot's hand estimate, search bids and names trump as the rule bot
does (a little bolder: ``RULE_BID_MARGINS``) and searches only its card play.
On minnesota it also calls the moon by the match score (``match_moon``, see
``agents.match_odds``): a made moon wins the match and a failed one loses it.
``bid_by``, ``bid_margin`` and ``match_moon`` override those choices.

``samples`` bounds the number of samples and ``time_budget`` (seconds) the time
per decision; the search stops at whichever comes first (at least one sample).
"""

from __future__ import annotations

import random
import time
from typing import Any, Literal

import numpy as np

from agents.base import Decision
from agents.knowledge import Knowledge, card_value, knowledge_from_game, knowledge_from_view, point_cards, require_legal
from agents.match_odds import MATCH_MOON_PRESETS, bidding_threat, made_bid_wins, safe_to_go_out
from agents.rule_bot import RuleAgent, choose_play, default_bid_margin, rule_bid_ceiling
from smear_env import actions as A
from smear_env.cards import cards_of, mask_of
from smear_env.checks import as_int, as_real
from smear_env.game import BID, PLAY, TRUMP, Deal, Game
from smear_env.rules import Rules
from smear_env.trump import TrumpTable, playable_cards, trick_winner

#: presets (by ``Rules.name``, so house variants follow their preset) on which search bids as the
#: rule bot: on minnesota (4-card kitty, bids 2 to 4) rollout bids and trump scored -0.14 +/- 0.18
#: points a hand against the rule bot's in paired hands (300 deals, both sides playing by rule),
#: no better and 0.1-0.2 s a bid dearer; on ten_point they gained 1.2 to 1.9 points a hand
RULE_BIDDING_PRESETS = frozenset({"minnesota"})

#: the rule bot's bid margin search bids with on those presets (by ``Rules.name``): search makes more of its
#: bids than the rule bot (it plays the cards better), so it bids closer to the hand's estimate. On minnesota,
#: in paired single hands against the rule bot (2 x 300 deals), 0.25 gained +0.08 points a hand over the rule
#: bot's 0.5, 0.375 +0.04, and 0 lost 0.44 (it bid 71% of the hands and made 63%)
RULE_BID_MARGINS = {"minnesota": 0.25}

#: bidding by the match score (``go_out``, ``block``; rule bot: ``agents.rule_bot``) where search bids by rollouts:
#: a bid that wins the match is bid if made in all but GO_OUT_RISK of the samples, a block up to what the hand
#: made in all but BLOCK_RISK of them
GO_OUT_RISK = 0.5
BLOCK_RISK = 0.75

#: how search bids: "rollouts" (search's bidding and trump) or "rule" (the rule bot's)
BID_METHODS = ("rollouts", "rule")

#: positions with at most this many cards left (in hands and on the table) are solved to the end
EXACT_CARDS = 16


class SearchAgent(RuleAgent):
    """Rule-based bot whose card play and bidding are decided by determinized search."""

    name = "search"
    default_bid_by: str | None = None  # None: by preset (RULE_BIDDING_PRESETS)

    def __init__(
        self,
        rules: Rules | str = "ten_point",
        seed: int | None = None,
        samples: int = 24,
        time_budget: float = 0.2,
        bid_samples: int = 8,
        bid_risk: float = 0.25,
        outbid_risk: float = 0.3,
        bid_by: Literal["rollouts", "rule"] | None = None,
        bid_margin: float | None = None,
        match_moon: bool | None = None,
        go_out: bool | None = None,
        block: bool | None = None,
    ) -> None:
        # every option is checked before anything is built: a bad one fails naming its accepted range
        what = f"{self.name} option"
        self.samples = as_int(samples, f"{what} samples", 1)
        self.time_budget = as_real(time_budget, f"{what} time_budget (seconds)", 0.0, low_open=True)
        self.bid_samples = as_int(bid_samples, f"{what} bid_samples", 1)
        self.bid_risk = as_real(bid_risk, f"{what} bid_risk", 0.0, 1.0, high_open=True)  # share of samples set
        self.outbid_risk = as_real(outbid_risk, f"{what} outbid_risk", 0.0, 1.0, high_open=True)  # share outbid
        if match_moon is not None and not isinstance(match_moon, bool):
            raise ValueError(f"{what} match_moon {match_moon!r} is not true, false or None (by preset)")
        # bid_margin and match_moon: the rule bot's (which checks them), used where search bids by rule
        # go_out and block: both ways, by default (None) as the rule bot: where only bidders go out (search's own
        # late-start measurement on pitch_smudge, docs/bidding.md, keeps them there)
        super().__init__(rules, seed, bid_margin, match_moon=bool(match_moon), go_out=go_out, block=block)
        if bid_by is None:
            bid_by = self.default_bid_by or ("rule" if self.rules.name in RULE_BIDDING_PRESETS else "rollouts")
        if bid_by not in BID_METHODS:
            raise ValueError(f"bid_by {bid_by!r} is not a bidding method: expected one of {BID_METHODS}")
        self.bid_by = bid_by
        if bid_margin is None and bid_by == "rule":
            self.bid_margin = RULE_BID_MARGINS.get(self.rules.name, self.bid_margin)
        if match_moon and bid_by != "rule":
            raise ValueError("match_moon applies where search bids by rule: expected bid_by='rule' with it")
        if match_moon is None:
            self.match_moon = bid_by == "rule" and self.rules.name in MATCH_MOON_PRESETS
        self._rollout_bot = RuleAgent(self.rules, seed)
        self._plan: tuple[int, int] | None = None  # (hand mask, suit) chosen while bidding

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._rollout_bot.reset(seed)
        self._plan = None

    def act_on(self, k: Knowledge) -> int:
        require_legal(k)
        if k.phase == "bid":
            self._plan = None  # a plan lives from this hand's bid to its first lead only
            if A.MISDEAL not in k.legal and self.bid_by == "rollouts":
                return self._search_bid(k)
        if k.phase == "trump" and self._plan and self._plan[0] & k.hand == self._plan[0]:
            return A.TRUMP_BASE + self._plan[1]
        if k.phase == "play" and k.trump < 0 and not k.trick and self._plan:
            lead = _highest_of_suit(k, self._plan[1])
            if lead is not None:
                return A.PLAY_BASE + lead
        if self._searches_play(k):
            return A.PLAY_BASE + self._search_play(k)
        return super().act_on(k)

    def decide(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> Decision:
        """As :meth:`act`; where card play is searched, each legal card's mean value (points, my side minus theirs)."""
        self.legal_actions(view)
        k = knowledge_from_view(view, self.rules)
        if self._searches_play(k):
            values = self.play_values(k)  # the same draws act() makes, so the same card
            if values is None:
                return Decision(A.PLAY_BASE + choose_play(k))
            scores = {A.PLAY_BASE + c: v for c, v in values.items()}
            return Decision(A.PLAY_BASE + best_card(values, k), scores, "value")
        return Decision(self.act_on(k))

    @staticmethod
    def _searches_play(k: Knowledge) -> bool:
        return k.phase == "play" and k.trump >= 0 and len(k.legal) > 1

    # ------------------------------------------------------------------ bidding and trump
    def _search_bid(self, k: Knowledge) -> int:
        """Bid the least that holds off later opponents, up to what rollouts say this hand makes."""
        r = self.rules
        outcomes = {suit: [] for suit in range(4)}
        threats = []
        hand = cards_of(k.hand)
        for _ in range(self.bid_samples):
            deal = Deal.around(k.rules, hand, k.seat, self.rng)
            threats.append(_later_threat(k, deal))
            for suit in range(4):
                points = _rollout(r, k, deal, suit, self._rollout_bot)
                if points is not None:
                    outcomes[suit].append(points)
        scored = {s: pts for s, pts in outcomes.items() if pts}
        if not scored:
            return super()._bid(k)
        suit = max(scored, key=lambda s: sum(scored[s]) / len(scored[s]))
        points = sorted(scored[suit])
        self._plan = (k.hand, suit)
        legal = set(k.legal)
        if r.moon_bid and A.MOON in legal and points[len(points) // 10] >= r.max_hand_points:
            return A.MOON
        go_out, block = self._match_bids(k, points)
        sure = max(points[int(len(points) * self.bid_risk)], block, go_out)  # made in all but bid_risk of the samples
        bids = [bid for bid in range(r.min_bid, min(sure, r.max_bid) + 1) if A.BID_BASE + bid in legal]
        if bids:
            # a made bid scores the points taken, not the bid: bid only what keeps later opponents off
            allowed = self.outbid_risk * len(threats)
            holds = (bid for bid in bids if sum(threat > bid for threat in threats) <= allowed)
            return A.BID_BASE + max(next(holds, bids[-1]), go_out)
        if A.PASS in legal:
            return A.PASS
        return min(a for a in legal if A.BID_BASE < a <= A.MAX_BID_ACTION)  # forced: the minimum

    def _match_bids(self, k: Knowledge, points: list[int]) -> tuple[int, int]:
        """As the rule bot's ``_match_ceiling``, from the points the hand took in the samples (sorted):
        the least bid that wins the match made in all but ``GO_OUT_RISK`` of them (bid at least that), and
        while another side goes out only by bidding, the most made in all but ``BLOCK_RISK`` (bid up to it)."""
        r = self.rules
        go_out = block = 0
        team = r.team_of(k.seat)
        if self.go_out and safe_to_go_out(r, k.scores, team):
            made = points[int(len(points) * GO_OUT_RISK)]
            go_out = next((bid for bid in range(r.min_bid, min(made, r.max_bid) + 1)
                           if A.BID_BASE + bid in k.legal and made_bid_wins(r, k.scores, team, bid)), 0)  # fmt: skip
        if self.block and bidding_threat(k):
            block = points[min(int(len(points) * BLOCK_RISK), len(points) - 1)]
        return go_out, block

    # ------------------------------------------------------------------ card play
    def _search_play(self, k: Knowledge) -> int:
        values = self.play_values(k)
        return choose_play(k) if values is None else best_card(values, k)

    def play_values(self, k: Knowledge) -> dict[int, float] | None:
        """Each legal card's mean value over the sampled deals (None when no deal fits what was seen).

        The value is my side's score change for the hand minus the best other
        side's, as the solver reckons it; the card with the highest is played,
        and a student network can learn from all of them (``training.distill``).
        """
        moves = [a - A.PLAY_BASE for a in k.legal]
        totals = dict.fromkeys(moves, 0.0)
        deadline = time.perf_counter() + self.time_budget
        solver = _Solver(k)
        done = 0
        while done < self.samples and (done == 0 or time.perf_counter() < deadline):
            hands = sample_hands(k, self.rng)
            if hands is None:
                break
            for move in moves:
                totals[move] += solver.value_of(hands, move)
            done += 1
        return {m: total / done for m, total in totals.items()} if done else None


def open_values(k: Knowledge, hands: list[int]) -> dict[int, float]:
    """Each legal card's value (as :meth:`SearchAgent.play_values`) in the one deal ``hands``: every seat's
    cards as masks, mine ``k.hand``. A search whose only sample is the real deal: a player who sees every card."""
    solver = _Solver(k)
    return {a - A.PLAY_BASE: solver.value_of(hands, a - A.PLAY_BASE) for a in k.legal}


def best_card(values: dict[int, float], k: Knowledge) -> int:
    """The card of highest mean value; of equal ones, the weaker (it keeps the stronger for later)."""
    return max(values, key=lambda card: (values[card], -k.table.power[card]))


class SearchBidAgent(SearchAgent):
    """Bids and names trump by the search bot's rollouts, then plays like the rule bot.

    On ``ten_point`` search's edge over the rule bot looks like its bidding: playing
    search's cards with the rule bot's bids won 16 of 40 duplicate games against
    the rule bot. So this is the cheaper stand-in for search as a training
    opponent: a bid costs about 0.1-0.2 s (``bid_samples`` rollouts per suit), a
    card the rule bot's few hundredths of a millisecond.
    """

    name = "searchbid"
    default_bid_by = "rollouts"  # this bot is search's bidding, on every preset

    def _search_play(self, k: Knowledge) -> int:
        return choose_play(k)


def _highest_of_suit(k: Knowledge, suit: int) -> int | None:
    cards = [a - A.PLAY_BASE for a in k.legal if a - A.PLAY_BASE < 52 and (a - A.PLAY_BASE) // 13 == suit]
    return max(cards, key=lambda c: c % 13) if cards else None


def _later_threat(k: Knowledge, deal: Deal) -> int:
    """What the opponents still to bid would bid in ``deal``, as the rule bot does: a bid below it is outbid.

    A dealer who may steal counts one more, since it takes a bid it ties; a moon beats any number.
    """
    r = k.rules
    margin = default_bid_margin(r)
    threat, seat = 0, k.seat
    while seat != k.dealer:
        seat = (seat + 1) % k.n
        if not k.is_friend(seat):  # a partner may outbid me too, but the bid stays with my side
            ceiling, moon = rule_bid_ceiling(mask_of(deal.hands[seat]), r, margin)
            threat = max(threat, A.MOON_BID if moon else ceiling + (seat == k.dealer and r.dealer_steals))
    return threat


def _rollout(rules: Rules, k: Knowledge, deal: Deal, suit: int, bot: RuleAgent) -> int | None:
    """Points my side takes in ``deal`` when I win the bid and make ``suit`` trump, all playing by rule.

    None when the suit cannot be made trump (no card of it to lead where the first lead sets trump).
    """
    game = Game(rules, seed=0, dealer=k.dealer, single_hand=True, deals=[deal])
    while game.phase == BID:
        legal = game.legal_actions()
        if game.current_player == k.seat:
            game.apply(min(a for a in legal if A.BID_BASE < a <= A.MAX_BID_ACTION))
        else:
            game.apply(A.PASS if A.PASS in legal else legal[-1])
    while not game.is_over:
        seat = game.current_player
        if seat == k.seat and game.phase == TRUMP:
            game.apply(A.TRUMP_BASE + suit)
            continue
        if seat == k.seat and game.phase == PLAY and game.trump < 0:
            in_suit = [c for c in cards_of(game.hands[seat]) if c < 52 and c // 13 == suit]
            if not in_suit:
                return None
            game.apply(A.PLAY_BASE + max(in_suit, key=lambda c: c % 13))
            continue
        game.apply(bot.act_on(knowledge_from_game(game, seat, rules)))
    result = game.hand_results[-1]
    return result.points[result.side_of_seat[k.seat]]


def _hand_sizes(k: Knowledge) -> list[int]:
    r = k.rules
    on_table = {s for s, _ in k.trick}
    tricks_done = len(k.tricks)
    return [r.play_hand_size - tricks_done - (s in on_table) for s in range(k.n)]


def undealt_count(k: Knowledge) -> int:
    """Unseen cards that never reached a hand: those left undealt (``minnesota``'s 14, ``smear``'s 18).

    Every seat was dealt ``hand_size`` cards and drew its public ``drawn_counts``
    from kitty or stock; the rest of the deck stayed out. A called card that
    nobody holds is one of them, and is already seen.
    """
    r = k.rules
    held = sum(r.hand_size + drawn for drawn in k.drawn_counts)
    called_out = k.called_card >= 0 and k.partner < 0
    return max(0, len(r.deck) - held - called_out)


def sample_hands(k: Knowledge, rng: random.Random, tries: int = 50) -> list[int] | None:
    """Hands of every seat consistent with what ``k`` has seen (mine as it is), or None."""
    sizes = _hand_sizes(k)
    t = k.table
    fixed = [0] * k.n
    fixed[k.seat] = k.hand
    called = 1 << k.called_card if k.called_card >= 0 else 0
    if called and k.partner >= 0 and k.partner != k.seat and not k.played[k.partner] & called:
        fixed[k.partner] |= called
    pool = k.unseen & ~called if k.partner >= 0 else k.unseen
    trumps_first = k.rules.discard_trump != "free"  # trumps are discarded last (or only beyond play_hand_size)
    never_held = undealt_count(k) if trumps_first else 0
    for _ in range(tries):
        hands = list(fixed)
        need = [sizes[s] - hands[s].bit_count() for s in range(k.n)]
        cards = cards_of(pool)
        rng.shuffle(cards)
        if trumps_first:
            # cards nobody was dealt are a uniform draw; only the cards held keep their trumps
            cards = cards[never_held:]
            cards.sort(key=lambda c: not t.trump_mask >> c & 1)
        if _deal_cards(cards, hands, need, k, t, rng):
            return hands
    return None


def _deal_cards(
    cards: list[int], hands: list[int], need: list[int], k: Knowledge, t: TrumpTable, rng: random.Random
) -> bool:
    """Place each card on a seat with room that has not shown it lacks the card, or out of play.

    Each destination is chosen with probability proportional to the room it has left,
    which deals uniformly among the deals that fit. With ``trumps_first`` ordering (the
    caller's), trumps go out of play only when no hand can take them.
    """
    seats = [s for s in range(k.n) if s != k.seat]
    out_room = len(cards) - sum(need[s] for s in seats)
    trumps_in_hands = k.rules.discard_trump != "free"
    for card in cards:
        options = [s for s in seats if need[s] > 0 and not k.lacks[s] >> card & 1]
        rooms = [need[s] for s in options]
        is_trump = t.trump_mask >> card & 1
        if out_room > 0 and not (trumps_in_hands and is_trump and options):
            options.append(-1)
            rooms.append(out_room)
        if not options:
            return False
        seat = rng.choices(options, weights=rooms)[0]
        if seat < 0:
            out_room -= 1
            continue
        hands[seat] |= 1 << card
        need[seat] -= 1
    return all(need[s] == 0 for s in seats)


class _Solver:
    """Exact alpha-beta over the rest of the hand for one determinization."""

    def __init__(self, k: Knowledge) -> None:
        self.k, self.t, self.r = k, k.table, k.rules
        self.n = k.n
        self.sides = [k.side(s) for s in range(k.n)]
        self.me = self.sides[k.seat]
        self.values = point_cards(self.t, self.r)
        self.card_points = [card_value(c, self.r) for c in range(54)]
        self.won = [0] * self.n
        for _, plays, winner in k.tricks:
            self.won[self.sides[winner]] |= mask_of(c for _, c in plays)
        self.first_trick = not k.tricks
        order = self.t.order
        self.low_cards = set(order[-3:]) | {self.t.ace} if order else set()  # High/Low candidates stay distinct
        self._fixed: list[float] = [0.0] * self.n
        self._sample_values: dict[int, int] = dict(self.values)

    def value_of(self, hands: list[int], move: int) -> float:
        self._fixed, self._sample_values = self._points_by_holder(hands)
        hands = list(hands)
        trick = list(self.k.trick)
        seat = self.k.seat
        hands[seat] &= ~(1 << move)
        trick.append((seat, move))
        remaining = sum(h.bit_count() for h in hands) + len(trick)
        horizon = 99 if remaining <= EXACT_CARDS else 2  # tricks to search before estimating the rest
        return self._after_play(hands, trick, list(self.won), -1e9, 1e9, horizon)

    def _after_play(
        self, hands: list[int], trick: list, won: list[int], alpha: float, beta: float, horizon: int
    ) -> float:
        if len(trick) < self.n:
            return self._node(hands, trick, (trick[-1][0] + 1) % self.n, won, alpha, beta, horizon)
        winner = trick_winner(trick, self.t)[0]
        won = list(won)
        side = self.sides[winner]
        for _, c in trick:
            won[side] |= 1 << c
        if not any(hands):
            return self._evaluate(won)
        if horizon <= 1:
            return self._estimate(won)
        return self._node(hands, [], winner, won, alpha, beta, horizon - 1)

    def _node(
        self, hands: list[int], trick: list, seat: int, won: list[int], alpha: float, beta: float, horizon: int
    ) -> float:
        moves = self._distinct(self._moves(hands[seat], trick, seat), hands, seat)
        maximize = self.sides[seat] == self.me
        best = -1e9 if maximize else 1e9
        for card in moves:
            hands[seat] &= ~(1 << card)
            value = self._after_play(hands, [*trick, (seat, card)], won, alpha, beta, horizon)
            hands[seat] |= 1 << card
            if maximize:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def _moves(self, hand: int, trick: list, seat: int) -> list[int]:
        t = self.t
        if trick:
            if self.first_trick and seat == self.k.partner and self.k.called_card >= 0:
                called = self.k.called_card
                if hand >> called & 1:
                    return [called]
            hand = playable_cards(hand, t.effective_suit[trick[0][1]], t, self.r)
        cards = cards_of(hand)
        cards.sort(key=lambda c: -t.power[c] - (100 if t.trump_mask >> c & 1 else 0))
        return cards

    def _distinct(self, moves: list[int], hands: list[int], seat: int) -> list[int]:
        """Drop cards equivalent to a stronger one kept: same suit, worth nothing, nothing between them."""
        if len(moves) < 2:
            return moves
        t = self.t
        others = 0
        for s, h in enumerate(hands):
            if s != seat:
                others |= h
        kept = [moves[0]]
        for card in moves[1:]:
            prev = kept[-1]
            if self._worthless(card) and self._worthless(prev) and t.effective_suit[card] == t.effective_suit[prev]:
                low, high = t.power[card], t.power[prev]
                between = t.suit_masks[t.effective_suit[card]] & others
                if not any(low < t.power[c] < high for c in cards_of(between)):
                    continue
            kept.append(card)
        return kept

    def _worthless(self, card: int) -> bool:
        return not self.card_points[card] and card not in self.values and card not in self.low_cards

    def _points_by_holder(self, hands: list[int]) -> tuple[list[float], dict[int, int]]:
        """Points this sample already settles by who holds the card (High/Low "played"), and the
        cards whose points go to whoever captures them (with captured High/Low added)."""
        r, t, k = self.r, self.t, self.k
        holders = [hands[s] | k.played[s] for s in range(self.n)]
        for s, c in k.trick:
            holders[s] |= 1 << c
        in_play = 0
        for mask in holders:
            in_play |= mask
        trumps = [c for c in t.order if in_play >> c & 1]
        lows = [c for c in trumps if not (r.low_ignores_jokers and c >= 52)]
        fixed = [0.0] * self.n
        values = dict(self.values)
        played_cards = {"ace_played": t.ace, "highest_played": trumps[0] if trumps else -1}
        played_cards |= {"two_played": t.two, "lowest_played": lows[-1] if lows else -1}
        for rule in (r.high, r.low):
            card = played_cards.get(rule, -1)
            if card >= 0 and in_play >> card & 1:
                seat = next(s for s in range(self.n) if holders[s] >> card & 1)
                fixed[self.sides[seat]] += 1
        if r.high == "ace_captured":
            values[t.ace] = values.get(t.ace, 0) + 1
        if r.low == "lowest_captured" and lows:
            values[lows[-1]] = values.get(lows[-1], 0) + 1
        return fixed, values

    def _captured_points(self, won: list[int]) -> list[float]:
        """Points of the captured point cards, per side."""
        points = [0.0] * self.n
        for card, value in self._sample_values.items():
            for side in range(self.n):
                if won[side] >> card & 1:
                    points[side] += value
        return points

    def _estimate(self, won: list[int]) -> float:
        """Mid-hand value: points captured so far, and the Game race as a fraction of a point."""
        points = self._captured_points(won)
        for side in range(self.n):
            points[side] += self.r.game_points * sum(self.card_points[c] for c in cards_of(won[side])) / 40
        return points[self.me] - max(points[s] for s in set(self.sides) if s != self.me)

    def _evaluate(self, won: list[int]) -> float:
        """My side's score change for the hand minus the best other side's, the bid made or set."""
        points = [f + c for f, c in zip(self._fixed, self._captured_points(won), strict=True)]
        game = [sum(self.card_points[c] for c in cards_of(won[s])) for s in range(self.n)]
        top = max(game)
        if self.r.game_points and game.count(top) == 1:
            points[game.index(top)] += self.r.game_points
        deltas = {side: points[side] for side in set(self.sides)}
        if self.k.bidder >= 0:
            bid_side, bid = self.sides[self.k.bidder], self.k.high_bid
            if bid == A.MOON_BID:
                made = all(points[s] == 0 for s in deltas if s != bid_side)
                bid = self.r.max_hand_points
            else:
                made = points[bid_side] >= bid
            deltas[bid_side] = points[bid_side] if made else -bid
        return deltas[self.me] - max(d for s, d in deltas.items() if s != self.me)
