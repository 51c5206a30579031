"""Experience collection at 0, 1 and 2 Ray workers: decisions a second and decisions a CPU-second, side by side.

What it measures: the rollouts of a universal run's PPO stage (rules drawn per match, card features read
under each match's rules, one torch thread per process), collected in the learner's process (``workers = 0``)
or by 1 or 2 Ray actors (``training.collection``), with the learner's update left out, so the figure is the
collection alone. Each setting plays ``--rollouts`` rollouts of ``--steps`` decisions after one warm-up
rollout; settings alternate round by round, so load from other processes falls on each alike. Printed per
setting: the median decisions a second (wall clock), the decisions per CPU-second of every process the
collection used (the learner's and the workers'), and the ratio to the in-process median.

On a cluster, ``--address`` makes Ray's workers those of the running cluster (``ray start --head``).

    python benchmarks/bench_collection.py [--workers 0 1 2] [--rounds 3] [--steps 8192] [--address HOST:PORT]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from typing import Any

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

CONFIG = {
    "preset": "ten_point", "universal": True, "house_share": 0.5, "hidden": [512, 512], "card_head": 18,
    "num_games": 64, "rollout_steps": 8192, "bc_hands": 0, "opp_self": 0.4, "opp_pool": 0.0, "opp_rule": 0.6,
    "match_moon": True, "moon_model": "network", "torch_threads": 1, "device": "cpu",
}  # fmt: skip


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (Ray's workers report theirs: see collect_ray)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


class Setting:
    """One way of collecting: in this process (0) or by N Ray workers, its weights those of a fresh network."""

    def __init__(self, workers: int, steps: int, address: str) -> None:
        import torch

        from smear_env.signature import rules_for_preset
        from training.collection import RayCollection, make_collector
        from training.config import config_from_dict
        from training.model import make_network
        from training.selfplay import torch_policy

        torch.set_num_threads(1)
        self.workers, self.steps = workers, steps
        config = config_from_dict({**CONFIG, "rollout_steps": steps, "workers": workers})
        rules = rules_for_preset(config.preset)
        rng = np.random.default_rng(0)
        self.net = make_network(self._obs_size(rules), 181, config.hidden, 0, config.card_head)
        if workers:
            self.collection: Any = RayCollection(config, rules, rng, address)
        else:
            self.collection = make_collector(config, rules, rng)
            self.policy = torch_policy(self.net, torch.device("cpu"), rules, whole_inputs=True)

    @staticmethod
    def _obs_size(rules: Any) -> int:
        from smear_env.signature import network_signature

        return network_signature(rules)["observation_size"]

    def rollout(self) -> tuple[int, float, float]:
        """Decisions collected, wall seconds, CPU seconds (every process collecting)."""
        start, cpu = time.perf_counter(), cpu_seconds()
        if self.workers:
            before = self._worker_cpu()
            batch = self.collection.collect(self.steps, self.net.state_dict())
            used = cpu_seconds() - cpu + self._worker_cpu() - before
        else:
            batch = self.collection.collect(self.steps, self.policy, [])
            used = cpu_seconds() - cpu
        return len(batch), time.perf_counter() - start, used

    def _worker_cpu(self) -> float:
        import ray

        return sum(ray.get([w.cpu_seconds.remote() for w in self.collection.workers]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--address", default="")
    args = parser.parse_args()
    if any(args.workers) and not args.address:
        from training.ray_start import start_ray

        # every setting's actors live at once and take turns: a Ray of num_cpus = one setting's workers (what
        # training starts) would leave the next setting's actors unscheduled, and the benchmark waiting for ever
        start_ray(sum(args.workers))
    settings = {w: Setting(w, args.steps, args.address) for w in args.workers}
    for setting in settings.values():
        setting.rollout()  # warm-up: matches under way, caches filled
    rates: dict[int, list[float]] = {w: [] for w in settings}
    per_cpu: dict[int, list[float]] = {w: [] for w in settings}
    for round_index in range(args.rounds):
        order = list(settings) if round_index % 2 == 0 else list(reversed(settings))
        for workers in order:
            decisions, wall, cpu = settings[workers].rollout()
            rates[workers].append(decisions / wall)
            per_cpu[workers].append(decisions / cpu if cpu > 0 else float("nan"))
    base = statistics.median(rates[args.workers[0]])
    print(f"collection of a universal run's rollouts ({args.steps} decisions, {args.rounds} rounds, {os.cpu_count()} "
          "cores); medians")  # fmt: skip
    print("| workers | decisions/s | decisions per CPU-second | speed vs first |")
    print("|---|---|---|---|")
    for workers in settings:
        rate, cpu = statistics.median(rates[workers]), statistics.median(per_cpu[workers])
        print(f"| {workers} | {rate:,.0f} | {cpu:,.0f} | {rate / base:.2f}x |")


if __name__ == "__main__":
    main()
