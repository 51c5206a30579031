"""Scoring reads a finished hand through ``FinishedHand`` and changes nothing it is given.

The engine depends on scoring, not the other way round: ``score_hand`` needs only the
attributes ``FinishedHand`` declares, so a plain object holding just those scores a hand
exactly as the game did, and the match scores it returns leave the game's own untouched.
"""

from __future__ import annotations

import copy
import random
from types import SimpleNamespace

import pytest

from smear_env.game import Game
from smear_env.rules import list_presets
from smear_env.scoring import FinishedHand, score_hand


def finished_hand(preset: str, seed: int) -> Game:
    """A single hand of ``preset`` played to its end by seeded random moves (the state stays as the hand ended)."""
    game = Game(preset, seed=seed, single_hand=True)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("preset", list_presets())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_plain_finished_hand_scores_as_the_game_did(preset: str, seed: int) -> None:
    game = finished_hand(preset, seed)
    [played] = game.hand_results
    hand = SimpleNamespace(**{name: copy.deepcopy(getattr(game, name)) for name in FinishedHand.__annotations__})
    again = score_hand(hand, played.scores_before, game.hands_played)
    assert again == played  # every award, side total, score change, winner and score after, exactly


@pytest.mark.parametrize("preset", ["ten_point", "ten_point_5p", "minnesota", "pitch_smudge"])
def test_scoring_changes_nothing_it_is_given(preset: str) -> None:
    game = finished_hand(preset, seed=4)
    [played] = game.hand_results
    state = copy.deepcopy({name: getattr(game, name) for name in FinishedHand.__annotations__})
    scores_list = game.scores
    scores = [7 - team for team in range(game.rules.num_teams)]
    result = score_hand(game, scores, hands_played=1)
    assert scores == [7 - team for team in range(game.rules.num_teams)]  # the caller's scores, untouched
    assert game.scores is scores_list and tuple(game.scores) == played.scores_after  # and the game's
    assert {name: getattr(game, name) for name in FinishedHand.__annotations__} == state
    assert result.scores_before == tuple(scores)
    side_of_team = {team: side for team, side in zip(game.teams, game.sides)}
    assert result.scores_after == tuple(s + result.deltas[side_of_team[t]] for t, s in enumerate(scores))
