"""The ``smear-rl`` command: its usage, and unknown commands refused with exit code 2."""

from __future__ import annotations

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
    assert "unknown command 'trian'" in capsys.readouterr().err


def test_demo_runs_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["demo", "--preset", "pitch_smudge", "--seed", "1", "--max-hands", "1"])
    out = capsys.readouterr().out
    assert "pitch_smudge  hand" in out and "scores:" in out
