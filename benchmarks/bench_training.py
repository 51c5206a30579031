"""Training throughput and the rule bot's cost per decision, optionally side by side with another checkout.

Three measurements, each from a fixed seed so two versions do the same work:

- ``rule``: the rule bot's time per decision (all decisions of seeded rule-bot hands), built as the
  training collector builds it: from the view (``player_view`` then ``act``) and, where the
  checkout has it, from the engine (``knowledge_from_game`` then ``act_on``); median microseconds.
- ``imitation``: decisions/s of the imitation warm start's collection (the rule bot in every seat,
  every decision recorded with its observation), the part of training that is all rule bot.
- ``ppo``: decisions/s of PPO updates on the preset's default opponent mix (collection and the
  update, one torch thread), after a short imitation so the policy bids like the rule bot; and the
  same with a card head (``card_head = 18``), whose card features are computed in Python.

With ``--compare PATH`` every round runs this checkout and the one at PATH (say, a ``git worktree``
of the commit before a change) one after the other in fresh processes, in alternating order, and
prints each side's median over the rounds and the median of the per-round ratios, so load from
other processes falls on both alike.

    python benchmarks/bench_training.py [--preset ten_point] [--rounds 3] [--compare /tmp/before]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def rule_costs(preset: str, hands: int) -> dict[str, float]:
    """Median microseconds per rule-bot decision, from the view and (if available) from the engine."""
    from agents.rule_bot import RuleAgent
    from smear_env.game import Game
    from smear_env.observation import player_view
    from smear_env.rules import get_rules

    try:
        from agents.knowledge import knowledge_from_game
    except ImportError:  # a checkout from before the fast path
        knowledge_from_game = None
    rules = get_rules(preset)
    bot = RuleAgent(rules)
    by_view: list[float] = []
    by_game: list[float] = []
    clock = time.perf_counter
    for seed in range(hands):
        game = Game(rules, seed=seed, single_hand=True)
        while not game.is_over:
            seat = game.current_player
            start = clock()
            action = bot.act(player_view(game, seat))
            by_view.append(clock() - start)
            if knowledge_from_game is not None:
                start = clock()
                bot.act_on(knowledge_from_game(game, seat, rules))
                by_game.append(clock() - start)
            game.apply(action)
    out = {"rule_view_us": 1e6 * statistics.median(by_view)}
    if by_game:
        out["rule_engine_us"] = 1e6 * statistics.median(by_game)
    return out


def training_rates(preset: str, seed: int, bc_hands: int, updates: int) -> dict[str, float]:
    """Decisions/s of imitation collection and of PPO updates, from a fixed seed; PPO also with a card head
    (``card_head = 18``: its features are computed for every decision) where the checkout has one."""
    import numpy as np
    import torch

    from smear_env.signature import rules_for_preset
    from training.config import config_from_dict
    from training.selfplay import Collector

    torch.set_num_threads(1)
    base = {"preset": preset, "seed": seed, "bc_hands": bc_hands, "bc_chunk_hands": bc_hands, "rollout_steps": 4096,
            "device": "cpu", "eval_every_minutes": 0.0}  # fmt: skip
    config = config_from_dict(base)
    teacher = Collector(rules_for_preset(preset), config.num_games, {"rule": 1.0}, np.random.default_rng(seed),
                        imitate=True)  # fmt: skip
    start = time.perf_counter()
    while teacher.stats["hands"] < bc_hands:
        teacher.step(None, [])
    out = {"imitation_decisions_per_s": len(teacher.take()) / (time.perf_counter() - start),
           "ppo_decisions_per_s": ppo_rate(base, updates)}  # fmt: skip
    try:
        config_from_dict({**base, "card_head": 18})
    except ValueError:  # a checkout from before PPO trained card heads
        return out
    out["ppo_card_head_decisions_per_s"] = ppo_rate({**base, "card_head": 18}, updates)
    return out


def ppo_rate(config: dict[str, object], updates: int) -> float:
    """Decisions/s of ``updates`` PPO updates (collection and update) after the config's imitation warm start."""
    from tqdm import tqdm

    from training.config import config_from_dict
    from training.ppo import Trainer

    c = config_from_dict(config)
    with tempfile.TemporaryDirectory() as out:
        trainer = Trainer(c, out)
        trainer.imitate(tqdm(disable=True))
        decisions, start = 0, time.perf_counter()
        for _ in range(updates):
            batch = trainer.collector.collect(c.rollout_steps, trainer._learner_policy(), trainer.pool_policies)
            trainer.ppo_update(batch)
            decisions += len(batch)
        rate = decisions / (time.perf_counter() - start)
        trainer.writer.close()
    return rate


def measure(args: argparse.Namespace) -> dict[str, float]:
    return {**rule_costs(args.preset, args.rule_hands),
            **training_rates(args.preset, args.seed, args.bc_hands, args.updates)}  # fmt: skip


def run_in(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    """One measurement in a fresh process importing the checkout at ``tree``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--measure-only", "--preset", args.preset,
               "--seed", str(args.seed), "--bc-hands", str(args.bc_hands), "--updates", str(args.updates),
               "--rule-hands", str(args.rule_hands)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="ten_point")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bc-hands", type=int, default=300, help="imitation hands (collected, then fitted)")
    parser.add_argument("--updates", type=int, default=3, help="PPO updates of 4096 decisions timed")
    parser.add_argument("--rule-hands", type=int, default=200, help="rule-bot hands timed decision by decision")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another checkout to measure beside this one")
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure_only:
        print(json.dumps(measure(args)))
        return
    trees = [REPO] + ([args.compare.resolve()] if args.compare else [])
    results: list[list[dict[str, float]]] = [[] for _ in trees]
    for r in range(args.rounds):
        order = list(range(len(trees))) if r % 2 == 0 else list(reversed(range(len(trees))))
        for i in order:
            results[i].append(run_in(trees[i], args))
            print(f"round {r + 1}, {trees[i]}: {results[i][-1]}", file=sys.stderr, flush=True)
    keys = sorted({k for rows in results for row in rows for k in row})
    print(f"{args.preset}, seed {args.seed}: median of {args.rounds} rounds (fresh processes, alternating order)")
    header = "| measure | " + " | ".join(str(t) for t in trees)
    header += " | this / other (paired) |" if args.compare else " |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for key in keys:
        cells = [f"{statistics.median(row[key] for row in rows):,.1f}" if all(key in row for row in rows) else "-"
                 for rows in results]  # fmt: skip
        if args.compare and all(key in row for rows in results for row in rows):
            cells.append(f"{statistics.median(a[key] / b[key] for a, b in zip(*results, strict=True)):.2f}x")
        elif args.compare:
            cells.append("-")
        print(f"| {key} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
