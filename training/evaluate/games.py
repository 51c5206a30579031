"""Playing the games of an evaluation: one game in an env, what its end means for A, and a :class:`Runner`.

A :class:`Runner` holds one env and one agent per (role, seat) and plays any game
of the evaluation by its index alone (its deal seed, its agents' seeds and its
lineup all follow from the index), so any process can play any share of the
games and the results come out the same.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import smear_env
from agents.base import Agent
from agents.registry import make_agent
from smear_env.actions import MOON_BID
from training.evaluate.lineups import A, B, lineup, seat_teams
from training.evaluate.seeds import agent_seed, deal_seed, derive_seed
from training.evaluate.tally import DecisionTimes, GameOutcome, Tally

#: where the games of an evaluation start: a new match, or late in one (:func:`start_scores`)
STARTS = ("new", "late")


def play_game(
    env: Any, seat_agents: Sequence[Agent], seed: int, max_hands: int, times: Sequence[DecisionTimes] | None = None,
    scores: Sequence[int] | None = None,
) -> bool:  # fmt: skip
    """Play one match in ``env`` from ``env.reset(seed=seed)``; True when stopped after ``max_hands`` deals.

    Deals thrown in (all pass, misdeal) count toward ``max_hands`` too, so a lineup
    that never bids cannot loop forever. ``times[seat]`` gets each ``act()`` duration.
    ``scores``: each team's score when the match starts (a match resumed late), else 0 each.
    """
    env.reset(seed=seed, options=None if scores is None else {"scores": list(scores)})
    game = env.unwrapped.game
    while not game.is_over:
        if len(game.deals) > max_hands:
            return True
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        view, observation = env.view(name), env.observe(name)
        start = time.perf_counter()
        action = seat_agents[seat].act(view, observation)
        if times is not None:
            times[seat].add(time.perf_counter() - start)
        try:
            env.step(action)
        except ValueError as err:
            raise ValueError(f"{type(seat_agents[seat]).__name__} in seat {seat} (engine seed {seed}): {err}") from err
    return False


def winning_seats(game: Any) -> set[int]:
    """Seats that won the match: members of winning teams (Smear) or winning seats (Bohemian Schneider)."""
    if hasattr(game, "team_of"):
        return {s for s in range(game.num_players) if game.team_of(s) in game.winners}
    return set(game.winners)


def score_for_a(game: Any, roles: Sequence[int], stopped: bool) -> float:
    """A's match score: 1 if only A's seats won, 0 if only B's, 1/2 otherwise (draw, shared, stopped)."""
    if stopped:
        return 0.5
    won = {roles[s] for s in winning_seats(game)}
    if won == {A}:
        return 1.0
    return 0.0 if won == {B} else 0.5


def tally_hands(game: Any, seats: Sequence[int], tally: Tally) -> int:
    """Add the hand (round) statistics of the agent in ``seats`` to ``tally``; returns the hands counted.

    Points per hand are those its side took; when the agent holds seats on several
    sides (called partner, individual scores, several teams) they are averaged over its seats.
    """
    if not hasattr(game, "hand_results"):  # Bohemian Schneider: rounds, no bids
        tally.has_bids = False
        for result in game.round_results:
            tally.points.add(Fraction(sum(result.points[s] for s in seats), len(seats)))
        return len(game.round_results)
    moon_value = game.rules.max_hand_points
    for result in game.hand_results:
        side_points = sum(result.points[result.side_of_seat[s]] for s in seats)
        tally.points.add(Fraction(side_points, len(seats)))
        if result.bidder in seats:
            tally.bids += 1
            tally.made += result.made
            tally.bid_total += moon_value if result.bid == MOON_BID else result.bid
    return len(game.hand_results)


def mean_hand_reward(game: Any, seats: Sequence[int]) -> float | None:
    """Mean per hand of the score change of the agent in ``seats`` minus that of the agent in the other seats.

    An agent's score change in a hand is the change of its seats' sides, averaged over
    its seats. With two sides that is its side's change minus the other side's (as
    ``HandResult.hand_reward`` gives it); with more (everyone alone, three teams) it
    still compares the two agents, so B's figure is minus A's and an agent against
    itself scores 0 on average, where a seat's change minus the best other side's
    would count A's own other seats against it.

    A Smear game whose every deal was thrown in (all passed, a misdeal) counts 0:
    nobody's score moved. That happens in one-deal games (``--max-hands 1``), and
    leaving such games out would make the pair's two games disagree on what they
    measure. None for Bohemian Schneider (rounds, no hand results).
    """
    if not hasattr(game, "hand_results"):
        return None
    results = game.hand_results
    if not results:
        return 0.0
    others = [s for s in range(game.num_players) if s not in seats]
    total = sum(_mean_change(r, seats) - _mean_change(r, others) for r in results)
    return float(total / len(results))


