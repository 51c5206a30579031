"""PettingZoo AEC environment over the Smear rules engine.

``smear_env.env(preset="ten_point", render_mode=None, reward="match", **rule_overrides)``

Agents are ``player_0`` .. ``player_{N-1}`` by seat, clockwise; ``player_0``
deals the first hand unless ``reset(options={"dealer": k})`` says otherwise.

Spaces
------
* Action space: ``Discrete(181)`` over every phase (bid, trump, call, discard,
  play); the layout is in :mod:`smear_env.actions`. Move labels: ``action_to_move``
  and ``move_to_action``.
* Observation: ``{"observation": float32 vector, "action_mask": int8[181]}``;
  the vector's layout is in :mod:`smear_env.observation` (``75 N + 337`` floats).
  The mask is all zeros for agents not on turn and never empty for the agent on turn.

Rewards
-------
* ``reward="match"`` (default): an episode is a whole match; at its end each
  agent of a winning team gets +1 and every other agent -1 (0 for all on a draw).
* ``reward="hand"``: an episode is a single hand (redeals included); each agent
  gets the change of its side's match score (points taken, or minus the bid when
  set) minus the largest change among the other sides.

Illegal actions
---------------
``illegal_action="raise"`` (default) raises ``ValueError`` naming the action and the
legal moves, and leaves the env as it was. ``illegal_action="penalize"`` gives
PettingZoo's terminate-with-penalty behaviour: the offender gets
``illegal_penalty`` (default -1), the others 0, and the episode ends.

Resets
------
``reset(seed=s)`` is reproducible. ``reset(options={"deal": Deal | dict, "dealer": k})``
starts from a fixed deal (``options["deals"]`` takes a list for successive hands).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from smear_env import actions as A
from smear_env.game import Deal, Game
from smear_env.observation import Observer, action_mask, player_view
from smear_env.render import render_text
from smear_env.rules import Rules, get_rules

ENV_VERSION = 1


def _as_deal(deal: Deal | dict[str, Any]) -> Deal:
    return deal if isinstance(deal, Deal) else Deal.from_dict(deal)


class raw_env(AECEnv):
    """Smear as an AEC game for every preset; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": "smear_v1", "is_parallelizable": False}

    def __init__(
        self,
        preset: str = "ten_point",
        render_mode: str | None = None,
        reward: str = "match",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        rules: Rules | None = None,
        **rule_overrides: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r} is not supported: expected None, 'ansi' or 'human'")
        if reward not in ("match", "hand"):
            raise ValueError(f"reward {reward!r} is not supported: expected 'match' or 'hand'")
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action {illegal_action!r} is not supported: expected 'raise' or 'penalize'")
        self.rules = rules.replace(**rule_overrides) if rules is not None else get_rules(preset, **rule_overrides)
        self.render_mode = render_mode
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        n = self.rules.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._observer = Observer(n)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (self._observer.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game: Game | None = None
        self.agents: list[str] = []
        self.agent_selection = ""  # observe/last/step before reset() raise a clear RuntimeError

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
            single_hand=self.reward_mode == "hand",
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
        return {"observation": self._observer.vector(game, seat), "action_mask": action_mask(legal)}

    def step(self, action: int | None) -> None:
        game = self._require_game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not (0 <= int(action) < A.NUM_ACTIONS) or not game.legal_mask() >> int(action) & 1:
            if self.illegal_action == "raise":
                game.apply(action if action is not None else -1)  # raises ValueError naming the legal moves
            self._penalize(agent)
            return
        self._clear_rewards()
        game.apply(int(action))
        if game.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        game = self._require_game()
        if self.reward_mode == "hand":
            result = game.hand_results[-1]
            values = [result.hand_reward(s) for s in range(game.num_players)]
        else:
            values = game.rewards()
        for agent, value in zip(self.possible_agents, values, strict=True):
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
        """Move label of an action id (``play TH``)."""
        return A.format_action(action)

    @staticmethod
    def move_to_action(move: str) -> int:
        """Action id of a move label."""
        return A.parse_action(move)

    def record(self) -> dict[str, Any]:
        """JSON-able record of the game so far (see ``smear_env.game.replay``)."""
        return self._require_game().record()

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def env(**kwargs: Any) -> AECEnv:
    """The Smear AEC env (kwargs as :class:`raw_env`).

    Unlike most PettingZoo envs it is not wrapped in ``OrderEnforcingWrapper``:
    :class:`raw_env` makes the same checks itself (using it before ``reset()``
    raises a clear error), and the wrapper's attribute forwarding would cost a
    fifth of the simulation speed.
    """
    return raw_env(**kwargs)
