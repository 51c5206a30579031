"""Bohemian Schneider, a two-player trick-taking game beside Smear.

* :mod:`smear_env.schneider.game`: the pure rules engine (no gymnasium/numpy import).
* :mod:`smear_env.schneider.observation`: observation vector, action mask and player view.
* :mod:`smear_env.schneider.aec`: the PettingZoo AEC env, reached as
  ``smear_env.env(preset="bohemian_schneider")``.

Only the engine is imported here, so ``import smear_env.schneider`` needs no numpy.
"""

from __future__ import annotations

from smear_env.schneider.game import (
    NUM_ACTIONS,
    Deal,
    Game,
    RoundResult,
    SchneiderRules,
    format_action,
    parse_action,
    replay,
)

__all__ = [
    "NUM_ACTIONS",
    "Deal",
    "Game",
    "RoundResult",
    "SchneiderRules",
    "format_action",
    "parse_action",
    "replay",
]
