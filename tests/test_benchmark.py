"""The benchmark: task files, a scale fitted over the panel's games, ratings on it, the exploiter, the commands.

A tiny task (minnesota, few games) keeps the games quick; the shipped tasks and their published
scales are checked in ``test_benchmark_tasks.py``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.cli_helpers import assert_refused
from training.benchmark import exploit_cli, rate_cli
from training.benchmark.exploit import exploit
from training.benchmark.leaderboard import leaderboard
from training.benchmark.rate import Rating, rate, strength_of
from training.benchmark.scale import Scale, fit_scale, load_scale
from training.benchmark.tasks import load_task

ROOT = Path(__file__).resolve().parents[1]

TINY = """
version = 1
description = "a tiny minnesota task for tests"
preset = "minnesota"
env_id = "smear/minnesota-v4"
seed = 3
max_hands = 60
max_decision_ms = 100.0
{rules}
[panel]
random = 20
rule = 40
neural = 40
{exploit}
"""

TINY_EXPLOITER = """
preset = "minnesota"
seed = 1
hidden = [32, 32]
bc_hands = 0
num_games = 8
rollout_steps = 256
minibatch = 128
epochs = 1
fixed_agent = "rule"
opp_fixed = 1.0
"""


def write_task(folder: Path, name: str = "tiny", rules: str = "", exploit: str = "") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(TINY.format(rules=rules, exploit=exploit))
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny task with its scale fitted beside it."""
    folder = tmp_path_factory.mktemp("tasks")
    path = write_task(folder)
    fit_scale(load_task(path), workers=1).save(folder / "tiny.scale.json")
    return path


# ---------------------------------------------------------------- task files


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("seed = 3", "seed = 3\nseeds = 4"), "unknown field 'seeds' .did you mean 'seed'"),
        (lambda t: t.replace('preset = "minnesota"\n', ""), "missing preset"),
        (lambda t: t.replace("rule = 40", "rule = 41"), "panel 'rule': games 41 is odd"),
        (lambda t: t.replace("rule = 40\n", ""), "panel lacks rule: the scale's ends"),
        (lambda t: t.replace("[panel]", "[rules]\ntarget_score = -5\n[panel]"), "target_score"),
        (lambda t: t.replace("max_hands = 60", "max_hands = 0"), "max_hands 0 is out of range"),
        (lambda t: t.replace("version = 1", 'version = "one"'), "version 'one' is not an integer"),
        (lambda t: t + '\n[exploit]\nconfig = "x"\n', "exploit = .*expected a table of config, decisions and games"),
    ],
)
def test_a_bad_task_file_is_refused_naming_the_file_and_field(tmp_path: Path, edit, message: str) -> None:  # noqa: ANN001
    path = tmp_path / "bad.toml"
    path.write_text(edit(TINY.format(rules="", exploit="")))
    with pytest.raises(ValueError, match=f"task file '.*bad.toml': .*{message}"):
        load_task(path)


def test_a_task_defined_on_another_env_version_is_refused_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "old.toml"
    path.write_text(TINY.format(rules="", exploit="").replace("minnesota-v4", "minnesota-v3"))
    with pytest.raises(ValueError, match="defined on smear/minnesota-v3 but this smear-rl has smear/minnesota-v4"):
        rate("rule", load_task(path))


def test_a_scale_fitted_for_another_version_of_the_task_is_refused(tiny: Path, tmp_path: Path) -> None:
    path = write_task(tmp_path)
    scale = load_scale(load_task(tiny))
    replace(scale, task_version=2).save(tmp_path / "tiny.scale.json")
    with pytest.raises(ValueError, match="fitted for task 'tiny' v2 .* but the task is 'tiny' v1"):
        load_scale(load_task(path))
    (tmp_path / "tiny.scale.json").unlink()
    with pytest.raises(ValueError, match="no published scale .* smear-rl rate --fit-scale"):
        load_scale(load_task(path))


# ---------------------------------------------------------------- the scale and a rating