def _mean_change(result: Any, seats: Sequence[int]) -> Fraction:
    """The score change of the sides of ``seats`` in one hand, averaged over the seats (exactly)."""
    return Fraction(sum(result.deltas[result.side_of_seat[s]] for s in seats), len(seats))


def start_scores(rules: Any, start: str, seed: int, pair: int) -> list[int] | None:
    """Each team's score when both games of deal pair ``pair`` start: None (0 each) for a new match.

    ``late``: every team draws a score uniformly from the last two hands' worth of points
    before the target (target - 2 x the most points a hand gives, to target - 1). Every
    game is then decided within a few hands, and bidding by the match score (going out,
    blocking) comes up in most of them, so settings that differ only there separate in
    far fewer games than whole matches need. Both games of a pair start alike and the
    agents swap sides, so each meets both positions.
    """
    if start == "new":
        return None
    return late_scores(rules, random.Random(derive_seed("start", seed, pair)))


def late_scores(rules: Any, rng: random.Random) -> list[int]:
    """Each team's score drawn from the last two hands' worth of points before the target (:func:`start_scores`).

    Training draws its late matches (``late_start``) here too, so they start where the
    evaluation's late games do.
    """
    top, width = rules.target_score - 1, 2 * rules.max_hand_points
    return [rng.randint(top - width + 1, top) for _ in range(rules.num_teams)]


def check_start(start: str, env: Any, preset: str) -> None:
    """A clear ``ValueError`` for a start the game cannot take: an unknown one, or late without a target score."""
    if start not in STARTS:
        raise ValueError(f"start {start!r} is unknown: expected one of {', '.join(STARTS)}")
    if start == "late" and preset in smear_env.OTHER_GAMES:
        raise ValueError(f"start 'late' needs a Smear preset played to a target score; {preset} is another game")
    if start == "late" and env.rules.match_end != "target":
        raise ValueError(
            f"start 'late' needs a Smear preset played to a target score; {preset}'s matches last "
            f"{env.rules.num_hands} hands"
        )


@dataclass(frozen=True)
class MatchConfig:
    """What every game of one evaluation shares; sent to each worker once."""

    agent_a: str
    agent_b: str
    preset: str
    seed: int
    max_hands: int
    rule_overrides: dict[str, Any]
    start: str = "new"  # one of STARTS

    def spec(self, role: int) -> str:
        return self.agent_a if role == A else self.agent_b


def rules_for_agents(env: Any, preset: str, rule_overrides: dict[str, Any]) -> Any:
    """What :func:`make_agent` gets as the game: the preset name, or the env's Smear rules when house rules apply."""
    return env.rules if rule_overrides and preset not in smear_env.OTHER_GAMES else preset


class Runner:
    """One env and one agent per (role, seat), reused across games: agents are re-seeded by ``reset``."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.env = smear_env.raw_env(preset=config.preset, **config.rule_overrides)
        self.rules = rules_for_agents(self.env, config.preset, config.rule_overrides)
        self.num_players = len(self.env.possible_agents)
        self.teams = seat_teams(self.env.rules, self.num_players)  # match team of each seat: roles go by team
        self._agents: dict[tuple[int, int], Agent] = {}

    def agent(self, role: int, seat: int, seed: int) -> Agent:
        """The agent of ``role`` in ``seat``, reset with ``seed``."""
        key = (role, seat)
        if key not in self._agents:
            self._agents[key] = make_agent(self.config.spec(role), self.rules, seed)
        agent = self._agents[key]
        agent.reset(seed)
        return agent

    def play(self, game_index: int, tallies: Sequence[Tally]) -> GameOutcome:
        """Play game ``game_index`` and add its statistics to ``tallies`` (A, B)."""
        c = self.config
        roles = lineup(game_index, self.teams)
        seed = deal_seed(c.seed, game_index // 2)
        agents = [self.agent(role, seat, agent_seed(c.seed, game_index, seat)) for seat, role in enumerate(roles)]
        scores = start_scores(self.env.rules, c.start, c.seed, game_index // 2)
        stopped = play_game(self.env, agents, seed, c.max_hands, [tallies[role].times for role in roles], scores)
        game = self.env.unwrapped.game
        score = score_for_a(game, roles, stopped)
        hands = 0
        for role, tally in enumerate(tallies):
            hands = tally_hands(game, [s for s, r in enumerate(roles) if r == role], tally)
            mine = score if role == A else 1 - score
            tally.wins += mine == 1
            tally.draws += mine == 0.5
            tally.losses += mine == 0
        a_seats = tuple(s for s, r in enumerate(roles) if r == A)
        return GameOutcome(game_index, seed, a_seats, score, hands, stopped, mean_hand_reward(game, a_seats))

    def play_pairs(self, pairs: Sequence[int]) -> tuple[list[GameOutcome], list[Tally]]:
        """Both games of each deal pair in ``pairs``, in game order."""
        tallies = [Tally(), Tally()]
        outcomes = [self.play(2 * pair + k, tallies) for pair in pairs for k in (0, 1)]
        return outcomes, tallies
