"""smear-rl: a rules engine and PettingZoo environments for Smear and its relatives.

* :func:`env` / :func:`raw_env`: the AEC environment of a preset by name.
* :func:`list_presets`: every game name those accept.
* :mod:`smear_env.game`: the pure rules engine (no gymnasium/torch import).
"""

from __future__ import annotations

import contextlib
from typing import Any

from smear_env.actions import NUM_ACTIONS, format_action, parse_action
from smear_env.cards import format_card, format_cards, parse_card, parse_cards
from smear_env.game import Deal, Game, replay
from smear_env.rules import Rules, get_rules, load_rules
from smear_env.rules import list_presets as list_smear_presets

__all__ = [
    "NUM_ACTIONS",
    "Deal",
    "Game",
    "Rules",
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
]

OTHER_GAMES: dict[str, str] = {}  # game name -> module with env/raw_env, for games beside Smear
OTHER_GAMES["bohemian_schneider"] = "smear_env.schneider.aec"


def list_presets() -> list[str]:
    """Every name ``env(preset=...)`` accepts: the Smear presets, then other games."""
    return list_smear_presets() + sorted(OTHER_GAMES)


def _module_for(preset: str) -> Any:
    import importlib

    return importlib.import_module(OTHER_GAMES.get(preset, "smear_env.aec"))


def raw_env(preset: str = "ten_point", **kwargs: Any) -> Any:
    """The unwrapped AEC env of a preset (see :mod:`smear_env.aec`)."""
    return _module_for(preset).raw_env(preset=preset, **kwargs)


def env(preset: str = "ten_point", **kwargs: Any) -> Any:
    """The AEC env of a preset, with PettingZoo's order-enforcing wrapper."""
    return _module_for(preset).env(preset=preset, **kwargs)


def register_envs() -> list[str]:
    """Register every preset in PettingZoo's AEC registry as ``smear/<preset>-v<ENV_VERSION>``; returns the ids."""
    import pettingzoo

    ids = []
    for preset in list_presets():
        env_id = f"smear/{preset}-v{_module_for(preset).ENV_VERSION}"  # each game's own version
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point="smear_env:env", kwargs={"preset": preset})
        ids.append(env_id)
    return ids


with contextlib.suppress(ImportError):  # registration needs pettingzoo; the engine alone does not
    register_envs()
