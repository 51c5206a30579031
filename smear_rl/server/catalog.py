"""What a page needs to offer rules and bots: every preset's options with types, defaults, choices and meaning.

The meaning of each Smear option is its one-line comment in ``smear_env/rules.py``
(where every option is declared once), read from the source so the two never
disagree.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
import typing
from typing import Any, Literal

from smear_env.rules import PROTECTABLE, Rules, get_rules, list_presets
from smear_env.schneider.game import GAME_NAME as SCHNEIDER
from smear_env.schneider.game import SchneiderRules


@functools.cache
def option_comments() -> dict[str, str]:
    """Each option's comment in the :class:`Rules` declaration."""
    source = inspect.getsource(Rules) + inspect.getsource(SchneiderRules)
    found = re.findall(r"^\s+(\w+): [^=\n]+ = [^#\n]+#\s*(.+)$", source, flags=re.MULTILINE)
    return dict(found)


def _option(name: str, hint: Any, default: Any) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    choices: list[Any] | None = None
    if origin is Literal:
        kind, choices = "string", list(typing.get_args(hint))
    elif hint is bool:
        kind = "boolean"
    elif hint is int:
        kind = "integer"
    elif hint is str:
        kind = "string"
    elif origin is tuple:
        kind, choices = "list", list(PROTECTABLE)
    else:
        kind = "integer or null"
    value = list(default) if isinstance(default, tuple) else default
    return {
        "name": name,
        "type": kind,
        "default": value,
        "choices": choices,
        "description": option_comments().get(name, ""),
    }


@functools.cache
def presets() -> list[dict[str, Any]]:
    """Every preset with every option (its value in the preset as the default), for ``GET /v1/presets``."""
    hints = typing.get_type_hints(Rules)
    out = []
    for name in list_presets():
        rules = get_rules(name)
        options = [
            _option(f.name, hints[f.name], getattr(rules, f.name))
            for f in dataclasses.fields(Rules)
            if f.name != "name"
        ]
        out.append({"name": name, "game": "smear", "num_players": rules.num_players, "options": options})
    schneider_hints = typing.get_type_hints(SchneiderRules)
    options = [_option(f.name, schneider_hints[f.name], f.default) for f in dataclasses.fields(SchneiderRules)]
    out.append({"name": SCHNEIDER, "game": SCHNEIDER, "num_players": 2, "options": options})
    return out
