"""Duplicate-format evaluation of two agents on any preset: :func:`evaluate` and what it returns.

Why duplicate: card luck swamps skill in short samples. Each deal seed is played
twice with the same engine seed, once with agent A holding the even-numbered
teams and B the odd ones, and once the other way round, so both agents hold the
same cards in turn and the luck of the deal largely cancels. Deals come only
from the engine's RNG (seeded by ``env.reset(seed=...)``), so both games of a
pair see the same sequence of deals even when play differs. Roles go by team,
never by seat, so partners always play for the same agent, whatever the seating
(``rules.teams``); with individual scores (``ten_point_5p``) every player is a
team of one, and a match is A's win when only A's seats won.

Determinism: every game's deal seed depends on ``(seed, pair)`` and every agent's
seed on ``(seed, game index, seat)``; workers tally games with exact arithmetic
and the parent merges them in game order, so the results (not the timings) are
the same for any number of workers.

Match outcome per game, for A: 1 when the winners are A's seats only, 0 when they
are B's only, 1/2 otherwise (a draw, or a match stopped after ``max_hands``
deals). Win rates count draws as half a win (see :mod:`training.stats`).

The package, one concern a module, each depending only on those listed before it:

* :mod:`~training.evaluate.seeds`: the seeds of deals and agents;
* :mod:`~training.evaluate.lineups`: which agent (role A or B) holds each seat;
* :mod:`~training.evaluate.tally`: what the games add up to, per agent and per game;
* :mod:`~training.evaluate.games`: playing one game and reading its outcome;
* :mod:`~training.evaluate.workers`: sharing the deal pairs among processes;
* :mod:`~training.evaluate.report`: markdown tables and number formats (the ladder's too);
* :mod:`~training.evaluate.results`: the result, its per-agent reports and their JSON;
* :mod:`~training.evaluate.journal`: the games of a running evaluation kept on disk, so a stopped one resumes;
* :mod:`~training.evaluate.run`: :func:`evaluate` itself and the checks before it plays;
* :mod:`~training.evaluate.cli`: the command line (``smear-rl evaluate``, ``python -m training.evaluate``),
  which also runs the ladder (:mod:`training.ladder`).

The names below are the public API, importable from ``training.evaluate``.
"""

from __future__ import annotations

from smear_env import check_preset
from training.evaluate.games import (
    MatchConfig,
    Runner,
    mean_hand_reward,
    play_game,
    rules_for_agents,
    score_for_a,
    tally_hands,
    winning_seats,
)
from training.evaluate.lineups import ROLE_NAMES, A, B, lineup, seat_teams
from training.evaluate.results import AgentReport, EvalResult
from training.evaluate.run import check_setup, evaluate
from training.evaluate.seeds import agent_seed, deal_seed, derive_seed
from training.evaluate.tally import DecisionTimes, GameOutcome, Tally

__all__ = [
    "A",
    "B",
    "ROLE_NAMES",
    "AgentReport",
    "DecisionTimes",
    "EvalResult",
    "GameOutcome",
    "MatchConfig",
    "Runner",
    "Tally",
    "agent_seed",
    "check_preset",
    "check_setup",
    "deal_seed",
    "derive_seed",
    "evaluate",
    "lineup",
    "mean_hand_reward",
    "play_game",
    "rules_for_agents",
    "score_for_a",
    "seat_teams",
    "tally_hands",
    "winning_seats",
]
