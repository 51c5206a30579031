"""The Smear rules engine: one match of any preset, driven by action ids.

Design notes
------------
* Pure Python, no gymnasium/torch/numpy: bots, servers, tests and batched
  simulators drive it directly; the PettingZoo env is a thin layer over it.
* A :class:`Game` is mutable for speed (``clone()`` gives an independent copy for
  search). Hands and card sets are ``int`` bit masks (see :mod:`smear_env.cards`).
* The state is phase based (``BID``, ``TRUMP``, ``CALL``, ``DISCARD``, ``PLAY``,
  ``OVER``); each phase has one legal-move function and one apply function.
  Chance (the deal) and forced steps (taking the kitty or stock, drawing,
  scoring a finished hand) happen inside ``apply``; only decisions are actions.
* Randomness comes only from the ``random.Random`` the game is seeded with, or
  from explicit deals, so every game is reproducible; :meth:`Game.record`
  returns JSON-able data that :func:`replay` turns back into the same state.
* Front ends and tests read the state through the public accessors
  (:meth:`Game.hand`, :meth:`Game.completed_tricks`, :meth:`Game.contract`,
  :meth:`Game.match_scores`, :meth:`Game.results`, ...), which return copies or
  immutable values. The attributes behind them (``hands``, ``tricks``, ``scores``,
  ...) are the engine's working state, read directly by the observation builder
  and the bots on the hot path; writing to them is not supported.
"""

from __future__ import annotations

import copy
import numbers
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from smear_env import actions as A
from smear_env.cards import JOKERS_MASK, card_ids, cards_of, format_cards, mask_of, parse_deal, shuffle
from smear_env.checks import as_bool, as_int, as_seed, integer_or_none
from smear_env.records import replay_record
from smear_env.rules import Rules, get_rules, rules_from_dict
from smear_env.scoring import HandResult, Trick, as_tricks, score_hand
from smear_env.trump import TrumpTable, playable_cards, trick_winner, trump_table

ENGINE_VERSION = 1

BID, TRUMP, CALL, DISCARD, PLAY, OVER = range(6)
PHASE_NAMES = ("bid", "trump", "call", "discard", "play", "over")

#: ranks 3..9 of every suit: a hand of only these may call a misdeal (Minnesota)
_MISDEAL_MASK = mask_of(s * 13 + r for s in range(4) for r in range(1, 8))


class Contract(NamedTuple):
    """What the auction settled (so far): each field is None until it is known.

    ``bid`` is the number bid, or ``actions.MOON_BID`` for a moon; during the auction
    ``bidder`` and ``bid`` are the high bid so far. ``partner`` is the seat holding the
    called card once called (None if nobody holds it).
    """

    bidder: int | None
    bid: int | None
    trump: int | None
    called_card: int | None
    partner: int | None


def check_scores(rules: Rules, scores: Any) -> list[int]:
    """Starting match scores, one int per team (``rules.num_teams``), or a ``ValueError`` saying what is wrong.

    Any sequence of integers will do (a list, a tuple, a numpy array); they come back as a list of ints.
    """
    values = list(scores) if hasattr(scores, "__len__") and not isinstance(scores, str | bytes | dict) else None
    if (
        values is None
        or len(values) != rules.num_teams
        or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in values)
    ):
        raise ValueError(
            f"scores {scores!r} are not starting scores: expected a list of {rules.num_teams} integers, "
            f"one per team (teams: {[list(t) for t in rules.team_seats]})"
        )
    return [int(s) for s in values]


def _check_hands_played(rules: Rules, hands_played: Any) -> int:
    if hands_played == 0 and type(hands_played) is int:  # a new match: the common case, kept cheap
        return 0
    if not isinstance(hands_played, numbers.Integral) or isinstance(hands_played, bool) or hands_played < 0:
        raise ValueError(f"hands_played {hands_played!r} is not a count of hands: expected an integer >= 0")
    if rules.match_end == "hands" and hands_played >= rules.num_hands:
        raise ValueError(
            f"hands_played {hands_played} leaves no hand to play: the match has {rules.num_hands} hands "
            f"(expected 0..{rules.num_hands - 1})"
        )
    return int(hands_played)


