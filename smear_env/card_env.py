"""What every card-game AEC env here shares: order checks, masks, illegal moves, resets.

Each game (Smear, Bohemian Schneider) subclasses :class:`CardGameEnv` and supplies
its engine, observation, view, rendering and end-of-episode rewards; the
PettingZoo plumbing lives once, here.

The env is not wrapped in PettingZoo's ``OrderEnforcingWrapper``: it makes the
same checks itself (using it before ``reset()`` raises a clear error), and the
wrapper's attribute forwarding would cost a fifth of the simulation speed.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv


class CardGameEnv(AECEnv):
    """AEC plumbing over an engine with ``apply``, ``legal_mask``, ``current_player`` and ``is_over``."""

    metadata = {"render_modes": ["ansi", "human"], "name": "card_game", "is_parallelizable": False}
    reward_modes: tuple[str, str] = ("match", "hand")  # (whole match, one hand/round per episode)
    format_action: Callable[[int], str]
    parse_action: Callable[[str], int]

    def __init__(
        self,
        num_players: int,
        num_actions: int,
        observation_size: int,
        observation_low: float,
        render_mode: str | None,
        reward: str,
        illegal_action: str,
        illegal_penalty: float,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r} is not supported: expected None, 'ansi' or 'human'")
        if reward not in self.reward_modes:
            raise ValueError(f"reward {reward!r} is not supported: expected one of {self.reward_modes}")
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action {illegal_action!r} is not supported: expected 'raise' or 'penalize'")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.num_actions = num_actions
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(observation_low, 1.0, (observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game: Any = None
        self.agents: list[str] = []
        self.agent_selection = ""  # observe/last/step before reset() raise a clear RuntimeError
        self._skip_agent_selection: str | None = None  # see _was_dead_step

    # ------------------------------------------------------------------ what each game supplies
    @abstractmethod
    def _new_game(self, seed: int, dealer: int, deals: list[Any], single: bool, scores: Any) -> Any:
        """A fresh engine game; ``single``: the episode is one hand/round; ``scores``: starting scores or None."""

    def _check_scores(self, scores: Any) -> Any:
        """The ``scores`` reset option, checked before anything changes (games without starting scores refuse it)."""
        if scores is not None:
            raise ValueError(f"the scores reset option is not supported by {self.metadata['name']}")
        return None

    @abstractmethod
    def _as_deal(self, deal: Any) -> Any:
        """The engine's deal object from a deal object or its dict form."""

    @abstractmethod
    def _vector(self, game: Any, seat: int) -> np.ndarray:
        """Observation vector of ``seat``."""

    @abstractmethod
    def _mask(self, legal: int) -> np.ndarray:
        """int8 action mask from the engine's legal-move bit mask."""

    @abstractmethod
    def _view(self, game: Any, seat: int) -> dict[str, Any]:
        """Structured view of ``seat``."""

    @abstractmethod
    def _render_text(self, game: Any) -> str:
        """Text table of the game."""

    @abstractmethod
    def _final_rewards(self, game: Any) -> list[float]:
        """Per-seat rewards when the episode ends normally."""

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = options or {}
        scores = self._check_scores(options.get("scores"))  # before anything changes
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        deals = [self._as_deal(d) for d in options.get("deals", [])]
        if "deal" in options:
            deals.insert(0, self._as_deal(options["deal"]))
        engine_seed = int(self.np_random.integers(2**62))
        dealer = int(options.get("dealer", 0))
        self.game = self._new_game(engine_seed, dealer, deals, self.reward_mode == self.reward_modes[1], scores)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game if self.game is not None else self._require_game()  # the check inline: a hot path
        seat = self.agent_name_mapping[agent]
        legal = game.legal_mask() if seat == game.current_player and agent in self.agents else 0
        return {"observation": self._vector(game, seat), "action_mask": self._mask(legal)}

    def step(self, action: int | None) -> None:
        game = self.game if self.game is not None else self._require_game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            game.apply(action)  # checks the move: a ValueError names it and the legal moves, state unchanged
        except ValueError:
            if self.illegal_action == "raise":
                raise
            self._penalize(agent)
            return
        if game.is_over:
            self._clear_rewards()
            for a, value in zip(self.possible_agents, self._final_rewards(game), strict=True):
                self.rewards[a] = value
                self.terminations[a] = True
            self._accumulate_rewards()
        else:  # rewards stay 0 until the episode ends: no need to clear and accumulate them
            self._cumulative_rewards[agent] = 0.0
            self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode == "human":
            self.render()

    def _was_dead_step(self, action: None) -> None:
        """PettingZoo's step for a finished agent, for episodes that end for every agent at once.

        Here every agent terminates in the same step (a finished game or an illegal move), so
        the next agent to remove is simply the first one left; PettingZoo's general version
        scans for it and costs a few percent of a short hand.
        """
        if not all(self.terminations[a] or self.truncations[a] for a in self.agents):
            super()._was_dead_step(action)  # some agent still plays (a subclass's doing): the general version
            return
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del table[agent]
        self.agents.remove(agent)
        if self.agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = self.agents[0]
        else:  # the last one: back to the agent whose dead step came first
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        for a in self.rewards:
            self.rewards[a] = 0.0

    def _penalize(self, agent: str) -> None:
        self._clear_rewards()
        for a in self.agents:
            self.rewards[a] = self.illegal_penalty if a == agent else 0.0
            self.terminations[a] = True
            self.infos[a]["illegal_move"] = a == agent
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._render_text(self._require_game())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ helpers for bots and front ends
    def view(self, agent: str) -> dict[str, Any]:
        """Structured, human-readable information of ``agent`` (holds ``legal_actions`` and ``legal_moves``)."""
        return self._view(self._require_game(), self.agent_name_mapping[agent])

    def action_to_move(self, action: int) -> str:
        """Move label of an action id (``play TH``)."""
        return type(self).format_action(action)

    def move_to_action(self, move: str) -> int:
        """Action id of a move label."""
        return type(self).parse_action(move)

    def record(self) -> dict[str, Any]:
        """JSON-able record of the game so far (the engine's ``replay`` rebuilds it)."""
        return self._require_game().record()

    def _require_game(self) -> Any:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
