"""Command lines: a bad argument gets one line on stderr saying what was wrong, exit code 2, no traceback.

Each case runs the command's ``main(argv)``; the checks happen before any work
starts (an unwritable ``--json`` before the evaluation, a refused config before
an output folder exists).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

from smear_rl import bench  # noqa: E402
from tests.cli_helpers import assert_refused  # noqa: E402
from training import distill, fit_moon_odds, plot, pool, train  # noqa: E402
from training.evaluate import cli as evaluate  # noqa: E402
from training.evaluate import run as evaluate_run  # noqa: E402

STUDENT = str(Path(__file__).resolve().parent / "data" / "ten_point_layout1.pt")  # a plain network, no card head
EVAL = ["random", "random", "--preset", "smear", "--matches", "2", "--workers", "1", "--no-progress"]


@pytest.fixture
def no_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: the argument must be refused before the first one starts."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("games started before the arguments were checked")

    monkeypatch.setattr(evaluate_run, "run_chunks", refuse)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*EVAL, "--workers", "0"], r"argument --workers: 0 is out of range: expected an integer >= 1"),
        ([*EVAL, "--workers", "-2"], r"argument --workers: -2 is out of range"),
        ([*EVAL, "--workers", "two"], r"argument --workers: 'two' is not an integer >= 1"),
        ([*EVAL, "--max-hands", "0"], r"argument --max-hands: 0 is out of range"),
        ([*EVAL, "--matches", "0"], r"matches must be a positive even number .*got 0"),
        ([*EVAL, "--matches", "-4"], r"matches must be a positive even number .*got -4"),
        ([*EVAL, "--matches", "3"], r"matches must be a positive even number .*got 3"),
        (["random", "nobody", "--preset", "smear"], r"unknown agent 'nobody' for smear"),
        (["random", "random", "--preset", "smer"], r"unknown preset 'smer' \(did you mean 'smear'\?\)"),
        ([*EVAL, "--rule", "targt_score=3"], r"unknown rule option 'targt_score'"),
        ([*EVAL, "--rule", "target_score"], r"argument --rule: expected key=value, got 'target_score'"),
        (["random"], r"give two agents \(A B\) or --ladder with two or more agents"),
        (["--ladder", "random", "rule", "nobody", "--preset", "smear"], r"unknown agent 'nobody'"),
    ],
)
def test_evaluate_refuses_bad_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], no_evaluation: None
) -> None:
    assert_refused(evaluate.main, argv, capsys, r"^smear-rl evaluate: error: .*" + message)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (lambda tmp: tmp, r"--json file '.*' is a folder: expected a file name"),
        (lambda tmp: tmp / "missing" / "out.json", r"--json file '.*out.json': folder '.*missing' does not exist"),
        (lambda tmp: tmp / "file.txt" / "out.json", r"folder '.*file.txt' does not exist"),
    ],
)
def test_evaluate_checks_the_json_path_before_evaluating(
    target: Callable[[Path], Path], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    no_evaluation: None,
) -> None:  # fmt: skip
    (tmp_path / "file.txt").write_text("x")
    assert_refused(evaluate.main, [*EVAL, "--json", str(target(tmp_path))], capsys, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]  # nothing written, nothing left behind


def test_evaluate_workers_zero_is_a_clear_error_in_the_api_too() -> None:
    with pytest.raises(ValueError, match=r"workers \(processes\) 0 is out of range: expected an integer >= 1"):
        evaluate_run.evaluate("random", "random", "smear", 2, seed=0, workers=0)


@pytest.fixture
def configs(tmp_path: Path) -> Path:
    (tmp_path / "bad.toml").write_text("lr = = 3\n")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "unknown.toml").write_text("lerning_rate = 1.0\n")
    (tmp_path / "cuda.toml").write_text('preset = "ten_point"\ninit_from = "no/such/agent.pt"\nbc_hands = 0\n')
    (tmp_path / "comments.toml").write_text("# a stage whose fields were never written\n")
    (tmp_path / "a_file").write_text("x")
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--config", "{tmp}"], r"training config '.*' is a folder: expected a TOML file"),
        (["--config", "{tmp}/none.toml"], r"training config '.*none.toml' is neither a file nor a shipped config"),
        (["--config", "{tmp}/bad.toml"], r"training config file '.*bad.toml' is not valid TOML"),
        (["--config", "{tmp}/binary.toml"], r"is not valid TOML"),
        (["--config", "{tmp}/unknown.toml"], r"unknown field 'lerning_rate'"),
        (["--config", "{tmp}/comments.toml"], r"'.*comments.toml' names no preset: expected preset = \"<name>\""),
        (["--set", "lr=fast"], r"training config: lr = 'fast': expected a float"),
        (["--set", "lr=inf"], r"training config: lr = inf: expected a finite number"),
        (["--set", "num_games"], r"override 'num_games': expected name=value"),
        (["--out", "{tmp}/a_file"], r"--out folder '.*a_file' is a file: expected a folder"),
        (["--out", "{tmp}/a_file/run"], r"--out folder '.*run' cannot be created under '.*a_file'"),
        (["--config", "{tmp}/cuda.toml", "--out", "{tmp}/run"], r"init_from: checkpoint 'no/such/agent.pt' does not"),
        (["--resume", "{tmp}/none.pt"], r"--resume checkpoint '.*none.pt' cannot be read"),
        (["--resume", "{tmp}"], r"--resume checkpoint '.*' is a folder: expected a file"),
        (["--resume", "{tmp}/a_file"], r"'.*a_file' is not a readable smear-rl checkpoint"),
        (["--resume", STUDENT, "--out", "{tmp}/run"], r"holds an agent only .*cannot resume it"),
        (
            ["--address", "h:6379", "--out", "{tmp}/run"],
            r"--address h:6379 is the Ray cluster of the collection "
            r"workers, and this run has none: give --workers N",
        ),
        (
            ["--recipe", "universal", "--workers", "0", "--address", "h:6379", "--out", "{tmp}/run"],
            r"this run has none",
        ),
    ],
)
def test_train_refuses_bad_arguments_and_leaves_no_folder(
    argv: list[str], message: str, configs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sorted(configs.iterdir())
    argv = [a.replace("{tmp}", str(configs)) for a in argv]
    assert_refused(train.main, argv, capsys, r"^smear-rl train: error: .*" + message)
    assert sorted(configs.iterdir()) == before  # no output folder made for a run that never started


def test_a_new_run_into_a_folder_holding_another_run_is_refused_and_leaves_it_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same command twice once wrote the second run's checkpoint, agent and curve over the first's."""
    run = tmp_path / "run"
    run.mkdir()
    for name in ("checkpoint.pt", "agent.pt", "curve.csv"):
        (run / name).write_text(f"the first run's {name}")
    message = r"--out folder '.*run' already holds a run \(checkpoint.pt, agent.pt\): continue it with --resume"
    assert_refused(
        train.main, ["--config", "ten_point_quick", "--out", str(run)], capsys, r"^smear-rl train: error: " + message
    )
    assert {p.name: p.read_text() for p in run.iterdir()} == {
        name: f"the first run's {name}" for name in ("checkpoint.pt", "agent.pt", "curve.csv")
    }


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, r"cannot read .*absent.json"),
        ({"absent.json": "[1, 2]"}, r"absent.json: not an evaluation result .*it holds a JSON list"),
        ({"absent.json": "{not json"}, r"absent.json: not an evaluation result .*Expecting property name"),
        ({"absent.json": '{"reports": 5}'}, r"absent.json: not an evaluation result"),
    ],
)
def test_pool_refuses_unreadable_results(
    files: dict[str, str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    prefix = r"^smear-rl pool: error: .*"
    assert_refused(pool.main, [str(tmp_path / "absent.json")], capsys, prefix + message)
    assert_refused(pool.main, [str(tmp_path)], capsys, r"cannot read .*: Is a directory")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([STUDENT, "--out", "{tmp}/run", "--workers", "0"], r"argument --workers: 0 is out of range"),
        ([STUDENT, "--out", "{tmp}/a_file"], r"--out folder '.*a_file' is a file"),
        (["{tmp}/none.pt", "--out", "{tmp}/run"], r"checkpoint '.*none.pt' does not exist"),
        (["{tmp}/a_file", "--out", "{tmp}/run"], r"'.*a_file' is not a readable smear-rl checkpoint"),
        ([STUDENT, "--out", "{tmp}/run", "--labels", "{tmp}/none.npz"], r"none.npz' is not a labels file"),
        ([STUDENT, "--out", "{tmp}/run", "--lr", "inf"], r"fit option lr = inf: expected above 0, and finite"),
        ([STUDENT, "--out", "{tmp}/run", "--epochs", "many"], r"argument --epochs: invalid int value: 'many'"),
    ],
)
def test_distill_refuses_bad_arguments_before_any_work(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a_file").write_text("x")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert_refused(distill.main, argv, capsys, r"^smear-rl distill: error: .*" + message)
    assert not (tmp_path / "run").exists()


CURVE = "train_minutes,step,opponent,matches,win_rate,ci_low,ci_high,points_diff\n1.0,10,rule,2,0.5,0.1,0.9,0.0\n"


@pytest.mark.parametrize(
    ("curve", "out", "extra", "message"),
    [
        (None, "c.png", [], r"curve '.*curve.csv' cannot be read: No such file"),
        ("a,b\n1,2\n", "c.png", [], r"curve '.*' cannot be plotted: it has no 'opponent' column"),
        (CURVE.replace("0.5,0.1", "half,0.1"), "c.png", [], r"cannot be plotted: could not convert string to float"),
        (CURVE.splitlines()[0] + "\n", "c.png", [], r"curve '.*' holds no evaluations to plot"),
        (CURVE, ".", [], r"plot file \(-o\) '.*' is a folder: expected a file name"),
        (CURVE, "c.xyz", [], r"plot file \(-o\) '.*c.xyz': expected an image file name ending in .*png"),
        (CURVE, "c.png", ["--target", "1.5"], r"argument --target: 1.5 is out of range: expected a finite number in"),
        (CURVE, "c.png", ["--target", "nan"], r"argument --target: nan is not finite"),
    ],
)
def test_plot_refuses_bad_arguments(
    curve: str | None, out: str, extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if curve is not None:
        (tmp_path / "curve.csv").write_text(curve)
    argv = [str(tmp_path / "curve.csv"), "-o", str(tmp_path / out), *extra]
    assert_refused(plot.main, argv, capsys, r"^smear-rl plot: error: .*" + message)
    assert not (tmp_path / "c.png").exists()


def test_plot_draws_a_good_curve_into_a_new_folder(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "curve.csv").write_text(CURVE)
    plot.main([str(tmp_path / "curve.csv"), "-o", str(tmp_path / "new" / "c.png"), "--target", "0.65"])
    assert (tmp_path / "new" / "c.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], r"argument --workers: 0 is out of range: expected an integer >= 1"),
        (["--deals", "5"], r"argument --deals: 5 is out of range: expected an integer >= 10"),
        (["--matches", "x"], r"argument --matches: 'x' is not an integer >= 2"),
    ],
)
def test_fit_moon_odds_refuses_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert_refused(fit_moon_odds.main, argv, capsys, r"^python -m training\.fit_moon_odds: error: " + message)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--decisions", "0"], r"argument --decisions: 0 is out of range: expected an integer >= 1"),
        (["--agents", "rule", "nobody"], r"unknown agent 'nobody' for ten_point"),
        (["--agents", "{tmp}/junk.pt"], r"'.*junk.pt' is not a readable smear-rl checkpoint"),
        (["--agents", "{tmp}/none.pt"], r"checkpoint '.*none.pt' does not exist"),
        (["--preset", "tenpoint"], r"unknown preset 'tenpoint'"),
        (["--agents", "search:samples=0"], r"search option samples 0 is out of range: expected an integer >= 1"),
    ],
)
def test_bench_agents_refuses_bad_values_and_unreadable_checkpoints(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert_refused(bench.agents_main, argv, capsys, r"^smear-rl bench agents: error: .*" + message)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seconds", "0"], r"argument --seconds: 0.0 is out of range: expected a finite number > 0"),
        (["--seconds", "nan"], r"argument --seconds: nan is not finite"),
        (["--seconds=-inf"], r"argument --seconds: -inf is not finite"),
        (["--repeats", "0"], r"argument --repeats: 0 is out of range"),
        (["--slices", "0"], r"argument --slices: 0 is out of range"),
        (["--presets", "tenpoint"], r"argument --presets: invalid choice: 'tenpoint'"),
        (["--presets"], r"argument --presets: expected at least one argument"),
    ],
)
def test_bench_env_refuses_bad_values(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert_refused(bench.env_main, argv, capsys, r"^smear-rl bench env: error: " + message)
