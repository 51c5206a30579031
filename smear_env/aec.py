"""PettingZoo AEC environment over the Smear rules engine.

``smear_env.env(preset="ten_point", render_mode=None, reward="match", **rule_overrides)``, or
``smear_env.env(rules=get_rules("minnesota", target_score=21))`` for house rules (``preset``
may then be left out or must name the rules' own preset).

Agents are ``player_0`` .. ``player_{N-1}`` by seat, clockwise; ``player_0``
deals the first hand unless ``reset(options={"dealer": k})`` says otherwise.

Spaces
------
* Action space: ``Discrete(181)`` over every phase (bid, trump, call, discard,
  play); the layout is in :mod:`smear_env.actions`. Move labels: ``action_to_move``
  and ``move_to_action``.
* Observation: ``{"observation": float32 vector, "action_mask": int8[181]}``;
  the vector's layout is in :mod:`smear_env.observation` (``81 N + 392`` floats).
  The mask is all zeros for agents not on turn and never empty for the agent on turn.

Rewards
-------
* ``reward="match"`` (default): an episode is a whole match; at its end each
  agent of a winning team gets +1 and every other agent -1 (0 for all on a draw).
* ``reward="hand"``: an episode is a single hand (redeals included); each agent
  gets the change of its side's match score (points taken, or minus the bid when
  set) minus the largest change among the other sides.

Step limit
----------
``max_hands=N`` truncates an episode once ``N`` deals are done (deals thrown in
after an all-pass or a misdeal count too) and it is still going: every agent gets
``truncations[agent] = True`` and a reward of 0, PettingZoo-style. Random players
may never finish a match; this bounds it. ``None`` (default): no limit.

Illegal actions
---------------
``illegal_action="raise"`` (default) raises ``ValueError`` naming the action and the
legal moves, and leaves the env as it was. ``illegal_action="penalize"`` gives
PettingZoo's terminate-with-penalty behaviour: the offender gets
``illegal_penalty`` (default -1, any finite number), the others 0, and the episode
ends. An action that is not an int (``True``, ``1.0``, ``"3"``, ``None``) is never
played as a move: it is illegal like any other (numpy integers are ints here).

The env checks the call order and every argument itself (see :mod:`smear_env.card_env`).

Resets
------
``reset(seed=s)`` is reproducible. ``reset(options={"deal": Deal | dict, "dealer": k})``
starts from a fixed deal (``options["deals"]`` takes a list for successive hands); every
deal is checked against the rules before the episode starts. ``options["scores"]`` (one
int per team) starts the match from those scores. Option names other than ``deal``,
``deals``, ``dealer`` and ``scores`` are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smear_env import actions as A
from smear_env.card_env import CardGameEnv
from smear_env.game import Deal, Game
from smear_env.observation import IncrementalObserver, action_mask, player_view
from smear_env.render import render_text
from smear_env.rules import Rules, get_rules

#: bumped when what an agent observes, may do or is rewarded changes for an existing preset. 2: smear and schmier let a
#: player holding more than six trumps discard one at once (000), where 1 made them discard every other
#: card first. Records stay replayable: they carry their full rules, and the old rule is discard_trump =
#: "when_forced", which records of version 1 name. 3: the hand reward of a minnesota moon made from a score of
#: zero or less is the score it moved (0 from 0), where 2 paid the points taken (4).
ENV_VERSION = 4


class raw_env(CardGameEnv):
    """Smear as an AEC game for every preset; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": f"smear_v{ENV_VERSION}", "is_parallelizable": False}
    reward_modes = ("match", "hand")
    format_action = staticmethod(A.format_action)
    parse_action = staticmethod(A.parse_action)

    def __init__(
        self,
        preset: str | None = None,
        render_mode: str | None = None,
        reward: str = "match",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        rules: Rules | None = None,
        max_hands: int | None = None,
        **rule_overrides: Any,
    ) -> None:
        self.rules = _rules_for(preset, rules, rule_overrides)
        self._observer = IncrementalObserver(self.rules.num_players)
        super().__init__(
            self.rules.num_players,
            A.NUM_ACTIONS,
            self._observer.size,
            -1.0,
            render_mode,
            reward,
            illegal_action,
            illegal_penalty,
            max_hands,
        )
        self.game: Game | None = None

    def _new_game(self, seed: int, dealer: int, deals: list[Deal], single: bool, scores: Any) -> Game:
        starting = {} if scores is None else {"scores": scores}  # the engine's starting scores, where given
        game = Game(self.rules, seed=seed, dealer=dealer, single_hand=single, deals=deals, **starting)
        self._observer.forget()  # only once the new game stands: a refused reset changes nothing
        return game

    def _as_deal(self, deal: Deal | dict[str, Any]) -> Deal:
        return deal if isinstance(deal, Deal) else Deal.from_dict(deal)

    def _vector(self, game: Game, seat: int) -> np.ndarray:
        return self._observer.vector(game, seat)

    _mask = staticmethod(action_mask)  # the mask builder itself: one call less per observation

    def _view(self, game: Game, seat: int) -> dict[str, Any]:
        return player_view(game, seat)

    def _render_text(self, game: Game) -> str:
        return render_text(game)

    def _final_rewards(self, game: Game) -> list[float]:
        if self.reward_mode == "hand":
            result = game.hand_results[-1]
            return [result.hand_reward(s) for s in range(game.num_players)]
        return game.rewards()


def _rules_for(preset: str | None, rules: Rules | None, overrides: dict[str, Any]) -> Rules:
    """The env's rules: a preset with overrides, or given rules (with overrides) whose preset agrees with ``preset``."""
    if rules is None:
        return get_rules("ten_point" if preset is None else preset, **overrides)
    if not isinstance(rules, Rules):
        raise ValueError(
            f"rules {rules!r} are not Smear rules: expected a smear_env.Rules (get_rules, load_rules); "
            "a preset by name goes in preset="
        )
    if preset is not None and preset != rules.name:
        raise ValueError(
            f"preset {preset!r} and rules of preset {rules.name!r} disagree: give the rules alone, "
            "or the preset with its rule options as keywords"
        )
    return rules.replace(**overrides)


def env(**kwargs: Any) -> raw_env:
    """The Smear AEC env (kwargs as :class:`raw_env`); it checks the call order itself."""
    return raw_env(**kwargs)
