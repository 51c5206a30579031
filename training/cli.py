"""What the command lines of ``training`` and ``benchmarks`` share: one-line errors and checked arguments.

A bad argument ends the program with exit code 2 and one line on stderr saying
what was wrong and what was expected (``python -m training.evaluate: error:
argument --workers: 0 is out of range: expected an integer >= 1``), never a
traceback, and before any work starts: an output file is checked for writing
before an evaluation that would otherwise be lost at its end.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from smear_env.checks import as_int, as_real


def plain_text(text: str) -> str:
    """A docstring as a person reads it in ``--help``: reST's marks gone, its words and line breaks kept.

    ``x`` and :role:`x` become x (:role:`~a.b` becomes b), and a paragraph's closing ``::``
    (a literal block follows) becomes ``:``.
    """
    text = re.sub(r":[a-z]+:`~[\w.]*?(\w+)`", r"\1", text)
    text = re.sub(r":[a-z]+:`([^`]+)`", r"\1", text)
    text = re.sub(r"``([^`]+)``", r"\1", text)
    return re.sub(r"(\S)::$", r"\1:", text, flags=re.MULTILINE)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The description and epilog as written (a docstring's paragraphs and examples), without reST's marks."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return super()._fill_text(plain_text(text), width, indent)


class ArgumentParser(argparse.ArgumentParser):
    """``argparse`` whose errors are one line, ``<prog>: error: <message>``, with exit code 2; help as written.

    The description and epilog keep their line breaks (:class:`HelpFormatter`), so a module's
    docstring serves as its command's help.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``low``."""
    return _argument_type(f"an integer >= {low}", int, lambda value: as_int(value, "", low))


def number_in(
    low: float | None = None, high: float | None = None, *, low_open: bool = False, high_open: bool = False
) -> Callable[[str], float]:
    """An argparse type: a finite number within the bounds (``*_open``: the bound itself excluded)."""
    return _argument_type("a number", float, lambda value: as_real(value, "", low, high, low_open=low_open,
                                                                   high_open=high_open))  # fmt: skip


def _argument_type(kind: str, convert: Callable[[str], Any], check: Callable[[Any], Any]) -> Callable[[str], Any]:
    """An argparse type that converts the text, then checks the value; each failure says what was expected."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        try:
            return check(value)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parse.__name__ = kind
    return parse


def check_writable_file(path: str | Path, what: str = "output file", create_parents: bool = False) -> Path:
    """``path`` if a file can be written there now (it is left as it was); ``ValueError`` saying why not.

    Checked by opening it, not by permission bits, so what the process may really
    do decides (root ignores the bits); a file that did not exist is removed again.
    ``create_parents``: a missing folder is fine if it can be created (nothing is created here).
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{what} {str(path)!r} is a folder: expected a file name")
    if create_parents and not path.parent.exists():
        check_output_folder(path.parent, f"{what} {str(path)!r}: folder")
        return path
    if not path.parent.is_dir():
        raise ValueError(f"{what} {str(path)!r}: folder {str(path.parent)!r} does not exist")
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as err:
        raise ValueError(f"{what} {str(path)!r} cannot be written: {err.strerror}") from None
    if not existed:
        path.unlink()
    return path


def check_output_folder(path: str | Path, what: str = "output folder") -> Path:
    """``path`` if it is a folder or can become one (nothing is created); ``ValueError`` saying why not."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{what} {str(path)!r} is a file: expected a folder (or a new name)")
    parent = next((p for p in path.parents if p.exists()), Path("."))
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(path)!r} cannot be created under {str(parent)!r}")
    return path


def check_readable_file(path: str | Path, what: str = "file") -> Path:
    """``path`` if it is a file that can be opened for reading; ``ValueError`` saying why not."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{what} {str(path)!r} is a folder: expected a file")
    try:
        with path.open("rb"):
            pass
    except OSError as err:
        raise ValueError(f"{what} {str(path)!r} cannot be read: {err.strerror}") from None
    return path
