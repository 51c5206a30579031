"""Invariants over random games of every preset (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smear_env.game import OVER, Game, replay
from smear_env.rules import get_rules, list_presets
from tests.fuzz_rules import cautious_move, check_cards

PRESETS = list_presets()
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_cards_conserved_and_masks_never_empty(preset: str, seed: int) -> None:
    game = Game(preset, seed=seed, single_hand=True)
    rng = random.Random(seed)
    while not game.is_over:
        check_cards(game)
        legal = game.legal_actions()
        assert legal, f"no legal move for seat {game.current_player} in phase {game.phase}"
        game.apply(rng.choice(legal))
    check_cards(game)
    assert game.legal_mask() == 0


@SETTINGS
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_hand_points_within_bounds(preset: str, seed: int) -> None:
    game = Game(preset, seed=seed, single_hand=True)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    result = game.results()[-1]
    assert all(p >= 0 for p in result.points.values())
    assert sum(result.points.values()) <= game.rules.max_hand_points
    assert sum(result.card_points.values()) <= 80 + 2 * game.rules.joker_card_value
    assert len(game.completed_tricks()) == game.rules.play_hand_size
    assert all(game.hand(seat) == () for seat in range(game.num_players))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_every_match_ends_and_replays(preset: str, seed: int) -> None:
    game = Game(preset, seed=seed)
    rng = random.Random(seed)
    for _ in range(200_000):
        if game.is_over:
            break
        game.apply(cautious_move(game, rng))
    assert game.phase == OVER, f"match unfinished after {game.hands_played} hands"
    assert game.winners, "a finished match names its winners"
    rules = get_rules(preset)
    if rules.match_end == "hands":
        assert game.hands_played == rules.num_hands
    copy = replay(json.loads(json.dumps(game.record())))
    assert copy.history == game.history and copy.match_scores() == game.match_scores()
    assert copy.winners == game.winners


@SETTINGS
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32), cut=st.integers(0, 400))
def test_clone_is_independent_and_replay_matches_midgame(preset: str, seed: int, cut: int) -> None:
    game = Game(preset, seed=seed, single_hand=True)
    rng = random.Random(seed)
    for _ in range(cut):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    twin = game.clone()
    copy = replay(game.record())
    assert copy.hands == game.hands and copy.legal_mask() == game.legal_mask() and copy.phase == game.phase
    if not game.is_over:
        twin.apply(twin.legal_actions()[0])
        assert twin.history != game.history
