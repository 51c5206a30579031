"""What every card-game AEC env here shares: order checks, masks, illegal moves, resets.

Each game (Smear, Bohemian Schneider) subclasses :class:`CardGameEnv` and supplies
its engine, observation, view, rendering and end-of-episode rewards; the
PettingZoo plumbing lives once, here.

The env is not wrapped in PettingZoo's ``OrderEnforcingWrapper``: it makes the
same checks itself, and the wrapper's attribute forwarding would cost a fifth of
the simulation speed.

Bad input is refused before anything changes: a constructor argument, a reset
option, an action that is not an int, or a deal that does not fit the rules
raises ``ValueError`` naming what was wrong and what was expected, and the env
(engine, RNG, observations, agents, rewards, terminations, infos) stays exactly
as it was. Calls out of order (``step``, ``last``, ``observe`` or ``agent_iter``
before ``reset()``, or ``step``/``last`` once every agent has taken its final
step) raise ``RuntimeError`` saying what to call instead.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from smear_env.checks import as_choice, as_int, as_real, check_names, integer_or_none

#: the keys ``reset(options=...)`` accepts: a fixed deal, fixed deals for successive hands, the first
#: dealer, and the teams' starting scores (a match resumed part-way)
RESET_OPTIONS = ("deal", "deals", "dealer", "scores")
#: accepted and ignored: PettingZoo's ``api_test`` checks that reset takes options with ``{"options": 1}``
IGNORED_RESET_OPTIONS = ("options",)


class CardGameEnv(AECEnv):
    """AEC plumbing over an engine with ``apply``, ``legal_mask``, ``current_player`` and ``is_over``."""

    metadata = {"render_modes": ["ansi", "human"], "name": "card_game", "is_parallelizable": False}
    reward_modes: tuple[str, str] = ("match", "hand")  # (whole match, one hand/round per episode)
    reward_aliases: dict[str, str] = {}  # other names of the reward modes, so every game accepts "match" and "hand"
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
        max_hands: int | None = None,
    ) -> None:
        super().__init__()
        self.render_mode = as_choice(render_mode, "render_mode", (None, "ansi", "human"))
        reward = self.reward_aliases.get(reward, reward) if isinstance(reward, str) else reward
        self.reward_mode = as_choice(reward, "reward", (*self.reward_modes, *self.reward_aliases))
        self.illegal_action = as_choice(illegal_action, "illegal_action", ("raise", "penalize"))
        self.illegal_penalty = as_real(illegal_penalty, "illegal_penalty")  # the offender's reward: a real number
        # deals (thrown-in ones too) after which an episode is truncated; None: no limit
        self.max_hands = None if max_hands is None else as_int(max_hands, "max_hands", 1)
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
        """A fresh engine game; ``single``: the episode is one hand/round; ``scores``: starting scores or None.

        Checks every deal before anything is played (``ValueError`` for one that does not fit).
        """

    @abstractmethod
    def _as_deal(self, deal: Any) -> Any:
        """The engine's deal object from a deal object or its dict form (``ValueError`` for anything else)."""

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
        self._seat_of(agent)  # an unknown agent is named, as observe names it, not a bare KeyError
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        self._seat_of(agent)
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; bad ``seed`` or ``options`` raise ``ValueError`` and change nothing.

        ``options``: ``deal`` (a deal or its dict form), ``deals`` (a list of them, for
        successive hands), ``dealer`` (a seat), ``scores`` (starting scores); every deal
        is checked against the rules before the episode starts.
        """
        options = self._reset_options(options)
        deals = self._deals_of(options)
        dealer = as_int(options.get("dealer", 0), "reset option dealer", 0, len(self.possible_agents) - 1)
        if seed is not None:
            rng = seeding.np_random(as_int(seed, "seed", 0))[0]
        else:  # the env's own RNG goes on, but only once the new game stands
            rng, state = self.np_random, self.np_random.bit_generator.state
        try:
            game = self._new_game(
                int(rng.integers(2**62)), dealer, deals, self.reward_mode == self.reward_modes[1], options.get("scores")
            )
        except Exception:
            if seed is None:
                rng.bit_generator.state = state
            raise
        self.np_random, self.game = rng, game
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_player]

    def _reset_options(self, options: Any) -> dict[str, Any]:
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise ValueError(
                f"reset options {options!r} are not a dict: expected keys among {', '.join(RESET_OPTIONS)}"
            )
        check_names((k for k in options if k not in IGNORED_RESET_OPTIONS), RESET_OPTIONS, "reset option")
        return options

    def _deals_of(self, options: dict[str, Any]) -> list[Any]:
        """The engine deals of ``options["deal"]`` then ``options["deals"]``, in the order they will be dealt."""
        listed = options.get("deals", [])
        if not isinstance(listed, list | tuple):
            raise ValueError(f"reset option deals {listed!r} is not a list: expected a list of deals, one per hand")
        deals = [options["deal"]] if "deal" in options else []
        return [self._as_deal(d) for d in [*deals, *listed]]

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """Yields the agent on turn until the episode is over (a ``RuntimeError`` before ``reset()``)."""
        self._require_game()
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (observation, cumulative reward, terminated, truncated, info of the agent on turn).

        Before ``reset()`` or once the episode is over it raises a clear ``RuntimeError``, not a ``KeyError``.
        """
        if not self.agents:
            self._require_live_episode()
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game if self.game is not None else self._require_game()  # the check inline: a hot path
        try:
            seat = self.agent_name_mapping[agent]
        except (KeyError, TypeError):
            seat = self._seat_of(agent)  # raises the clear error
        on_turn = seat == game.current_player and agent in self.agents
        legal = game.legal_mask() if on_turn and not (self.terminations[agent] or self.truncations[agent]) else 0
        return {"observation": self._vector(game, seat), "action_mask": self._mask(legal)}

    def step(self, action: int | None) -> None:
        game = self.game if self.game is not None else self._require_game()
        agent = self.agent_selection
        if not self.agents:
            self._require_live_episode()
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            if type(action) is not int:  # numpy ints become ints; bools, floats, strings and None are no move
                action = self._action_id(action)
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
        elif self.max_hands is not None and len(game.deals) > self.max_hands:
            self._truncate()
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

    def _truncate(self) -> None:
        """End the episode for everyone after ``max_hands`` deals, PettingZoo-style: no rewards, truncations set."""
        self._clear_rewards()
        for a in self.agents:
            self.truncations[a] = True
        self._accumulate_rewards()

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
        game = self._require_game()
        return self._view(game, self._seat_of(agent))

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

    def _require_live_episode(self) -> None:
        self._require_game()
        if not self.agents:
            raise RuntimeError(
                "the episode is over: every agent has taken its final step (step(None)); call reset() to start another"
            )

    def _seat_of(self, agent: Any) -> int:
        if agent not in self.possible_agents:  # a list compares, never hashes: no TypeError here
            raise ValueError(f"unknown agent {agent!r}: expected one of {', '.join(self.possible_agents)}")
        return self.agent_name_mapping[agent]

    def _action_id(self, action: Any) -> int:
        """``action`` as a plain int: numpy integers pass; a bool, a float, a string or None is refused."""
        number = integer_or_none(action)  # rather than as_int: numpy ints take this path every step
        if number is None:
            raise ValueError(
                f"action {action!r} ({type(action).__name__}) is not an action id: expected an int in "
                f"0..{self.num_actions - 1} (numpy integers are fine)"
            )
        return number
