"""Focused universal runs: house-rule sets scored by the starting agent, then drawn in proportion to its losses."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from smear_env.house_rules import fingerprint, is_held_out  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from training import ppo  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.focus import FOCUS_FILE, FocusSet, focus_rule_sets, loss_weights  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.rules_draw import RulesDraw  # noqa: E402
from training.run_summary import plan  # noqa: E402

TINY = {
    "preset": "ten_point", "universal": True, "train_presets": ["ten_point", "minnesota", "ten_point_5p"],
    "house_share": 0.5, "hidden": [16], "card_head": 18, "num_games": 4, "rollout_steps": 96, "minibatch": 64,
    "epochs": 1, "bc_hands": 0, "total_steps": 192, "eval_every_minutes": 0, "final_eval_matches": 2,
    "eval_opponents": ["random"], "device": "cpu", "checkpoint_every": 1,
}  # fmt: skip


def test_a_set_is_drawn_in_proportion_to_the_games_lost_there_smoothed() -> None:
    # won 10, 5 and 0 of 10: lost 0, 5 and 10, smoothed to 1/12, 6/12 and 11/12 of a draw
    assert loss_weights([10, 5, 0], [10, 10, 10]) == pytest.approx([1 / 18, 6 / 18, 11 / 18])
    assert loss_weights([4, 4], [4, 4]) == pytest.approx([0.5, 0.5])  # never lost anywhere: even shares, not none
    assert loss_weights([10, 5, 0], [10, 10, 10], power=2) == pytest.approx([1 / 158, 36 / 158, 121 / 158])


def test_focus_sets_are_distinct_training_sets_of_the_runs_presets_the_same_for_a_seed() -> None:
    sets = focus_rule_sets(12, seed=3, presets=["minnesota", "smear"])
    assert len({fingerprint(r) for r in sets}) == 12
    assert not any(is_held_out(r) for r in sets)  # never a set the agent is measured on
    assert {r.name for r in sets} <= {"minnesota", "smear"}
    assert [fingerprint(r) for r in sets] == [fingerprint(r) for r in focus_rule_sets(12, 3, ["minnesota", "smear"])]
    assert [fingerprint(r) for r in sets] != [fingerprint(r) for r in focus_rule_sets(12, 4, ["minnesota", "smear"])]


def test_house_rule_matches_come_from_the_focus_sets_by_weight() -> None:
    focus = [(get_rules("ten_point", target_score=21), 0.7), (get_rules("minnesota", jokers=0), 0.3)]
    draw = RulesDraw(["smear"], house_share=0.5, focus=focus)
    rng = np.random.default_rng(5)
    counts = Counter(fingerprint(draw(rng)) for _ in range(4000))
    preset, heavy, light = (counts[fingerprint(r)] for r in (get_rules("smear"), focus[0][0], focus[1][0]))
    assert preset + heavy + light == 4000  # nothing else is ever drawn
    assert 1850 < preset < 2150  # the presets' half is untouched
    assert heavy / (heavy + light) == pytest.approx(0.7, abs=0.04)


def test_a_focus_set_round_trips_through_json_with_the_engines_tuples() -> None:
    teams = {"teams": ((0,), (1,), (2,), (3,)), "discard_trump": "when_forced"}
    focus = FocusSet("smear", teams, 40, 12.5, 0.25)
    back = FocusSet.from_dict(json.loads(json.dumps(focus.to_dict())))
    assert back == focus and back.rules() == get_rules("smear", **teams)


@pytest.fixture(scope="module")
def start_agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("start")
    Trainer(config_from_dict({**TINY, "total_steps": 96}), out).run(progress=False)
    return out / "agent.pt"


def test_a_focused_run_scores_its_start_then_plays_only_those_sets_and_resumes_with_them(
    start_agent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = config_from_dict({**TINY, "init_from": str(start_agent), "focus_sets": 3, "focus_games": 2})
    trainer = Trainer(config, tmp_path)
    assert len(trainer.focus) == 3 and sum(f.weight for f in trainer.focus) == pytest.approx(1)
    assert all(f.games == 2 and 0 <= f.won <= 2 for f in trainer.focus)
    focused = {fingerprint(f.rules()) for f in trainer.focus}
    allowed = {fingerprint(get_rules(p)) for p in TINY["train_presets"]} | focused
    for _ in range(3):
        trainer.collector.collect(96, trainer._learner_policy(), [])
        assert {fingerprint(m.game.rules) for m in trainer.collector.matches} <= allowed
    trainer.run(progress=False, max_updates=1)
    written = json.loads((tmp_path / FOCUS_FILE).read_text())
    assert {fingerprint(FocusSet.from_dict(f).rules()) for f in written} == focused
    assert [f["weight"] for f in written] == sorted((f["weight"] for f in written), reverse=True)

    def no_second_scoring(*args: object, **kwargs: object) -> None:
        raise AssertionError("a resumed run draws from its saved sets, it does not score again")

    monkeypatch.setattr(ppo, "score_focus_sets", no_second_scoring)
    resumed = Trainer(None, tmp_path, resume=tmp_path / "checkpoint.pt")
    assert resumed.focus == trainer.focus
    resumed.run(progress=False)
    assert load_checkpoint(tmp_path / "agent.pt")["config"]["focus_sets"] == 3
    assert "house rules 0.5 from 3 sets weighted by its losses" in " ".join(plan(tmp_path, config).split())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"focus_sets": 4}, "focus_sets = 4: the sets are scored by the agent the run starts from: set init_from"),
        ({"focus_sets": 4, "init_from": "a.pt", "universal": False}, "focused house-rule sets need universal"),
        ({"focus_sets": 4, "init_from": "a.pt", "house_share": 0.0}, "expected house_share > 0"),
        ({"focus_sets": 4, "init_from": "a.pt", "house_rules": {"target_score": 21}}, "plays house_rules already"),
        ({"focus_sets": 4, "init_from": "a.pt", "focus_games": 3}, "focus_games = 3: expected an even number"),
        ({"focus_sets": -1}, "focus_sets = -1: expected zero or more"),
        ({"focus_sets": 4, "init_from": "a.pt", "focus_power": -1.0}, "focus_power = -1.0: expected zero"),
    ],
)
def test_a_focused_run_is_checked_before_it_starts(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})


def test_an_agent_that_cannot_start_the_run_is_refused_before_any_set_is_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def scored(*args: object, **kwargs: object) -> None:
        raise AssertionError("scored before the start agent was checked")

    monkeypatch.setattr(ppo, "score_focus_sets", scored)
    config = config_from_dict({**TINY, "init_from": str(tmp_path / "missing.pt"), "focus_sets": 3})
    with pytest.raises(ValueError, match="init_from"):
        Trainer(config, tmp_path / "run")
    assert not (tmp_path / "run").exists()
