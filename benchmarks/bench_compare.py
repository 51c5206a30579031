"""Engine and env speed of two source trees, side by side: the same seeded random games, CPU time.

On a shared machine wall-clock rates swing by half from one second to the next; this
compares two checkouts (say the commit before a change and the working tree) by CPU time
of the process, on exactly the same seeded games (random legal moves, one hand per game),
in alternating rounds, each tree in its own long-lived worker process. It prints the
decisions per CPU second of each (medians over the rounds) and the median of the per-round
ratios, which cancels most of what the neighbours do::

    git worktree add /tmp/base <commit>      # or: mkdir /tmp/base && git archive <commit> | tar -x -C /tmp/base
    python benchmarks/bench_compare.py /tmp/base . --rounds 12 --hands 150

Where a change alters a preset's legal moves, the two trees play different games from the
same seeds, so compare such presets with care.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import smear_env
from smear_env.game import Game

def engine(preset, hands, seed):
    rules, rng, decisions = smear_env.get_rules(preset), random.Random(seed), 0
    start = time.process_time()
    for _ in range(hands):
        game = Game(rules, seed=rng.getrandbits(62), single_hand=True)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
    return decisions, time.process_time() - start

def env(preset, hands, seed):
    rng, aec, decisions = random.Random(seed), smear_env.env(preset=preset, reward="hand"), 0
    start = time.process_time()
    aec.reset(seed=seed)
    for _ in range(hands):
        for _agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(rng.choice(obs["action_mask"].nonzero()[0]))
            decisions += 1
        aec.reset()
    return decisions, time.process_time() - start

for line in sys.stdin:
    kind, preset, hands, seed = line.split()
    print(json.dumps((engine if kind == "engine" else env)(preset, int(hands), int(seed))), flush=True)
"""


class Worker:
    """A process importing ``smear_env`` from one source tree, playing the games it is asked for."""

    def __init__(self, tree: Path) -> None:
        command = [sys.executable, "-c", WORKER, str(tree.resolve())]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def rate(self, kind: str, preset: str, hands: int, seed: int) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{kind} {preset} {hands} {seed}\n")
        self.proc.stdin.flush()
        decisions, seconds = json.loads(self.proc.stdout.readline())
        return decisions / seconds

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path, help="source tree to compare against (holds smear_env/)")
    parser.add_argument("new", type=Path, help="source tree measured against it")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--hands", type=int, default=150, help="engine hands per round (the env plays a fifth)")
    parser.add_argument("--presets", nargs="*", default=None)
    args = parser.parse_args(argv)
    for tree in (args.base, args.new):
        if not (tree / "smear_env" / "game.py").is_file():
            parser.error(f"{tree} is not a source tree: expected {tree / 'smear_env' / 'game.py'}")
    if args.rounds < 1 or args.hands < 5:
        parser.error("--rounds must be >= 1 and --hands >= 5")
    workers = {"base": Worker(args.base), "new": Worker(args.new)}
    presets = args.presets or sorted(p.stem for p in (args.new / "configs" / "rules").glob("*.toml"))
    print(f"decisions per CPU second, same seeded games, {args.rounds} alternating rounds: medians, and the")
    print("median of the per-round ratios new/base")
    print("| preset | run | base | new | new / base |")
    print("|---|---|---|---|---|")
    try:
        for preset in presets:
            for kind, hands in (("engine", args.hands), ("env", max(1, args.hands // 5))):
                rates: dict[str, list[float]] = {"base": [], "new": []}
                for index in range(args.rounds):
                    for name in ("base", "new") if index % 2 == 0 else ("new", "base"):
                        rates[name].append(workers[name].rate(kind, preset, hands, index))
                ratio = statistics.median(n / b for n, b in zip(rates["new"], rates["base"], strict=True))
                base, new = statistics.median(rates["base"]), statistics.median(rates["new"])
                print(f"| {preset} | {kind} | {base:,.0f} | {new:,.0f} | {ratio:.3f} |", flush=True)
    finally:
        for worker in workers.values():
            worker.close()


if __name__ == "__main__":
    main()
