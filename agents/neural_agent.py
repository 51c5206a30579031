"""A trained agent loaded from a checkpoint, behind the common :class:`Agent` interface.

The network runs in numpy (one observation at a time is faster there than in
torch), on CPU. It uses the env's observation when given one and otherwise
rebuilds it from the structured view, so front ends that keep only views can
use it too. ``greedy`` plays the most probable legal action; otherwise it
samples from the policy with the agent's own seeded RNG.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from smear_env import actions as A
from smear_env.observation import vector_from_view
from smear_env.rules import Rules
from training.checkpoint import checkpoint_rules, load_checkpoint, network_from_checkpoint
from training.model import NumpyPolicy


class NeuralAgent(Agent):
    """Plays the policy of a smear-rl checkpoint; refuses a checkpoint trained for other rules."""

    name = "neural"

    def __init__(
        self, checkpoint: str | Path, rules: Rules | None = None, seed: int | None = None, greedy: bool = True
    ) -> None:
        super().__init__(seed)
        data = load_checkpoint(checkpoint, rules)
        self.path = str(checkpoint)
        self.rules = rules or checkpoint_rules(data)
        self.greedy = greedy
        self.policy = NumpyPolicy(network_from_checkpoint(data))
        self.step = data.get("step", 0)

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        legal = self.legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        if observation is None:
            obs = vector_from_view(view, self.rules)
            mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
            mask[legal] = 1
        else:
            obs, mask = observation["observation"], observation["action_mask"]
        logits = self.policy.logits(obs[None, :], mask[None, :])[0]
        if self.greedy:
            return int(np.argmax(logits))
        return self._sample(logits, legal)

    def _sample(self, logits: np.ndarray, legal: list[int]) -> int:
        """Inverse-CDF draw over the legal actions with the agent's ``random.Random``."""
        top = max(logits[a] for a in legal)
        weights = [math.exp(float(logits[a] - top)) for a in legal]
        return self.rng.choices(legal, weights=weights)[0]
