"""smear-rl: a rules engine and PettingZoo environments for Smear and its relatives.

* :func:`env` / :func:`raw_env`: the AEC environment of a preset by name.
* :func:`list_presets`: every game name those accept.
* :func:`replay`: rebuild a game of any of them from its record.
* :func:`single_agent_env`: one seat learns against bots, as a ``gymnasium.Env``
  (:mod:`smear_env.single_agent`).
* :mod:`smear_env.game`: the pure rules engine (no gymnasium/torch import).
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
from collections.abc import Mapping
from typing import Any

from smear_env.actions import NUM_ACTIONS, format_action, parse_action
from smear_env.cards import format_card, format_cards, parse_card, parse_cards
from smear_env.checks import check_names
from smear_env.game import Deal, Game
from smear_env.rules import Rules, get_rules, load_rules
from smear_env.rules import list_presets as list_smear_presets

__all__ = [
    "NUM_ACTIONS",
    "Deal",
    "Game",
    "Rules",
    "check_preset",
    "env",
    "format_action",
    "format_card",
    "format_cards",
    "get_rules",
    "list_presets",
    "load_rules",
    "parse_action",
    "parse_card",
    "parse_cards",
    "raw_env",
    "replay",
    "single_agent_env",
    "SingleAgentEnv",
]

OTHER_GAMES: dict[str, str] = {}  # game name -> module with env/raw_env, for games beside Smear
OTHER_GAMES["bohemian_schneider"] = "smear_env.schneider.aec"

#: game name in a record (``record["game"]``) -> engine module whose ``replay`` rebuilds it
ENGINES = {"smear": "smear_env.game", "bohemian_schneider": "smear_env.schneider.game"}


def list_presets() -> list[str]:
    """Every name ``env(preset=...)`` accepts: the Smear presets, then other games."""
    return list_smear_presets() + sorted(OTHER_GAMES)


def check_preset(preset: str) -> None:
    """Refuse a name that is no game here, naming the closest one and every one (other games included)."""
    presets = list_presets()
    if preset not in presets:
        close = difflib.get_close_matches(preset, presets, n=1) if isinstance(preset, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown preset {preset!r}{hint}: expected one of {', '.join(presets)}")


def _module_for(preset: str | None, rules: Any) -> Any:
    """The env module of ``preset``, or of the game ``rules`` belong to when no preset is named."""
    if preset is None:
        preset = getattr(rules, "name", None)
    if not isinstance(preset, str | None):
        raise ValueError(f"preset {preset!r} is not a name: expected one of {', '.join(list_presets())}")
    if preset is not None and rules is None:  # house rules keep their own name, which need not be a preset's
        check_preset(preset)
    return importlib.import_module(OTHER_GAMES.get(preset or "", "smear_env.aec"))


def raw_env(preset: str | None = None, **kwargs: Any) -> Any:
    """The unwrapped AEC env of a preset (default ``ten_point``), or of ``rules=`` (see :mod:`smear_env.aec`)."""
    return _module_for(preset, kwargs.get("rules")).raw_env(preset=preset, **kwargs)


def env(preset: str | None = None, **kwargs: Any) -> Any:
    """The AEC env of a preset (default ``ten_point``), or of ``rules=``; it checks the call order itself."""
    return _module_for(preset, kwargs.get("rules")).env(preset=preset, **kwargs)


def replay(record: dict[str, Any]) -> Any:
    """Rebuild a game of any engine here (Smear, Bohemian Schneider) from its ``record()``.

    ``ValueError`` for anything that is not such a record, saying what is wrong.
    """
    if not isinstance(record, Mapping):
        raise ValueError(f"record is a {type(record).__name__}, not a dict: expected what Game.record() returns")
    if "game" not in record:
        raise ValueError(f"record has no 'game': expected one of {', '.join(map(repr, ENGINES))}")
    check_names([record["game"]], list(ENGINES), "record game")
    return importlib.import_module(ENGINES[record["game"]]).replay(record)


def register_envs() -> list[str]:
    """Register every preset in PettingZoo's AEC registry as ``smear/<preset>-v<ENV_VERSION>``; returns the ids."""
    import pettingzoo

    ids = []
    for preset in list_presets():
        env_id = f"smear/{preset}-v{_module_for(preset, None).ENV_VERSION}"  # each game's own version
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point="smear_env:env", kwargs={"preset": preset})
        ids.append(env_id)
    return ids


with contextlib.suppress(ImportError):  # registration needs pettingzoo; the engine alone does not
    register_envs()


_LAZY = {  # name -> module: these import gymnasium, which the engine alone must not
    "SingleAgentEnv": "smear_env.single_agent",
    "single_agent_env": "smear_env.single_agent",
}


def __getattr__(name: str) -> Any:
    """``smear_env.single_agent_env`` and ``SingleAgentEnv``, imported on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'smear_env' has no attribute {name!r}")