def test_the_scale_is_pinned_at_random_and_rule_and_round_trips_through_json(tiny: Path) -> None:
    scale = load_scale(load_task(tiny))
    assert [m.agent for m in scale.members] == ["random", "rule", "neural"]
    assert (scale.member("random").rating, scale.member("rule").rating) == (0.0, 1000.0)
    assert scale.rating(scale.unit) == 1000.0 and scale.member("neural").rating > 1000
    assert Scale.from_dict(json.loads(json.dumps(scale.to_dict()))) == scale
    assert [(p.a, p.b, p.games) for p in scale.pairs] == [("random", "rule", 20), ("random", "neural", 20),
                                                          ("rule", "neural", 40)]  # fmt: skip


def test_a_bot_rated_on_the_scale_lands_near_its_place_on_it(tiny: Path) -> None:
    task = load_task(tiny)
    rating = rate("rule", task, workers=1)
    assert rating.low <= 1000 <= rating.high  # the anchor, rated afresh: its own games against the panel
    itself = next(m for m in rating.match_ups if m.opponent == "rule")
    assert (itself.win_rate.value, itself.hand_reward.value) == (0.5, 0.0)  # duplicate deals: a bot ties itself
    assert [m.games for m in rating.match_ups] == [20, 40, 40] and rating.within_time_limit
    scale = load_scale(task)
    assert rating.rating == pytest.approx(scale.rating(strength_of(rating.match_ups, scale).value))


def test_a_rating_is_reproducible_and_round_trips_through_json(tiny: Path) -> None:
    task = load_task(tiny)
    first, again = rate("random", task, workers=1), rate("random", task, workers=2)
    assert replace(first, wall_seconds=0, mean_ms=0) == replace(again, wall_seconds=0, mean_ms=0)
    assert Rating.from_dict(json.loads(json.dumps(first.to_dict()))) == first
    assert first.rating < 500


def test_a_policy_object_is_rated_in_this_process_by_its_name(tiny: Path) -> None:
    from tests.external_policies import first_legal

    rating = rate(first_legal, load_task(tiny), workers=4)
    assert rating.name == "first_legal" and rating.agent.startswith("live:")
    assert rating.match_ups[0].win_rate.value > 0.5 > rating.match_ups[1].win_rate.value  # beats random, not rule


