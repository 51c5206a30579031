"""Agents by name: ``make_agent("rule", "ten_point", seed=1)``.

A name is one of :func:`agent_names` for the given game, optionally with keyword options
after a colon, ``"search:samples=48,time_budget=0.5"``: the keyword arguments of the bot's
constructor beyond the rules and seed (:func:`agent_options` lists them), each value read
as the type of its default. So two settings of one bot can be compared from the command
line (``smear-rl evaluate search:samples=48 search``) without writing code.
Anything else that names an existing file is loaded as a trained agent
(:class:`agents.neural_agent.NeuralAgent`, greedy): an exported ``.npz`` without torch, a
training checkpoint ``.pt`` converted in memory by ``training.export``; a ``sample:`` prefix on
the path samples from its policy instead, and options after its last colon set the agent's
(:data:`PATH_OPTIONS`: ``runs/x.npz:match_moon=false,pass_bias=1.5``). ``neural`` is the agent shipped for the
rules (``agents/shipped/``: a specialist or the universal agent), ``neural:greedy=false`` sampling from it.
A policy from outside the project is ``module:function``, ``file.py:function``, ``sb3:model.zip``,
``rllib:folder`` or ``torchrl:policy.pt`` (:mod:`agents.external`).
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.base import Agent
from agents.external import LIBRARIES, external_agent, is_external
from agents.neural_agent import NeuralAgent
from agents.random_agent import RandomAgent
from agents.rule_bot import BoldRuleAgent, RuleAgent
from agents.search_bot import SearchAgent, SearchBidAgent
from agents.shipped import resolve_shipped
from smear_env.checks import as_int
from smear_env.rules import Rules, get_rules

SCHNEIDER = "bohemian_schneider"

#: name -> factory(rules, seed, **options) for Smear presets; keyword parameters are the options
_SMEAR_AGENTS: dict[str, Callable[..., Agent]] = {
    "random": lambda rules, seed: RandomAgent(seed),
    "rule": RuleAgent,
    "bold": BoldRuleAgent,
    "search": SearchAgent,
    "searchbid": SearchBidAgent,
}


def _schneider_agents() -> dict[str, Callable[..., Agent]]:
    from agents.schneider_bots import SchneiderRuleAgent
    from agents.schneider_search import SchneiderSearchAgent
    from agents.shipped import shipped_presets

    table: dict[str, Callable[..., Agent]] = {
        "random": lambda rules, seed: RandomAgent(seed),
        "rule": lambda rules, seed: SchneiderRuleAgent(seed),
        "search": SchneiderSearchAgent,
    }
    if SCHNEIDER in shipped_presets():
        table["neural"] = _shipped_neural
    return table


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Make a Smear agent available by name.

    ``factory(rules, seed)`` builds it; keyword parameters it declares after those two
    become the name's options (``"name:key=value"``).
    """
    _SMEAR_AGENTS[name] = factory


def _is_schneider(preset: Any) -> bool:
    from smear_env.schneider.game import SchneiderRules

    return preset == SCHNEIDER or isinstance(preset, SchneiderRules)


def agent_names(preset: str | Rules = "ten_point") -> list[str]:
    """Names :func:`make_agent` accepts for ``preset``."""
    return sorted(_schneider_agents() if _is_schneider(preset) else _SMEAR_AGENTS)


