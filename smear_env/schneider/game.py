"""The Bohemian Schneider rules engine: one match, driven by action ids.

Rules (source 004)
------------------
Two players, 32 cards (7 low .. A high in each of C D H S), no trump and no duty
to follow suit. The dealer deals 6 cards each; the other 20 form a face-down
pile. The non-dealer leads the first trick. The follower wins a trick only with
the card exactly one rank higher in the led suit (8S led: only 9S wins; nothing
beats a led Ace); with any other card the leader wins. The winner leads next.
After each trick both players draw one card, the winner first, while the pile
lasts; a round ends when all 32 cards are played (16 tricks). Each A, K, Q, J
and 10 captured is 1 point (20 per round); capturing 16 or more doubles that
player's round score, all 20 triples it. The deal alternates; a match is an
even number of rounds (:class:`SchneiderRules`), and the higher total wins
(equal totals: a draw).

Design notes
------------
* Pure Python (no gymnasium/torch/numpy), like :mod:`smear_env.game`: bots,
  tests and simulators drive it directly; the AEC env is a thin layer over it.
* Cards are the shared ids of :mod:`smear_env.cards` and card sets are ``int``
  bit masks. The one decision is which card to play, so the action space is the
  card-id space itself: **action = card id** (``0..53``), label ``play <card>``
  (``play 8S`` is action 45). Only the 32 ids of this deck can ever be legal.
  Reusing the id space keeps the meaning of an action the same as a card bit in
  the observation and as the card of Smear's ``play`` block.
* Every card in hand is legal (no follow duty), so there is one phase (``PLAY``)
  and ``OVER``. Drawing and scoring are forced steps done inside :meth:`Game.apply`.
* Randomness comes only from the ``random.Random`` the game is seeded with, or
  from explicit deals. The deck is shuffled for every round even when the deal
  is given, so replaying a record leaves the RNG where the original left it.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

from smear_env.cards import (
    NUM_CARDS,
    card_ids,
    cards_of,
    format_card,
    format_cards,
    make_deck,
    mask_of,
    parse_card,
    parse_deal,
    shuffle,
)
from smear_env.checks import as_bool, as_int, as_seed, integer_or_none, options_by_name
from smear_env.records import replay_record

ENGINE_VERSION = 1
GAME_NAME = "bohemian_schneider"

NUM_PLAYERS = 2
HAND_SIZE = 6
DECK = tuple(make_deck("7", 0))  # 32 card ids: ranks 7..A of each suit
DECK_MASK = mask_of(DECK)
PILE_SIZE = len(DECK) - NUM_PLAYERS * HAND_SIZE  # 20
TRICKS_PER_ROUND = len(DECK) // NUM_PLAYERS  # 16
COUNTERS_MASK = mask_of(c for c in DECK if c % 13 >= 8)  # T J Q K A: one point each
ROUND_POINTS = COUNTERS_MASK.bit_count()  # 20
MAX_ROUND_SCORE = 3 * ROUND_POINTS  # all 20 captured, tripled
ACE_RANK = 12

PLAY, OVER = range(2)
PHASE_NAMES = ("play", "over")

NUM_ACTIONS = NUM_CARDS  # action = card id (play that card)


# ---------------------------------------------------------------------- actions
def format_action(action: int) -> str:
    """Move label of an action id: ``play 8S``; ``ValueError`` for anything but an int in range."""
    return f"play {format_card(as_int(action, 'action', 0, NUM_ACTIONS - 1))}"


def parse_action(text: str) -> int:
    """Action id of a move label (case-insensitive): ``play 8s``, ``play 10H``, or just ``8s``."""
    if not isinstance(text, str):
        raise ValueError(f"move {text!r} is not text: expected 'play <card>', e.g. 'play 8S'")
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] == "play":
        words = words[1:]
    if len(words) == 1:
        return parse_card(words[0])
    raise ValueError(f"{text!r} is not a move: expected 'play <card>', e.g. 'play 8S' or 'play TH'")


# ---------------------------------------------------------------------- cards
def is_counter(card: int) -> bool:
    """Whether a card scores a point when captured (A, K, Q, J, 10)."""
    return bool(COUNTERS_MASK >> card & 1)


def card_above(card: int) -> int:
    """The card one rank higher in the same suit, the only card that beats ``card`` led; -1 for an Ace."""
    return -1 if card % 13 == ACE_RANK else card + 1


def follower_wins(led: int, followed: int) -> bool:
    """The one trick rule: the follower wins only with the card exactly one rank above the led card."""
    return followed == card_above(led)


def points_of(mask: int) -> int:
    """Counter points in a set of cards."""
    return (mask & COUNTERS_MASK).bit_count()


def multiplier(points: int) -> int:
    """Round score multiplier for the points a player captured: x3 for all 20, x2 for 16+."""
    if points == ROUND_POINTS:
        return 3
    return 2 if points >= 16 else 1


# ---------------------------------------------------------------------- rules and deals
MAX_ROUNDS = 1000  # far past any match, and small enough that no option costs more than a match does


@options_by_name("SchneiderRules(num_rounds=4)", lambda options: _check_option_names(options))
@dataclass(frozen=True)
class SchneiderRules:
    """The options of Bohemian Schneider (the card rules themselves are fixed)."""

    num_rounds: int = 2  # rounds in a match; even, so each player deals equally often (at most MAX_ROUNDS)

    def __post_init__(self) -> None:
        n = self.num_rounds
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_ROUNDS or n % 2:
            raise ValueError(
                f"num_rounds={n!r} is not allowed: expected an even int from 2 to {MAX_ROUNDS} "
                "so each player deals equally often"
            )

    @property
    def name(self) -> str:
        return GAME_NAME

    @property
    def num_players(self) -> int:
        """Always two; here so code that reads ``rules.num_players`` serves both games."""
        return NUM_PLAYERS

    def replace(self, **overrides: Any) -> SchneiderRules:
        """A copy with some options changed; unknown option names fail with the known ones listed."""
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SchneiderRules:
        if not isinstance(data, dict):
            raise ValueError(f"{GAME_NAME} rules {data!r} are not a dict: expected options by name")
        _check_option_names(data)  # before the call: a key that is not a string cannot even be passed by name
        return cls().replace(**data)


def _check_option_names(options: dict[Any, Any]) -> None:
    known = [f.name for f in dataclasses.fields(SchneiderRules)]
    for key in options:
        if key not in known:
            raise ValueError(f"unknown {GAME_NAME} rule option {key!r}; known options: {', '.join(known)}")


@dataclass
class Deal:
    """Explicit cards for one round: ``hands[seat]`` (6 each) and the pile, top card first."""

    hands: list[list[int]]
    pile: list[int] = field(default_factory=list)

    @classmethod
    def parse(cls, hands: list[str], pile: str = "") -> Deal:
        """A deal from card strings, e.g. ``Deal.parse(["7S 8S ...", "9S ..."], pile="TC JC ...")``."""
        return cls.from_dict({"hands": hands, "pile": pile})

    def to_dict(self) -> dict[str, Any]:
        return {"hands": [format_cards(h) for h in self.hands], "pile": format_cards(self.pile)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """A deal from :meth:`to_dict` form; ``ValueError`` naming a missing or malformed part."""
        hands, piles = parse_deal(data, ("pile",))
        return cls(hands, piles["pile"])

    def check(self, which: str = "deal") -> Deal:
        """A copy of this deal (cards as plain ints) if it places every card of the 32-card deck once, 6 per hand.

        Else ``ValueError`` naming ``which`` deal and what is wrong.
        """
        try:
            if isinstance(self.hands, str) or not isinstance(self.hands, list | tuple):
                raise ValueError(f"hands {self.hands!r} is not a list: expected one card list per seat")
            hands = [card_ids(h, f"hand {seat}") for seat, h in enumerate(self.hands)]
            pile = card_ids(self.pile, "pile")
        except ValueError as err:
            raise ValueError(f"{which}: {err}") from None
        if len(hands) != NUM_PLAYERS or any(len(h) != HAND_SIZE for h in hands):
            sizes = [len(h) for h in hands]
            raise ValueError(f"{which} has hands of sizes {sizes}: expected {NUM_PLAYERS} hands of {HAND_SIZE}")
        cards = [c for h in hands for c in h] + pile
        if len(set(cards)) != len(cards) or sorted(cards) != sorted(DECK):
            missing = format_cards(sorted(set(DECK) - set(cards)))
            raise ValueError(
                f"{which} must place each of the 32 cards (7..A) exactly once; missing: {missing or '-'}, "
                f"{len(cards)} placed"
            )
        return Deal(hands, pile)


@dataclass(frozen=True)
class RoundResult:
    """How one round ended: raw points captured per seat and the (multiplied) round scores."""

    dealer: int
    points: tuple[int, int]
    scores: tuple[int, int]

    def reward(self, seat: int) -> int:
        """Per-round reward of ``seat``: its round score minus the opponent's."""
        return self.scores[seat] - self.scores[1 - seat]


