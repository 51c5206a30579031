"""Train TorchRL's PPO on one seat of Smear against bots: its collector, GAE and clipped loss, legal moves only.

One seat learns (``smear_env.single_agent_env``, one hand an episode, the hand reward) and
bots play the other seats, as in the SB3 recipe. TorchRL's ``GymWrapper`` takes the env
once the action mask is part of the observation (:class:`MaskInObservation`), so the
actor samples with ``MaskedCategorical`` over the legal moves only. The rest is TorchRL's
own PPO: a ``Collector``, ``GAE`` and ``ClipPPOLoss`` over minibatches.

    pip install -c constraints.txt -e ".[torchrl]"
    python examples/torchrl_ppo.py --preset minnesota --opponents rule --minutes 3
    python examples/torchrl_ppo.py --frames 512 --batch 256                      # seconds: what CI runs

With ``--out`` the policy is saved whole (``<out>/policy.pt``: a TensorDictModule from
``observation`` to ``logits``, which ``smear-rl rate torchrl:<out>/policy.pt`` rates), with
``--snapshot-minutes`` a snapshot every so often, listed in ``<out>/snapshots.csv`` (the
benchmark's baseline, docs/benchmark/baselines.md).

Torch's random state is forked for the run and seeded from ``--seed`` (TorchRL samples
from it), so a run is reproducible and leaves the caller's generator as it was.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer
from torchrl.data.replay_buffers.samplers import SamplerWithoutReplacement
from torchrl.envs.libs.gym import GymWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

import smear_env
from training.benchmark.curve import Snapshots


class MaskInObservation(gymnasium.Wrapper):
    """The single-seat env with its legal-move mask in the observation: ``{"observation", "action_mask"}``."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        size = env.action_space.n
        self.observation_space = gymnasium.spaces.Dict(
            {"observation": env.observation_space, "action_mask": gymnasium.spaces.Box(0, 1, (size,), bool)}
        )

    def _with_mask(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": obs, "action_mask": self.env.action_masks().astype(bool)}

    def reset(self, **kwargs: Any) -> tuple[dict[str, np.ndarray], dict]:
        obs, info = self.env.reset(**kwargs)
        return self._with_mask(obs), info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(int(action))
        return self._with_mask(obs), reward, terminated, truncated, info


def make_env(preset: str, opponents: str, seed: int) -> GymWrapper:
    """One learning seat of ``preset`` against ``opponents`` as a TorchRL env (integer actions)."""
    env = GymWrapper(MaskInObservation(smear_env.single_agent_env(preset, seat=0, opponents=opponents, reward="hand")),
                     categorical_action_encoding=True, device="cpu")  # fmt: skip
    env.set_seed(seed)
    return env


def mlp(inputs: int, outputs: int, hidden: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), nn.ReLU()]
        inputs = width
    return nn.Sequential(*layers, nn.Linear(inputs, outputs))


def build(env: GymWrapper, hidden: list[int]) -> tuple[TensorDictModule, ProbabilisticActor, ValueOperator]:
    """The policy (observation -> logits, the file saved), the masked actor over it, and the value network."""
    size = env.observation_spec["observation"].shape[-1]
    actions = env.action_spec.space.n
    policy = TensorDictModule(mlp(size, actions, hidden), in_keys=["observation"], out_keys=["logits"])
    actor = ProbabilisticActor(policy, in_keys={"logits": "logits", "mask": "action_mask"}, spec=env.action_spec,
                               distribution_class=MaskedCategorical, return_log_prob=True)  # fmt: skip
    value = ValueOperator(mlp(size, 1, hidden), in_keys=["observation"])
    return policy, actor, value


def train(args: argparse.Namespace, snapshots: Snapshots | None) -> tuple[TensorDictModule, int, float]:
    """PPO until ``args.frames`` learner decisions or ``args.minutes``; the policy, its decisions, its minutes."""
    env = make_env(args.preset, args.opponents, args.seed)
    policy, actor, value = build(env, args.hidden)
    collector = Collector(env, actor, frames_per_batch=args.batch, total_frames=args.frames, device="cpu",
                          auto_register_policy_transforms=False)  # fmt: skip
    advantage = GAE(gamma=1.0, lmbda=0.95, value_network=value, average_gae=True)
    loss = ClipPPOLoss(actor, value, clip_epsilon=0.2, entropy_coeff=0.01, critic_coeff=0.5, loss_critic_type="l2")
    optimizer = torch.optim.Adam(loss.parameters(), lr=args.lr)
    buffer = ReplayBuffer(storage=LazyTensorStorage(args.batch), sampler=SamplerWithoutReplacement(),
                          batch_size=args.minibatch)  # fmt: skip
    frames, began = 0, time.monotonic()
    for data in collector:
        for _ in range(args.epochs):
            with torch.no_grad():
                advantage(data)
            buffer.extend(data.reshape(-1))
            for _ in range(max(1, args.batch // args.minibatch)):
                parts = loss(buffer.sample())
                total = parts["loss_objective"] + parts["loss_critic"] + parts["loss_entropy"]
                optimizer.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
                optimizer.step()
        collector.update_policy_weights_()
        frames += data.numel()
        minutes = (time.monotonic() - began) / 60
        if snapshots is not None and snapshots.due(minutes):
            path = snapshots.path.parent / "snapshots" / f"policy_{frames}.pt"
            path.parent.mkdir(exist_ok=True)
            torch.save(policy, path)
            snapshots.add(f"torchrl:{path}", minutes, frames)
        if args.minutes and minutes >= args.minutes:
            break
    collector.shutdown()
    return policy, frames, (time.monotonic() - began) / 60


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="minnesota", help="game preset (smear_env.list_presets())")
    parser.add_argument("--opponents", default="rule", help="bot in every other seat (agent name)")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time limit (0: none)")
    parser.add_argument("--frames", type=int, default=-1, help="learner decisions to train on (-1: until --minutes)")
    parser.add_argument("--batch", type=int, default=2048, help="decisions collected per PPO update")
    parser.add_argument("--minibatch", type=int, default=256, help="decisions per gradient step")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer widths")
    parser.add_argument("--seed", type=int, default=0, help="seeds the network, the games and the bots")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (small networks: 1 is fastest)")
    parser.add_argument("--out", type=Path, help="save the policy here (policy.pt), and the snapshots")
    parser.add_argument("--snapshot-minutes", type=float, default=0.0, help="with --out: a snapshot every so often")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    snapshots = Snapshots.for_run(args.out, args.snapshot_minutes)
    with torch.random.fork_rng():
        torch.manual_seed(args.seed)
        policy, frames, minutes = train(args, snapshots)
    print(f"{args.preset}: trained {frames} steps in {minutes:.1f} min, against {args.opponents}")
    if args.out is not None:
        torch.save(policy, args.out / "policy.pt")
        print(f"saved {args.out / 'policy.pt'}: smear-rl rate torchrl:{args.out / 'policy.pt'} --task <task>")
    return {"frames": float(frames), "minutes": minutes}


if __name__ == "__main__":
    main()
