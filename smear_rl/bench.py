"""``smear-rl bench``: how fast the simulation and the bots are, measured on this machine.

Two benchmarks, each printing a markdown table:

* ``smear-rl bench env``: random legal play through the AEC env (observation and mask
  built every step) and through the engine alone, one hand per episode, per preset;
  decisions/s and hands/s are medians of ``--repeats`` runs. When ``open_spiel`` is
  installed (the ``bench`` extra), OpenSpiel's C++ ``euchre`` (random play,
  ``information_state_tensor`` every step) is measured in every repeat right beside
  the preset's runs, with the median of the per-repeat ratios. Within a repeat the
  runs take turns in ``--slices`` short slices, so a neighbour's load on a shared
  machine falls on all of them alike.
* ``smear-rl bench agents``: time per decision of each agent, counting only real
  choices (two or more legal moves), on one core. Each measured agent plays seat 0 of
  single hands against rule bots; the other seats' moves are not timed. Median and
  90th-percentile milliseconds.

``benchmarks/bench_env.py`` and ``benchmarks/bench_agents.py`` in the repository run
the same code.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

import smear_env
from agents.registry import make_agent
from smear_env.game import Game
from smear_env.observation import player_view
from smear_env.rules import get_rules
from training.cli import ArgumentParser, int_at_least, number_in, plain_text

ENV_HELP = """Simulation speed: random legal play through the AEC env and through the engine alone, per preset.

Prints decisions/s and hands/s (medians of --repeats runs of --seconds each) and, when
open_spiel is installed, OpenSpiel's C++ euchre measured beside each preset's runs.

example:  smear-rl bench env --seconds 2 --repeats 5 --slices 10 --presets ten_point minnesota"""

AGENTS_HELP = """Time per decision of each agent (two or more legal moves), seat 0 against rule bots, one core.

example:  smear-rl bench agents --preset ten_point --agents random rule search --decisions 2000"""


# ---------------------------------------------------------------------- simulation speed
def engine_run(preset: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random legal moves through the engine; one hand per game (redeals included)."""
    rng = random.Random(seed)
    rules = smear_env.get_rules(preset)
    decisions = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(rules, seed=rng.getrandbits(62), single_hand=True)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        hands += 1
    return decisions, hands, time.perf_counter() - start


