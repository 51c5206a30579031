"""Train sb3-contrib's MaskablePPO on one seat of Smear, then show it beats a random player.

One seat learns (``smear_env.single_agent_env``), bots play the other seats, and every
episode is one hand rewarded with the hand reward (my side's score change minus the
other side's). After training, the learned policy and a uniformly random legal player
each play the same evaluation hands (same seeds, so the same deals) in the learner's
seat, and the script prints both mean hand rewards and their paired difference with a
95% interval.

    pip install -c constraints.txt -e ".[sb3]"
    python examples/sb3_maskable_ppo.py --minutes 3          # a few minutes of training
    python examples/sb3_maskable_ppo.py --steps 2000 --eval-hands 50   # seconds: what CI runs

With ``--out`` the model is saved (``<out>/model.zip``), and with ``--snapshot-minutes`` a
snapshot every so many minutes, listed in ``<out>/snapshots.csv``; ``smear-rl rate`` rates
the saved model on a benchmark task, and its ``--curve`` plays the snapshots (the
benchmark's baseline, docs/benchmark/baselines.md)::

    python examples/sb3_maskable_ppo.py --preset minnesota --opponents rule --minutes 15 \
        --out runs/sb3 --snapshot-minutes 1.5 --eval-hands 0
    smear-rl rate sb3:runs/sb3/model.zip --task kitty_moon

Needs the ``sb3`` extra (stable-baselines3, sb3-contrib, torch).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import smear_env
from training.benchmark.curve import Snapshots

Policy = Callable[[np.ndarray, np.ndarray], int]


class TimeLimit(BaseCallback):
    """Stops training after ``seconds`` of wall time; saves the snapshots ``snapshots`` asks for on the way."""

    def __init__(self, seconds: float, snapshots: Snapshots | None = None) -> None:
        super().__init__()
        self.seconds, self.snapshots = seconds, snapshots
        self.began = time.monotonic()

    def _on_training_start(self) -> None:
        self.began = time.monotonic()

    def _on_step(self) -> bool:
        minutes = (time.monotonic() - self.began) / 60
        if self.snapshots is not None and self.snapshots.due(minutes):
            path = self.snapshots.path.parent / "snapshots" / f"model_{self.num_timesteps}.zip"
            path.parent.mkdir(exist_ok=True)
            self.model.save(path)
            self.snapshots.add(f"sb3:{path}", minutes, self.num_timesteps)
        return minutes * 60 < self.seconds


def hand_rewards(policy: Policy, preset: str, opponents: str, hands: int, seed: int) -> np.ndarray:
    """The learner seat's reward in each of ``hands`` evaluation hands (episode ``i`` reset with seed ``seed + i``)."""
    env = smear_env.single_agent_env(preset, seat=0, opponents=opponents, reward="hand")
    out = np.zeros(hands)
    for i in range(hands):
        obs, _ = env.reset(seed=seed + i)
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(policy(obs, env.action_masks()))
            out[i] += reward
            done = terminated or truncated
    return out


def mean_ci(x: np.ndarray) -> str:
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():+.2f} [{x.mean() - half:+.2f}, {x.mean() + half:+.2f}]"


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="ten_point", help="game preset (smear_env.list_presets())")
    parser.add_argument("--opponents", default="random", help="bot in every other seat (agent name)")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time limit")
    parser.add_argument("--steps", type=int, default=10_000_000, help="training step limit (learner decisions)")
    parser.add_argument("--eval-hands", type=int, default=1000, help="evaluation hands for each player (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the network, the training games and the bots")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (small networks: 1 is fastest)")
    parser.add_argument("--out", type=Path, help="save the model here (model.zip), and the snapshots")
    parser.add_argument("--snapshot-minutes", type=float, default=0.0, help="with --out: a snapshot every so often")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    snapshots = Snapshots.for_run(args.out, args.snapshot_minutes)

    env = smear_env.single_agent_env(args.preset, seat=0, opponents=args.opponents, reward="hand")
    small = args.steps < 4096  # a smoke run: one short rollout
    model = MaskablePPO(
        "MlpPolicy", env, seed=args.seed, verbose=0, n_steps=256 if small else 2048, batch_size=64 if small else 256,
        policy_kwargs={"net_arch": [256, 256]}, device="cpu",
    )  # fmt: skip
    start = time.monotonic()
    model.learn(total_timesteps=args.steps, callback=TimeLimit(args.minutes * 60, snapshots))
    trained_for = time.monotonic() - start
    print(f"{args.preset}: trained {model.num_timesteps} steps in {trained_for / 60:.1f} min, against {args.opponents}")
    if args.out is not None:
        model.save(args.out / "model.zip")
        print(f"saved {args.out / 'model.zip'}: smear-rl rate sb3:{args.out / 'model.zip'} --task <task>")
    if args.eval_hands <= 0:
        return {"steps": float(model.num_timesteps)}

    rng = np.random.default_rng(args.seed)

    def trained(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def uniform(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    eval_seed = 10**9 + args.seed  # evaluation deals: not ones trained on
    learned = hand_rewards(trained, args.preset, args.opponents, args.eval_hands, eval_seed)
    baseline = hand_rewards(uniform, args.preset, args.opponents, args.eval_hands, eval_seed)
    print(f"hand reward per hand over {args.eval_hands} hands (95% interval):")
    print(f"  MaskablePPO      {mean_ci(learned)}")
    print(f"  random player    {mean_ci(baseline)}")
    print(f"  difference       {mean_ci(learned - baseline)}  (same deals)")
    return {"trained": float(learned.mean()), "random": float(baseline.mean()), "steps": float(model.num_timesteps)}


if __name__ == "__main__":
    main()
