"""Agents by name: ``make_agent("rule", "ten_point", seed=1)``.

A name is one of :func:`agent_names` for the given game; anything else that
names an existing file is loaded as a checkpoint (once trained agents exist).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agents.base import Agent
from agents.random_agent import RandomAgent

SCHNEIDER = "bohemian_schneider"

#: name -> factory(preset, seed) for Smear presets
_SMEAR_AGENTS: dict[str, Callable[[str, int | None], Agent]] = {
    "random": lambda preset, seed: RandomAgent(seed),
}


def _schneider_agents() -> dict[str, Callable[[str, int | None], Agent]]:
    from agents.schneider_bots import SchneiderRuleAgent

    return {
        "random": lambda preset, seed: RandomAgent(seed),
        "rule": lambda preset, seed: SchneiderRuleAgent(seed),
    }


def register_agent(name: str, factory: Callable[[str, int | None], Agent]) -> None:
    """Make a Smear agent available by name (factory receives the preset name and a seed)."""
    _SMEAR_AGENTS[name] = factory


def agent_names(preset: str = "ten_point") -> list[str]:
    """Names :func:`make_agent` accepts for ``preset``."""
    return sorted(_schneider_agents() if preset == SCHNEIDER else _SMEAR_AGENTS)


def make_agent(spec: str, preset: str = "ten_point", seed: int | None = None) -> Agent:
    """An agent by name (or checkpoint path) for ``preset``, seeded with ``seed``."""
    table = _schneider_agents() if preset == SCHNEIDER else _SMEAR_AGENTS
    if spec in table:
        return table[spec](preset, seed)
    if Path(spec).is_file():
        raise ValueError(f"{spec!r} is a file, but loading checkpoints is not available yet")
    raise ValueError(f"unknown agent {spec!r} for {preset}: expected one of {', '.join(sorted(table))} or a checkpoint")
