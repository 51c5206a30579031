"""What a page needs to offer rules and bots: every preset's options with types, defaults, choices and meaning.

A Smear option is described from its declaration in ``smear_env/rules.py`` (where every
option is declared once) through :func:`smear_env.rules.option_specs`: its kind, accepted
values and one-line comment, so the catalog and the validator never disagree. Bohemian
Schneider's few options are read from :class:`~smear_env.schneider.game.SchneiderRules`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
from typing import Any

from smear_env.rules import OptionSpec, get_rules, list_presets, option_specs
from smear_env.schneider.game import GAME_NAME as SCHNEIDER
from smear_env.schneider.game import SchneiderRules

#: the JSON type of each kind of Smear option
_TYPES = {"choice": "string", "bool": "boolean", "int": "integer", "str": "string", "names": "list", "teams": "teams"}


def _plain(value: Any) -> Any:
    """An option value as JSON has it (tuples, nested ones too, as lists)."""
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def smear_option(spec: OptionSpec, value: Any) -> dict[str, Any]:
    """One Smear option for ``GET /v1/presets``, with ``value`` (the preset's) as its default.

    ``type``: string, boolean, integer, ``integer or null``, list (of ``choices``) or teams
    (a list of teams, each a list of seats); ``minimum``/``maximum`` bound an integer (null:
    no bound); ``accepted`` says it in words, as the validator's messages do.
    """
    kind = "integer or null" if spec.kind == "int" and spec.optional else _TYPES[spec.kind]
    option = {
        "name": spec.name,
        "type": kind,
        "default": _plain(value),
        "choices": list(spec.choices) if spec.choices else None,
        "accepted": spec.accepted,
        "description": spec.doc,
    }
    if spec.range is not None:
        option |= {"minimum": spec.range.low, "maximum": spec.range.high}
    return option


def _schneider_options() -> list[dict[str, Any]]:
    comments = dict(re.findall(r"^\s+(\w+): [^=\n]+ = [^#\n]+#\s*(.+)$", inspect.getsource(SchneiderRules), re.M))
    return [
        {"name": f.name, "type": "integer", "default": f.default, "choices": None,
         "accepted": "an even integer >= 2", "description": comments.get(f.name, ""), "minimum": 2, "maximum": None}
        for f in dataclasses.fields(SchneiderRules)
    ]  # fmt: skip


@functools.cache
def presets() -> list[dict[str, Any]]:
    """Every preset with every option (its value in the preset as the default), for ``GET /v1/presets``."""
    out = []
    for name in list_presets():
        rules = get_rules(name)
        options = [smear_option(spec, getattr(rules, spec.name)) for spec in option_specs() if spec.name != "name"]
        out.append({"name": name, "game": "smear", "num_players": rules.num_players, "options": options})
    out.append({"name": SCHNEIDER, "game": SCHNEIDER, "num_players": 2, "options": _schneider_options()})
    return out
