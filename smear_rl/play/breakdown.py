"""What a finished hand (or Schneider round) scored, as plain data for any screen.

Built from the engine's result (:class:`smear_env.scoring.HandResult`,
:class:`smear_env.schneider.RoundResult`) and the match scores right after it,
never from anyone's cards, so it is safe to show every player. ``to_dict()``
gives JSON for the bot service and a web table.

Points go to *sides*: the teams, or with a called partner the bidder's
partnership and each other player alone (``HandResult.side_of_seat``). Match
scores stay per team.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from smear_env import actions as A
from smear_env.cards import SUITS
from smear_env.rules import Rules
from smear_env.schneider import RoundResult
from smear_env.schneider.game import multiplier
from smear_env.scoring import HandResult


@dataclass(frozen=True)
class Category:
    """One scoring category of the hand and who took it."""

    key: str  # engine name: high, low, jack, jick, joker, joker2, trey, deuce, game
    label: str  # as a player says it: "High", "Jick", "Game"
    points: int  # what it is worth
    side: int | None  # side that took it; None: nobody
    note: str = ""  # why nobody did: "tie" (Game on equal card points) or "not in play"


@dataclass(frozen=True)
class SideResult:
    """One side's part in a hand."""

    side: int  # side id, as in HandResult.side_of_seat
    seats: tuple[int, ...]
    bidding: bool  # the side that won the auction
    card_points: int  # toward Game
    points: int  # hand points taken
    delta: int  # change of each member's match score (minus the bid when set)


@dataclass(frozen=True)
class HandBreakdown:
    """A scored Smear hand: the bid, each category's taker, each side's points, made or set, new scores."""

    number: int  # hands scored so far in the match, this one included
    bidder: int
    bid: str  # "4", "moon" or "smudge"
    trump: str  # suit letter
    made: bool
    categories: tuple[Category, ...]
    sides: tuple[SideResult, ...]
    team_seats: tuple[tuple[int, ...], ...]  # seats of each match team
    scores: tuple[int, ...]  # match score of each team after the hand
    match_winners: tuple[int, ...] | None  # winning teams when this hand ended the match (empty: a draw)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "hand", **dataclasses.asdict(self)}


@dataclass(frozen=True)
class RoundBreakdown:
    """A finished Bohemian Schneider round: each seat's captured counters, multiplier and round score."""

    number: int
    dealer: int
    points: tuple[int, ...]  # counters (A K Q J 10) captured, per seat
    multipliers: tuple[int, ...]  # x2 for 16 or more, x3 for all 20
    round_scores: tuple[int, ...]
    scores: tuple[int, ...]  # match totals after the round

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "round", **dataclasses.asdict(self)}


def categories_in_play(rules: Rules) -> list[tuple[str, str, int]]:
    """(key, label, points) of every category these rules score, in the order players count them."""
    if rules.distinct_jokers:
        joker_labels = ("Big joker", "Little joker")
    else:
        joker_labels = ("Joker", "Joker") if rules.jokers == 1 else ("Joker 1", "Joker 2")
    table = [
        ("high", "High", int(rules.high != "off")),
        ("low", "Low", int(rules.low != "off")),
        ("jack", "Jack", rules.jack_points),
        ("jick", "Jick", rules.jick_points if rules.jick else 0),
        ("joker", joker_labels[0], rules.joker_points if rules.jokers >= 1 else 0),
        ("joker2", joker_labels[1], rules.joker_points if rules.jokers == 2 else 0),
        ("trey", "Trey", rules.trey_points),
        ("deuce", "Deuce", rules.deuce_points),
        ("game", "Game", rules.game_points),
    ]
    return [row for row in table if row[2]]


def bid_label(bid: int, rules: Rules) -> str:
    """A bid as players say it: the number, ``moon`` or ``smudge``."""
    if bid == A.MOON_BID:
        return "moon"
    if rules.smudge_bid and bid == rules.top_bid:
        return "smudge"
    return str(bid)


def hand_breakdown(result: HandResult, rules: Rules, number: int, scores: list[int]) -> HandBreakdown:
    """The breakdown of a scored hand; ``scores`` are the match scores right after it."""
    categories = []
    for key, label, points in categories_in_play(rules):
        side = result.awards.get(key)
        note = "" if side is not None else "tie" if key == "game" else "not in play"
        categories.append(Category(key, label, points, side, note))
    bid_side = result.side_of_seat[result.bidder]
    sides = tuple(
        SideResult(
            side,
            tuple(s for s, owner in enumerate(result.side_of_seat) if owner == side),
            side == bid_side,
            result.card_points.get(side, 0),
            result.points.get(side, 0),
            result.deltas.get(side, 0),
        )
        for side in sorted(set(result.side_of_seat), key=result.side_of_seat.index)
    )
    teams = tuple(
        tuple(s for s in range(rules.num_players) if rules.team_of(s) == team) for team in range(rules.num_teams)
    )
    winners = None if result.match_winners is None else tuple(sorted(result.match_winners))
    return HandBreakdown(
        number,
        result.bidder,
        bid_label(result.bid, rules),
        SUITS[result.trump],
        result.made,
        tuple(categories),
        sides,
        teams,
        tuple(scores),
        winners,
    )


def round_breakdown(result: RoundResult, number: int, scores: list[int]) -> RoundBreakdown:
    """The breakdown of a finished Schneider round; ``scores`` are the match totals right after it."""
    return RoundBreakdown(
        number,
        result.dealer,
        tuple(result.points),
        tuple(multiplier(p) for p in result.points),
        tuple(result.scores),
        tuple(scores),
    )
