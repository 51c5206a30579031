"""What a Smear player knows, rebuilt from its view: the facts every bot reasons with.

Bots receive the plain-dict view (``smear_env.observation.player_view``); this
turns it into bit masks and trump tables once per decision: my hand, every card
seen, the trick on the table and who is winning it, each seat's proven voids
(a seat that played neither the led suit nor, where trumping in is allowed, a
trump holds none of the led suit), and which cards are still unseen. Rule-based
play and determinized search both start here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from smear_env import actions as A
from smear_env.cards import SUITS, mask_of, parse_card, parse_cards
from smear_env.rules import Rules
from smear_env.scoring import CARD_VALUES
from smear_env.trump import TrumpTable, trump_table


@dataclass
class Knowledge:
    """One player's information at a decision, as masks."""

    rules: Rules
    seat: int
    hand: int
    phase: str
    trump: int
    table: TrumpTable
    played: list[int]  # per seat
    seen: int  # every card I know the place of: my hand, played cards, my discards
    trick: list[tuple[int, int]]  # (seat, card) on the table
    voids: list[int]  # per seat: effective suits (bit s) the seat has shown it lacks
    bidder: int
    partner: int
    dealer: int
    high_bid: int
    legal: list[int]
    view: dict[str, Any]

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


def knowledge_from_view(view: dict[str, Any], rules: Rules) -> Knowledge:
    """Masks and tables for the player whose view this is."""
    if view.get("preset") != rules.name or view.get("num_players") != rules.num_players:
        raise ValueError(
            f"this agent plays {rules.name!r} ({rules.num_players} players) but was asked to act in "
            f"{view.get('preset')!r} ({view.get('num_players')} players)"
        )
    seat = view["seat"]
    hand = mask_of(parse_cards(view["hand"]))
    trump = SUITS.index(view["trump"]) if view["trump"] else -1
    table = trump_table(rules, trump)
    played = [mask_of(parse_cards(cards)) for cards in view["played"]]
    seen = hand | mask_of(parse_cards(view["my_discards"]))
    for mask in played:
        seen |= mask
    trick = [(s, parse_card(c)) for s, c in view["trick"]]
    voids = [0] * rules.num_players
    for t in view["tricks"]:
        _note_voids(voids, [(s, parse_card(c)) for s, c in t["cards"]], table, rules.follow)
    _note_voids(voids, trick, table, rules.follow)
    called = view["called_card"]
    return Knowledge(
        rules=rules,
        seat=seat,
        hand=hand,
        phase=view["phase"],
        trump=trump,
        table=table,
        played=played,
        seen=seen | (mask_of([parse_card(called)]) if called and view["partner"] < 0 else 0),
        trick=trick,
        voids=voids,
        bidder=view["bidder"],
        partner=view["partner"],
        dealer=view["dealer"],
        high_bid=view["high_bid"],
        legal=list(view["legal_actions"]),
        view=view,
    )


def _note_voids(voids: list[int], plays: list[tuple[int, int]], table: TrumpTable, follow: str) -> None:
    """Mark the led suit void for each seat that did not follow it.

    Under ``follow_or_trump`` a trump on a side-suit lead is allowed while holding
    the led suit, so only a card of a third suit proves the void. A joker that is
    not a trump may be played at any time and its lead obliges nobody: neither
    proves anything.
    """
    if not plays or table.trump < 0 or table.free >> plays[0][1] & 1:
        return
    led = table.effective_suit[plays[0][1]]
    for seat, card in plays[1:]:
        suit = table.effective_suit[card]
        if table.free >> card & 1:
            continue
        if suit != led and not (follow == "follow_or_trump" and suit == table.trump):
            voids[seat] |= 1 << led


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

