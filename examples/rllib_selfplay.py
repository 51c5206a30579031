"""Multi-agent self-play PPO on Smear with Ray RLlib: every seat plays one shared, masked policy.

    pip install -c constraints.txt -e ".[rllib]"
    python examples/rllib_selfplay.py --preset minnesota --iterations 20            # 2 local env runners
    python examples/rllib_selfplay.py --iterations 1 --env-runners 0 --batch 256    # seconds: what CI runs

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

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.registry import register_env

from smear_env.rllib import rllib_env, shared_policy_config


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
    args = parser.parse_args(argv)

    register_env("smear", rllib_env)
    ray.init(address=args.address, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    algo = build_config(args).build_algo()
    history = []
    try:
        for i in range(args.iterations):
            result = algo.train()
            runners = result["env_runners"]
            line = {
                "iteration": i + 1,
                "env_steps": runners.get("num_env_steps_sampled_lifetime", 0),
                "episodes": runners.get("num_episodes_lifetime", 0),
                "episode_len": runners.get("episode_len_mean", float("nan")),
            }
            history.append(line)
            print(
                f"iteration {line['iteration']}: {line['env_steps']} env steps, {line['episodes']} hands, "
                f"{line['episode_len']:.1f} decisions a hand"
            )
    finally:
        algo.stop()
        ray.shutdown()
    return history


if __name__ == "__main__":
    main()