@dataclass
class Deal:
    """Explicit cards for one hand: ``hands[seat]``, the kitty and the stock (top first)."""

    hands: list[list[int]]
    kitty: list[int] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)

    @classmethod
    def parse(cls, hands: list[str], kitty: str = "", stock: str = "") -> Deal:
        """A deal from card strings, e.g. ``Deal.parse(["AS KS ...", ...], stock="2C 3C")``."""
        return cls.from_dict({"hands": hands, "kitty": kitty, "stock": stock})

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [format_cards(h) for h in self.hands],
            "kitty": format_cards(self.kitty),
            "stock": format_cards(self.stock),
        }

    @classmethod
    def around(cls, rules: Rules, hand: list[int], seat: int, rng: random.Random) -> Deal:
        """A deal with ``hand`` at ``seat`` and every other card of the deck placed at random.

        A determinized guess at what the others hold: search samples its worlds with it, the moon drill
        its play-outs. The other seats are filled in seat order, then the kitty and the stock.
        """
        if not isinstance(rules, Rules) or not isinstance(rng, random.Random):
            raise ValueError(f"Deal.around({rules!r}, ..., {rng!r}): expected Smear Rules and a random.Random")
        seat = as_int(seat, "seat", 0, rules.num_players - 1)
        held = set(card_ids(hand, "hand"))
        others = [c for c in rules.deck if c not in held]
        rng.shuffle(others)
        hands, at = [], 0
        for other in range(rules.num_players):
            if other == seat:
                hands.append(list(hand))
            else:
                hands.append(others[at : at + rules.hand_size])
                at += rules.hand_size
        return cls(hands, others[at : at + rules.kitty_size], others[at + rules.kitty_size :])

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """A deal from :meth:`to_dict` form; ``ValueError`` naming a missing or malformed part."""
        hands, piles = parse_deal(data, ("kitty", "stock"))
        return cls(hands, piles["kitty"], piles["stock"])


