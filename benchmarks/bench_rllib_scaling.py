"""RLlib self-play PPO at 1 and 2 env runners: where an iteration's time goes, and what more runners could gain.

What it measures: the benchmark's RLlib baseline (``examples/rllib_selfplay.py``: PPO, one policy shared
by every seat, 4000 env steps an iteration) built with each number of env runners in ``--runners``. After
one warm-up iteration it times ``--iterations`` more and reads RLlib's own timers: the seconds an
iteration spends sampling (the env runners playing) and updating (the learner's epochs), and the env
steps a second. Settings alternate round by round, so load from other processes falls on each alike.

Why: on a cluster the env runners spread over the machines and the sampling share shrinks with their
number, while the one learner's update does not. So the update's share of an iteration bounds what any
number of runners can gain (Amdahl): an iteration cannot take less than its update. The last column
prints that bound, (sampling + update) / update, from the 1-runner medians.

    OMP_NUM_THREADS=1 python benchmarks/bench_rllib_scaling.py [--runners 1 2] [--rounds 2] [--iterations 3]
        [--preset minnesota] [--address HOST:PORT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

import ray  # noqa: E402
from ray.tune.registry import register_env  # noqa: E402
from rllib_selfplay import build_config  # noqa: E402

from smear_env.rllib import rllib_env  # noqa: E402


def time_iterations(preset: str, runners: int, iterations: int) -> list[dict[str, float]]:
    """One algorithm with ``runners`` env runners: a warm-up iteration, then ``iterations`` timed ones."""
    args = argparse.Namespace(preset=preset, env_runners=runners, batch=4000, seed=0)
    algo = build_config(args).build_algo()
    try:
        algo.train()  # warm-up: the runners' first episodes, torch's first updates
        rows = []
        for _ in range(iterations):
            result: dict[str, Any] = algo.train()
            timers = result["timers"]
            seconds = result["time_this_iter_s"]
            steps = result["env_runners"].get("num_env_steps_sampled", 4000)
            rows.append({"seconds": seconds, "sampling": timers["env_runner_sampling_timer"],
                         "update": timers["learner_update_timer"], "steps_per_s": steps / seconds})  # fmt: skip
        return rows
    finally:
        algo.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts to compare")
    parser.add_argument("--rounds", type=int, default=2, help="rounds; settings alternate within each")
    parser.add_argument("--iterations", type=int, default=3, help="timed iterations a setting and round")
    parser.add_argument("--preset", default="minnesota", help="the game (kitty_moon's preset by default)")
    parser.add_argument("--address", default=None, help="a Ray cluster's address; default: a local Ray")
    args = parser.parse_args()
    register_env("smear", rllib_env)
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    rows: dict[int, list[dict[str, float]]] = {n: [] for n in args.runners}
    try:
        for _ in range(args.rounds):
            for n in args.runners:
                rows[n] += time_iterations(args.preset, n, args.iterations)
    finally:
        ray.shutdown()
    base = statistics.median(r["steps_per_s"] for r in rows[args.runners[0]])
    print(f"RLlib PPO on {args.preset}, 4000 env steps an iteration; medians of {args.rounds * args.iterations} "
          "iterations a setting")  # fmt: skip
    print("| env runners | s an iteration | sampling s | update s | update share | env steps/s | ratio | bound |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.runners:
        med = {k: statistics.median(r[k] for r in rows[n]) for k in rows[n][0]}
        share = med["update"] / (med["sampling"] + med["update"])
        print(f"| {n} | {med['seconds']:.1f} | {med['sampling']:.1f} | {med['update']:.1f} | {share:.2f} | "
              f"{med['steps_per_s']:,.0f} | {med['steps_per_s'] / base:.2f}x | {1 / share:.1f}x |")  # fmt: skip
    print("bound: the most any number of runners could speed an iteration up while one learner updates alone")


if __name__ == "__main__":
    main()
