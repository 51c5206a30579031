"""Reading results back from JSON: every field checked against what its dataclass field holds.

Why: results files and evaluation journals come from disk, maybe edited by hand or written by
another tool, and are pooled and paired by their fields. A seed of ``"0"`` would pass for another
run's seed, and a game's ``stopped`` of ``"no"`` would count as stopped. Each dataclass that is
read back declares one check per field (:func:`field_checks`, verified against the dataclass when
the module loads, so a new field cannot be forgotten); :func:`checked` applies them and names the
field, its value and what was expected.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Check = tuple[Callable[[Any], bool], str]  # (test, what was expected: for the message)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


STR: Check = (lambda v: isinstance(v, str), "a string")
INT: Check = (is_int, "an integer")
COUNT: Check = (lambda v: is_int(v) and v >= 0, "an integer >= 0")
NUMBER: Check = (is_number, "a number")
NUMBER_OR_NONE: Check = (lambda v: v is None or is_number(v), "a number or null")
BOOL: Check = (lambda v: isinstance(v, bool), "true or false")


@dataclass(frozen=True)
class FieldChecks:
    """The checks of one dataclass's fields, and which of them older files may lack (those with defaults)."""

    name: str
    checks: dict[str, Check]
    required: tuple[str, ...]


def field_checks(cls: type, **checks: Check) -> FieldChecks:
    """One check for each field of the dataclass ``cls``.

    ``TypeError`` (a bug in this project, raised as the module loads) when a field has none or a check no field.
    """
    names = [f.name for f in dataclasses.fields(cls)]
    if set(checks) != set(names):
        missing, unknown = sorted(set(names) - set(checks)), sorted(set(checks) - set(names))
        raise TypeError(f"checks of {cls.__name__}: fields without a check {missing}, checks of no field {unknown}")
    required = tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    return FieldChecks(cls.__name__, {name: checks[name] for name in names}, required)


def checked(data: Any, where: str, spec: FieldChecks) -> dict[str, Any]:
    """A copy of ``data`` if it holds the required fields (maybe the others), each as expected, and no other.

    ``ValueError`` naming the field (``where.name``), its value and what was expected.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{where or 'the result'} is {shown(data)}: expected an object")
    prefix = f"{where}." if where else ""
    missing = [name for name in spec.required if name not in data]
    if missing:
        raise ValueError(f"missing field {prefix + missing[0]!r}")
    for name, value in data.items():
        check = spec.checks.get(name)
        if check is None:
            raise ValueError(f"unknown field {prefix + str(name)!r}: expected only {', '.join(spec.checks)}")
        test, expected = check
        if not test(value):
            raise ValueError(f"field {prefix + name!r} is {shown(value)}: expected {expected}")
    return dict(data)


def shown(value: Any) -> str:
    """``value`` for a message: its repr, cut short, and its type."""
    text = repr(value)
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{text} ({type(value).__name__})"