class Game:
    """A match (or a single hand) of Smear under one set of :class:`Rules`.

    ``scores`` (one per team) and ``hands_played`` start the match part-way through,
    for a front end resuming a match or a test of its end; both are kept in the record.
    """

    def __init__(
        self,
        rules: Rules | str = "ten_point",
        seed: int | None = None,
        *,
        dealer: int = 0,
        single_hand: bool = False,
        deals: list[Deal] | None = None,
        scores: list[int] | tuple[int, ...] | None = None,
        hands_played: int = 0,
    ) -> None:
        if not isinstance(rules, str | Rules):
            raise ValueError(
                f"rules {rules!r} are not Smear rules: expected a preset name (smear_env.list_presets()) "
                "or a smear_env.Rules"
            )
        self.rules = get_rules(rules) if isinstance(rules, str) else rules
        start_scores = [0] * self.rules.num_teams if scores is None else check_scores(self.rules, scores)
        self.start_hands_played = _check_hands_played(self.rules, hands_played)
        self.start_scores = tuple(start_scores)
        self.num_players = self.rules.num_players
        self.teams = [self.rules.team_of(s) for s in range(self.num_players)]  # match team of each seat
        self.single_hand = as_bool(single_hand, "single_hand")  # the match ends after one scored hand
        self._seed = as_seed(seed)
        self._rng = random.Random(self._seed)
        if deals is not None and not isinstance(deals, list | tuple):
            raise ValueError(f"deals {deals!r} is not a list: expected a list of Deal, one per hand")
        # every given deal is checked (and copied) now, so a bad one fails before any hand is played
        self._deal_queue = [self._checked_deal(d, k, len(deals)) for k, d in enumerate(deals)] if deals else []
        dealer = as_int(dealer, "dealer", 0, self.num_players - 1)  # a seat: not 1.5, "2" or True
        self.first_dealer = dealer
        self.dealer = dealer
        self.scores = start_scores
        self.hands_played = self.start_hands_played
        self.winners: frozenset[int] = frozenset()  # match-winning teams once phase is OVER
        self.hand_results: list[HandResult] = []
        self.history: list[int] = []  # every action applied, in order
        self.deals: list[Deal] = []  # every deal made, in order (redeals included)
        self.redeals = 0  # hands thrown in (all pass, misdeal) in this match
        self._start_hand()

    # ------------------------------------------------------------------ set-up
    def _next_deal(self) -> Deal:
        deck = list(self.rules.deck)
        shuffle(deck, self._rng)  # always, so a replay from explicit deals leaves the RNG where it was
        if self._deal_queue:
            return self._deal_queue.pop(0)
        r, n = self.rules, self.num_players
        hands = [deck[i * r.hand_size : (i + 1) * r.hand_size] for i in range(n)]
        dealt = n * r.hand_size
        return Deal(hands, deck[dealt : dealt + r.kitty_size], deck[dealt + r.kitty_size :])

    def _checked_deal(self, deal: Deal, index: int, count: int) -> Deal:
        """A copy of deal ``index`` of ``count`` given, if it fits these rules; else ``ValueError`` saying why."""
        which = "deal" if count == 1 else f"deal {index + 1} of {count}"
        if not isinstance(deal, Deal):
            raise ValueError(f"{which} is a {type(deal).__name__}: expected a Deal")
        r = self.rules
        try:
            if isinstance(deal.hands, str) or not isinstance(deal.hands, list | tuple):
                raise ValueError(f"hands {deal.hands!r} is not a list: expected one card list per seat")
            hands = [card_ids(h, f"hand {seat}") for seat, h in enumerate(deal.hands)]
            copy_ = Deal(hands, card_ids(deal.kitty, "kitty"), card_ids(deal.stock, "stock"))
        except ValueError as err:
            raise ValueError(f"{which}: {err}") from None
        if len(hands) != self.num_players or any(len(h) != r.hand_size for h in hands):
            sizes = [len(h) for h in hands]
            raise ValueError(f"{which} has hands of sizes {sizes}: expected {self.num_players} hands of {r.hand_size}")
        if len(copy_.kitty) != r.kitty_size:
            raise ValueError(f"{which} has a kitty of {len(copy_.kitty)} cards: expected {r.kitty_size}")
        cards = [c for h in hands for c in h] + copy_.kitty + copy_.stock
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        if repeated:
            raise ValueError(f"{which} places {format_cards(repeated)} twice: expected each card once")
        foreign = [c for c in cards if c not in r.deck]
        if foreign:
            raise ValueError(f"{which} holds {format_cards(foreign)}, not in this {len(r.deck)}-card deck")
        if r.stock_use != "none" and len(cards) != len(r.deck):
            missing = format_cards(sorted(set(r.deck) - set(cards)))
            raise ValueError(
                f"{which} must place every card of the deck ({len(r.deck)}), the stock is in use; missing: {missing}"
            )
        return copy_

    def _start_hand(self) -> None:
        r = self.rules
        deal = self._next_deal()
        self.deals.append(deal)
        self.hands = [mask_of(h) for h in deal.hands]
        self.kitty = list(deal.kitty)
        self.stock = list(deal.stock)
        self.dealt = [h for h in self.hands]  # what each seat was dealt (for the record and views)
        n = self.num_players
        self.bids: list[int | None] = [None] * n  # None: not yet; 0: pass; N: bid; MOON_BID: moon
        self.high_bid = 0
        self.bidder = -1
        self.trump = -1
        self.table: TrumpTable = trump_table(r, -1)
        self.called_card = -1
        self.partner = -1
        self.sides = list(self.teams)  # scoring side of each seat this hand
        self.discarded = [0] * n  # cards each seat put out of play (private to that seat)
        self.picked = [0] * n  # cards each seat took from kitty or stock (private to that seat)
        self.discard_counts = [0] * n
        self.drawn_counts = [0] * n  # cards each seat took from kitty/stock (public count)
        self.exchanged = 0  # schmier redraw: cards the seat on turn has exchanged so far
        self.discard_queue: list[int] = []
        self.played = [0] * n  # cards each seat has played to tricks
        self.won = [0] * n  # cards in the tricks each seat won
        self.trick: list[tuple[int, int]] = []  # (seat, card) in play order
        # completed tricks of this hand as (leader, plays, winner); completed_tricks() gives them as Tricks
        self.tricks: list[tuple[int, list[tuple[int, int]], int]] = []
        self.leader = -1
        self.phase = BID
        self.current_player = (self.dealer + 1) % n
        self._legal = -1  # cached legal_mask(); -1 until computed for this state

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def team_of(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def side_of(self, seat: int) -> int:
        """Scoring side of a seat in this hand (the bidder's side includes a called partner)."""
        return self.sides[seat]

    # ------------------------------------------------------------------ public read-only accessors
    def _seat(self, seat: object) -> int:
        if not isinstance(seat, numbers.Integral) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat!r} is not a seat: expected an int in 0..{self.num_players - 1}")
        return int(seat)

    def hand(self, seat: int) -> tuple[int, ...]:
        """The card ids ``seat`` holds now, ascending (hidden information: a front end shows it to that seat only)."""
        return tuple(cards_of(self.hands[self._seat(seat)]))

    def discards(self, seat: int) -> tuple[int, ...]:
        """The card ids ``seat`` put out of play this hand (discards, exchanges, blinds), ascending."""
        return tuple(cards_of(self.discarded[self._seat(seat)]))

    def picked_up(self, seat: int) -> tuple[int, ...]:
        """The card ids ``seat`` took from the kitty or the stock this hand, ascending (only that seat saw them)."""
        return tuple(cards_of(self.picked[self._seat(seat)]))

    def current_trick(self) -> tuple[tuple[int, int], ...]:
        """The trick on the table: (seat, card id) in play order; empty between tricks."""
        return tuple(self.trick)

    def completed_tricks(self) -> tuple[Trick, ...]:
        """This hand's completed tricks, in order (a :class:`Trick` unpacks as ``leader, cards, winner``).

        After the hand is scored and the next one dealt, they are gone; its :class:`HandResult`
        (:meth:`results`) keeps the tricks of each scored hand.
        """
        return as_tricks(self.tricks)

    def auction(self) -> tuple[int | None, ...]:
        """Each seat's bid this hand: None (not yet), 0 (pass), the number, or ``actions.MOON_BID``."""
        return tuple(self.bids)

    def contract(self) -> Contract:
        """The high bidder and bid, trump, the called card and the partner it revealed (None: not yet or none)."""

        def known(value: int) -> int | None:
            return None if value < 0 else value

        return Contract(
            known(self.bidder),
            self.high_bid or None,
            known(self.trump),
            known(self.called_card),
            known(self.partner),
        )

    def match_scores(self) -> tuple[int, ...]:
        """The match score of each team (``rules.team_seats`` gives each team's seats)."""
        return tuple(self.scores)

    def results(self) -> tuple[HandResult, ...]:
        """Every scored hand's :class:`HandResult` (copies: changing one changes nothing here)."""
        return tuple(copy.deepcopy(result) for result in self.hand_results)

    def legal_mask(self) -> int:
        """Legal actions of the player on turn, as a bit mask over action ids (0 when over)."""
        if self._legal < 0:
            self._legal = self._compute_legal_mask()
        return self._legal

    def _compute_legal_mask(self) -> int:
        phase = self.phase
        if phase == PLAY:
            return self._legal_cards() << A.PLAY_BASE
        if phase == DISCARD:
            return self._legal_discards()
        if phase == BID:
            return self._legal_bids()
        if phase == TRUMP:
            return 0b1111 << A.TRUMP_BASE
        if phase == CALL:
            return self._legal_calls() << A.CALL_BASE
        return 0

    def legal_actions(self) -> list[int]:
        """Legal action ids of the player on turn, ascending."""
        return cards_of(self.legal_mask())

    def _legal_bids(self) -> int:
        r, seat = self.rules, self.current_player
        is_dealer = seat == self.dealer
        high = self.high_bid
        lowest = high if (is_dealer and r.dealer_steals and high) else high + 1
        mask = 0
        for bid in range(max(lowest, r.min_bid), r.top_bid + 1):
            mask |= 1 << (A.BID_BASE + bid)
        if r.moon_bid and high < A.MOON_BID:
            mask |= 1 << A.MOON
        forced = is_dealer and r.forced_dealer_bid and high == 0
        if not forced:
            mask |= 1 << A.PASS
        if r.misdeal_call and not self.hands[seat] & ~_MISDEAL_MASK:
            mask |= 1 << A.MISDEAL
        return mask

    def _legal_calls(self) -> int:
        t = self.table
        three = 1 << t.three
        return t.trump_mask & mask_of(self.rules.deck) & ~self.hands[self.bidder] & ~three

    def _legal_discards(self) -> int:
        r, seat = self.rules, self.current_player
        hand = self.hands[seat]
        if r.stock_use == "redraw" and seat != self.dealer:
            cards = hand & ~self.table.trump_mask if self.exchanged < r.redraw_limit else 0
            return (cards << A.DISCARD_BASE) | (1 << A.DONE)
        if seat == self.partner and self.called_card >= 0:
            hand &= ~(1 << self.called_card)  # the called card must reach the first trick
        cards = hand
        if r.discard_trump != "free":
            t = self.table
            if r.discard_trump == "excess_trumps" and (hand & t.trump_mask).bit_count() > r.play_hand_size:
                cards = hand & ~t.protected or hand  # more trumps than can be kept: any unprotected card
            else:
                cards = hand & ~t.trump_mask or hand & ~t.protected or hand
        return cards << A.DISCARD_BASE

    def _legal_cards(self) -> int:
        seat = self.current_player
        hand = self.hands[seat]
        r, t = self.rules, self.table
        if not self.trick:
            if not self.tricks:
                if r.first_lead == "trump" and hand & t.trump_mask:
                    return hand & t.trump_mask
                if r.first_lead_no_joker and self.trump < 0 and hand & ~JOKERS_MASK:
                    return hand & ~JOKERS_MASK
            return hand
        if not self.tricks and seat == self.partner and hand >> self.called_card & 1:
            return 1 << self.called_card
        return playable_cards(hand, t.effective_suit[self.trick[0][1]], t, r)

    # ------------------------------------------------------------------ actions
    def apply(self, action: int) -> None:
        """Apply the move of the player on turn; raises ``ValueError`` if illegal (state unchanged).

        ``action`` is an int (numpy integers too); a bool is refused: ``apply(False)`` playing action 0 is a bug.
        """
        number = action if type(action) is int else integer_or_none(action)
        if number is None or not 0 <= number < A.NUM_ACTIONS or not self.legal_mask() >> number & 1:
            raise ValueError(self._illegal_message(action))
        action = number
        self.history.append(action)
        self._legal = -1
        phase = self.phase
        if phase == PLAY:
            self._play(action - A.PLAY_BASE)
        elif phase == DISCARD:
            self._discard(action)
        elif phase == BID:
            self._bid(action)
        elif phase == TRUMP:
            self._set_trump(action - A.TRUMP_BASE)
            self._after_trump()
        elif phase == CALL:
            self._call(action - A.CALL_BASE)

    def _illegal_message(self, action: object) -> str:
        legal = ", ".join(A.format_action(a) for a in self.legal_actions())
        try:
            label = f"{A.format_action(action)!r} ({action})"  # type: ignore[arg-type]
        except (ValueError, TypeError):
            problem = "out of range" if type(action) is int else f"a {type(action).__name__}, not an action id"
            label = f"{action!r} ({problem}: action ids are ints 0..{A.NUM_ACTIONS - 1})"

        if self.phase == OVER:
            return f"action {label} is illegal: the match is over"
        return (
            f"action {label} is illegal for seat {self.current_player} in the "
            f"{PHASE_NAMES[self.phase]} phase; legal moves: {legal}"
        )

    def apply_move(self, move: str) -> None:
        """Apply a move given as a label such as ``bid 4`` or ``play TH``."""
        self.apply(A.parse_action(move, self.rules))

    # bidding
    def _bid(self, action: int) -> None:
        seat = self.current_player
        if action == A.MISDEAL:
            self._redeal(same_dealer=True)
            return
        bid = A.MOON_BID if action == A.MOON else action - A.BID_BASE
        self.bids[seat] = bid
        if bid:
            self.high_bid = bid
            self.bidder = seat
        if seat != self.dealer:
            self.current_player = (seat + 1) % self.num_players
            return
        if self.bidder < 0:
            self._redeal(same_dealer=self.rules.all_pass == "redeal_same_dealer")
            return
        self._after_bidding()

    def _redeal(self, same_dealer: bool) -> None:
        self.redeals += 1
        if not same_dealer:
            self.dealer = (self.dealer + 1) % self.num_players
        self._start_hand()

    def _after_bidding(self) -> None:
        r, bidder = self.rules, self.bidder
        if r.kitty_size:
            self._take(bidder, self.kitty)
            self.kitty = []
        if r.stock_use == "blinds":
            self._take(bidder, self.stock[: r.blinds])
            del self.stock[: r.blinds]
        if r.trump_by == "bidder_names":
            self.phase, self.current_player = TRUMP, bidder
        else:
            self._start_discards()

    def _take(self, seat: int, cards: list[int]) -> None:
        taken = mask_of(cards)
        self.hands[seat] |= taken
        self.picked[seat] |= taken
        self.drawn_counts[seat] += len(cards)

    def _set_trump(self, suit: int) -> None:
        self.trump = suit
        self.table = trump_table(self.rules, suit)

    def _after_trump(self) -> None:
        r = self.rules
        if r.stock_use == "to_bidder":
            self._take(self.bidder, self.stock)
            self.stock = []
        if r.called_partner and self._legal_calls():  # nothing to call (the bidder holds every trump): alone
            self.phase, self.current_player = CALL, self.bidder
        else:
            self._start_discards()

    def _call(self, card: int) -> None:
        self.called_card = card
        holders = [s for s in range(self.num_players) if self.hands[s] >> card & 1]
        self.partner = holders[0] if holders else -1
        if self.partner >= 0:
            self.sides[self.partner] = self.sides[self.bidder]
        self._start_discards()

    # discards
    def _start_discards(self) -> None:
        r, n = self.rules, self.num_players
        order = [(self.dealer + i) % n for i in range(1, n + 1)]
        if r.stock_use == "redraw":
            self.discard_queue = order
        else:
            self.discard_queue = [s for s in order if self.hands[s].bit_count() > r.play_hand_size]
        self.exchanged = 0
        self._next_discarder()

    def _next_discarder(self) -> None:
        r = self.rules
        while self.discard_queue:
            seat = self.discard_queue[0]
            if r.stock_use == "redraw" and seat == self.dealer and self.stock:
                self._take(seat, self.stock)
                self.stock = []
            if (r.stock_use == "redraw" and seat != self.dealer) or self.hands[seat].bit_count() > r.play_hand_size:
                self.phase, self.current_player = DISCARD, seat
                return
            self.discard_queue.pop(0)
        self._start_play()

    def _discard(self, action: int) -> None:
        r, seat = self.rules, self.current_player
        if action != A.DONE:
            card = action - A.DISCARD_BASE
            self.hands[seat] &= ~(1 << card)
            self.discarded[seat] |= 1 << card
            self.discard_counts[seat] += 1
        if r.stock_use == "redraw" and seat != self.dealer:
            if action != A.DONE:
                self.exchanged += 1
            if action == A.DONE or self.exchanged == r.redraw_limit:
                self._take(seat, self.stock[: self.exchanged])
                del self.stock[: self.exchanged]
                self.exchanged = 0
                self.discard_queue.pop(0)
                self._next_discarder()
            return
        if self.hands[seat].bit_count() == r.play_hand_size:
            self.discard_queue.pop(0)
            self._next_discarder()

    # play
    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.current_player = self.bidder

    def _play(self, card: int) -> None:
        seat = self.current_player
        if self.trump < 0:
            self._set_trump(card // 13)
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played[seat] |= bit
        self.trick.append((seat, card))
        if len(self.trick) < self.num_players:
            self.current_player = (seat + 1) % self.num_players
            return
        winner = trick_winner(self.trick, self.table)[0]
        self.tricks.append((self.leader, self.trick, winner))  # self.trick is replaced, never changed again
        self.won[winner] |= mask_of(c for _, c in self.trick)
        self.trick = []
        self.leader = self.current_player = winner
        if len(self.tricks) == self.rules.play_hand_size:
            self._end_hand()

    # hand end and match end
    def _end_hand(self) -> None:
        self.hands_played += 1
        result = score_hand(self, self.scores, self.hands_played)
        self.scores[:] = result.scores_after  # in place: readers holding the list see the new scores
        self.hand_results.append(result)
        winners = result.match_winners
        if winners is None and self.single_hand:
            winners = frozenset()
        if winners is not None:
            self.winners = winners
            self.phase, self.current_player = OVER, -1
            return
        self.dealer = (self.dealer + 1) % self.num_players
        self._start_hand()

    def rewards(self) -> list[float]:
        """Match rewards per seat once over: +1 for a winning team, -1 otherwise, 0 for all on a full draw."""
        if self.phase != OVER or len(self.winners) in (0, self.rules.num_teams):
            return [0.0] * self.num_players
        return [1.0 if self.team_of(s) in self.winners else -1.0 for s in range(self.num_players)]

    # ------------------------------------------------------------------ copies and records
    def clone(self) -> Game:
        """An independent copy (for search); the copy's RNG continues identically."""
        return copy.deepcopy(self)

    def record(self) -> dict[str, Any]:
        """JSON-able record of the match so far: rules, deals and moves (and a resumed match's starting point)."""
        record = {
            "game": "smear",
            "engine_version": ENGINE_VERSION,
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "single_hand": self.single_hand,
            "seed": self._seed,
            "deals": [d.to_dict() for d in self.deals],
            "moves": [A.format_action(a) for a in self.history],
        }
        if any(self.start_scores) or self.start_hands_played:  # only then: records of fresh matches keep their form
            record["start_scores"] = list(self.start_scores)
            record["start_hands_played"] = self.start_hands_played
        return record


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from :meth:`Game.record` output by replaying its deals and moves.

    A record that is not a dict, lacks a field, holds a value of the wrong type, is
    for another game or engine version, or whose moves are not legal in turn raises
    ``ValueError`` saying which part is wrong.
    """
    return replay_record(
        record,
        "smear",
        ENGINE_VERSION,
        "single_hand",
        Deal.from_dict,
        rules_from_dict,
        lambda rules, seed, dealer, single, deals: Game(
            rules,
            seed,
            dealer=dealer,
            single_hand=single,
            deals=deals,
            scores=record.get("start_scores"),
            hands_played=record.get("start_hands_played", 0),
        ),
    )
