"""Teachers a rules-conditioned student learns its moves from: the shipped agent of each rules' preset.

Why: each shipped specialist is the strongest player of its preset that this project has,
made by hours of hand-tuned stages. A student that plays every rule set starts far
sooner from their moves than from the rule bot's: it plays (DAgger: the positions are
its own, so it learns to recover from its own mistakes) and each of its moves is fitted
to the specialist's policy there. On a house-rule set the teacher is its base preset's
specialist (``rules.name``), played on the real rules: its inputs are the real game's
vector, and its card features are read under the real rules, so it sees what the table
plays, though it was never trained on it. What it gets wrong there is PPO's to fix later.
"""

from __future__ import annotations

import numpy as np

from agents.card_features import card_features
from agents.neural_agent import Policy, load_policy
from agents.shipped import shipped_policy_path, shipped_presets
from smear_env.cards import NUM_CARDS
from smear_env.observation import observation_size
from smear_env.rules import Rules

#: teacher names a training config may give (``teacher``), and what each one is
TEACHER_KINDS = {"specialists": "the shipped agent of each rules' preset"}


class SpecialistTeacher:
    """Logits of the shipped agent of each rules' preset, from the student's own inputs (see the module docstring).

    ``card_features``: the features per card appended to the student's inputs (0: none; the
    teachers' card heads then read them off the vector themselves, under the real rules).
    """

    def __init__(self, card_features: int = 0) -> None:
        self.card_features = card_features
        self.policies: dict[str, Policy] = {}
        for preset in shipped_presets():
            policy = load_policy(shipped_policy_path(preset))
            if policy.layout.get("game", "smear") == "smear":
                self.policies[preset] = policy

    def __call__(self, rules: Rules, inputs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked logits ``[B, A]`` of the teacher of ``rules`` for the student inputs ``[B, I]`` of one rule set."""
        policy = self.policies.get(rules.name)
        if policy is None:
            raise ValueError(
                f"no shipped agent teaches {rules.name!r} rules: the presets with one are {', '.join(self.policies)}"
            )
        size = observation_size(rules.num_players)
        obs = inputs[:, :size]
        features = None
        if self.card_features:
            features = inputs[:, size:].reshape(len(inputs), NUM_CARDS, self.card_features)
        elif policy.card_head:
            features = card_features(obs, rules, len(policy.card_head[0][0]))
        return policy.logits(obs, masks, features)


def make_teacher(kind: str, card_features: int) -> SpecialistTeacher:
    """The teacher a config names (:data:`TEACHER_KINDS`)."""
    if kind != "specialists":
        raise ValueError(f"teacher {kind!r} is unknown: expected one of {', '.join(TEACHER_KINDS)}")
    return SpecialistTeacher(card_features)
