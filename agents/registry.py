"""Agents by name: ``make_agent("rule", "ten_point", seed=1)``.

A name is one of :func:`agent_names` for the given game; anything else that
names an existing file is loaded as a trained checkpoint (:class:`agents.neural_agent.NeuralAgent`,
greedy); a ``sample:`` prefix on the path samples from its policy instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agents.base import Agent
from agents.random_agent import RandomAgent
from agents.rule_bot import BoldRuleAgent, RuleAgent
from agents.search_bot import SearchAgent, SearchBidAgent
from smear_env.rules import Rules, get_rules

SCHNEIDER = "bohemian_schneider"

#: name -> factory(rules, seed) for Smear presets
_SMEAR_AGENTS: dict[str, Callable[[Rules, int | None], Agent]] = {
    "random": lambda rules, seed: RandomAgent(seed),
    "rule": lambda rules, seed: RuleAgent(rules, seed),
    "bold": lambda rules, seed: BoldRuleAgent(rules, seed),
    "search": lambda rules, seed: SearchAgent(rules, seed),
    "searchbid": lambda rules, seed: SearchBidAgent(rules, seed),
}


def _schneider_agents() -> dict[str, Callable[[object, int | None], Agent]]:
    from agents.schneider_bots import SchneiderRuleAgent

    return {
        "random": lambda rules, seed: RandomAgent(seed),
        "rule": lambda rules, seed: SchneiderRuleAgent(seed),
    }


def register_agent(name: str, factory: Callable[[Rules, int | None], Agent]) -> None:
    """Make a Smear agent available by name (factory receives the rules and a seed)."""
    _SMEAR_AGENTS[name] = factory


def agent_names(preset: str | Rules = "ten_point") -> list[str]:
    """Names :func:`make_agent` accepts for ``preset``."""
    return sorted(_schneider_agents() if preset == SCHNEIDER else _SMEAR_AGENTS)


def make_agent(spec: str, preset: str | Rules = "ten_point", seed: int | None = None) -> Agent:
    """An agent by name (or checkpoint path) for ``preset`` (a name or house :class:`Rules`), seeded."""
    if preset == SCHNEIDER:
        table, rules = _schneider_agents(), None
    else:
        table, rules = _SMEAR_AGENTS, get_rules(preset) if isinstance(preset, str) else preset
        preset = rules.name
    if spec in table:
        return table[spec](rules, seed)
    greedy = not spec.startswith("sample:")
    path = spec.removeprefix("sample:")
    if Path(path).is_file():
        if rules is None:
            raise ValueError(f"{spec!r}: trained checkpoints exist for Smear presets only, not {preset}")
        from agents.neural_agent import NeuralAgent  # imports torch: only when a checkpoint is asked for

        return NeuralAgent(path, rules, seed, greedy=greedy)
    raise ValueError(f"unknown agent {spec!r} for {preset}: expected one of {', '.join(sorted(table))} or a checkpoint")
