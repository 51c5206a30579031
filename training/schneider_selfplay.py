"""Self-play experience for Bohemian Schneider: :class:`training.selfplay.Collector` over the Schneider engine.

Everything about batching, episodes, GAE, pool snapshots and checkpointed
matches in flight is the Smear collector's; this class only says what differs
for a two-player game of card play: no teams (a seat is a side), one round is
one episode (its reward is my round score minus the opponent's, after doubling
and tripling), the Schneider observation vector and 54-action mask, and the
Schneider bots as opponents. Schneider has no bidding, so the bidding bots
(``bold``, ``searchbid``) are not opponents here; its search bot is too slow to
train against and serves as the evaluation yardstick instead.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent
from smear_env.schneider.game import NUM_PLAYERS, ROUND_POINTS, Game, RoundResult, replay
from smear_env.schneider.observation import action_mask, observation_vector, player_view
from training.selfplay import Collector, Match

SCHNEIDER_OPPONENT_KINDS = ("self", "pool", "rule", "random", "fixed")


class SchneiderObserver:
    """The observer a match keeps: Schneider's vector is cheap enough to build from scratch at every decision."""

    @staticmethod
    def vector(game: Game, seat: int) -> np.ndarray:
        return observation_vector(game, seat)


class SchneiderCollector(Collector):
    """Many Bohemian Schneider matches stepped in lockstep (see :mod:`training.selfplay`)."""

    opponent_kinds = SCHNEIDER_OPPONENT_KINDS
    has_bids = False

    def default_reward_scale(self, rules: object) -> float:
        """A round's 20 counter points: a typical round's reward difference is then within about one."""
        return float(ROUND_POINTS)

    def _new_game(self, rules: object, seed: int, dealer: int, scores: list[int] | None) -> Game:
        return Game(rules, seed=seed, dealer=dealer)  # scores is always None: see _plays_to_target

    def _plays_to_target(self, rules: object) -> bool:
        return False  # a match is a number of rounds, so late_start has no target to start near

    def _team_of(self, rules: object, seat: int) -> int:
        return seat  # each player is a side

    def _num_teams(self, rules: object) -> int:
        return NUM_PLAYERS

    def _observer(self, rules: object) -> SchneiderObserver:
        return SchneiderObserver()

    _action_mask = staticmethod(action_mask)

    def _bot_action(self, bot: Agent, game: Game, seat: int) -> int:
        return bot.act(player_view(game, seat))

    _replay = staticmethod(replay)

    @staticmethod
    def _results(game: Game) -> list[RoundResult]:
        return game.round_results

    @staticmethod
    def _hand_reward(result: RoundResult, seat: int) -> float:
        return float(result.reward(seat))

    def _note_result(self, m: Match, result: RoundResult) -> None:
        """Nothing to note: Schneider has no bids."""
