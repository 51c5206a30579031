"""What happens at the table, as one player may see it: plain, JSON-able events.

A :class:`~smear_rl.play.session.Session` turns every move into events seen
from the person's seat: bids, trump, a partner call, pickups, discards, each
card played, each trick's winner, the hand's breakdown, the match's end. Other
seats' discards and draws carry a count, never the cards; the person's own
carry the cards. A screen only renders events and the person's view, so it
cannot show what the seat may not know.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from smear_rl.play.breakdown import HandBreakdown, RoundBreakdown


@dataclass(frozen=True)
class HandDealt:
    """A new hand (Schneider: round) is dealt; ``redeal`` says why the last deal was thrown in."""

    number: int  # hands scored so far + 1
    dealer: int
    hand: tuple[str, ...]  # the person's cards, grouped as the hand is shown
    redeal: str = ""  # "", "all passed" or "misdeal"


@dataclass(frozen=True)
class Bid:
    seat: int
    bid: str  # "pass", a number, "moon" or "smudge"


@dataclass(frozen=True)
class MisdealCalled:
    seat: int


@dataclass(frozen=True)
class TrumpNamed:
    seat: int
    suit: str  # suit letter
    by_lead: bool  # set by the first card led (pitch), not named


@dataclass(frozen=True)
class PartnerCalled:
    seat: int  # the bidder
    card: str
    partner: int  # the seat holding it; -1: nobody, the bidder plays alone


@dataclass(frozen=True)
class PickedUp:
    """Cards a seat took: the kitty, the stock, the blinds or (Schneider) the pile."""

    seat: int
    source: str  # "kitty", "stock", "blinds" or "pile"
    count: int
    cards: tuple[str, ...] = ()  # only for the person's own pickups


@dataclass(frozen=True)
class Discarded:
    """Cards a seat put out of play in one turn (consecutive discards are merged)."""

    seat: int
    count: int
    cards: tuple[str, ...] = ()  # only for the person's own discards


@dataclass(frozen=True)
class StoppedExchanging:
    """A seat ends its exchange in a redraw (``done``)."""

    seat: int


@dataclass(frozen=True)
class Played:
    seat: int
    card: str
    trick: int  # trick number in the hand, from 1
    lead: bool  # the first card of the trick


@dataclass(frozen=True)
class TrickWon:
    number: int
    plays: tuple[tuple[int, str], ...]  # (seat, card) in play order
    winner: int

    @property
    def winning_card(self) -> str:
        return next(card for seat, card in self.plays if seat == self.winner)


@dataclass(frozen=True)
class HandScored:
    breakdown: HandBreakdown | RoundBreakdown


@dataclass(frozen=True)
class MatchOver:
    winners: tuple[int, ...]  # winning teams (seats without partnerships); empty or all: a draw
    scores: tuple[int, ...]  # final match score of each team

    @property
    def draw(self) -> bool:
        return len(self.winners) in (0, len(self.scores))


Event = (
    HandDealt
    | Bid
    | MisdealCalled
    | TrumpNamed
    | PartnerCalled
    | PickedUp
    | Discarded
    | StoppedExchanging
    | Played
    | TrickWon
    | HandScored
    | MatchOver
)


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-able form of an event: its type name under ``event`` plus its fields."""
    return {"event": type(event).__name__, **dataclasses.asdict(event)}


def merge_discards(events: list[Event]) -> list[Event]:
    """Consecutive :class:`Discarded` events of one seat as one (a bidder may discard 18 cards in a turn)."""
    merged: list[Event] = []
    for event in events:
        last = merged[-1] if merged else None
        if isinstance(event, Discarded) and isinstance(last, Discarded) and last.seat == event.seat:
            merged[-1] = Discarded(event.seat, last.count + event.count, last.cards + event.cards)
        else:
            merged.append(event)
    return merged
