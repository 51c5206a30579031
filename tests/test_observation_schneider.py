"""Bohemian Schneider's observation shows what a bot needs: every card placed or unseen, pile, scores, progress."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pytest

import smear_env
from smear_env.cards import mask_of
from smear_env.schneider.game import DECK, PILE_SIZE, ROUND_POINTS, TRICKS_PER_ROUND, Game, SchneiderRules
from smear_env.schneider.observation import (
    OBSERVATION_SIZE,
    layout,
    observation_vector,
    player_view,
    vector_from_view,
)


def test_every_card_is_placed_or_unseen_and_the_unseen_are_the_opponents_hand_and_the_pile() -> None:
    blocks = {name: (start, size) for name, start, size in layout()}

    def cards(vector: np.ndarray, name: str) -> int:
        start, size = blocks[name]
        return mask_of(int(c) for c in np.flatnonzero(vector[start : start + size]))

    def scalar(vector: np.ndarray, name: str, i: int = 0) -> float:
        return float(vector[blocks[name][0] + i])

    env = smear_env.env(preset="bohemian_schneider")
    rng = np.random.default_rng(5)
    emptied = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            game, seat = env.unwrapped.game, env.unwrapped.agent_name_mapping[agent]
            vector, opp = obs["observation"], 1 - seat
            assert cards(vector, "hand") == game.hands[seat]
            assert (cards(vector, "played_mine"), cards(vector, "played_opp")) == (game.played[seat], game.played[opp])
            seen = cards(vector, "hand") | cards(vector, "played_mine") | cards(vector, "played_opp")
            unseen = mask_of(DECK) & ~seen
            pile = round(scalar(vector, "pile_size") * PILE_SIZE)
            assert pile == len(game.pile) and unseen == game.hands[opp] | mask_of(game.pile)
            if not pile and not game.is_over:
                emptied += 1
                assert unseen == game.hands[opp]  # the pile is gone: the opponent's hand is known
            assert round(scalar(vector, "round_points") * ROUND_POINTS) == game.round_points(seat)
            assert round(scalar(vector, "round_points", 1) * ROUND_POINTS) == game.round_points(opp)
            assert round(scalar(vector, "tricks_done") * TRICKS_PER_ROUND) == len(game.tricks)
            assert round(scalar(vector, "rounds_progress") * game.rules.num_rounds) == game.rounds_played
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert emptied


def _assert_view_rebuilds_vector(game: Game, seat: int) -> None:
    expected = observation_vector(game, seat)
    view = player_view(game, seat)
    for rebuilt in (vector_from_view(view), vector_from_view(json.loads(json.dumps(view)))):  # as sent over HTTP
        assert rebuilt.dtype == np.float32 and rebuilt.shape == (OBSERVATION_SIZE,)
        assert np.array_equal(rebuilt, expected), (seat, game.history)


@pytest.mark.parametrize("seed", range(6))
def test_vector_from_view_equals_the_observation_for_both_seats_at_every_step_of_a_match(seed: int) -> None:
    rules = SchneiderRules(num_rounds=4) if seed % 3 == 2 else None  # a longer match scales scores differently
    game, rng = Game(rules, seed=seed, dealer=seed % 2), random.Random(seed)
    steps = 0
    while not game.is_over:
        for seat in (game.current_player, 1 - game.current_player):  # the player on turn and the one waiting
            _assert_view_rebuilds_vector(game, seat)
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    assert steps == TRICKS_PER_ROUND * 2 * game.rules.num_rounds and game.rounds_played == game.rules.num_rounds
    for seat in (0, 1):  # the finished match: phase over, no leader, final scores
        assert player_view(game, seat)["phase"] == "over"
        _assert_view_rebuilds_vector(game, seat)


def _view() -> dict[str, Any]:
    game, rng = Game(seed=3), random.Random(3)
    for _ in range(7):  # mid-trick: the led card is on the table
        game.apply(rng.choice(game.legal_actions()))
    return player_view(game, game.current_player)


def _drop(view: dict[str, Any], key: str) -> None:
    del view[key]


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda v: _drop(v, "hand"), "view has no 'hand': expected a player_view dict"),
        (lambda v: _drop(v, "num_rounds"), "view has no 'num_rounds'"),
        (lambda v: v.update(hand="7S 8S"), "view 'hand' is '7S 8S': expected a list of card names"),
        (lambda v: v.update(hand=["7S", "XX"]), "view 'hand': 'XX' is not a card: expected rank"),
        (lambda v: v.update(my_draws=[7]), "view 'my_draws': 7 is not a card name"),
        (lambda v: v.update(hand=["2C"]), "view 'hand' holds 2C: expected cards of the 32-card deck"),
        (lambda v: v.update(played=[[]]), "view 'played' is [[]]: expected a list of 2 entries, one per seat"),
        (lambda v: v["won"].__setitem__(1, ["QQ"]), "view 'won'[1]: 'QQ' is not a card"),
        (lambda v: v.update(seat=2), "view 'seat' 2 is out of range: expected an integer in 0..1"),
        (lambda v: v.update(seat="0"), "view 'seat' '0' is not an integer"),
        (lambda v: v.update(dealer=True), "view 'dealer' True is a bool, not an integer"),
        (lambda v: v.update(leader=-1), "view 'leader' -1 is out of range"),
        (lambda v: v.update(phase="bid"), "view 'phase' is 'bid': expected one of 'play', 'over'"),
        (lambda v: v.update(preset="ten_point"), "view 'preset' is 'ten_point': expected 'bohemian_schneider'"),
        (lambda v: v.update(pile_size=21), "view 'pile_size' 21 is out of range: expected an integer in 0..20"),
        (lambda v: v.update(trick=[(0, "8S"), (1, "9S")]), "view 'trick' is"),
        (lambda v: v.update(trick=["8S"]), "view 'trick' holds '8S': expected [] or [[seat, card]]"),
        (lambda v: v.update(trick=[(1, "ZZ")]), "view 'trick' card: 'ZZ' is not a card"),
        (lambda v: v.update(tricks=None), "view 'tricks' is None: expected a list of at most 16 entries"),
        (lambda v: v.update(round_points=[1.5, 0]), "view 'round_points'[0] 1.5 is not an integer"),
        (lambda v: v.update(scores=[0, -1]), "view 'scores'[1] -1 is out of range"),
        (lambda v: v.update(num_rounds=3), "view 'num_rounds': num_rounds=3 is not allowed: expected an even int"),
        (lambda v: v.update(rounds_played=3), "view 'rounds_played' 3 is out of range: expected an integer in 0..2"),
    ],
)
def test_a_malformed_view_is_refused_saying_what_is_wrong_and_what_was_expected(spoil: Any, message: str) -> None:
    view = _view()
    vector_from_view(copy.deepcopy(view))  # the unspoilt view is fine
    spoil(view)
    with pytest.raises(ValueError) as err:
        vector_from_view(view)
    assert message in str(err.value)


@pytest.mark.parametrize("view", [None, "view", [("seat", 0)]])
def test_a_view_that_is_not_a_dict_is_refused(view: Any) -> None:
    with pytest.raises(ValueError, match="is not a dict: expected a player_view dict with seat, preset"):
        vector_from_view(view)
