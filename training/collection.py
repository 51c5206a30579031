"""Where a run's experience is collected: in the learner's process, or in Ray worker processes.

Why Ray: self-play is bound by the Python engine, one core per process, while the
learner's update is a small fraction of a step. ``workers = N`` in a training config
(or ``smear-rl train --workers N``) moves collection into N Ray actors, each running
its own :class:`training.selfplay.Collector` over ``num_games / N`` of the matches with
its own random stream; the learner sends them its weights (and, when it changes, its
snapshot pool) once per update and concatenates what they return. Ray starts embedded on
this machine by default (one command, no cluster); ``--address`` joins a running cluster
(``ray start --head`` on one machine, ``ray start --address=...`` on the others), where
the actors spread over every node's cores. The learner stays where the command runs and
uses its GPU when it has one.

Resuming stays exact: each actor's collector state (its matches in flight, open episodes
and random stream) is part of the checkpoint, and a resumed run gives each actor back
its own. The number of workers is part of the run's config: 0 and N workers play
different matches, so they are different runs.
"""

from __future__ import annotations

import resource
import sys
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from agents.neural_agent import Policy
from smear_env.rules import Rules, get_rules
from smear_env.signature import AnyRules, network_signature
from training.config import TrainConfig, opponent_mix
from training.export import policy_from_checkpoint
from training.focus import FocusSet
from training.model import make_network
from training.ray_start import start_ray
from training.rules_draw import RulesDraw
from training.selfplay import Batch, Collector, torch_policy
from training.teachers import TAUGHT_FROM_START, make_teacher


def collector_class(rules: AnyRules) -> type[Collector]:
    """The self-play collector of the game ``rules`` belong to (Smear's, or Bohemian Schneider's)."""
    from smear_env.signature import SCHNEIDER, game_of
    from training.schneider_selfplay import SchneiderCollector

    return SchneiderCollector if game_of(rules) == SCHNEIDER else Collector


def make_collector(
    c: TrainConfig,
    rules: AnyRules,
    rng: np.random.Generator,
    num_games: int | None = None,
    imitate: bool = False,
    focus: Sequence[FocusSet] = (),
) -> Collector:
    """A collector of the run's games: one preset's, or (``universal``) rules drawn per match whose observations
    come with their card features read under their own rules, labelled by the teacher if any. ``imitate``: every
    seat is the rule bot and its moves are recorded (the imitation warm start). ``focus``: the house-rule sets
    a focused run draws from (:mod:`training.focus`)."""
    mix = {"rule": 1.0} if imitate else opponent_mix(c)
    extra: dict[str, Any] = {"moon_model": c.moon_model} if c.match_moon else {}  # Smear's collector only
    if c.universal:
        fixed = get_rules(c.preset, **c.house_rules) if c.house_rules else None  # one house-rule set, every match
        experts = c.table_experts()  # where each table expert teaches
        tables = [(expert.table(), expert.share) for expert in experts]
        focused = [(f.rules(), f.weight) for f in focus]
        draw = RulesDraw(c.train_presets, c.house_share, fixed, focused, c.house_options, tables)
        against_fixed = get_rules(c.preset, **c.fixed_house_rules) if c.fixed_house_rules else None
        extra |= {"draw_rules": draw, "card_features": c.card_head, "fixed_rules": against_fixed}
        if c.teacher and not imitate:
            start = policy_from_checkpoint(c.init_from) if c.teacher == TAUGHT_FROM_START else None
            labels = tuple(c.teacher_presets), tuple(c.teacher_moves), c.teacher_hold
            by_table = {table: table_expert(expert.teacher, table) for expert, (table, _) in zip(experts, tables)}
            extra["teacher"] = make_teacher(c.teacher, c.card_head, start, *labels, by_table)
    return collector_class(rules)(rules, num_games or c.num_games, mix, rng, c.gamma, 1.0 if imitate else c.gae_lambda,
                                  c.reward_scale, imitate=imitate, fixed_agent=c.fixed_agent,
                                  match_reward=c.match_reward, late_start=0.0 if imitate else c.late_start,
                                  match_moon=c.match_moon, rival_weight=c.rival_weight, **extra)  # fmt: skip


def table_expert(path: str, table: Rules) -> Policy:
    """A table expert's policy, refused (before any match is played) unless it can play its table: a universal
    network, or one made for exactly those rules."""
    policy = policy_from_checkpoint(path)
    problems = policy.differences(table)
    if problems:
        raise ValueError(f"training config: table expert {path!r} cannot play its table: " + "; ".join(problems))
    return policy


