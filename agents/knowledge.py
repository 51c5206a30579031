"""What a Smear player knows at a decision: the facts every bot reasons with, as bit masks.

A :class:`Knowledge` holds my hand, every card seen, the trick on the table,
the cards each seat has shown it lacks (``smear_env.observation.shown_lacks``,
over ``note_voids``: the one home of what a play proves), and which cards are
still unseen. Rule-based play and determinized search both start here.

Two ways in, equal field for field (tested): :func:`knowledge_from_view` from the
plain-dict view an agent receives (``smear_env.observation.player_view``; card
names looked up in a table, other spellings parsed), and
:func:`knowledge_from_game`, straight from the engine's masks for code that holds
the :class:`~smear_env.game.Game` itself (self-play training, search's rollouts),
which skips building a view of card strings only to parse it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from smear_env import actions as A
from smear_env.cards import SUITS, mask_of
from smear_env.game import PHASE_NAMES, Game
from smear_env.observation import bid_value, card_id_of, mask_of_names, shown_lacks
from smear_env.rules import Rules
from smear_env.scoring import CARD_VALUES
from smear_env.trump import TrumpTable, trump_table

#: a finished trick: (leader, ((seat, card), ...) in play order, winner)
Trick = tuple[int, tuple[tuple[int, int], ...], int]


@dataclass
class Knowledge:
    """One player's information at a decision, as masks (seats absolute)."""

    rules: Rules
    seat: int
    hand: int
    phase: str
    trump: int
    table: TrumpTable
    played: list[int]  # per seat
    seen: int  # every card I know the place of: my hand, played cards, my discards, a called card nobody holds
    trick: list[tuple[int, int]]  # (seat, card) on the table
    tricks: list[Trick]  # the finished tricks of this hand
    lacks: list[int]  # per seat: cards it has shown it holds none of (suits it showed void in, jokers too)
    bidder: int  # the high bidder so far (-1: none)
    partner: int  # the called partner (-1: none, or nobody holds the called card)
    called_card: int  # the card the bidder called (-1: none)
    dealer: int
    high_bid: int
    bids: list[int | None]  # per seat: None not yet, 0 pass, N, or A.MOON_BID
    drawn_counts: list[int]  # per seat: cards taken from kitty or stock this hand
    scores: list[int]  # match score per team
    legal: list[int]

    @property
    def n(self) -> int:
        return self.rules.num_players

    def side(self, seat: int) -> int:
        """Scoring side of a seat (teams, or the bidder's side with a called partner)."""
        if self.rules.called_partner and seat in (self.bidder, self.partner) and self.bidder >= 0:
            return self.bidder
        return self.rules.team_of(seat)

    def is_friend(self, seat: int) -> bool:
        return self.side(seat) == self.side(self.seat)

    @property
    def unseen(self) -> int:
        """Cards of the deck whose place I do not know."""
        return mask_of(self.rules.deck) & ~self.seen


def _check_rules(preset: object, num_players: object, rules: Rules) -> None:
    if preset != rules.name or num_players != rules.num_players:
        raise ValueError(
            f"this agent plays {rules.name!r} ({rules.num_players} players) but was asked to act in "
            f"{preset!r} ({num_players} players)"
        )


def _seen(hand: int, discarded: int, played: list[int], called_card: int, partner: int) -> int:
    seen = hand | discarded
    for mask in played:
        seen |= mask
    if called_card >= 0 and partner < 0:  # nobody holds it: out of play
        seen |= 1 << called_card
    return seen


def knowledge_from_view(view: dict[str, Any], rules: Rules) -> Knowledge:
    """Masks and tables for the player whose view this is."""
    _check_rules(view.get("preset"), view.get("num_players"), rules)
    seat = view["seat"]
    hand = mask_of_names(view["hand"])
    trump = SUITS.index(view["trump"]) if view["trump"] else -1
    table = trump_table(rules, trump)
    played = [mask_of_names(cards) for cards in view["played"]]
    trick = [(s, card_id_of(c)) for s, c in view["trick"]]
    tricks = [(t["leader"], tuple((s, card_id_of(c)) for s, c in t["cards"]), t["winner"]) for t in view["tricks"]]
    called = card_id_of(view["called_card"]) if view["called_card"] else -1
    partner = view["partner"]
    return Knowledge(
        rules=rules,
        seat=seat,
        hand=hand,
        phase=view["phase"],
        trump=trump,
        table=table,
        played=played,
        seen=_seen(hand, mask_of_names(view["my_discards"]), played, called, partner),
        trick=trick,
        tricks=tricks,
        lacks=shown_lacks(tricks, trick, table, rules, called),
        bidder=view["bidder"],
        partner=partner,
        called_card=called,
        dealer=view["dealer"],
        high_bid=view["high_bid"],
        bids=[bid_value(b) for b in view["bids"]],
        drawn_counts=list(view["drawn_counts"]),
        scores=list(view["scores"]),
        legal=list(view["legal_actions"]),
    )


def knowledge_from_game(game: Game, seat: int, rules: Rules) -> Knowledge:
    """What ``seat`` knows, read from the engine: exactly ``knowledge_from_view(player_view(game, seat), rules)``."""
    _check_rules(game.rules.name, game.num_players, rules)
    hand, played, trick, table = game.hands[seat], list(game.played), list(game.trick), trump_table(rules, game.trump)
    tricks = [(leader, tuple(plays), winner) for leader, plays, winner in game.tricks]
    called, partner = game.called_card, game.partner
    return Knowledge(
        rules=rules,
        seat=seat,
        hand=hand,
        phase=PHASE_NAMES[game.phase],
        trump=game.trump,
        table=table,
        played=played,
        seen=_seen(hand, game.discarded[seat], played, called, partner),
        trick=trick,
        tricks=tricks,
        lacks=shown_lacks(tricks, trick, table, rules, called),
        bidder=game.bidder,
        partner=partner,
        called_card=called,
        dealer=game.dealer,
        high_bid=game.high_bid,
        bids=list(game.bids),
        drawn_counts=list(game.drawn_counts),
        scores=list(game.scores),
        legal=game.legal_actions() if game.current_player == seat else [],
    )


def require_legal(k: Knowledge) -> None:
    """A clear error when the player has no legal move (asked out of turn), as ``Agent.legal_actions`` gives."""
    if not k.legal:
        raise ValueError(f"seat {k.seat} was asked to act but has no legal move (phase {k.phase!r})")


def card_value(card: int, rules: Rules) -> int:
    """Card points toward Game."""
    return rules.joker_card_value if card >= 52 else CARD_VALUES[card]


def point_cards(table: TrumpTable, rules: Rules) -> dict[int, int]:
    """Trump cards worth points when captured, and their worth."""
    cards = {table.jack: rules.jack_points, table.three: rules.trey_points, table.two: rules.deuce_points}
    if table.jick >= 0:
        cards[table.jick] = rules.jick_points
    for joker in (52, 53):
        cards[joker] = rules.joker_points
    return {c: v for c, v in cards.items() if v and c >= 0 and (table.trump_mask | table.free) >> c & 1}


def play_card(action: int) -> int:
    """Card of a play/discard/call action id."""
    if action >= A.PLAY_BASE:
        return action - A.PLAY_BASE
    if action >= A.DISCARD_BASE:
        return action - A.DISCARD_BASE
    return action - A.CALL_BASE