def test_a_stopped_round_robin_resumes_from_the_pairs_it_kept(
    tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import training.benchmark.scale as scale_module

    task, keep = load_task(tiny), tmp_path / "pairs"
    first = fit_scale(task, workers=1, keep=keep)
    assert len(list(keep.glob("*.json"))) == len(first.pairs) == 3
    played: list[str] = []
    real = scale_module.evaluate
    monkeypatch.setattr(scale_module, "evaluate", lambda a, b, *rest: played.append(f"{a}-{b}") or real(a, b, *rest))
    next(keep.glob("*random__rule.json")).write_text('{"key": ')  # as a stop while it was written
    again = fit_scale(task, workers=1, keep=keep)
    assert played == ["random-rule"]  # the two kept pairs were read back, the broken one played again
    assert again.pairs == first.pairs and again.members == first.members
    # a kept pair from another protocol is not reused
    other = replace(task, seed=task.seed + 1)
    fit_scale(other, workers=1, keep=keep)
    assert played == ["random-rule"] + ["random-rule", "random-neural", "rule-neural"]


def test_a_refit_reusing_the_published_scale_plays_only_the_new_members_pairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import agents.shipped
    import training.benchmark.scale as scale_module

    path = write_task(tmp_path, "house", rules='[rules]\nfollow = "follow_or_trump"\n')
    with monkeypatch.context() as without:  # fitted when no shipped agent played these rules
        without.setattr(agents.shipped, "universal_policy_path", lambda: None)
        before = fit_scale(load_task(path), workers=1)
    before = replace(before, code_version="0.0.1+gold")
    played: list[str] = []
    real = scale_module.evaluate
    monkeypatch.setattr(scale_module, "evaluate", lambda a, b, *rest: played.append(f"{a}-{b}") or real(a, b, *rest))
    after = fit_scale(load_task(path), workers=1, reuse=before)
    assert played == ["random-neural", "rule-neural"]  # random-rule was taken from the scale before
    kept = after.pairs[0]
    assert (kept.a, kept.b, kept.played_by) == ("random", "rule", "0.0.1+gold")
    assert kept.pair_scores == before.pairs[0].pair_scores
    assert [m.agent for m in after.members] == ["random", "rule", "neural"] and not after.absent
    assert "played by 0.0.1+gold, kept from the scale before" in after.markdown()
    assert Scale.from_dict(json.loads(json.dumps(after.to_dict()))) == after


def test_a_house_rule_task_without_a_shipped_agent_says_so_and_rates_on_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import agents.shipped

    monkeypatch.setattr(agents.shipped, "universal_policy_path", lambda: None)  # as a checkout without universal.npz
    path = write_task(tmp_path, "house", rules='[rules]\nfollow = "follow_or_trump"\n')
    task = load_task(path)
    scale = fit_scale(task, workers=1)
    assert [m.agent for m in scale.members] == ["random", "rule"]
    assert "no shipped agent plays these rules" in scale.absent["neural"]
    scale.save(tmp_path / "house.scale.json")
    rating = rate("rule", task, workers=1)
    assert [m.opponent for m in rating.match_ups] == ["random", "rule"]
    assert "no shipped agent plays these rules" in rating.not_on_scale["neural"]
    assert "neural: not on the scale, not played" in rating.markdown()
    # once a shipped agent plays the rules (here the universal agent, back), the scale still has no strength for it
    monkeypatch.undo()
    rating = rate("rule", task, workers=1)
    assert [m.opponent for m in rating.match_ups] == ["random", "rule"]
    assert rating.not_on_scale["neural"] == "it plays these rules now, but the scale was fitted without it"


def test_a_panel_whose_network_changed_since_the_scale_was_fitted_is_refused(tiny: Path, tmp_path: Path) -> None:
    path = write_task(tmp_path)
    scale = load_scale(load_task(tiny))
    members = tuple(replace(m, weights="0" * 32 + " greedy") if m.agent == "neural" else m for m in scale.members)
    replace(scale, members=members).save(tmp_path / "tiny.scale.json")
    with pytest.raises(ValueError, match="not the one its scale was fitted with: neural"):
        rate("rule", load_task(path))


# ---------------------------------------------------------------- the exploiter


def test_the_exploiter_trains_its_budget_against_the_frozen_agent_then_plays_it(tmp_path: Path) -> None:
    config = tmp_path / "tiny_exploiter.toml"
    config.write_text(TINY_EXPLOITER)
    task = load_task(write_task(tmp_path, exploit=f'[exploit]\nconfig = "{config}"\ndecisions = 300\ngames = 4\n'))
    result = exploit("rule", task, tmp_path / "run", workers=1)
    assert result.decisions >= 300 and result.games == 4 and result.config == str(config)
    assert (tmp_path / "run" / "agent.pt").is_file() and 0 <= result.win_rate.value <= 1
    assert "Exploiter of rule" in result.markdown()
    # its start played the same deals before training: the gain is the paired difference, what training found
    assert (tmp_path / "run" / "start.pt").is_file() and 0 <= result.start_win_rate.value <= 1
    assert result.gain.n == 2 and result.gain.low <= result.gain.value <= result.gain.high
    assert result.win_rate.value - result.start_win_rate.value == pytest.approx(result.gain.value)
    assert result.standard and result.budget == 300 and result.device == "cpu" and result.torch_threads >= 1
    assert result.training_config["fixed_agent"] == "rule" and result.training_config["seed"] == 1
    assert "a **gain of" in result.markdown() and "not the task's budget" not in result.markdown()
    longer = exploit("rule", task, tmp_path / "longer", workers=1, decisions=400)
    assert not longer.standard and "**not the task's budget**: 400 asked" in longer.markdown()


# ---------------------------------------------------------------- the commands


def test_rate_prints_a_rating_and_writes_its_json_with_the_command(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rule.json"
    rate_cli.main(["rule", "--task", str(tiny), "--workers", "1", "--no-progress", "--json", str(out)])
    printed = capsys.readouterr().out
    rating = Rating.from_dict(json.loads(out.read_text()))
    assert f"rating **{rating.rating_text()}**" in printed
    assert rating.command == f"smear-rl rate rule --task {tiny}"
    table = leaderboard([rating], [load_scale(load_task(tiny))])
    assert f"| rule | {rating.rating_text()} | 1.000 | 0.500 |" in table  # against random, itself, then neural
    assert "| rule (panel) | 1000 | 0.850 | - |" in table  # the scale's round robin: random won 3 of 20
    with pytest.raises(ValueError, match="ratings of tiny v1: no published scale of that task and version here"):
        leaderboard([rating], [])


def test_a_rating_is_tied_to_the_scale_and_protocol_it_was_read_on(tiny: Path, tmp_path: Path) -> None:
    """A copied task with other panel counts once rated on the published scale and sat in its leaderboard."""
    import dataclasses

    task = load_task(tiny)
    scale = load_scale(task)
    assert (scale.preset, scale.rules, scale.panel, scale.max_decision_ms) == ("minnesota", {}, task.panel, 100.0)
    rating = rate("rule", task, workers=1)
    assert rating.scale_id == scale.scale_id() and len(rating.scale_id) == 12
    assert f"id `{scale.scale_id()}`" in rating.markdown() and f"scale `{scale.scale_id()}`" in leaderboard(
        [rating], [scale]
    )
    other = dataclasses.replace(scale, published="1999-01-01")
    with pytest.raises(ValueError, match=f"was read on scale '{scale.scale_id()}', not the published scale"):
        leaderboard([rating], [other])
    with pytest.raises(ValueError, match="was read on a scale it does not name"):
        leaderboard([dataclasses.replace(rating, scale_id="")], [scale])
    fewer = dataclasses.replace(rating, match_ups=(dataclasses.replace(rating.match_ups[0], games=2),))
    with pytest.raises(ValueError, match=r"played \['random'\], and the scale's members are \['neural', 'random'"):
        leaderboard([fewer], [scale])
    ups = (dataclasses.replace(rating.match_ups[0], games=2), *rating.match_ups[1:])
    with pytest.raises(ValueError, match="played 2 games against random, where the protocol says 20"):
        leaderboard([dataclasses.replace(rating, match_ups=ups)], [scale])
    with pytest.raises(ValueError, match="held to 1e\\+06 ms a decision, the protocol's limit is 100 ms"):
        leaderboard([dataclasses.replace(rating, max_decision_ms=1e6)], [scale])
    copy = tmp_path / "tiny.toml"  # the task edited, its scale file kept
    copy.write_text(tiny.read_text().replace("rule = 40", "rule = 4"))
    (tmp_path / "tiny.scale.json").write_text(tiny.with_name("tiny.scale.json").read_text())
    with pytest.raises(ValueError, match=r"was fitted with panel .* and the task file .* says .*'rule': 4"):
        load_scale(load_task(copy))
    old = {k: v for k, v in json.loads(tiny.with_name("tiny.scale.json").read_text()).items() if k != "panel"}
    (tmp_path / "tiny.scale.json").write_text(json.dumps(old))  # a scale written before it recorded its protocol
    with pytest.raises(ValueError, match=r"fitted before scales recorded their protocol \(panel and the rest\): fit"):
        load_scale(load_task(copy))


def test_a_reduced_rating_plays_a_share_of_each_match_up_and_says_so_wherever_it_is_shown(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rule.json"
    rate_cli.main(["rule", "--task", str(tiny), "--workers", "1", "--no-progress", "--json", str(out),
                   "--fraction", "0.25"])  # fmt: skip
    assert "**reduced: 25% of the protocol's games**, so not the protocol's rating" in capsys.readouterr().out
    rating = Rating.from_dict(json.loads(out.read_text()))
    assert [m.games for m in rating.match_ups] == [6, 10, 10]  # 20, 40, 40 a quarter each, to even deal pairs
    assert rating.games_fraction == 0.25 and rating.command == f"smear-rl rate rule --task {tiny} --fraction 0.25"
    assert "| rule (reduced: 25% of the protocol's games) |" in leaderboard([rating], [load_scale(load_task(tiny))])


def test_a_runs_snapshots_become_a_curve_the_plot_command_reads(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from training.plot import read_curve

    (tmp_path / "snapshots.csv").write_text("train_minutes,decisions,agent\n1.5,1000,random\n3.0,2000,rule\n")
    rate_cli.main(["--curve", str(tmp_path / "snapshots.csv"), "--task", str(tiny), "--games", "8", "--workers", "1",
                   "--no-progress"])  # fmt: skip
    assert "| 3.0 | 2,000 | 0.500 [" in capsys.readouterr().out  # rule against rule: every deal pair tied
    (series,) = read_curve(tmp_path / "curve_tiny.csv").values()
    assert [(p["train_minutes"], p["win_rate"]) for p in series][1] == (3.0, 0.5)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rule"], "--task is required"),
        (["rule", "--task", "nosuch"], "task 'nosuch' is neither a task file nor a shipped task"),
        (["--fit-scale", "rule", "--task", "partnership"], "give an agent to rate, or --fit-scale without one"),
        (["nobody", "--task", "TINY"], "unknown agent 'nobody' for minnesota"),
        (["rule", "--task", "TINY", "--json", "/nonexistent/x.json"], "folder '/nonexistent' does not exist"),
        (["--table", "/nonexistent.json"], "cannot be read"),
        (["--table", "TINY_SCALE"], r"tiny.scale.json: not a rating written by smear-rl rate --json \(KeyError"),
        (["--table", "TINY"], r"tiny.toml: not JSON \(Expecting value at line 2\)"),
        (["--curve", "/nonexistent.csv", "--task", "TINY"], "snapshots '/nonexistent.csv' cannot be read"),
        (["--curve", "/nonexistent.csv"], "--task is required with --curve"),
        (["--curve", "/nonexistent.csv", "--task", "TINY", "--games", "3"], "--games 3 is odd"),
        (["rule", "--task", "TINY", "--workers", "0"], "0 is out of range"),
        (["rule", "--task", "TINY", "--fraction", "0"], r"--fraction 0: expected a share in \(0, 1\]"),
        (["--fit-scale", "--task", "TINY", "--fraction", "0.5"], r"--fraction 0.5: expected a share in \(0, 1\]"),
        (["rule", "--task", "TINY", "--keep-pairs", "/tmp/x"], "--keep-pairs is about the round robin's pairs"),
        (["rule", "--task", "TINY", "--reuse-published"], "--reuse-published is about the round robin's pairs"),
        (
            ["--fit-scale", "--task", "TINY", "--keep-pairs", "/proc/x"],
            "--keep-pairs '/proc/x': cannot make the folder",
        ),
    ],
)
def test_rate_refuses_bad_input_in_one_line(tiny: Path, argv: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    named = {"TINY": str(tiny), "TINY_SCALE": str(tiny.with_name("tiny.scale.json"))}
    assert_refused(rate_cli.main, [named.get(a, a) for a in argv], capsys, message)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rule", "--task", "HOUSE", "--out", "OUT"], "plays house rules .* must be universal to play them"),
        (["rule", "--task", "TINY", "--out", "OUT"], "has no standard exploiter"),
        (["nobody", "--task", "partnership", "--out", "OUT"], "fixed_agent = 'nobody'"),
        (["rule", "--task", "partnership", "--out", "FILE"], "--out folder .* is a file"),
    ],
)
def test_exploit_refuses_bad_input_before_training(tiny: Path, tmp_path: Path, argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    (tmp_path / "file").write_text("")
    (tmp_path / "tiny_exploiter.toml").write_text(TINY_EXPLOITER)  # not universal: it cannot play house rules
    exploiter = f'[exploit]\nconfig = "{tmp_path / "tiny_exploiter.toml"}"\ndecisions = 300\ngames = 4\n'
    house = write_task(tmp_path, "house", rules='[rules]\nfollow = "follow_or_trump"\n', exploit=exploiter)
    names = {"TINY": str(tiny), "HOUSE": str(house), "OUT": str(tmp_path / "run"), "FILE": str(tmp_path / "file")}
    assert_refused(exploit_cli.main, [names.get(a, a) for a in argv], capsys, message)
    assert not (tmp_path / "run").exists()
