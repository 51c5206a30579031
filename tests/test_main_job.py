"""The main job teaches: it says what it will do, its bar follows the limit it stops at, it measures the agent
before and after PPO, and it ends with what it made, one table of how it plays, and what to try next."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("torch")

from training import train  # noqa: E402
from training.config import config_from_dict, load_config  # noqa: E402
from training.ppo import CURVE_FIELDS, Trainer  # noqa: E402
from training.progress import RunProgress  # noqa: E402
from training.run_summary import plan, standings, summary  # noqa: E402

TINY = {
    "total_steps": 400, "num_games": 4, "rollout_steps": 200, "hidden": [16], "minibatch": 64, "epochs": 1,
    "bc_hands": 8, "bc_chunk_hands": 8, "checkpoint_every": 1, "eval_matches": 2, "final_eval_matches": 4,
    "eval_opponents": ["rule", "neural"], "eval_at_start": True, "eval_every_minutes": 1e-9,
}  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny run evaluated at the start, after every update (the shortest interval) and at the end."""
    out = tmp_path_factory.mktemp("quick")
    Trainer(config_from_dict(TINY), out).run(progress=False)
    return out


def curve_rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader((out / "curve.csv").open()))


def test_the_bar_fills_by_whichever_limit_the_run_will_stop_at() -> None:
    bar = RunProgress(total_steps=1000, time_limit_minutes=10, enabled=False)
    assert bar.share(step=250, seconds=60) == 0.25  # the decisions are further along
    assert bar.share(step=100, seconds=300) == 0.5  # the clock is: a slow machine stops by time
    assert bar.share(step=2000, seconds=0) == 1.0
    assert bar.counts(step=412_660, seconds=318) == "412,660/1,000 decisions, 5.3/10 min"
    untimed = RunProgress(total_steps=1000, time_limit_minutes=0, enabled=False)
    assert untimed.share(step=100, seconds=10_000) == 0.1 and untimed.counts(100, 90) == "100/1,000 decisions, 1.5 min"


def test_the_run_is_measured_before_ppo_and_once_at_its_end(run: Path) -> None:
    rows = curve_rows(run)
    assert list(rows[0]) == CURVE_FIELDS
    first, last = rows[0]["step"], rows[-1]["step"]
    assert first == "0" and [r["opponent"] for r in rows if r["step"] == first] == ["rule", "neural"]
    at_end = [r for r in rows if r["step"] == last]
    assert [r["opponent"] for r in at_end] == ["rule", "neural"]  # the last update's own evaluation is the final's
    assert {r["matches"] for r in at_end} == {"4"} and all(r["hand_reward"] for r in rows)


def test_a_new_run_in_an_old_runs_folder_starts_its_own_curve(run: Path, tmp_path: Path) -> None:
    (tmp_path / "curve.csv").write_text("train_minutes,step,opponent\n9,9,old\n")
    Trainer(config_from_dict(TINY | {"bc_hands": 0, "total_steps": 1, "eval_at_start": False}), tmp_path).run(False)
    assert [row["opponent"] for row in curve_rows(tmp_path)] == ["rule", "neural"]


def test_the_closing_words_say_what_was_made_how_it_plays_and_what_next(run: Path) -> None:
    config = config_from_dict(TINY)
    table = {s.opponent: s for s in standings(run / "curve.csv")}
    assert set(table) == {"rule", "neural"} and table["rule"].start is not None and table["rule"].games == 4
    text = summary(run, config, step=400, train_minutes=0.5)
    assert f"{run / 'agent.pt'} is a ten_point agent: it imitated the rule bot for 8 hands" in " ".join(text.split())
    header = next(line for line in text.splitlines() if line.startswith("against"))
    assert re.split(r"\s{2,}", header) == [
        "against",
        "before PPO",
        "at the end [95% interval]",
        "games",
        "points a hand",
    ]
    assert any(line.startswith("the rule bot") for line in text.splitlines())
    assert any(line.startswith("the shipped agent") for line in text.splitlines())
    assert "points a hand: its side's score change less the opponent's, sets counted" in " ".join(text.split())
    assert f"smear-rl train --resume {run / 'checkpoint.pt'}" in text and "Next:" in text


def test_a_first_evaluation_after_some_training_is_named_by_its_minute_not_before_ppo(tmp_path: Path) -> None:
    rows = [
        "train_minutes,step,opponent,matches,win_rate,ci_low,ci_high,points_diff,hand_reward",
        "10.05,550663,fixed,200,0.6,0.53,0.66,-0.27,0.34",
        "30.05,1618587,fixed,1000,0.537,0.506,0.568,-0.36,0.22",
    ]
    (tmp_path / "curve.csv").write_text("\n".join(rows) + "\n")
    text = " ".join(summary(tmp_path, config_from_dict(TINY), step=1618587, train_minutes=30.1).split())
    assert "against at 10 min at the end [95% interval]" in text and "before PPO" not in text
    assert "after 10 training minutes and at the end" in text
    assert "From 10 training minutes to the end PPO took it from 0.60 to 0.54 against the fixed agent" in text


def test_the_verdict_follows_the_interval() -> None:
    from training.run_summary import Standing

    assert Standing("rule", 0.05, 0.62, 0.57, 0.67, 400, 1.9).verdict() == "it beats the rule bot"
    assert Standing("neural", None, 0.05, 0.03, 0.08, 400, -4.0).verdict() == "the shipped agent still beats it"
    assert "level with the rule bot" in Standing("rule", None, 0.5, 0.45, 0.55, 400, 0.0).verdict()


def test_the_first_words_say_what_it_trains_and_for_how_long() -> None:
    words = " ".join(plan(Path("runs/quick"), load_config("ten_point_quick")).split())
    assert words.startswith("Training a ten_point agent into runs/quick: first it imitates the rule bot's moves")
    assert "until 1,200,000 decisions or 25 training minutes, whichever comes first" in words
    assert "measured against the rule bot and the shipped agent at the start and at the end" in words


def test_the_command_prints_the_plan_and_the_closing_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text('preset = "ten_point"\n' + "".join(f"{k} = {json.dumps(v)}\n" for k, v in TINY.items()))
    train.main(["--config", str(config), "--out", str(tmp_path / "out"), "--no-progress",
                "--set", "eval_every_minutes=0", "--set", "eval_opponents=['rule']"])  # fmt: skip
    out = capsys.readouterr().out
    assert out.startswith("Training a ten_point agent into") and "Done." in out and "How it plays:" in out


def test_the_main_jobs_config_measures_against_the_rule_bot_and_the_shipped_agent() -> None:
    config = load_config("ten_point_quick")
    assert config.eval_opponents == ["rule", "neural"] and config.eval_at_start and config.total_steps > 100_000
    with pytest.raises(ValueError, match="expected names among"):
        config_from_dict({"eval_opponents": ["nobody"]})