def env_run(preset: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random legal moves through the AEC env (observation and mask built every step)."""
    rng = random.Random(seed)
    env = smear_env.env(preset=preset, reward="hand")
    decisions = hands = 0
    start = time.perf_counter()
    env.reset(seed=seed)
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0]))  # a uniformly random legal action
            decisions += 1
        hands += 1
        env.reset()
    return decisions, hands, time.perf_counter() - start


def euchre_run(seconds: float, seed: int) -> tuple[int, int, float]:
    """OpenSpiel euchre, random play, information_state_tensor every decision."""
    import pyspiel

    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            state.information_state_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - start


def interleaved_rates(
    runs: list[Callable[[float, int], tuple[int, int, float]]], seconds: float, slices: int, seed: int
) -> list[tuple[float, float]]:
    """(decisions/s, hands/s) of each run, the runs taking turns in ``slices`` slices of ``seconds`` in all."""
    totals = [[0, 0, 0.0] for _ in runs]
    for index in range(slices):
        for run, total in zip(runs, totals, strict=True):
            for i, value in enumerate(run(seconds / slices, seed * slices + index)):
                total[i] += value
    return [(decisions / spent, hands / spent) for decisions, hands, spent in totals]


def env_main(argv: list[str] | None = None) -> None:
    """``smear-rl bench env``: simulation speed per preset (see the module docstring)."""
    parser = ArgumentParser(prog="smear-rl bench env", description=ENV_HELP)
    parser.add_argument("--seconds", type=number_in(0, low_open=True), default=2.0,
                        help="seconds each run is timed in a repeat")  # fmt: skip
    parser.add_argument("--repeats", type=int_at_least(1), default=3, help="repeats; medians are printed")
    parser.add_argument("--slices", type=int_at_least(1), default=10, help="turns each run takes within a repeat")
    presets = smear_env.list_smear_presets()
    parser.add_argument("--presets", nargs="+", choices=presets, default=presets, help="presets (default: all)")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401

        has_euchre = True
    except ImportError:
        has_euchre = False
    print(f"median of {args.repeats} runs x {args.seconds:.1f}s each; random legal play; one hand per episode")
    header = "| preset | env decisions/s | env hands/s | engine decisions/s | engine hands/s |"
    if has_euchre:
        header += " euchre decisions/s | env / euchre | engine / euchre |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    med = statistics.median
    for preset in args.presets:
        rows = []
        runs = [partial(env_run, preset), partial(engine_run, preset)] + ([euchre_run] if has_euchre else [])
        for seed in range(args.repeats):  # each repeat measures euchre beside env and engine: ratios side by side
            measured = interleaved_rates(runs, args.seconds, args.slices, seed)
            rows.append((measured[0], measured[1], measured[2][0] if has_euchre else 0.0))
        env_d, env_h = med(r[0][0] for r in rows), med(r[0][1] for r in rows)
        eng_d, eng_h = med(r[1][0] for r in rows), med(r[1][1] for r in rows)
        line = f"| {preset} | {env_d:,.0f} | {env_h:,.0f} | {eng_d:,.0f} | {eng_h:,.0f} |"
        if has_euchre:
            env_ratio = med(r[0][0] / r[2] for r in rows)
            eng_ratio = med(r[1][0] / r[2] for r in rows)
            line += f" {med(r[2] for r in rows):,.0f} | {env_ratio:.2f}x | {eng_ratio:.2f}x |"
        print(line, flush=True)


# ---------------------------------------------------------------------- time per decision
def time_agent(spec: str, preset: str, decisions: int, seed: int = 0) -> list[float]:
    """Seconds of each timed decision of ``spec`` in seat 0."""
    rules = get_rules(preset)
    agent = make_agent(spec, rules, seed)
    others = [make_agent("rule", rules, seed + s) for s in range(rules.num_players)]
    times: list[float] = []
    hand = 0
    while len(times) < decisions:
        game = Game(rules, seed=seed * 100_000 + hand, single_hand=True)
        hand += 1
        while not game.is_over:
            seat = game.current_player
            view = player_view(game, seat)
            if seat != 0:
                game.apply(others[seat].act(view))
                continue
            start = time.perf_counter()
            action = agent.act(view)
            if len(view["legal_actions"]) > 1:
                times.append(time.perf_counter() - start)
            game.apply(action)
    return times[:decisions]


def agents_main(argv: list[str] | None = None) -> None:
    """``smear-rl bench agents``: time per decision of each agent (see the module docstring)."""
    p = ArgumentParser(prog="smear-rl bench agents", description=AGENTS_HELP)
    p.add_argument("--preset", default="ten_point", help="game preset")
    p.add_argument("--agents", nargs="+", default=["random", "rule"], help="agent names or checkpoint paths")
    p.add_argument("--decisions", type=int_at_least(1), default=2000, help="timed decisions per agent")
    args = p.parse_args(argv)
    try:  # every agent is built once before any is timed: a bad name or checkpoint fails now, not halfway
        rules = get_rules(args.preset)
        for spec in args.agents:
            make_agent(spec, rules, 0)
    except ValueError as err:
        p.error(str(err))
    print(f"preset {args.preset}: ms per decision with 2+ legal moves, seat 0 against rule bots")
    print("| agent | decisions | median ms | p90 ms |\n|---|---|---|---|")
    for spec in args.agents:
        times = sorted(time_agent(spec, args.preset, args.decisions))
        p90 = times[int(0.9 * (len(times) - 1))]
        print(f"| {spec} | {len(times)} | {statistics.median(times) * 1e3:.3f} | {p90 * 1e3:.3f} |", flush=True)


BENCHMARKS: dict[str, tuple[Callable[[list[str] | None], None], str]] = {
    "env": (env_main, "simulation speed of the env and the engine, per preset"),
    "agents": (agents_main, "time per decision of each agent"),
}


def main(argv: list[str] | None = None) -> None:
    """``smear-rl bench <env|agents> [options]``."""
    args = sys.argv[1:] if argv is None else list(argv)
    usage = "usage: smear-rl bench <benchmark> [options]   (smear-rl bench <benchmark> --help)\n\nbenchmarks:\n"
    usage += "\n".join(f"  {name:<7} {text}" for name, (_, text) in BENCHMARKS.items())
    if not args or args[0] in ("-h", "--help"):
        print(plain_text(__doc__.split("\n\n")[0]) + "\n\n" + usage)
        return
    if args[0] not in BENCHMARKS:
        print(f"error: unknown benchmark {args[0]!r}\n\n{usage}", file=sys.stderr)
        sys.exit(2)
    BENCHMARKS[args[0]][0](args[1:])


if __name__ == "__main__":
    main()
