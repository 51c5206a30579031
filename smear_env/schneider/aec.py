"""PettingZoo AEC environment over the Bohemian Schneider engine.

``smear_env.env(preset="bohemian_schneider", render_mode=None, reward="match", num_rounds=2)``

Agents are ``player_0`` and ``player_1`` by seat; ``player_0`` deals the first
round unless ``reset(options={"dealer": k})`` says otherwise, so ``player_1``
(the non-dealer) leads first. The deal alternates every round.

Spaces
------
* Action space: ``Discrete(54)``; action = card id of :mod:`smear_env.cards`
  (label ``play 8S``, see :mod:`smear_env.schneider.game`); only cards in the
  hand of the agent on turn are legal. Labels: ``action_to_move`` / ``move_to_action``.
* Observation: ``{"observation": float32[389], "action_mask": int8[54]}``; the
  vector's layout is in :mod:`smear_env.schneider.observation`. The mask is all
  zeros for the agent not on turn and never empty for the agent on turn.

Rewards
-------
* ``reward="match"`` (default): an episode is a whole match of ``num_rounds``
  rounds; at its end the higher total gets +1, the lower -1 (0 each on a draw).
* ``reward="round"``: an episode is a single round; each agent gets its round
  score (after doubling/tripling) minus the opponent's.

Illegal actions
---------------
``illegal_action="raise"`` (default) raises ``ValueError`` naming the action and
the legal moves, and leaves the env as it was. ``illegal_action="penalize"``
terminates the episode: the offender gets ``illegal_penalty`` (default -1), the
other agent 0.

Resets
------
``reset(seed=s)`` is reproducible. ``reset(options={"deal": Deal | dict, "dealer": k})``
starts from a fixed deal (``options["deals"]`` takes a list for successive rounds).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from smear_env.schneider.game import (
    GAME_NAME,
    NUM_ACTIONS,
    Deal,
    Game,
    SchneiderRules,
    format_action,
    parse_action,
    render_text,
)
from smear_env.schneider.observation import OBSERVATION_SIZE, action_mask, observation_vector, player_view

ENV_VERSION = 1


def _as_deal(deal: Deal | dict[str, Any]) -> Deal:
    return deal if isinstance(deal, Deal) else Deal.from_dict(deal)


def _legal_action(game: Game, action: object) -> int | None:
    """``action`` as an int if it is legal now, else None (any type: None, strings, numpy ints)."""
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
    return index if 0 <= index < NUM_ACTIONS and game.legal_mask() >> index & 1 else None


class raw_env(AECEnv):
    """Bohemian Schneider as a two-agent AEC game; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": f"{GAME_NAME}_v{ENV_VERSION}", "is_parallelizable": False}

    def __init__(
        self,
        preset: str = GAME_NAME,
        render_mode: str | None = None,
        reward: str = "match",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        rules: SchneiderRules | None = None,
        **rule_overrides: Any,
    ) -> None:
        super().__init__()
        if preset != GAME_NAME:
            raise ValueError(f"preset {preset!r} is not played by this env: expected {GAME_NAME!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r} is not supported: expected None, 'ansi' or 'human'")
        if reward not in ("match", "round"):
            raise ValueError(f"reward {reward!r} is not supported: expected 'match' or 'round'")
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action {illegal_action!r} is not supported: expected 'raise' or 'penalize'")
        self.rules = (rules or SchneiderRules()).replace(**rule_overrides)
        self.render_mode = render_mode
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.possible_agents = ["player_0", "player_1"]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        options = options or {}
        deals = [_as_deal(d) for d in options.get("deals", [])]
        if "deal" in options:
            deals.insert(0, _as_deal(options["deal"]))
        self.game = Game(
            self.rules,
            seed=int(self.np_random.integers(2**62)),
            dealer=int(options.get("dealer", 0)),
            single_round=self.reward_mode == "round",
            deals=deals,
        )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        seat = self.agent_name_mapping[agent]
        legal = game.legal_mask() if seat == game.current_player and agent in self.agents else 0
        return {"observation": observation_vector(game, seat), "action_mask": action_mask(legal)}

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        agent = self.agent_selection
        legal = _legal_action(game, action)
        if legal is None:
            if self.illegal_action == "raise":
                game.apply(action)  # type: ignore[arg-type]  # raises ValueError naming the legal moves
            self._penalize(agent)
            return
        self._clear_rewards()
        game.apply(legal)
        if game.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        game = self._require_game()
        values = game.round_rewards() if self.reward_mode == "round" else game.rewards()
        for agent, value in zip(self.possible_agents, values):
            self.rewards[agent] = value
            self.terminations[agent] = True

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
        text = render_text(self._require_game())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ helpers for bots and front ends
    def view(self, agent: str) -> dict[str, Any]:
        """Structured, human-readable information of ``agent`` (see ``observation.player_view``)."""
        return player_view(self._require_game(), self.agent_name_mapping[agent])

    @staticmethod
    def action_to_move(action: int) -> str:
        """Move label of an action id (``play 8S``)."""
        return format_action(action)

    @staticmethod
    def move_to_action(move: str) -> int:
        """Action id of a move label."""
        return parse_action(move)

    def record(self) -> dict[str, Any]:
        """JSON-able record of the game so far (see ``smear_env.schneider.game.replay``)."""
        return self._require_game().record()

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def env(**kwargs: Any) -> AECEnv:
    """The Bohemian Schneider AEC env with PettingZoo's order-enforcing wrapper (kwargs as :class:`raw_env`)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
