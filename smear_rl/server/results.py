"""Hand and round results as plain data: who took each point, card points, made or set, score changes.

One small module so that it can switch to the engine's own ``HandResult.to_dict()``
(being added on another branch) without touching the service. Sides are the
scoring units of a hand: teams, or with a called partner the bidder's partnership
and each other player alone; each side is listed with its seats.
"""

from __future__ import annotations

from typing import Any

from smear_env import actions as A
from smear_env.cards import SUITS
from smear_env.schneider.game import RoundResult
from smear_env.scoring import HandResult

#: the categories a Smear hand awards, in the order a score sheet lists them
CATEGORIES = ("high", "low", "jack", "jick", "joker", "joker2", "trey", "deuce", "game")


def bid_label(bid: int) -> str:
    return "moon" if bid == A.MOON_BID else str(bid)


def hand_result(result: HandResult, number: int, dealer: int, scores_after: list[int]) -> dict[str, Any]:
    """A Smear hand's result: the bid, each category's taker, each side's points, card points and score change."""
    sides = sorted(set(result.side_of_seat))
    seats_of = {side: [s for s, x in enumerate(result.side_of_seat) if x == side] for side in sides}
    return {
        "hand": number,
        "dealer": dealer,
        "bidder": result.bidder,
        "bid": bid_label(result.bid),
        "trump": SUITS[result.trump] if result.trump >= 0 else None,
        "made": result.made,
        "side_of_seat": list(result.side_of_seat),
        "awards": {
            name: {"side": result.awards[name], "seats": seats_of[result.awards[name]]}
            for name in CATEGORIES
            if name in result.awards
        },
        "sides": [
            {
                "side": side,
                "seats": seats_of[side],
                "points": result.points.get(side, 0),
                "card_points": result.card_points.get(side, 0),
                "score_change": result.deltas.get(side, 0),
            }
            for side in sides
        ],
        "scores_after": list(scores_after),
        "match_over": result.match_winners is not None,
    }


def round_result(result: RoundResult, number: int, scores_after: list[int]) -> dict[str, Any]:
    """A Bohemian Schneider round: counter points captured per seat and the multiplied round scores."""
    return {
        "hand": number,
        "dealer": result.dealer,
        "points": list(result.points),
        "round_scores": list(result.scores),
        "scores_after": list(scores_after),
    }
