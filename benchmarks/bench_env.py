"""Simulation speed: random legal play through the AEC env and through the engine alone, per preset.

Prints decisions/s and hands/s (medians of --repeats runs of --seconds each) and, when
``open_spiel`` is installed, OpenSpiel's C++ ``euchre`` measured in the same run (random
play, ``information_state_tensor`` built every step) with the ratio of each figure to it.

    python benchmarks/bench_env.py [--seconds 2] [--repeats 3] [--presets ten_point minnesota]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import smear_env
from smear_env.game import Game


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
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
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


def median_rates(run: Callable[[int], tuple[int, int, float]], repeats: int) -> tuple[float, float]:
    results = [run(seed) for seed in range(repeats)]
    return (
        statistics.median(d / t for d, _, t in results),
        statistics.median(h / t for _, h, t in results),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--presets", nargs="*", default=smear_env.list_smear_presets())
    args = parser.parse_args(argv)

    try:
        euchre, _ = median_rates(lambda s: euchre_run(args.seconds, s), args.repeats)
    except ImportError:
        euchre = None
    print(f"median of {args.repeats} runs x {args.seconds:.1f}s; random legal play; one hand per episode")
    if euchre:
        print(f"OpenSpiel euchre (C++, information_state_tensor every step): {euchre:,.0f} decisions/s")
    header = "| preset | env decisions/s | env hands/s | engine decisions/s | engine hands/s |"
    if euchre:
        header += " env / euchre | engine / euchre |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for preset in args.presets:
        env_d, env_h = median_rates(lambda s, p=preset: env_run(p, args.seconds, s), args.repeats)
        eng_d, eng_h = median_rates(lambda s, p=preset: engine_run(p, args.seconds, s), args.repeats)
        row = f"| {preset} | {env_d:,.0f} | {env_h:,.0f} | {eng_d:,.0f} | {eng_h:,.0f} |"
        if euchre:
            row += f" {env_d / euchre:.2f}x | {eng_d / euchre:.2f}x |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
