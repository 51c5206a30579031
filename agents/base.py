"""The agent interface every player implements: bots, trained agents, front-end adapters.

An agent is asked for a move only when it is on turn. It receives the player's
structured view (a plain dict from ``env.view(agent)`` or
``smear_env.observation.player_view``; it always holds ``legal_actions``, the
legal action ids, and ``legal_moves``, their labels) and, when available, the
env's observation dict (``{"observation": vector, "action_mask": int8}``). It
returns one legal action id. Each agent owns a ``random.Random`` seeded at
construction or by :meth:`Agent.reset`, so a game is reproducible from seeds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np


@dataclass(frozen=True)
class Decision:
    """A move and, where the bot has one, its preference over the legal moves.

    Front ends show the preference (a hint, a service's answer); it is not needed to play.
    """

    action: int  # the legal action id chosen
    scores: dict[int, float] | None = None  # legal action id -> the bot's score for it; None: no preference
    kind: Literal["probability", "value"] | None = None  # probability: policy mass; value: mean points for my side


class Agent(ABC):
    """Base class: override :meth:`act` (and :meth:`decide` where a bot can say why); :meth:`reset` re-seeds."""

    name = "agent"
    #: attributes built from the agent's spec and rules alone (weights read from a file), so a training
    #: checkpoint that rebuilds the agent from its spec leaves them out (training.selfplay.bot_state)
    rebuilt_attributes: tuple[str, ...] = ()

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Forget per-game state and re-seed the agent's own RNG."""
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        """A legal action id for the player whose ``view`` this is."""

    def decide(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> Decision:
        """The move :meth:`act` would make, with the bot's preference over the legal moves where it has one.

        Makes exactly the move :meth:`act` makes from the same state and RNG (bots that
        override this keep that true), so a front end may call either.
        """
        return Decision(self.act(view, observation))

    @staticmethod
    def legal_actions(view: dict[str, Any]) -> list[int]:
        """The legal action ids in ``view``; a clear error when the player is not on turn."""
        legal = view.get("legal_actions")
        if not legal:
            raise ValueError(
                f"seat {view.get('seat')} was asked to act but has no legal move "
                f"(phase {view.get('phase')!r}, player on turn {view.get('current_player')})"
            )
        return list(legal)
