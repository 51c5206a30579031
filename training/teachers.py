"""Teachers a rules-conditioned student learns its moves from: the specialist of each rules' preset.

Why: each specialist (shipped, or retired once the universal agent beat it: ``agents.shipped``)
was the strongest player of its preset that this project had when the recipe began, made by hours
of hand-tuned stages. A student that plays every rule set starts far
sooner from their moves than from the rule bot's: it plays (DAgger: the positions are
its own, so it learns to recover from its own mistakes) and each of its moves is fitted
to the specialist's policy there. On a house-rule set the teacher is its base preset's
specialist (``rules.name``), played on the real rules: its inputs are the real game's
vector, and its card features are read under the real rules, so it sees what the table
plays, though it was never trained on it. What it gets wrong there is PPO's to fix later.

``specialists_and_start`` is for a later stage, once PPO has fixed it: the specialist still
teaches its own preset's exact rules, but on every other rule set the teacher is the agent
the stage starts from, frozen. The student moves toward the specialists where they are the
stronger players and is held to what it had learned on the house rules, where its base
preset's specialist would pull it back to play that PPO had already corrected.
"""

from __future__ import annotations

import numpy as np

from agents.neural_agent import Policy, load_policy
from agents.shipped import specialist_policy_path, specialist_presets
from smear_env.cards import NUM_CARDS
from smear_env.observation import observation_size
from smear_env.rules import Rules

#: the teacher that needs the agent a run starts from (``init_from``): it teaches every rule set but the presets'
TAUGHT_FROM_START = "specialists_and_start"
#: teacher names a training config may give (``teacher``), and what each one is
TEACHER_KINDS = {
    "specialists": "the specialist of each rules' preset (agents.shipped.specialist_policy_path)",
    TAUGHT_FROM_START: "each preset's specialist on its preset's own rules, elsewhere the agent started from",
}
START = "start"  # what SpecialistTeacher.who names the start agent


class SpecialistTeacher:
    """Logits of the specialist of each rules' preset, from the student's own inputs (see the module docstring).

    ``card_features``: the features per card appended to the student's inputs (0: none; the
    teachers' card heads then read them off the vector themselves, under the real rules).
    """

    def __init__(self, card_features: int = 0, start: Policy | None = None) -> None:
        self.card_features = card_features
        self.start = start  # teaches every rule set that is not exactly a specialist's preset (specialists_and_start)
        self.policies: dict[str, Policy] = {}
        for preset in specialist_presets():  # retired specialists teach too
            policy = load_policy(specialist_policy_path(preset))
            if policy.layout.get("game", "smear") == "smear":
                self.policies[preset] = policy
        self._exact: dict[Rules, bool] = {}

    def who(self, rules: Rules) -> str:
        """Which agent teaches ``rules``: its preset's name, or :data:`START`. Rows with one teacher share a batch."""
        if self.start is None:
            return rules.name
        if rules not in self._exact:
            specialist = self.policies.get(rules.name)
            self._exact[rules] = specialist is not None and not specialist.differences(rules)
        return rules.name if self._exact[rules] else START

    def __call__(self, rules: Rules, inputs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked logits ``[B, A]`` of the teacher of ``rules`` for the student inputs ``[B, I]`` of one rule set."""
        name = self.who(rules)
        policy = self.start if name == START else self.policies.get(name)
        if policy is None:
            raise ValueError(
                f"no specialist teaches {rules.name!r} rules: the presets with one are {', '.join(self.policies)}"
            )
        size = observation_size(rules.num_players)
        obs = inputs[:, :size]
        features = None
        if self.card_features:
            features = inputs[:, size:].reshape(len(inputs), NUM_CARDS, self.card_features)
        return policy.logits(obs, masks, features, rules=rules)  # else a card head reads them under the real rules


def make_teacher(kind: str, card_features: int, start: Policy | None = None) -> SpecialistTeacher:
    """The teacher a config names (:data:`TEACHER_KINDS`); ``start``: the agent a run starts from, frozen."""
    if kind not in TEACHER_KINDS:
        raise ValueError(f"teacher {kind!r} is unknown: expected one of {', '.join(TEACHER_KINDS)}")
    if kind == TAUGHT_FROM_START and start is None:
        raise ValueError(f"teacher {kind!r} teaches house rules by the agent the run starts from: set init_from")
    return SpecialistTeacher(card_features, start if kind == TAUGHT_FROM_START else None)
