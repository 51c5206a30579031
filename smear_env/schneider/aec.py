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
* ``reward="round"`` (or ``"hand"``, its name in Smear): an episode is a single
  round; each agent gets its round score (after doubling/tripling) minus the opponent's.

Step limit
----------
``max_hands=N`` truncates a match after ``N`` rounds: every agent gets
``truncations[agent] = True`` and a reward of 0. ``None`` (default): no limit.

Illegal actions
---------------
``illegal_action="raise"`` (default) raises ``ValueError`` naming the action and
the legal moves, and leaves the env as it was. ``illegal_action="penalize"``
terminates the episode: the offender gets ``illegal_penalty`` (default -1), the
other agent 0.

Resets
------
``reset(seed=s)`` is reproducible. ``reset(options={"deal": Deal | dict, "dealer": k})``
starts from a fixed deal (``options["deals"]`` takes a list for successive rounds); every
deal is checked before the episode starts, other option names are refused, and a match
always starts from 0-0 (``scores`` is refused). Bad input raises ``ValueError`` and changes
nothing (see :mod:`smear_env.card_env`); ``rules=`` must be a :class:`SchneiderRules`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smear_env.card_env import CardGameEnv
from smear_env.schneider.game import GAME_NAME, NUM_ACTIONS, NUM_PLAYERS, Deal, Game, SchneiderRules
from smear_env.schneider.game import format_action as _format_action
from smear_env.schneider.game import parse_action as _parse_action
from smear_env.schneider.observation import OBSERVATION_SIZE, action_mask, observation_vector, player_view
from smear_env.schneider.render import render_text

ENV_VERSION = 1


class raw_env(CardGameEnv):
    """Bohemian Schneider as a two-agent AEC game; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": f"{GAME_NAME}_v{ENV_VERSION}", "is_parallelizable": False}
    reward_modes = ("match", "round")
    reward_aliases = {"hand": "round"}  # the name Smear uses for one-deal episodes
    format_action = staticmethod(_format_action)
    parse_action = staticmethod(_parse_action)

    def __init__(
        self,
        preset: str | None = None,
        render_mode: str | None = None,
        reward: str = "match",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        rules: SchneiderRules | None = None,
        max_hands: int | None = None,
        **rule_overrides: Any,
    ) -> None:
        if preset is not None and preset != GAME_NAME:
            raise ValueError(f"preset {preset!r} is not played by this env: expected {GAME_NAME!r}")
        if rules is not None and not isinstance(rules, SchneiderRules):
            raise ValueError(
                f"rules {rules!r} are not Bohemian Schneider rules: expected a SchneiderRules "
                f"(Smear rules go to smear_env.env(rules=...))"
            )
        self.rules = (rules or SchneiderRules()).replace(**rule_overrides)
        super().__init__(
            NUM_PLAYERS,
            NUM_ACTIONS,
            OBSERVATION_SIZE,
            0.0,
            render_mode,
            reward,
            illegal_action,
            illegal_penalty,
            max_hands,
        )
        self.game: Game | None = None

    def _new_game(self, seed: int, dealer: int, deals: list[Deal], single: bool, scores: Any) -> Game:
        if scores is not None:
            raise ValueError(f"reset option scores {scores!r}: {GAME_NAME} matches always start from 0-0")
        return Game(self.rules, seed=seed, dealer=dealer, single_round=single, deals=deals)

    def _as_deal(self, deal: Deal | dict[str, Any]) -> Deal:
        return deal if isinstance(deal, Deal) else Deal.from_dict(deal)

    def _vector(self, game: Game, seat: int) -> np.ndarray:
        return observation_vector(game, seat)

    _mask = staticmethod(action_mask)  # the mask builder itself: one call less per observation

    def _view(self, game: Game, seat: int) -> dict[str, Any]:
        return player_view(game, seat)

    def _render_text(self, game: Game) -> str:
        return render_text(game)

    def _final_rewards(self, game: Game) -> list[float]:
        return game.round_rewards() if self.reward_mode == "round" else game.rewards()


def env(**kwargs: Any) -> raw_env:
    """The Bohemian Schneider AEC env (kwargs as :class:`raw_env`); it checks the call order itself."""
    return raw_env(**kwargs)