def worker_games(num_games: int, workers: int) -> list[int]:
    """How the matches in flight are shared among the workers (the first ones take one more when they do not split)."""
    if workers > num_games:
        raise ValueError(f"training config: workers = {workers}: more workers than num_games = {num_games} matches")
    return [num_games // workers + (k < num_games % workers) for k in range(workers)]


class CollectorWorker:
    """One Ray actor's share of the matches: its own collector and random stream, the learner's weights each update."""

    def __init__(
        self, config: dict[str, Any], rules: AnyRules, num_games: int, seed: int, focus: list[dict[str, Any]]
    ) -> None:
        from training.config import config_from_dict

        torch.set_num_threads(1)  # one core per worker: collection is Python, the forward passes small
        self.config = c = config_from_dict(config)
        self.rules = rules
        self.rng = np.random.default_rng(seed)
        self.collector = make_collector(c, rules, self.rng, num_games, focus=[FocusSet.from_dict(f) for f in focus])
        signature = network_signature(rules)
        self.net = make_network(signature["observation_size"], signature["num_actions"], c.hidden, 0, c.card_head)
        self.pool_version = -1
        self.pool: list[Any] = []

    def _policy(self, state: dict[str, torch.Tensor]) -> Any:
        net = make_network(self.net.obs_size, self.net.num_actions, self.config.hidden, 0, self.config.card_head)
        net.load_state_dict(state)
        return torch_policy(net.eval(), torch.device("cpu"), self.rules, whole_inputs=self.collector.card_features > 0)

    def collect(
        self, steps: int, weights: dict[str, torch.Tensor], pool_version: int, pool: list[dict[str, torch.Tensor]]
    ) -> tuple[Batch, dict[str, float]]:
        """At least ``steps`` decisions in finished hands, played by these weights (and the pool's snapshots)."""
        if pool_version != self.pool_version:
            self.pool, self.pool_version = [self._policy(state) for state in pool], pool_version
        self.collector.pool_size = len(self.pool)
        batch = self.collector.collect(steps, self._policy(weights), self.pool)
        return batch, self.collector.pop_stats()

    def state_dict(self) -> dict[str, Any]:
        return {"collector": self.collector.state_dict(), "rng": self.rng.bit_generator.state}

    @staticmethod
    def cpu_seconds() -> float:
        """This worker process's CPU time so far (benchmarks/bench_collection.py adds the workers' up)."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.rng.bit_generator.state = state["rng"]
        self.collector.load_state_dict(state["collector"])

    @staticmethod
    def node() -> str:
        """The Ray node this worker runs on: how a run on a cluster shows that its workers spread."""
        import ray

        return ray.get_runtime_context().get_node_id()


class RayCollection:
    """The learner's side of collection in Ray workers: what :class:`training.ppo.Trainer` asks of a collector."""

    has_bids = True

    def __init__(
        self,
        config: TrainConfig,
        rules: AnyRules,
        seed_seq: np.random.Generator,
        address: str = "",
        focus: Sequence[FocusSet] = (),
    ) -> None:
        ray = self._ray = start_ray(config.workers, address)
        actor = ray.remote(num_cpus=1)(CollectorWorker)
        games = worker_games(config.num_games, config.workers)
        seeds = seed_seq.integers(2**62, size=config.workers)  # one stream per worker, drawn from the run's
        sets = [f.to_dict() for f in focus]
        self.workers = [actor.remote(config.to_dict(), rules, n, int(s), sets) for n, s in zip(games, seeds)]
        self.nodes = ray.get([w.node.remote() for w in self.workers])  # each worker's node, in worker order
        print(f"collecting in {len(self.workers)} Ray workers on {len(set(self.nodes))} node(s)"
              + (f" of the cluster at {address}" if address else " (Ray embedded on this machine)"),
              file=sys.stderr)  # fmt: skip
        self.card_features = config.card_head if config.universal else 0
        self.has_bids = collector_class(rules).has_bids
        self.pool_size, self._pool_version, self._pool_ref = 0, 0, ray.put([])
        self._stats: dict[str, float] = defaultdict(float)

    def set_pool(self, pool: list[dict[str, torch.Tensor]]) -> None:
        """The snapshots the workers' pool opponents play: sent once, then only named by version."""
        self._pool_version += 1
        self._pool_ref = self._ray.put([{k: v.cpu() for k, v in state.items()} for state in pool])
        self.pool_size = len(pool)

    def collect(self, steps: int, weights: dict[str, torch.Tensor]) -> Batch:
        """Every worker collects its share of ``steps`` with ``weights``; their decisions as one batch."""
        ray = self._ray
        share = -(-steps // len(self.workers))
        state = ray.put({k: v.detach().cpu() for k, v in weights.items()})
        results = ray.get([w.collect.remote(share, state, self._pool_version, self._pool_ref) for w in self.workers])
        for _, stats in results:
            for key, value in stats.items():
                self._stats[key] += value
        batches = [batch for batch, _ in results]
        names = ("obs", "masks", "actions", "logps", "values", "advantages", "returns")
        arrays = {name: np.concatenate([getattr(b, name) for b in batches]) for name in names}
        labelled = all(b.targets is not None for b in batches)
        return Batch(**arrays, targets=np.concatenate([b.targets for b in batches]) if labelled else None)

    def pop_stats(self) -> dict[str, float]:
        stats, self._stats = dict(self._stats), defaultdict(float)
        return stats

    def state_dict(self) -> dict[str, Any]:
        """Every worker's matches in flight and random stream (see the module docstring)."""
        return {"workers": self._ray.get([w.state_dict.remote() for w in self.workers])}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        parts = state.get("workers") if isinstance(state, dict) else None
        if not isinstance(parts, list) or len(parts) != len(self.workers):
            raise ValueError(f"the checkpoint holds no state for {len(self.workers)} collection workers")
        self._ray.get([w.load_state_dict.remote(part) for w, part in zip(self.workers, parts)])

    def shutdown(self) -> None:
        for worker in self.workers:
            self._ray.kill(worker)
