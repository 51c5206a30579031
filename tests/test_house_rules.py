"""The house-rule generator: reproducible draws the engine accepts, and a held-out split training never crosses."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.registry import make_agent
from smear_env.game import Game
from smear_env.house_rules import (
    BASE_PRESETS,
    HOUSE_CHANGES,
    changes_from,
    draw_house_rules,
    evaluation_rule_sets,
    fingerprint,
    is_held_out,
    training_rule_sets,
)
from smear_env.observation import player_view
from smear_env.rules import get_rules
from training.rules_draw import RulesDraw


def test_a_draw_is_a_preset_with_two_or_more_changes_the_engine_plays() -> None:
    rng = random.Random(7)
    for _ in range(40):
        rules = draw_house_rules(rng)
        assert rules.name in BASE_PRESETS
        assert len(changes_from(rules)) >= 2
        game = Game(rules, seed=1, single_hand=True)  # a hand plays to its end, by the rule bot
        bots = [make_agent("rule", rules, s) for s in range(rules.num_players)]
        while not game.is_over:
            game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
        assert game.hand_results or len(game.deals) > 1  # scored, or thrown in


def test_the_same_seed_draws_the_same_sets() -> None:
    first = [fingerprint(r) for r in evaluation_rule_sets(6, seed=3)]
    assert first == [fingerprint(r) for r in evaluation_rule_sets(6, seed=3)]
    assert first != [fingerprint(r) for r in evaluation_rule_sets(6, seed=4)]
    assert len(set(first)) == 6


def test_training_never_draws_a_held_out_set_and_evaluation_only_those() -> None:
    stream = training_rule_sets(seed=0)
    trained = [next(stream) for _ in range(60)]
    assert not any(is_held_out(r) for r in trained)
    evaluated = evaluation_rule_sets(12, seed=0)
    assert all(is_held_out(r) for r in evaluated)
    assert not {fingerprint(r) for r in trained} & {fingerprint(r) for r in evaluated}


def test_the_split_is_by_the_options_not_the_name() -> None:
    rules = get_rules("ten_point", target_score=21)
    assert fingerprint(rules) == fingerprint(rules.replace(name="custom"))
    assert is_held_out(rules) == is_held_out(rules.replace(name="custom"))


def test_the_draws_cover_what_real_tables_change() -> None:
    changed: set[str] = set()
    for rules in evaluation_rule_sets(40, seed=0):
        changed |= set(changes_from(rules))
    assert {"teams", "lowest_rank", "joker_rank", "target_score", "non_bidder_cap"} <= changed
    assert changed & {"trey_points", "jick_points", "joker_points", "game_points", "jack_points", "deuce_points"}
    assert len(HOUSE_CHANGES) >= 10


def test_a_universal_run_draws_presets_and_house_sets_from_its_generator_alone() -> None:
    draw = RulesDraw(["ten_point", "minnesota"], house_share=0.5)
    a = [fingerprint(draw(np.random.default_rng(5))) for _ in range(1)]
    rng_a, rng_b = np.random.default_rng(11), np.random.default_rng(11)
    seq_a = [draw(rng_a) for _ in range(30)]
    seq_b = [draw(rng_b) for _ in range(30)]
    assert [fingerprint(r) for r in seq_a] == [fingerprint(r) for r in seq_b] and a
    assert {r.name for r in seq_a} == {"ten_point", "minnesota"}
    house = [r for r in seq_a if changes_from(r)]
    assert house and len(house) < 30 and not any(is_held_out(r) for r in house)
    only_presets = RulesDraw(["pitch_smudge"], house_share=0.0)
    assert {fingerprint(only_presets(rng_a)) for _ in range(5)} == {fingerprint(get_rules("pitch_smudge"))}


def test_a_stage_on_one_kind_of_table_draws_house_sets_with_its_options_and_presets_as_before() -> None:
    draw = RulesDraw(["ten_point", "minnesota", "smear"], house_share=0.5, only={"joker_rank": "not_trump"})
    plain = RulesDraw(["ten_point", "minnesota", "smear"], house_share=0.5)
    rng = np.random.default_rng(3)
    drawn = [draw(rng) for _ in range(40)]
    house = [r for r in drawn if changes_from(r)]
    assert house and all(r.joker_rank == "not_trump" and not is_held_out(r) for r in house)
    assert any(not changes_from(r) for r in drawn)
    assert sum(plain(rng).joker_rank == "not_trump" for _ in range(40)) < len(house)
    teams = RulesDraw(["ten_point"], house_share=1.0, only={"teams": [[0], [1], [2], [3]]})
    assert all(r.teams == ((0,), (1,), (2,), (3,)) for r in (teams(rng) for _ in range(5)))


def test_options_no_training_set_has_are_refused() -> None:
    with pytest.raises(ValueError, match="none of 2000 training house-rule sets of six_point has joker_rank = 'x'"):
        RulesDraw(["six_point"], house_share=0.5, only={"joker_rank": "x"})
