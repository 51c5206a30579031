"""Checking that a command line refuses bad input the way every one of ours must."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest


def assert_refused(main: Callable[[list[str]], object], argv: list[str], capsys: pytest.CaptureFixture[str],
                   pattern: str) -> str:  # fmt: skip
    """Run ``main(argv)``: it must exit with code 2, print one line (no traceback) matching ``pattern`` to stderr.

    Returns that line.
    """
    capsys.readouterr()  # drop what earlier calls printed
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, (exit_info.value.code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert re.search(pattern, lines[0]), (pattern, lines[0])
    return lines[0]
