"""Checks of values that come from callers: whole numbers, real numbers, known names.

The engines, the envs and the bots share these so every refusal reads the same way:
a ``ValueError`` that names the value, what was wrong and what was expected, raised
before anything changes. Integers are taken through ``operator.index``, so numpy
integers pass (as plain ``int``) while ``True``, ``1.5`` and ``"2"`` do not: a bool
is an ``int`` to Python, but ``step(False)`` playing ``pass`` is a bug, not a move.
Pure Python: no numpy import (numpy scalars still pass, through the protocols above).
"""

from __future__ import annotations

import difflib
import functools
import math
import numbers
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def _bounds_text(low: float | None, high: float | None, low_open: bool = False, high_open: bool = False) -> str:
    if low is not None and high is not None:
        if isinstance(low, int) and isinstance(high, int) and not (low_open or high_open):
            return f" in {low}..{high}"
        return f" in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
    if low is not None:
        return f" {'>' if low_open else '>='} {low}"
    if high is not None:
        return f" {'<' if high_open else '<='} {high}"
    return ""


def as_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a plain ``int`` within ``low..high`` (either may be None: unbounded).

    Refuses bools, floats (even ``2.0``), strings and anything else that is not an
    integer; numpy integers are accepted and returned as ``int``.
    """
    if type(value) is int:  # the common case first: no message is built unless one is raised
        number = value
    else:
        try:
            if isinstance(value, bool):
                raise TypeError
            number = operator.index(value)
        except TypeError:
            kind = "a bool, not an integer" if isinstance(value, bool) else "not an integer"
            expected = f"an integer{_bounds_text(low, high)}"
            raise ValueError(f"{what} {value!r} is {kind}: expected {expected}".strip()) from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{what} {number} is out of range: expected an integer{_bounds_text(low, high)}".strip())
    return number


def integer_or_none(value: Any) -> int | None:
    """``value`` as a plain ``int`` if it is an integer (numpy ones too), else None: a bool, a float or text.

    For callers that refuse with their own message (an illegal move names the legal ones).
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def as_seed(value: Any, what: str = "seed") -> int | None:
    """A seed for ``random.Random``: None, or an integer (numpy ones too), as a plain ``int``.

    ``random.Random`` would also take a float, a string or bytes (and raise a ``TypeError`` for a list):
    a record keeps the seed as an integer, so only an integer replays.
    """
    return None if value is None else as_int(value, what)


def as_bool(value: Any, what: str) -> bool:
    """``value`` if it is ``True`` or ``False``: a flag given ``1``, ``"no"`` or ``None`` is a mistake, not a flag."""
    if not isinstance(value, bool):
        raise ValueError(f"{what} {value!r} is not true or false: expected a bool")
    return value


def options_by_name(example: str, check: Callable[[dict[str, Any]], None]) -> Callable[[type[T]], type[T]]:
    """Class decorator for a dataclass of options: a value given by position, or under a name it does not declare,
    is a ``ValueError`` (``check`` names the unknown one), where the generated ``__init__`` raises a ``TypeError``
    or, by position, takes the value as its first field (``Rules("ten_point")`` built default options named
    ten_point). ``example`` shows how to give them; ``help()`` and ``inspect.signature`` still show the fields."""

    def decorate(cls: type[T]) -> type[T]:
        init = cls.__init__

        @functools.wraps(init)
        def __init__(self: T, *args: Any, **options: Any) -> None:
            if args:
                raise ValueError(
                    f"{cls.__name__} takes its options by name, not {args!r} by position: expected e.g. {example}"
                )
            check(options)
            init(self, **options)

        cls.__init__ = __init__  # type: ignore[method-assign]
        return cls

    return decorate


def as_real(
    value: Any,
    what: str,
    low: float | None = None,
    high: float | None = None,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """``value`` as a finite ``float`` within the bounds (``*_open``: the bound itself is excluded).

    Refuses bools, strings, NaN and infinities: a reward, a time budget or a margin
    of NaN would poison every sum it enters without an error.
    """
    problem = ""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        problem = "is not a number"
    elif not math.isfinite(number := float(value)):
        problem = "is not finite"
    elif (low is not None and (number <= low if low_open else number < low)) or (
        high is not None and (number >= high if high_open else number > high)
    ):
        problem = "is out of range"
    if problem:
        expected = f"a finite number{_bounds_text(low, high, low_open, high_open)}"
        raise ValueError(f"{what} {value!r} {problem}: expected {expected}".strip())
    return number


def as_choice(value: Any, what: str, choices: Sequence[Any]) -> Any:
    """``value`` if it is one of ``choices`` (compared by equality, bools never standing in for ints)."""
    if isinstance(value, bool) != isinstance(choices[0], bool) or value not in choices:
        raise ValueError(f"{what} {value!r} is not supported: expected one of {', '.join(map(repr, choices))}")
    return value


def check_names(given: Iterable[Any], known: Sequence[str], what: str) -> None:
    """Refuse any name not in ``known``, naming the closest known one and all of them."""
    for name in given:
        if name in known:
            continue
        close = difflib.get_close_matches(name, known, n=1) if isinstance(name, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown {what} {name!r}{hint}: expected one of {', '.join(map(repr, known))}")
