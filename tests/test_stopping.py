"""Stopping a run: SIGTERM or Ctrl-C ends training after the update in flight, with its checkpoint; twice, at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

from tests.test_recipe import DEFAULTS  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.stopping import StopSignals  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def usual_signals():
    """The signals as an interactive Python has them, wherever the suite runs (a background job ignores SIGINT)."""
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    for number, handler in before.items():
        signal.signal(number, handler)


def test_the_first_sigterm_asks_the_run_to_stop_and_the_handlers_are_put_back_after(capsys) -> None:
    before = signal.getsignal(signal.SIGTERM)
    with StopSignals() as stop:
        assert not stop()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.01)
        assert stop()
        assert signal.getsignal(signal.SIGTERM) in (before, signal.SIG_DFL)  # a second one is not caught
    assert signal.getsignal(signal.SIGTERM) == before
    assert "SIGTERM: stopping after this update, with a checkpoint" in capsys.readouterr().err


def test_ctrl_c_twice_stops_at_once_and_work_that_cannot_stop_keeps_ctrl_c_as_it_was() -> None:
    with StopSignals() as stop:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        assert stop()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
    with StopSignals() as stop, stop.suspended():
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        assert not stop()


def test_a_signal_the_process_ignores_stays_ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as nohup leaves it
    with StopSignals() as stop:
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        assert not stop()


SETTINGS = DEFAULTS.replace("[defaults]", "") + "checkpoint_every = 1000\n"  # no checkpoint but the stop's
LONG = "total_steps = 100_000_000  # too long to finish in a test\n"


@pytest.mark.parametrize("kind", ["recipe", "single run"])
def test_sigterm_ends_a_training_command_after_its_update_with_a_checkpoint_to_continue_from(
    tmp_path: Path, kind: str
) -> None:
    if kind == "recipe":
        recipe = f'name = "long"\ndescription = "one long stage"\n[defaults]{SETTINGS}[[stage]]\nname = "ppo"\n{LONG}'
        (tmp_path / "long.toml").write_text(recipe)
        args, started, checkpoint = ["--recipe", str(tmp_path / "long.toml")], "stage 1/1 ppo: starting", "1_ppo"
    else:
        (tmp_path / "long.toml").write_text(SETTINGS + LONG)
        args, started, checkpoint = ["--config", str(tmp_path / "long.toml")], "Training a universal agent", "."
    run = subprocess.Popen(
        [sys.executable, "-m", "smear_rl.cli", "train", *args, "--out", str(tmp_path / "run"), "--no-progress"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"},
    )  # fmt: skip
    assert run.stdout is not None
    deadline = threading.Timer(120, run.kill)  # never wait for ever on a run that does not say it started
    deadline.start()
    for line in run.stdout:  # the signals are the run's own from this line on
        if started in line:
            break
    deadline.cancel()
    assert run.poll() is None, f"the run ended before it started training: {run.stderr.read() if run.stderr else ''}"
    time.sleep(1)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 1, err
    assert "SIGTERM: stopping after this update" in err and "stopped after update" in err
    assert ("run the same command again" if kind == "recipe" else "continue with --resume") in err
    update = int(err.split("stopped after update ")[1].split(",")[0])
    assert load_checkpoint(tmp_path / "run" / checkpoint / "checkpoint.pt")["update"] == update >= 1
