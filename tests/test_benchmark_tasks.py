"""The shipped benchmark tasks, their published scales and the committed ratings: what a citation relies on.

Each task is defined on this smear-rl's env, its scale was fitted on its panel as it is now
(a new shipped network fails here: its scale and the ratings on it are due again), refitting
each scale from the games it records gives its published strengths, every committed rating
re-derives from its recorded deal pairs on the scale as published, and the leaderboard page
shows exactly what those files say.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from training.benchmark.exploit import exploiter_config
from training.benchmark.rate import Rating, check_panel, reduced_games, strength_of
from training.benchmark.rate_cli import table_of
from training.benchmark.scale import fit_members, load_scale
from training.benchmark.tasks import list_tasks, load_task
from training.config import load_config

ROOT = Path(__file__).resolve().parents[1]
RATINGS = sorted((ROOT / "docs" / "benchmark" / "ratings").glob("*/*.json"))
LEADERBOARD = ROOT / "docs" / "benchmark" / "leaderboard.md"


def _ratings() -> list[Rating]:
    return [Rating.from_dict(json.loads(path.read_text())) for path in RATINGS]


#: tasks whose scale is not fitted yet (docs/benchmark/tasks.md says so): they cannot rate until it is
UNSCALED: set[str] = set()
SCALED = [n for n in list_tasks() if n not in UNSCALED]


@pytest.mark.parametrize("name", list_tasks())
def test_every_task_is_defined_on_this_env_and_has_a_scale_unless_listed_as_unscaled(name: str) -> None:
    task = load_task(name)
    task.check_env()  # fails when the env's version moved under the task: a new task version and scale are due
    assert task.scale_path.is_file() == (name not in UNSCALED)


@pytest.mark.parametrize("name", SCALED)
def test_every_published_scale_is_fitted_on_its_panel_as_it_is(name: str) -> None:
    task = load_task(name)
    scale = load_scale(task)
    not_on_scale = check_panel(task, scale)  # fails when a panel network changed since the scale was fitted
    assert {m.agent for m in scale.members} | set(not_on_scale) == set(task.panel)
    assert scale.member("random").rating == 0 and scale.member("rule").rating == 1000


@pytest.mark.parametrize("name", SCALED)
def test_refitting_a_published_scale_from_its_recorded_games_gives_its_strengths(name: str) -> None:
    scale = load_scale(load_task(name))
    members, unit = fit_members(scale.pairs, {m.agent: m.weights for m in scale.members})
    assert unit == pytest.approx(scale.unit, rel=1e-9)
    assert [m.strength for m in members] == pytest.approx([m.strength for m in scale.members], abs=1e-9)
    assert all(p.games == 2 * len(p.pair_scores) == p.wins + p.draws + p.losses for p in scale.pairs)


@pytest.mark.parametrize("name", [n for n in list_tasks() if load_task(n).exploit])
def test_every_task_exploiter_starts_from_a_shipped_config_of_its_preset(name: str) -> None:
    task = load_task(name)
    config = exploiter_config(task, "rule")
    assert config.preset == task.preset and config.fixed_agent == "rule" and config.opp_fixed == 1.0
    assert config.total_steps == task.exploit.decisions and config.time_limit_minutes == 0
    assert not config.init_from or Path(config.init_from).is_file()
    assert load_config(task.exploit.config).preset == task.preset


def test_the_house_rules_task_plays_rules_no_preset_plays() -> None:
    task = load_task("house_rules")
    assert task.rules and task.game_rules().to_dict() != load_task("partnership").game_rules().to_dict()
    config = exploiter_config(task, "rule")  # its exploiter: a universal network playing the task's rules throughout
    assert config.universal and config.house_rules == task.rules and config.train_presets == [task.preset]
    assert (config.fixed_agent, config.opp_fixed) == ("rule", 1.0)


@pytest.mark.parametrize("path", RATINGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_committed_rating_re_derives_from_its_deal_pairs_on_the_published_scale(path: Path) -> None:
    rating = Rating.from_dict(json.loads(path.read_text()))
    task = load_task(rating.task)
    assert (rating.task_version, rating.env_id) == (task.version, task.env_id)
    assert [m.games for m in rating.match_ups] == [
        reduced_games(task.panel[m.opponent], rating.games_fraction) for m in rating.match_ups
    ]
    scale = load_scale(task)
    assert rating.scale_published == scale.published
    assert rating.rating == pytest.approx(scale.rating(strength_of(rating.match_ups, scale).value), abs=1e-6)
    assert rating.command.startswith("smear-rl rate ") and f"--task {task.name}" in rating.command
    assert ("--fraction" in rating.command) == rating.reduced  # a reduced rating says so wherever it is shown


def test_the_leaderboard_page_shows_the_scales_and_ratings_as_they_are() -> None:
    page = LEADERBOARD.read_text()
    found = re.search(r"<!-- leaderboard: .*? -->\n(.*?)\n<!-- end of the leaderboard -->", page, re.S)
    assert found, "the leaderboard page lost its generated block's markers"
    assert found.group(1).strip() == table_of(_ratings()).strip(), (
        "docs/benchmark/leaderboard.md is stale: paste the output of "
        "smear-rl rate --table docs/benchmark/ratings/*/*.json between its markers"
    )
