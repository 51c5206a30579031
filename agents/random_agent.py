"""Uniformly random legal play, from the agent's own seeded RNG."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import Agent, Decision


class RandomAgent(Agent):
    """Picks uniformly among the legal moves; works for every game in ``smear_env``."""

    name = "random"

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        return self.rng.choice(self.legal_actions(view))

    def decide(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> Decision:
        legal = self.legal_actions(view)
        return Decision(self.rng.choice(legal), dict.fromkeys(legal, 1.0 / len(legal)), "probability")
