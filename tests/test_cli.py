"""The ``smear-rl`` command: its usage, and unknown commands refused with exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from smear_rl import cli


def test_usage_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["--help"])
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert f"  {name} " in out


def test_unknown_command_exits_2_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["trian"])
    assert exit_info.value.code == 2
    assert "unknown command 'trian' (did you mean 'train'?)" in capsys.readouterr().err


#: reST marks a docstring carries that a person reading --help should not see
DOCSTRING_MARKUP = ("``", ":func:", ":class:", ":mod:", ":meth:", ":data:", "Examples::")


@pytest.mark.parametrize("command", [c for c in cli.COMMANDS if c != "serve"])  # serve's help: the service's own
def test_every_commands_help_reads_as_plain_text(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"]) if command != "bench" else cli.main([command, "env", "--help"])
    assert exit_info.value.code == 0
    shown = capsys.readouterr().out
    if command == "bench":
        cli.main(["bench", "--help"])
        shown += capsys.readouterr().out
    assert shown.strip() and not [mark for mark in DOCSTRING_MARKUP if mark in shown], shown


def test_demo_runs_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["demo", "--preset", "pitch_smudge", "--seed", "1", "--max-hands", "1"])
    out = capsys.readouterr().out
    assert "pitch_smudge  hand" in out and "scores:" in out


def test_a_reader_that_leaves_early_ends_the_command_quietly() -> None:
    """``smear-rl demo | head -1``: the closed pipe stops the command with no traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line: every write meets a closed pipe
    command = [sys.executable, "-m", "smear_rl.cli", "demo", "--preset", "ten_point", "--seed", "1"]
    try:
        demo = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert demo.returncode == 141
    assert b"Traceback" not in demo.stderr and b"BrokenPipe" not in demo.stderr
