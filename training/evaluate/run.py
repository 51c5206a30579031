"""Running an evaluation: :func:`evaluate` checks the setup, has the workers play, and merges what they tallied.

Everything a worker could trip over (an unknown preset, agent or rule option, an
odd number of games) is checked here first, in the calling process, so a mistake
is one clear ``ValueError`` rather than a traceback from inside a pool. With a
journal (:mod:`training.evaluate.journal`) each finished chunk of games is kept
on disk as it comes, and an evaluation started again plays only what it lacks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import smear_env
from agents.registry import make_agent
from smear_env.checks import as_int
from smear_env.version import code_digest, code_version
from training.evaluate.games import MatchConfig, check_start, rules_for_agents
from training.evaluate.journal import Chunk, Journal, merged
from training.evaluate.lineups import A, B
from training.evaluate.results import AgentReport, EvalResult
from training.evaluate.workers import chunks, run_chunks


def check_setup(
    agents: Sequence[str], preset: str, matches: int, rule_overrides: dict[str, Any], start: str = "new"
) -> tuple[str | None, ...]:
    """Validate everything a worker would trip over, in this process, with clear messages; the agents' weights.

    Each agent is built once here, so an unknown name fails before any game; the
    result is what :func:`weights_of` says of each (None for a bot without a network).
    """
    smear_env.check_preset(preset)
    if matches < 2 or matches % 2:
        raise ValueError(
            f"matches must be a positive even number (each deal is played twice, seats swapped), got {matches}"
        )
    env = smear_env.raw_env(preset=preset, **rule_overrides)  # unknown or impossible rule options raise here
    check_start(start, env, preset)
    rules = rules_for_agents(env, preset, rule_overrides)
    return tuple(weights_of(make_agent(spec, rules, 0)) for spec in agents)  # unknown names raise, listing known ones


def _moon_call(agent: Any) -> str:
    """How a neural agent's match odds call its moons, for ``weights_of``."""
    from agents.match_odds import NETWORK_MOON_AHEAD, NETWORK_MOON_DANGER, NETWORK_MOON_THRESHOLD

    if getattr(agent, "moon_model", "rule") == "rule":
        return " match_moon"
    thresholds = agent.moon_thresholds
    fitted = thresholds == (NETWORK_MOON_THRESHOLD, NETWORK_MOON_AHEAD, NETWORK_MOON_DANGER)
    return " match_moon=network" + ("" if fitted else ":" + ",".join(f"{t:g}" for t in thresholds))


def weights_of(agent: Any) -> str | None:
    """The network an agent plays and how, as ``<fingerprint> greedy|sampled``, then `` match_moon`` where the
    rule bot's match odds call its moons (`` match_moon=network`` where the network's own fitted call does,
    `` match_moon=network:T,A,D`` with thresholds other than the fitted ones) and `` pass_bias=X`` where its pass
    logit is raised (the same network plays another game then), and the agent's name where the network is not
    all of it (``neural_search``: search plays its cards); None for a bot without a network."""
    policy = getattr(agent, "policy", None)
    if policy is None or not hasattr(policy, "fingerprint"):
        return None
    moon = _moon_call(getattr(agent, "network", agent)) if getattr(agent, "match_moon", False) else ""
    bias = getattr(agent, "pass_bias", 0.0)
    passing = f" pass_bias={bias:g}" if bias else ""
    kind = "" if agent.name == "neural" else f" {agent.name}"
    return f"{policy.fingerprint} {'greedy' if agent.greedy else 'sampled'}{moon}{passing}{kind}"


def evaluate(
    agent_a: str,
    agent_b: str,
    preset: str,
    matches: int,
    seed: int,
    workers: int | None = None,
    max_hands: int = 200,
    rule_overrides: dict[str, Any] | None = None,
    progress: bool = False,
    start: str = "new",
    journal: str | Path | None = None,
) -> EvalResult:
    """Play ``matches`` games (``matches / 2`` duplicate deal pairs) of ``agent_a`` against ``agent_b``.

    Agents are registry names (:func:`agents.registry.agent_names`). ``workers``
    processes (default: every core) share the deal pairs; the results do not
    depend on it. A game not over after ``max_hands`` deals is stopped and
    counted as a draw. ``progress`` shows a tqdm bar on stderr. ``start``: ``"new"`` matches,
    or ``"late"`` ones that begin near the target (:func:`training.evaluate.games.start_scores`).
    ``journal``: a file that keeps every finished chunk of games as it comes; an evaluation
    started again with the same journal plays only the games it lacks, and gives what an
    uninterrupted one gives (:mod:`training.evaluate.journal`). The caller deletes it when done.
    """
    version = code_version()  # now, before the games: the code they run (see code_version)
    overrides = dict(rule_overrides or {})
    weights = check_setup([agent_a, agent_b], preset, matches, overrides, start)
    max_hands = as_int(max_hands, "max_hands", 1)
    config = MatchConfig(agent_a, agent_b, preset, seed, max_hands, overrides, start)
    workers = (os.cpu_count() or 1) if workers is None else as_int(workers, "workers (processes)", 1)
    setup = {**asdict(config), "matches": matches, "weights": weights}
    setup |= {"code_version": version, "code_digest": code_digest()}
    kept = None if journal is None else Journal.open(journal, setup)
    played = [] if kept is None else list(kept.chunks)
    earlier_wall, run = (0.0, 0) if kept is None else (kept.wall_seconds, kept.runs)
    done = {pair for chunk in played for pair in chunk.pairs}
    shares = chunks([pair for pair in range(matches // 2) if pair not in done], workers)
    began = time.perf_counter()
    for index, outcomes, tallies in run_chunks(config, shares, min(workers, len(shares)), progress) if shares else ():
        chunk = Chunk(list(shares[index]), outcomes, tallies, time.perf_counter() - began, run)
        if kept is not None:
            kept.append(chunk)
        played.append(chunk)
    wall = earlier_wall + time.perf_counter() - began
    games, tallies = merged(played)
    reports = (AgentReport.from_tally(agent_a, A, tallies[A]), AgentReport.from_tally(agent_b, B, tallies[B]))
    return EvalResult(
        agent_a,
        agent_b,
        preset,
        matches,
        seed,
        max_hands,
        overrides,
        sum(g.stopped for g in games),
        wall,
        reports,
        tuple(games),
        version,
        start,
        weights,
    )
