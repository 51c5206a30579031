"""The Bradley-Terry fits behind the benchmark's scale: exact where the algebra is, order-free, clustered intervals."""

from __future__ import annotations

import math
from dataclasses import astuple

import numpy as np
import pytest

from training.benchmark.bradley_terry import PRIOR_GAMES, Outcome, Strength, fit_one, fit_panel, pair_outcomes


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _same(x: Strength, y: Strength) -> bool:
    """Equal but for the rounding of sums taken in another order."""
    return all(math.isclose(u, v, rel_tol=1e-12, abs_tol=1e-12) for u, v in zip(astuple(x), astuple(y)))


def _games(a: str, b: str, wins: int, draws: int, losses: int) -> list[Outcome]:
    """``a``'s results against ``b``, each game its own cluster."""
    scores = [1.0] * wins + [0.5] * draws + [0.0] * losses
    return [Outcome(a, b, s, (a, b, k)) for k, s in enumerate(scores)]


def test_two_agents_the_gap_is_the_log_odds_of_the_score_with_one_virtual_draw() -> None:
    strengths = fit_panel(_games("random", "rule", 20, 10, 370), anchor="random")
    score = (20 + 10 / 2 + PRIOR_GAMES / 2) / (400 + PRIOR_GAMES)  # the virtual draw: half a game each way
    assert strengths["random"].value == 0.0
    assert strengths["rule"].value == pytest.approx(-_logit(score), abs=1e-9)
    assert strengths["rule"].low < strengths["rule"].value < strengths["rule"].high


def test_one_agent_against_fixed_strengths_is_the_same_algebra() -> None:
    rated = fit_one(_games("x", "rule", 300, 0, 100), {"rule": 1.5})
    assert rated.value == pytest.approx(1.5 + _logit((300 + 0.5) / 401), abs=1e-9)


def test_a_side_that_won_every_game_gets_a_finite_strength() -> None:
    strengths = fit_panel(_games("search", "random", 200, 0, 0), anchor="random")
    assert strengths["search"].value == pytest.approx(_logit(200.5 / 201), abs=1e-9)
    assert math.isfinite(fit_one(_games("x", "random", 50, 0, 0), {"random": 0.0}).value)


def test_the_fit_does_not_depend_on_the_order_of_the_games() -> None:
    games = _games("a", "b", 30, 4, 26) + _games("b", "c", 12, 0, 28) + _games("a", "c", 25, 2, 13)
    rng = np.random.default_rng(5)
    shuffled = [games[i] for i in rng.permutation(len(games))]
    ordered, reordered = fit_panel(games, "a"), fit_panel(shuffled, "a")
    assert all(_same(ordered[name], reordered[name]) for name in "abc")


def test_strengths_that_made_the_games_are_recovered_within_their_intervals() -> None:
    true = {"a": 0.0, "b": 1.0, "c": 2.5, "d": 3.0}
    rng = np.random.default_rng(11)
    games = []
    for i, x in enumerate(true):
        for y in list(true)[i + 1 :]:
            p = 1 / (1 + math.exp(-(true[x] - true[y])))
            games += [Outcome(x, y, float(rng.random() < p), (x, y, k)) for k in range(3000)]
    fitted = fit_panel(games, anchor="a")
    for name, value in true.items():
        assert fitted[name].low - 1e-9 <= value <= fitted[name].high + 1e-9, (name, fitted[name])
        assert abs(fitted[name].value - value) < 0.1


def test_intervals_are_over_deal_pairs_two_alike_games_count_once() -> None:
    """The two games of a duplicate pair that always agree carry one game's information, not two."""
    scores = [1.0] * 60 + [0.0] * 40
    independent = [Outcome("x", "rule", s, k) for k, s in enumerate(scores + scores)]
    paired = [Outcome("x", "rule", s, k % 100) for k, s in enumerate(scores + scores)]
    wide, narrow = fit_one(paired, {"rule": 0.0}), fit_one(independent, {"rule": 0.0})
    assert wide.value == pytest.approx(narrow.value)
    ratio = (wide.high - wide.low) / (narrow.high - narrow.low)
    assert ratio == pytest.approx(math.sqrt(2), rel=0.02)


def test_pair_sums_give_the_same_fit_as_the_games_themselves() -> None:
    games = [Outcome("x", "b", s, ("x", "b", k // 2)) for k, s in enumerate([1, 0.5, 0, 1, 1, 1, 0, 0, 1, 0.5])]
    sums = [2 * 0.75, 0 + 1, 1 + 1, 0 + 0, 1 + 0.5]
    assert _same(fit_one(pair_outcomes("x", "b", sums), {"b": 0.3}), fit_one(games, {"b": 0.3}))


def test_an_agent_not_linked_to_the_anchor_is_refused_by_name() -> None:
    games = _games("random", "rule", 10, 0, 10) + _games("search", "neural", 5, 0, 5)
    with pytest.raises(ValueError, match="neural, search played no game linked to 'random'"):
        fit_panel(games, anchor="random")
    with pytest.raises(ValueError, match="no strength given for search"):
        fit_one(_games("x", "search", 1, 0, 1), {"rule": 1.0})
