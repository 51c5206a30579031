"""The player's view carries the seating (``teams``), so a front end can show who plays with whom."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from smear_env.game import Game
from smear_env.observation import Observer, player_view, vector_from_view
from smear_env.rules import get_rules

SEATINGS = [
    ("ten_point", {}, [[0, 2], [1, 3]]),
    ("ten_point_5p", {}, [[0], [1], [2], [3], [4]]),
    ("ten_point_6p", {}, [[0, 2, 4], [1, 3, 5]]),
    ("ten_point_6p", {"teams": [[0, 3], [1, 4], [2, 5]]}, [[0, 3], [1, 4], [2, 5]]),
    ("ten_point", {"teams": [[0, 1], [2, 3]]}, [[0, 1], [2, 3]]),
    ("ten_point", {"partnerships": False}, [[0], [1], [2], [3]]),
]


@pytest.mark.parametrize(("preset", "overrides", "teams"), SEATINGS)
def test_every_seat_sees_the_seating_and_its_own_team_in_it(
    preset: str, overrides: dict[str, Any], teams: list[list[int]]
) -> None:
    game = Game(get_rules(preset, **overrides), seed=1)
    for seat in range(game.num_players):
        view = player_view(game, seat)
        assert view["teams"] == teams
        assert seat in view["teams"][view["team"]]
        assert len(view["scores"]) == len(teams)  # scores follow the seating's order
        assert json.loads(json.dumps(view))["teams"] == teams  # plain JSON, as the bot service sends it


@pytest.mark.parametrize(("preset", "overrides", "teams"), SEATINGS[2:4])
def test_views_with_the_seating_still_give_the_observation(
    preset: str, overrides: dict[str, Any], teams: list[list[int]]
) -> None:
    rules = get_rules(preset, **overrides)
    game, rng, observer = Game(rules, seed=2), random.Random(2), Observer(rules.num_players)
    for _ in range(60):
        seat = game.current_player
        assert np.array_equal(observer.vector(game, seat), vector_from_view(player_view(game, seat), rules))
        game.apply(rng.choice(game.legal_actions()))
