"""Simulation speed: random legal play through the AEC env and through the engine alone, per preset.

Prints decisions/s and hands/s (medians of --repeats runs of --seconds each) and, when
``open_spiel`` is installed, OpenSpiel's C++ ``euchre`` (random play,
``information_state_tensor`` built every step) measured in every repeat right beside the
preset's runs, with the median of the per-repeat ratios. Within a repeat the three runs
take turns in --slices short slices, so a neighbour's load on a shared machine falls on
all three alike instead of on whichever ran at the wrong moment.

    python benchmarks/bench_env.py [--seconds 2] [--repeats 3] [--slices 10] [--presets ten_point minnesota]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

import smear_env
from smear_env.game import Game
from training.cli import ArgumentParser, int_at_least, number_in


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


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(
        prog="benchmarks/bench_env.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=number_in(0, low_open=True), default=2.0, help="seconds per run")
    parser.add_argument("--repeats", type=int_at_least(1), default=3)
    parser.add_argument("--slices", type=int_at_least(1), default=10, help="turns each run takes within a repeat")
    parser.add_argument(
        "--presets", nargs="+", choices=smear_env.list_smear_presets(), default=smear_env.list_smear_presets()
    )
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


if __name__ == "__main__":
    main()
