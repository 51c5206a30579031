"""Cost of the env's observation: the incremental observer per step, side by side with a baseline version.

Plays random legal moves through the engine (one hand per game) and, at every
step, builds the observation of the seat on turn with this tree's
``IncrementalObserver`` and, with ``--baseline FILE``, with the observer of
another version of ``smear_env/observation.py`` loaded from that file (e.g. the
layout 1 observer: ``git show 19de050:smear_env/observation.py > /tmp/obs_v1.py``),
the two in alternating order on the same positions, so a neighbour's load falls
on both alike. Prints per preset the median microseconds per observation of
each and the median of the per-game ratios.

    python benchmarks/bench_observation.py [--games 300] [--baseline /tmp/obs_v1.py] [--presets ten_point]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from pathlib import Path
from types import ModuleType

import smear_env
from smear_env import observation
from smear_env.game import Game


def load_module(path: Path, name: str = "baseline_observation") -> ModuleType:
    """Another version of a module (the observation's, here), importing the engine of this tree."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_game(preset: str, seed: int, observers: list) -> list[float]:
    """Microseconds per observation of each observer over one random hand of ``preset``."""
    rng = random.Random(seed)
    game = Game(smear_env.get_rules(preset), seed=seed, single_hand=True)
    spent = [0.0] * len(observers)
    steps = 0
    clock = time.perf_counter
    while not game.is_over:
        seat = game.current_player
        order = range(len(observers)) if steps % 2 == 0 else reversed(range(len(observers)))
        for i in order:
            start = clock()
            observers[i].vector(game, seat)
            spent[i] += clock() - start
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return [1e6 * s / steps for s in spent]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="random hands per preset")
    parser.add_argument("--baseline", type=Path, help="another observation.py to measure beside this one")
    parser.add_argument("--presets", nargs="*", default=smear_env.list_smear_presets())
    args = parser.parse_args(argv)
    modules = [observation] + ([load_module(args.baseline)] if args.baseline else [])
    names = ["this tree"] + ([f"baseline (layout {modules[1].OBSERVATION_VERSION})"] if args.baseline else [])
    header = "| preset | " + " | ".join(f"{name} us/obs" for name in names)
    header += " | this / baseline |" if args.baseline else " |"
    print(f"median over {args.games} random hands; per-game means of the seat on turn's observation")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for preset in args.presets:
        n = smear_env.get_rules(preset).num_players
        observers = [m.IncrementalObserver(n) for m in modules]
        rows = []
        for seed in range(args.games):
            for obs in observers:
                obs.forget()
            rows.append(time_game(preset, seed, observers))
        cells = [f"{statistics.median(r[i] for r in rows):.2f}" for i in range(len(modules))]
        if args.baseline:
            cells.append(f"{statistics.median(r[0] / r[1] for r in rows):.2f}x")
        print(f"| {preset} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
