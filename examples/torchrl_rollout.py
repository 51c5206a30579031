"""Smear in TorchRL: ``PettingZooWrapper(use_mask=True)`` and one masked policy shared by every seat.

The AEC env goes into TorchRL's PettingZoo wrapper as it is. ``use_mask=True`` (needed
for turn-based games) marks the agent on turn; every seat is put in one group, so one
network acts for all of them, and ``MaskedCategorical`` samples only legal actions (the
env's ``action_mask``). The script collects a few hands with an untrained policy, checks
that every action taken was legal, and prints what a training loop would consume.

    pip install -c constraints.txt -e ".[torchrl]"
    python examples/torchrl_rollout.py --preset minnesota --steps 500
"""

from __future__ import annotations

import argparse

import torch
from tensordict import TensorDict
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MaskedCategorical

import smear_env

GROUP = "agents"  # TorchRL's name for the one group holding every seat


def make_env(preset: str, seed: int) -> PettingZooWrapper:
    """The Smear AEC env of ``preset`` in TorchRL, one hand per episode, every seat in one group."""
    return PettingZooWrapper(
        env=smear_env.env(preset=preset, reward="hand"),
        use_mask=True,
        categorical_actions=True,
        group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
        seed=seed,
    )


class MaskedPolicy(nn.Module):
    """Logits from an MLP, one action per seat sampled among its legal ones (seats not on turn: any action)."""

    def __init__(self, observation_size: int, num_actions: int, generator: torch.Generator) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(observation_size, 128), nn.ReLU(), nn.Linear(128, num_actions))
        self.generator = generator

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor, on_turn: torch.Tensor) -> torch.Tensor:
        mask = action_mask | ~on_turn.unsqueeze(-1)  # a seat not on turn has no legal move; its action is ignored
        logits = self.net(observation)
        probs = MaskedCategorical(logits=logits, mask=mask).probs
        flat = torch.multinomial(probs.reshape(-1, probs.shape[-1]), 1, generator=self.generator)
        return flat.reshape(probs.shape[:-1])


def policy_module(env: PettingZooWrapper, seed: int) -> TensorDictModule:
    """The shared policy as a TensorDictModule reading and writing the group's keys."""
    generator = torch.Generator().manual_seed(seed)
    spec = env.full_observation_spec[GROUP, "observation", "observation"]
    with torch.random.fork_rng():  # the initial weights from the seed, leaving torch's global RNG as it was
        torch.manual_seed(seed)
        net = MaskedPolicy(spec.shape[-1], env.full_action_spec[GROUP, "action"].space.n, generator)
    return TensorDictModule(
        net,
        in_keys=[(GROUP, "observation", "observation"), (GROUP, "action_mask"), (GROUP, "mask")],
        out_keys=[(GROUP, "action")],
    )


def collect(preset: str = "minnesota", steps: int = 500, seed: int = 0) -> TensorDict:
    """``steps`` env steps of the untrained shared policy (episodes restart as they end)."""
    env = make_env(preset, seed)
    with torch.no_grad():
        return env.rollout(steps, policy_module(env, seed), break_when_any_done=False)


def main(argv: list[str] | None = None) -> TensorDict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="minnesota", help="game preset (smear_env.list_presets())")
    parser.add_argument("--steps", type=int, default=500, help="env steps to collect")
    parser.add_argument("--seed", type=int, default=0, help="seeds the env and the policy")
    args = parser.parse_args(argv)
    rollout = collect(args.preset, args.steps, args.seed)
    group = rollout[GROUP]
    on_turn = group["mask"]
    taken = group["action"][on_turn]
    legal = group["action_mask"][on_turn].gather(-1, taken.unsqueeze(-1)).squeeze(-1)
    if not bool(legal.all()):
        raise SystemExit("an illegal action was taken")
    hands = int(rollout["next", "done"].sum())
    print(f"{args.preset}: {rollout.batch_size[0]} steps, {hands} hands finished, every action legal")
    print(f"keys a training loop reads: {sorted(str(k) for k in group.keys(include_nested=True, leaves_only=True))}")
    return rollout


if __name__ == "__main__":
    main()
