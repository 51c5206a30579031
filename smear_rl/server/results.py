"""Hand and round results as the service shows them, each numbered and with its dealer.

A Smear hand is the engine's own plain form, :meth:`smear_env.scoring.HandResult.to_dict`
(the contract, who took each category and with which card, each side's points, card
points and score change, the scores before and after, the tricks), so the service and
the engine never disagree on what a hand was. Bohemian Schneider's
:class:`~smear_env.schneider.game.RoundResult` has no such form: its round is laid out here.
"""

from __future__ import annotations

from typing import Any

from smear_env.schneider.game import RoundResult
from smear_env.scoring import HandResult


def hand_result(result: HandResult, number: int, dealer: int) -> dict[str, Any]:
    """A scored Smear hand: its number among the match's scored hands, its dealer, and the engine's record of it."""
    return {"hand": number, "dealer": dealer, **result.to_dict()}


def round_result(result: RoundResult, number: int, scores_after: list[int]) -> dict[str, Any]:
    """A Bohemian Schneider round: counter points captured per seat and the multiplied round scores."""
    return {
        "hand": number,
        "dealer": result.dealer,
        "points": list(result.points),
        "round_scores": list(result.scores),
        "scores_after": list(scores_after),
    }
