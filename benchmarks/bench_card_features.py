"""Time per observation of ``agents.card_features.card_features``, optionally side by side with another checkout.

The card head's features are computed in Python for every card-play decision a card-head network
meets, twice in PPO (collection and update) and once per position in a distillation fit, so their
cost is what a card-head run pays over a plain one. The vectors are every seat's observations at
the card-play decisions of seeded random hands of each preset. With ``--compare PATH`` the module
of the checkout at PATH (its engine imports come from this one) runs on the same vectors in
alternating rounds; the script first checks that both give the same features, then prints each
side's median microseconds per vector and the median of the per-round ratios (load from other
processes falls on both alike)::

    git worktree add /tmp/base <commit>
    python benchmarks/bench_card_features.py --compare /tmp/base [--presets schmier ten_point_6p]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_observation import load_module  # noqa: E402  (this script's folder is on the path)

from smear_env import list_smear_presets  # noqa: E402
from smear_env.game import PLAY, Game  # noqa: E402
from smear_env.observation import Observer, layout  # noqa: E402
from smear_env.signature import rules_for_preset  # noqa: E402


def card_play_vectors(preset: str, hands: int) -> np.ndarray:
    """Observations of the seat on turn at every card-play decision of ``hands`` seeded random hands."""
    rules = rules_for_preset(preset)
    phase = dict((name, start) for name, start, _ in layout(rules.num_players))["phase"] + PLAY
    rng, out = np.random.default_rng(1), []
    for seed in range(hands):
        game, observer = Game(rules, seed=seed, single_hand=True), Observer(rules.num_players)
        while not game.is_over:
            vector = observer.vector(game, game.current_player)
            if vector[phase]:
                out.append(vector)
            game.apply(int(rng.choice(game.legal_actions())))
    return np.stack(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", nargs="+", default=list_smear_presets())
    parser.add_argument("--hands", type=int, default=100, help="random hands per preset")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compare", type=Path, help="another checkout to measure beside this one")
    args = parser.parse_args(argv)
    trees = [REPO] + ([args.compare.resolve()] if args.compare else [])
    modules = [load_module(tree / "agents" / "card_features.py", f"card_features_{i}") for i, tree in enumerate(trees)]
    header = "| preset | vectors | " + " | ".join(f"{tree} (us a vector)" for tree in trees)
    header += " | this / other (paired) |" if args.compare else " |"
    print(f"card features, median of {args.rounds} rounds (alternating order)")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for preset in args.presets:
        rules, vectors = rules_for_preset(preset), card_play_vectors(preset, args.hands)
        first = modules[0].card_features(vectors, rules)
        for module, tree in zip(modules[1:], trees[1:], strict=True):
            if not np.array_equal(first, module.card_features(vectors, rules)):
                raise SystemExit(f"{preset}: {tree} computes other features than {REPO}")
        times: list[list[float]] = [[] for _ in modules]
        for r in range(args.rounds):
            for i in range(len(modules)) if r % 2 == 0 else reversed(range(len(modules))):
                start = time.perf_counter()
                modules[i].card_features(vectors, rules)
                times[i].append((time.perf_counter() - start) / len(vectors) * 1e6)
        cells = [f"{statistics.median(t):.1f}" for t in times]
        if args.compare:
            cells.append(f"{statistics.median(a / b for a, b in zip(*times, strict=True)):.2f}x")
        print(f"| {preset} | {len(vectors)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
