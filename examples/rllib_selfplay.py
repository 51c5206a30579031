"""Multi-agent self-play PPO on Smear with Ray RLlib: every seat plays one shared, masked policy.

    pip install -c constraints.txt -e ".[rllib]"
    python examples/rllib_selfplay.py --preset minnesota --iterations 20            # 2 local env runners
    python examples/rllib_selfplay.py --iterations 1 --env-runners 0 --batch 256    # seconds: what CI runs

With ``--minutes`` training stops after the iteration that reaches that much wall time;
with ``--out`` the shared policy module is saved (``<out>/module``, an RLModule checkpoint
that ``smear-rl rate rllib:<out>/module`` rates), with ``--snapshot-minutes`` a snapshot
every so often, listed in ``<out>/snapshots.csv`` (the benchmark's baseline,
docs/benchmark/baselines.md)::

    OMP_NUM_THREADS=1 python examples/rllib_selfplay.py --preset minnesota --env-runners 2 --iterations 100000 \
        --minutes 15 --out runs/rllib --snapshot-minutes 1.5
    smear-rl rate rllib:runs/rllib/module --task kitty_moon

On a Ray cluster: start the cluster (``ray start --head`` on one machine, ``ray start
--address=<head>:6379`` on the others, each with this package installed), then run
the script on any of its machines with ``--address auto`` and as many env runners as
the cluster has cores to spare (``--env-runners 32``); RLlib spreads them over the
machines, and nothing else changes.

The env comes from :func:`smear_env.rllib.rllib_env` (RLlib's ``PettingZooEnv`` over
the AEC env, observations as RLlib's action-masking module reads them) and the policy
from :func:`smear_env.rllib.shared_policy_config` (RLlib's ``ActionMaskingTorchRLModule``),
so no glue is written here.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.registry import register_env

from smear_env.rllib import rllib_env, shared_policy_config
from training.benchmark.curve import Snapshots


def build_config(args: argparse.Namespace) -> PPOConfig:
    """PPO on ``args.preset`` with one hand per episode and one policy shared by every seat."""
    config = (
        PPOConfig()
        .environment("smear", env_config={"preset": args.preset, "reward": "hand", "max_hands": 20})
        .env_runners(num_env_runners=args.env_runners, rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(args.batch, 128), num_epochs=2, lr=3e-4)
        .debugging(seed=args.seed)
    )
    return shared_policy_config(config)


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="minnesota", help="game preset (smear_env.list_presets())")
    parser.add_argument("--iterations", type=int, default=20, help="PPO training iterations")
    parser.add_argument("--env-runners", type=int, default=2, help="RLlib env runner processes (0: in the driver)")
    parser.add_argument("--batch", type=int, default=4000, help="env steps per training iteration")
    parser.add_argument("--seed", type=int, default=0, help="seeds RLlib's workers and the games")
    parser.add_argument("--address", default=None, help="Ray cluster address ('auto' on a cluster); default: local")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this much training time (0: none)")
    parser.add_argument("--out", type=Path, help="save the shared policy module here (module/), and the snapshots")
    parser.add_argument("--snapshot-minutes", type=float, default=0.0, help="with --out: a snapshot every so often")
    args = parser.parse_args(argv)
    snapshots = Snapshots.for_run(args.out, args.snapshot_minutes)

    register_env("smear", rllib_env)
    ray.init(address=args.address, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    algo = build_config(args).build_algo()
    history = []
    began = time.monotonic()  # after the algorithm and its env runners are built: training time only
    try:
        for i in range(args.iterations):
            result = algo.train()
            runners = result["env_runners"]
            minutes = (time.monotonic() - began) / 60
            line = {
                "iteration": i + 1,
                "env_steps": runners.get("num_env_steps_sampled_lifetime", 0),
                "episodes": runners.get("num_episodes_lifetime", 0),
                "episode_len": runners.get("episode_len_mean", float("nan")),
                "minutes": minutes,
            }
            history.append(line)
            print(
                f"iteration {line['iteration']}: {line['env_steps']} env steps, {line['episodes']} hands, "
                f"{line['episode_len']:.1f} decisions a hand, {minutes:.1f} min"
            )
            if snapshots is not None and snapshots.due(minutes):
                path = args.out / "snapshots" / f"module_{int(line['env_steps'])}"
                algo.get_module("shared").save_to_path(str(path.resolve()))  # RLlib takes absolute paths only
                snapshots.add(f"rllib:{path}", minutes, int(line["env_steps"]))
            if args.minutes and minutes >= args.minutes:
                break
        if args.out is not None:
            algo.get_module("shared").save_to_path(str((args.out / "module").resolve()))
            print(f"saved {args.out / 'module'}: smear-rl rate rllib:{args.out / 'module'} --task <task>")
    finally:
        algo.stop()
        ray.shutdown()
    return history


if __name__ == "__main__":
    main()
