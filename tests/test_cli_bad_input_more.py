"""More bad input at the command line: exit code 2, one line saying what was wrong, no traceback, nothing changed.

Outside policies that fail to load (``evaluate``), results files whose fields have the
wrong types (``pool``, ``compare``), and ``demo``'s and ``play``'s numbers and files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents import demo
from smear_rl.play import cli as play
from tests.cli_helpers import assert_refused
from training import compare, pool
from training.evaluate import EvalResult, evaluate
from training.evaluate import cli as evaluate_cli
from training.evaluate.results import read_results

EVAL = ["random", "--preset", "ten_point", "--matches", "2", "--workers", "1", "--max-hands", "2", "--no-progress"]


# ---------------------------------------------------------------------- outside policies that cannot be loaded
def _policy_files(folder: Path) -> None:
    (folder / "syn.py").write_text("def act(:\n")
    (folder / "boom.py").write_text('raise RuntimeError("kaboom")\n')
    (folder / "val.py").write_text('raise ValueError("bad config")\n')
    (folder / "afile").write_text("hello\n")
    (folder / "plain").mkdir()


@pytest.mark.parametrize(
    ("spec", "library", "failure"),
    [
        ("syn.py:act", None, "SyntaxError"),
        ("boom.py:act", None, "RuntimeError: kaboom"),
        ("val.py:act", None, "ValueError: bad config"),
        ("sb3:.", "stable_baselines3", "IsADirectoryError"),
        ("torchrl:afile", "torch", "UnpicklingError"),
        ("rllib:afile", "ray.rllib", "Error"),
        ("rllib:plain", "ray.rllib", "Error"),
    ],
)
def test_a_policy_that_fails_to_load_is_named_with_the_failure(
    spec: str, library: str | None, failure: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    if library:
        pytest.importorskip(library)
    _policy_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert_refused(evaluate_cli.main, [spec, *EVAL], capsys,
                   r"^smear-rl evaluate: error: policy '[^']*' cannot be loaded: .*" + failure)  # fmt: skip


# ---------------------------------------------------------------------- results files with fields of the wrong type
@pytest.fixture(scope="module")
def run() -> EvalResult:
    return evaluate("random", "random", "four_point", matches=2, seed=1, workers=1, max_hands=2)


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rule_overrides": [1]}, r"field 'rule_overrides' is \[1\] \(list\): expected an object of rule options"),
        ({"seed": "0"}, r"field 'seed' is '0' \(str\): expected an integer"),
        ({"matches": True}, r"field 'matches' is True \(bool\): expected an integer >= 0"),
        ({"max_hands": 2.5}, r"field 'max_hands' is 2.5 \(float\): expected an integer >= 0"),
        ({"stopped": None}, r"field 'stopped' is None \(NoneType\): expected an integer >= 0"),
        ({"agent_a": 7}, r"field 'agent_a' is 7 \(int\): expected a string"),
        ({"preset": ["four_point"]}, r"field 'preset' is \['four_point'\] \(list\): expected a string"),
        ({"start": "early"}, r"field 'start' is 'early' \(str\): expected 'new' or 'late'"),
        ({"weights": [None]}, r"field 'weights' is \[None\] \(list\): expected a list of two"),
        ({"colour": "red"}, r"unknown field 'colour'"),
    ],
)
def test_pool_and_compare_refuse_a_field_of_the_wrong_type(
    change: dict[str, Any], message: str, run: EvalResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path / "good.json", run.to_dict())
    bad = _write(tmp_path / "bad.json", {**run.to_dict(), **change})
    before = bad.read_bytes()
    pattern = r"bad\.json: not an evaluation result written by smear-rl evaluate --json \(" + message
    assert_refused(pool.main, [str(bad)], capsys, r"^smear-rl pool: error: .*" + pattern)
    assert_refused(compare.main, [str(good), "--baseline", str(bad)], capsys, r"^smear-rl compare: error: .*" + pattern)
    assert bad.read_bytes() == before


def test_a_seed_as_text_is_not_another_run_of_the_same_seed(
    run: EvalResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _write(tmp_path / "first.json", run.to_dict())
    again = _write(tmp_path / "again.json", {**run.to_dict(), "seed": str(run.seed)})
    assert_refused(pool.main, [str(first), str(again)], capsys, r"again\.json: .*field 'seed' is '1' \(str\)")


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [
        ("reports", {"wins": "1"}, r"field 'reports\[0\]\.wins' is '1' \(str\): expected an integer >= 0"),
        ("reports", {"win_rate": {"value": "x", "low": 0, "high": 1, "n": 2}}, r"'reports\[0\]\.win_rate\.value'"),
        ("games", {"stopped": 0}, r"field 'games\[0\]\.stopped' is 0 \(int\): expected true or false"),
        ("games", {"a_seats": "0,2"}, r"field 'games\[0\]\.a_seats' is '0,2' \(str\): expected a list of seats"),
    ],
)
def test_the_reports_and_games_inside_are_checked_too(
    where: str, change: dict[str, Any], message: str, run: EvalResult, tmp_path: Path
) -> None:
    data = json.loads(json.dumps(run.to_dict()))  # its lists as JSON gives them
    data[where][0] = {**data[where][0], **change}
    with pytest.raises(ValueError, match=r"bad\.json: not an evaluation result .*" + message):
        read_results(_write(tmp_path / "bad.json", data))


def test_a_good_results_file_still_reads_back_equal(run: EvalResult, tmp_path: Path) -> None:
    assert read_results(_write(tmp_path / "good.json", run.to_dict())) == [run]


# ---------------------------------------------------------------------- smear-rl demo
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-5"], r"argument --seed: -5 is out of range: expected an integer >= 0"),
        (["--max-hands", "0"], r"argument --max-hands: 0 is out of range: expected an integer >= 1"),
        (["--max-hands", "-3"], r"argument --max-hands: -3 is out of range: expected an integer >= 1"),
        (["--max-hands", "two"], r"argument --max-hands: 'two' is not an integer >= 1"),
    ],
)
def test_demo_refuses_a_negative_seed_and_no_hands(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_refused(demo.main, argv, capsys, r"^smear-rl demo: error: " + message)


# ---------------------------------------------------------------------- smear-rl play
@pytest.mark.parametrize(
    ("delay", "refusal"),
    [
        ("nan", "nan is not finite: expected a finite number >= 0"),
        ("inf", "inf is not finite: expected a finite number >= 0"),
        ("-1", r"-1\.0 is out of range: expected a finite number >= 0"),
        ("soon", "'soon' is not a number"),
    ],
)
def test_play_refuses_a_delay_that_is_not_a_finite_number_of_seconds(
    delay: str, refusal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_refused(lambda argv: play.main(argv, read=lambda prompt: "quit"), ["--delay", delay], capsys,
                   "^smear-rl play: error: argument --delay: " + refusal)  # fmt: skip


def test_play_refuses_a_record_it_could_not_save_before_the_first_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(argv: list[str]) -> None:
        play.main(argv, read=lambda prompt: pytest.fail("the game started"))

    assert_refused(refused, ["--delay", "0", "--record", str(tmp_path)], capsys,
                   r"^error: --record file '.*' is a folder: expected a file name")  # fmt: skip
    assert list(tmp_path.iterdir()) == []


def test_a_folder_given_as_an_agent_is_called_a_folder_not_missing(tmp_path: Path) -> None:
    from agents.neural_agent import load_policy
    from agents.registry import make_agent

    with pytest.raises(ValueError, match=r"checkpoint '.*' is a folder: expected a checkpoint or policy file"):
        make_agent(str(tmp_path), "ten_point")
    with pytest.raises(ValueError, match=r"policy file '.*' is a folder"):
        load_policy(tmp_path)


def test_a_results_dataclass_field_without_a_check_is_caught_as_the_module_loads() -> None:
    """A new field of a results dataclass must get its check, or reading results back would not check it."""
    import dataclasses

    from training.evaluate import checks

    @dataclasses.dataclass
    class Row:
        seed: int
        note: str = ""

    with pytest.raises(TypeError, match=r"fields without a check \['note'\], checks of no field \['sede'\]"):
        checks.field_checks(Row, seed=checks.INT, sede=checks.INT)
    assert checks.field_checks(Row, seed=checks.INT, note=checks.STR).required == ("seed",)


def test_demo_reads_a_bot_spec_with_several_options_as_one_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """It once split 'search:samples=4,time_budget=0.05' at its comma into two bots for four seats."""
    from agents.registry import split_agent_specs

    assert split_agent_specs("search:samples=4,time_budget=0.05") == ["search:samples=4,time_budget=0.05"]
    assert split_agent_specs("rule:bid_margin=1,random, rule ,search:samples=2,bid_samples=2") == [
        "rule:bid_margin=1", "random", "rule", "search:samples=2,bid_samples=2"
    ]  # fmt: skip
    demo.main(["--bots", "search:samples=2,time_budget=0.05", "--max-hands", "1", "--seed", "3"])
    assert "last hand: bid" in capsys.readouterr().out