def split_agent_specs(text: str) -> list[str]:
    """A comma-separated list of agent specs (``search:samples=4,time_budget=0.05,rule``) as specs: a ``key=value``
    piece after a ``name:`` spec is one more of that spec's options, not an agent of its own."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and "=" in piece and ":" not in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        elif piece:
            specs.append(piece)
    return specs


def agent_options(name: str, preset: str | Rules = "ten_point") -> dict[str, Any]:
    """The options of agent ``name`` with their defaults, in the order the constructor declares them."""
    table = _schneider_agents() if _is_schneider(preset) else _SMEAR_AGENTS
    if name not in table:
        raise ValueError(f"unknown agent {name!r}: expected one of {', '.join(sorted(table))}")
    return _options_of(table[name])


def make_agent(spec: str, preset: str | Rules = "ten_point", seed: int | None = None) -> Agent:
    """An agent by name, ``name:key=value,...`` or checkpoint path for ``preset`` (a name or house :class:`Rules`).

    Anything it cannot build (an unknown name, an option out of its range, a seed that
    is not an int) raises ``ValueError`` naming the spec and what was expected.
    """
    if not isinstance(spec, str):
        raise ValueError(f"agent {spec!r} is not a name: expected one of {', '.join(sorted(_SMEAR_AGENTS))}")
    if seed is not None:
        seed = as_int(seed, f"agent {spec!r}: seed")
    if _is_schneider(preset):
        from smear_env.schneider.game import SchneiderRules

        table, rules = _schneider_agents(), preset if isinstance(preset, SchneiderRules) else SchneiderRules()
        preset = SCHNEIDER
    elif isinstance(preset, str | Rules):
        table, rules = _SMEAR_AGENTS, get_rules(preset) if isinstance(preset, str) else preset
        preset = rules.name
    else:
        raise ValueError(f"agent {spec!r}: {preset!r} is not a preset: expected a preset name or smear_env.Rules")
    name, colon, option_text = spec.partition(":")
    if name in table:
        options = _parse_options(spec, option_text, _options_of(table[name])) if colon else {}
        try:
            return table[name](rules, seed, **options)
        except ValueError as err:
            raise ValueError(f"agent {spec!r}: {err}") from None
    if is_external(spec) and not Path(spec).is_file():
        return external_agent(spec, rules, seed)
    greedy = not spec.startswith("sample:")
    path, options = _path_and_options(spec, spec.removeprefix("sample:"))
    path = resolve_shipped(path)
    if Path(path).is_file():
        try:
            return _trained_agent(path, rules, seed, greedy, **options)
        except ValueError as err:
            if not options:
                raise
            raise ValueError(f"agent {spec!r}: {err}") from None
    if path.endswith((".pt", ".npz")) or "/" in path or "\\" in path:
        what = "is a folder: expected a checkpoint or policy file" if Path(path).is_dir() else "does not exist"
        raise ValueError(f"checkpoint {path!r} {what} (agent {spec!r} for {preset})")
    close = difflib.get_close_matches(name, sorted(table), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(
        f"unknown agent {spec!r} for {preset}{hint}: expected one of {', '.join(sorted(table))}, a checkpoint, "
        f"or a policy (module:function, file.py:function, {', '.join(f'{lib}:PATH' for lib in LIBRARIES)})"
    )


def _options_of(factory: Callable[..., Agent], leading: int = 2) -> dict[str, Any]:
    """Keyword parameters after the ``leading`` ones (rules, seed), with their defaults."""
    params = list(inspect.signature(factory).parameters.values())[leading:]
    return {p.name: p.default for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


#: a trained agent's options, ``NeuralAgent``'s after (policy, rules, seed): the one list, so the shipped agent
#: and a checkpoint path take the same ones as the class
_NEURAL_OPTIONS = _options_of(NeuralAgent, leading=3)


def _shipped_neural(rules: Any, seed: int | None, **options: Any) -> Agent:
    """The shipped agent that plays the rules (``agents/shipped/``): the preset's own specialist on its preset's
    rules where one plays, the universal agent on any other rule set (a retired specialist's preset, house rules,
    another number of players), where it is shipped.

    ``options``: ``NeuralAgent``'s (``greedy``, ``match_moon``, ``pass_bias``, the moon call's), as there.
    """
    from agents.shipped import neural_policy_path

    return NeuralAgent(neural_policy_path(rules), rules, seed, **options)


# agent_options and the option parser read a factory's signature: give this one NeuralAgent's options
_shipped_neural.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in ("rules", "seed")]
    + [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
        for name, default in _NEURAL_OPTIONS.items()
    ]
)
_SMEAR_AGENTS["neural"] = _shipped_neural


def _shipped_neural_search(rules: Any, seed: int | None, samples: int = 24, time_budget: float = 0.2) -> Agent:
    """The shipped agent's bids, trump, calls and discards with search's card play (``agents.guided``)."""
    from agents.guided import NeuralSearchAgent

    return NeuralSearchAgent(_shipped_neural(rules, seed), rules, seed, samples, time_budget)


_SMEAR_AGENTS["neural_search"] = _shipped_neural_search


#: options a checkpoint path takes after its last colon (``runs/x.npz:match_moon=false``), with their defaults
#: (``greedy`` is the ``sample:`` prefix there)
PATH_OPTIONS: dict[str, Any] = {name: default for name, default in _NEURAL_OPTIONS.items() if name != "greedy"}


def _path_and_options(spec: str, path: str) -> tuple[str, dict[str, Any]]:
    """A checkpoint path and the options after its last colon, when the text before that colon is a file."""
    head, colon, option_text = path.rpartition(":")
    if Path(path).is_file() or not colon or not (Path(head).is_file() or head.endswith((".pt", ".npz"))):
        return path, {}
    return head, _parse_options(spec, option_text, PATH_OPTIONS)


def _trained_agent(path: str, rules: Any, seed: int | None, greedy: bool, **options: Any) -> Agent:
    """An exported policy (``.npz``) loads without torch; a training checkpoint (``.pt``) is converted in memory.

    ``options``: :data:`PATH_OPTIONS`, passed on to ``NeuralAgent``."""
    if Path(path).suffix != ".pt":
        return NeuralAgent(path, rules, seed, greedy=greedy, **options)
    try:
        from training.export import agent_from_checkpoint  # the training layer, with torch: only for a .pt file
    except ImportError as err:
        raise ValueError(
            f"{path!r} is a training checkpoint and reading one needs {err.name}, which is not installed: "
            f"export it to a torch-free .npz where torch is (smear-rl export {path})"
        ) from None
    return agent_from_checkpoint(path, rules, seed, greedy, **options)


def _parse_options(spec: str, text: str, accepted: dict[str, Any]) -> dict[str, Any]:
    """``key=value,...`` as keyword arguments, each value converted to its default's type."""
    if not accepted:
        raise ValueError(f"agent {spec!r}: {spec.partition(':')[0]!r} takes no options")
    options: dict[str, Any] = {}
    expected = ", ".join(accepted)
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key or not value:
            raise ValueError(f"agent {spec!r}: option {item!r} is not key=value (options: {expected})")
        if key not in accepted:
            raise ValueError(f"agent {spec!r}: unknown option {key!r}: expected one of {expected}")
        if key in options:
            raise ValueError(f"agent {spec!r}: option {key!r} is given twice")
        options[key] = _option_value(spec, key, value, accepted[key])
    return options


def _option_value(spec: str, key: str, text: str, default: Any) -> Any:
    """``text`` read as the type of ``default`` (a number, true/false, or a word where the default is None)."""
    if isinstance(default, bool) or text.lower() in ("true", "false"):
        if text.lower() not in ("true", "false"):
            raise ValueError(f"agent {spec!r}: option {key}={text!r} is not true or false")
        return text.lower() == "true"
    kinds: tuple[type, ...] = (int,) if isinstance(default, int) else (float,) if isinstance(default, float) else ()
    if default is None:
        kinds = (int, float)
    for kind in kinds:
        try:
            return kind(text)
        except ValueError:
            continue
    if isinstance(default, (int, float)):
        kind = "an integer" if isinstance(default, int) else "a number"
        raise ValueError(f"agent {spec!r}: option {key}={text!r} is not {kind} like its default {default!r}")
    return text