# ---------------------------------------------------------------------- the game
class Game:
    """A match (or a single round) of Bohemian Schneider."""

    def __init__(
        self,
        rules: SchneiderRules | None = None,
        seed: int | None = None,
        *,
        dealer: int = 0,
        single_round: bool = False,
        deals: list[Deal] | None = None,
    ) -> None:
        dealer = as_int(dealer, "dealer", 0, NUM_PLAYERS - 1)  # a seat: not 1.5, "1" or True
        if rules is not None and not isinstance(rules, SchneiderRules):
            raise ValueError(f"rules {rules!r} are not Bohemian Schneider rules: expected a SchneiderRules")
        self.rules = rules if rules is not None else SchneiderRules()
        self.num_players = NUM_PLAYERS
        self.single_round = as_bool(single_round, "single_round")  # the match ends after one scored round
        self._seed = as_seed(seed)
        self._rng = random.Random(self._seed)
        if deals is not None and not isinstance(deals, list | tuple):
            raise ValueError(f"deals {deals!r} is not a list: expected a list of Deal, one per round")
        # every given deal is checked (and copied) now, so a bad one fails before any round is played
        self._deal_queue = [_checked(d, k, len(deals)) for k, d in enumerate(deals)] if deals else []
        self.first_dealer = dealer
        self.dealer = dealer
        self.scores = [0, 0]  # match totals
        self.rounds_played = 0
        self.round_results: list[RoundResult] = []
        self.history: list[int] = []  # every action applied, in order
        self.deals: list[Deal] = []  # every deal made, in order
        self._start_round()

    # ------------------------------------------------------------------ set-up
    def _next_deal(self) -> Deal:
        deck = list(DECK)
        shuffle(deck, self._rng)  # always, so a replay from explicit deals leaves the RNG where it was
        if self._deal_queue:
            return self._deal_queue.pop(0)
        return Deal([deck[:HAND_SIZE], deck[HAND_SIZE : 2 * HAND_SIZE]], deck[2 * HAND_SIZE :])

    def _start_round(self) -> None:
        deal = self._next_deal()
        self.deals.append(deal)
        self.hands = [mask_of(h) for h in deal.hands]
        self.pile = list(deal.pile)  # top card first
        self.drawn = [0, 0]  # cards each seat drew from the pile this round (private to that seat)
        self.played = [0, 0]  # cards each seat played this round
        self.won = [0, 0]  # cards in the tricks each seat won this round
        self.trick: list[tuple[int, int]] = []  # (seat, card): the led card while the follower is on turn
        self.tricks: list[tuple[int, list[tuple[int, int]], int]] = []  # (leader, plays, winner)
        self.leader = self.current_player = 1 - self.dealer  # the non-dealer leads first
        self.phase = PLAY

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_mask(self) -> int:
        """Legal actions of the player on turn as a bit mask over action ids: every card in hand (0 when over)."""
        return self.hands[self.current_player] if self.phase == PLAY else 0

    def legal_actions(self) -> list[int]:
        """Legal action ids of the player on turn, ascending."""
        return cards_of(self.legal_mask())

    def round_points(self, seat: int) -> int:
        """Counter points ``seat`` has captured so far this round (before any multiplier)."""
        return points_of(self.won[seat])

    # ------------------------------------------------------------------ actions
    def apply(self, action: int) -> None:
        """Play the card ``action`` for the player on turn; ``ValueError`` if illegal (state unchanged).

        ``action`` is an int (numpy integers too); a bool is refused: ``apply(False)`` playing action 0 is a bug.
        """
        number = action if type(action) is int else integer_or_none(action)
        if number is None or not 0 <= number < NUM_ACTIONS or not self.legal_mask() >> number & 1:
            raise ValueError(self._illegal_message(action))
        action = number
        self.history.append(action)
        self._play(action)

    def apply_move(self, move: str) -> None:
        """Apply a move given as a label such as ``play 8S``."""
        self.apply(parse_action(move))

    def _illegal_message(self, action: object) -> str:
        try:
            label = f"{format_action(action)!r} ({action})"  # type: ignore[arg-type]
        except (ValueError, TypeError):
            problem = "out of range" if type(action) is int else f"a {type(action).__name__}, not an action id"
            label = f"{action!r} ({problem}: action ids are ints 0..{NUM_ACTIONS - 1})"
        if self.phase == OVER:
            return f"action {label} is illegal: the match is over"
        legal = ", ".join(format_action(a) for a in self.legal_actions())
        return f"action {label} is illegal for seat {self.current_player}; legal moves: {legal}"

    def _play(self, card: int) -> None:
        seat = self.current_player
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played[seat] |= bit
        self.trick.append((seat, card))
        if len(self.trick) == 1:
            self.current_player = 1 - seat
            return
        (leader, led), (follower, followed) = self.trick
        winner = follower if follower_wins(led, followed) else leader
        self.tricks.append((leader, self.trick, winner))
        self.won[winner] |= (1 << led) | bit
        self.trick = []
        self._draw(winner)
        self.leader = self.current_player = winner
        if len(self.tricks) == TRICKS_PER_ROUND:
            self._end_round()

    def _draw(self, winner: int) -> None:
        """After a trick both draw one card from the pile, the winner first, while it lasts."""
        for seat in (winner, 1 - winner):
            if self.pile:
                card = self.pile.pop(0)
                self.hands[seat] |= 1 << card
                self.drawn[seat] |= 1 << card

    def _end_round(self) -> None:
        points = (self.round_points(0), self.round_points(1))
        scores = (points[0] * multiplier(points[0]), points[1] * multiplier(points[1]))
        self.round_results.append(RoundResult(self.dealer, points, scores))
        self.scores = [self.scores[s] + scores[s] for s in range(NUM_PLAYERS)]
        self.rounds_played += 1
        if self.single_round or self.rounds_played == self.rules.num_rounds:
            self.phase, self.current_player = OVER, -1
            return
        self.dealer = 1 - self.dealer
        self._start_round()

    # ------------------------------------------------------------------ results
    @property
    def winners(self) -> frozenset[int]:
        """Seats with the higher match total once over (both on a draw; empty while playing)."""
        if self.phase != OVER:
            return frozenset()
        best = max(self.scores)
        return frozenset(s for s in range(NUM_PLAYERS) if self.scores[s] == best)

    def rewards(self) -> list[float]:
        """Match rewards per seat once over: +1 for the higher total, -1 for the lower, 0 each on a draw."""
        winners = self.winners
        if len(winners) != 1:
            return [0.0, 0.0]
        return [1.0 if s in winners else -1.0 for s in range(NUM_PLAYERS)]

    def round_rewards(self) -> list[float]:
        """Per-round rewards of the last finished round: my round score minus the opponent's."""
        if not self.round_results:
            return [0.0, 0.0]
        result = self.round_results[-1]
        return [float(result.reward(s)) for s in range(NUM_PLAYERS)]

    # ------------------------------------------------------------------ copies and records
    def clone(self) -> Game:
        """An independent copy (for search); the copy's RNG continues identically."""
        return copy.deepcopy(self)

    def record(self) -> dict[str, Any]:
        """JSON-able record of the match so far: rules, deals and moves."""
        return {
            "game": GAME_NAME,
            "engine_version": ENGINE_VERSION,
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "single_round": self.single_round,
            "seed": self._seed,
            "deals": [d.to_dict() for d in self.deals],
            "moves": [format_action(a) for a in self.history],
        }


def _checked(deal: Any, index: int, count: int) -> Deal:
    """Deal ``index`` of ``count`` given to a game, checked and copied (see :meth:`Deal.check`)."""
    which = "deal" if count == 1 else f"deal {index + 1} of {count}"
    if not isinstance(deal, Deal):
        raise ValueError(f"{which} is a {type(deal).__name__}: expected a Deal")
    return deal.check(which)


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from :meth:`Game.record` output by replaying its deals and moves.

    A record that is not a dict, lacks a field, holds a value of the wrong type, is
    for another game or engine version, or whose moves are not legal in turn raises
    ``ValueError`` saying which part is wrong.
    """
    return replay_record(
        record,
        GAME_NAME,
        ENGINE_VERSION,
        "single_round",
        Deal.from_dict,
        SchneiderRules.from_dict,
        lambda rules, seed, dealer, single, deals: Game(rules, seed, dealer=dealer, single_round=single, deals=deals),
    )
