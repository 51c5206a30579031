"""Duplicate-format evaluation of two agents on any preset, and a rating ladder (:mod:`training.ladder`).

Why duplicate: card luck swamps skill in short samples. Each deal seed is played
twice with the same engine seed, once with agent A in the even seats and B in the
odd seats and once the other way round, so both agents hold the same cards in
turn and the luck of the deal largely cancels. Deals come only from the engine's
RNG (seeded by ``env.reset(seed=...)``), so both games of a pair see the same
sequence of deals even when play differs. With partnerships the parity swap
swaps the teams; with individual scores (``ten_point_5p``) A holds the seats of
one parity and B the others, and a match is A's win when only A's seats won.

Determinism: every game's deal seed depends on ``(seed, pair)`` and every agent's
seed on ``(seed, game index, seat)``; workers tally games with exact arithmetic
and the parent merges them in game order, so the results (not the timings) are
the same for any number of workers.

Match outcome per game, for A: 1 when the winners are A's seats only, 0 when they
are B's only, 1/2 otherwise (a draw, or a match stopped after ``max_hands``
deals). Win rates count draws as half a win (see :mod:`training.stats`).

Examples::

    smear-rl evaluate random random --preset smear --matches 200
    smear-rl evaluate rule random --preset bohemian_schneider --matches 200 --json out.json
    smear-rl evaluate random random --preset ten_point --rule target_score=21 --max-hands 100
    smear-rl evaluate --ladder random rule search --preset ten_point --matches 200

A/B test of two settings of one bot: stop every game after its first deal and read the
hand reward line, A's score change per hand minus B's over duplicate deal pairs (only
deals the two settings play differently move it, so it separates them with far fewer
games than the match win rate)::

    smear-rl evaluate search:samples=48 search --preset minnesota --max-hands 1 --matches 600
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from tqdm import tqdm

import smear_env
from agents.base import Agent
from agents.registry import make_agent
from smear_env.actions import MOON_BID
from smear_env.checks import as_int
from smear_env.version import code_version
from training.cli import ArgumentParser, check_writable_file, int_at_least
from training.stats import Estimate, RunningMean, mean_interval, win_rate

A, B = 0, 1  # roles in a lineup: lineup[seat] is A or B
ROLE_NAMES = ("A", "B")


# ---------------------------------------------------------------------- seeds and lineups
def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from a tuple of ints and tags: the same in every process and on every machine (unlike hash())."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def deal_seed(seed: int, pair: int) -> int:
    """Engine seed shared by both games of deal pair ``pair``."""
    return derive_seed("deal", seed, pair)


def agent_seed(seed: int, game_index: int, seat: int) -> int:
    """Seed of the agent in ``seat`` for game ``game_index``."""
    return derive_seed("agent", seed, game_index, seat)


def lineup(game_index: int, num_players: int) -> tuple[int, ...]:
    """Role (A or B) of each seat: A in the even seats in even games, in the odd seats in odd games."""
    return tuple((seat + game_index) % 2 for seat in range(num_players))


# ---------------------------------------------------------------------- decision timing
@dataclass
class DecisionTimes:
    """``act()`` durations: count and total exactly, the median from a log histogram (bounded memory).

    50 bins per decade from 0.1 us to 100 s: the median is within about 2.3% of the exact one.
    """

    BINS_PER_DECADE = 50
    LOW = 1e-7
    NUM_BINS = 9 * 50 + 1

    count: int = 0
    total: float = 0.0
    bins: list[int] = field(default_factory=lambda: [0] * DecisionTimes.NUM_BINS)

    def add(self, seconds: float) -> None:
        """Record one decision."""
        self.count += 1
        self.total += seconds
        index = int(math.log10(max(seconds, self.LOW) / self.LOW) * self.BINS_PER_DECADE)
        self.bins[min(index, self.NUM_BINS - 1)] += 1

    def merge(self, other: DecisionTimes) -> None:
        """Fold another tally into this one."""
        self.count += other.count
        self.total += other.total
        self.bins = [a + b for a, b in zip(self.bins, other.bins)]

    def median(self) -> float | None:
        """Median seconds per decision (geometric centre of the median bin); None without decisions."""
        seen = 0
        for index, count in enumerate(self.bins):
            seen += count
            if count and 2 * seen >= self.count:
                return self.LOW * 10 ** ((index + 0.5) / self.BINS_PER_DECADE)
        return None


# ---------------------------------------------------------------------- per-agent tallies
@dataclass
class Tally:
    """What one agent (A or B) did over some games; merged across workers in game order."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: RunningMean = field(default_factory=RunningMean)  # its side's points per hand (round)
    bids: int = 0  # hands whose winning bid was made by one of its seats
    made: int = 0  # of those, bids made
    bid_total: int = 0  # sum of those bids (a moon counts as the rules' max_hand_points)
    has_bids: bool = True  # False for games without bidding (Bohemian Schneider)
    times: DecisionTimes = field(default_factory=DecisionTimes)

    def merge(self, other: Tally) -> None:
        """Fold another tally into this one."""
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.points.merge(other.points)
        self.bids += other.bids
        self.made += other.made
        self.bid_total += other.bid_total
        self.has_bids = self.has_bids and other.has_bids
        self.times.merge(other.times)


@dataclass(frozen=True)
class GameOutcome:
    """One game of an evaluation: which seats A held, A's match score, and how long it ran."""

    index: int  # game index; games 2p and 2p+1 share deal seed p
    deal_seed: int
    a_seats: tuple[int, ...]
    score_a: float  # 1 win, 1/2 draw or stopped, 0 loss
    hands: int  # scored hands (rounds in Bohemian Schneider)
    stopped: bool  # not over after max_hands deals; counted as a draw
    reward_a: float | None = None  # A's mean hand reward (HandResult.hand_reward) per hand; None: no Smear hands


# ---------------------------------------------------------------------- playing one game
def play_game(
    env: Any, seat_agents: Sequence[Agent], seed: int, max_hands: int, times: Sequence[DecisionTimes] | None = None
) -> bool:
    """Play one match in ``env`` from ``env.reset(seed=seed)``; True when stopped after ``max_hands`` deals.

    Deals thrown in (all pass, misdeal) count toward ``max_hands`` too, so a lineup
    that never bids cannot loop forever. ``times[seat]`` gets each ``act()`` duration.
    """
    env.reset(seed=seed)
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
    sides (called partner, individual scores) they are averaged over its seats.
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
    """Mean over the hands and ``seats`` of the seat's side's score change minus the best other side's.

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
    return sum(r.hand_reward(s) for r in results for s in seats) / (len(results) * len(seats))


# ---------------------------------------------------------------------- a worker's share
@dataclass(frozen=True)
class MatchConfig:
    """What every game of one evaluation shares; sent to each worker once."""

    agent_a: str
    agent_b: str
    preset: str
    seed: int
    max_hands: int
    rule_overrides: dict[str, Any]

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
        roles = lineup(game_index, self.num_players)
        seed = deal_seed(c.seed, game_index // 2)
        agents = [self.agent(role, seat, agent_seed(c.seed, game_index, seat)) for seat, role in enumerate(roles)]
        stopped = play_game(self.env, agents, seed, c.max_hands, [tallies[role].times for role in roles])
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

    def play_pairs(self, pairs: range) -> tuple[list[GameOutcome], list[Tally]]:
        """Both games of each deal pair in ``pairs``, in game order."""
        tallies = [Tally(), Tally()]
        outcomes = [self.play(2 * pair + k, tallies) for pair in pairs for k in (0, 1)]
        return outcomes, tallies


_WORKER: Runner | None = None


def _init_worker(config: MatchConfig) -> None:
    global _WORKER
    _WORKER = Runner(config)


def _play_chunk(task: tuple[int, range]) -> tuple[int, list[GameOutcome], list[Tally]]:
    index, pairs = task
    assert _WORKER is not None, "worker not initialised"
    return (index, *_WORKER.play_pairs(pairs))


def _chunks(num_pairs: int, workers: int) -> list[range]:
    """Deal pairs split into chunks: several per worker for load balance and a moving progress bar."""
    size = max(1, min(32, math.ceil(num_pairs / (workers * 8))))
    return [range(start, min(start + size, num_pairs)) for start in range(0, num_pairs, size)]


def _run_chunks(
    config: MatchConfig, chunks: list[range], workers: int, progress: bool
) -> Iterator[tuple[int, list[GameOutcome], list[Tally]]]:
    """Results of every chunk (any order), in this process when ``workers`` is 1, else in a Pool."""
    desc = f"{config.agent_a} vs {config.agent_b}"
    total = 2 * sum(len(c) for c in chunks)
    if workers <= 1:
        runner = Runner(config)
        with tqdm(total=total, desc=desc, unit="game", file=sys.stderr, disable=not progress) as bar:
            for index, pairs in enumerate(chunks):
                yield (index, *runner.play_pairs(pairs))
                bar.update(2 * len(pairs))
        return
    # spawned, not forked: a fork after torch has started its thread pool (checking a checkpoint
    # agent loads one) deadlocks the workers on their first forward pass
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(config,)) as pool:
        results = pool.imap_unordered(_play_chunk, list(enumerate(chunks)))
        with tqdm(total=total, desc=desc, unit="game", file=sys.stderr, disable=not progress) as bar:
            for result in results:
                bar.update(len(result[1]))
                yield result


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class AgentReport:
    """One agent's results in an evaluation (timing fields depend on the machine, the rest on the seed)."""

    agent: str
    role: str  # "A" or "B"
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: Estimate  # match score, draws half, with 95% Wilson interval
    hands: int
    points_per_hand: Estimate | None  # its side's points per hand (round), 95% normal interval
    bid_rate: float | None  # fraction of hands its side won the bid (None: no bidding in this game)
    made_rate: float | None  # fraction of its winning bids that were made
    mean_bid: float | None  # mean of its winning bids, a moon counted as the rules' max_hand_points
    decisions: int
    act_seconds: float
    decisions_per_s: float | None
    median_ms: float | None  # median milliseconds per act() call (log histogram, ~2% resolution)

    TIMING_FIELDS = ("act_seconds", "decisions_per_s", "median_ms")

    @classmethod
    def from_tally(cls, agent: str, role: int, tally: Tally) -> AgentReport:
        games = tally.wins + tally.draws + tally.losses
        hands = tally.points.n
        bids = tally.bids if tally.has_bids else None
        median = tally.times.median()
        return cls(
            agent=agent,
            role=ROLE_NAMES[role],
            games=games,
            wins=tally.wins,
            draws=tally.draws,
            losses=tally.losses,
            win_rate=win_rate(tally.wins, tally.draws, games),
            hands=hands,
            points_per_hand=tally.points.estimate(),
            bid_rate=_ratio(bids, hands),
            made_rate=_ratio(tally.made, bids),
            mean_bid=_ratio(tally.bid_total, bids),
            decisions=tally.times.count,
            act_seconds=tally.times.total,
            decisions_per_s=_ratio(tally.times.count, tally.times.total),
            median_ms=None if median is None else 1000 * median,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AgentReport:
        data = dict(data)
        for key in ("win_rate", "points_per_hand"):
            data[key] = None if data[key] is None else Estimate(**data[key])
        return cls(**data)


def _ratio(num: float | None, den: float | None) -> float | None:
    return None if num is None or not den else num / den


@dataclass(frozen=True)
class EvalResult:
    """Everything :func:`evaluate` measured; ``to_dict``/``from_dict`` round-trip through JSON."""

    agent_a: str
    agent_b: str
    preset: str
    matches: int
    seed: int
    max_hands: int
    rule_overrides: dict[str, Any]
    stopped: int  # games stopped after max_hands deals (counted as draws)
    wall_seconds: float
    reports: tuple[AgentReport, AgentReport]
    games: tuple[GameOutcome, ...]
    code_version: str = "unrecorded"  # smear-rl version that ran (smear_env.version.code_version); older: none

    @property
    def a(self) -> AgentReport:
        return self.reports[A]

    @property
    def b(self) -> AgentReport:
        return self.reports[B]

    @property
    def paired_reward(self) -> Estimate | None:
        """A's hand reward per hand, the two games of each deal pair averaged, with a 95% interval over pairs.

        A finer measure than the win rate: every hand counts, not just who reached the
        target, and a pair's games share their deals, so most of the card luck cancels.
        None for games without Smear hand results (Bohemian Schneider) and for results saved before it existed.
        """
        rewards = self.pair_rewards()
        return None if rewards is None else mean_interval(rewards)

    def pair_rewards(self) -> list[float] | None:
        """A's hand reward per hand for each deal pair, its two games averaged (see ``paired_reward``)."""
        by_pair: dict[int, list[float]] = {}
        for game in self.games:
            if game.reward_a is None:
                return None
            by_pair.setdefault(game.index // 2, []).append(game.reward_a)
        return [sum(rewards) / len(rewards) for rewards in by_pair.values()]

    def to_dict(self) -> dict[str, Any]:
        """The fields, plus ``paired_reward`` (derived from the games, for readers of the JSON)."""
        data = asdict(self)
        reward = self.paired_reward
        data["paired_reward"] = None if reward is None else asdict(reward)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvalResult:
        data = dict(data)
        data.pop("paired_reward", None)
        data["reports"] = tuple(AgentReport.from_dict(r) for r in data["reports"])
        data["games"] = tuple(GameOutcome(**{**g, "a_seats": tuple(g["a_seats"])}) for g in data["games"])
        return cls(**data)

    def results_only(self) -> dict[str, Any]:
        """``to_dict()`` without wall-clock measurements: equal for equal seeds, whatever the machine or workers."""
        data = self.to_dict()
        del data["wall_seconds"], data["code_version"]
        for report in data["reports"]:
            for key in AgentReport.TIMING_FIELDS:
                del report[key]
        return data

    def markdown(self) -> str:
        """A title line and a markdown table, one row per agent."""
        unit = "round" if self.preset in smear_env.OTHER_GAMES else "hand"
        title = (
            f"**{self.agent_a} vs {self.agent_b}** on `{self.preset}`: {self.matches} games "
            f"({self.matches // 2} duplicate deal pairs), seed {self.seed}; {self.stopped} stopped after "
            f"{self.max_hands} deal{'s' * (self.max_hands != 1)} (counted as draws); {self.wall_seconds:.1f} s"
        )
        header = (
            f"| agent | games | W-D-L | win rate [95% CI] | points/{unit} [95% CI] | bid rate | made rate "
            "| mean bid | decisions/s | median ms |"
        )
        rows = [_markdown_row(r) for r in self.reports]
        lines = [title, "", header, "|" + "---|" * 10, *rows]
        reward = self.paired_reward
        if reward is not None:
            lines += [
                "",
                f"{self.agent_a}'s hand reward per hand (its side's score change minus {self.agent_b}'s, "
                f"each deal pair's games averaged): {reward.as_text()} over {reward.n} pairs",
            ]
        return "\n".join(lines)


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _speed(per_second: float) -> str:
    """Decisions per second: thousands separators when large, three significant digits when slow (search)."""
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.3g}"


def _markdown_row(r: AgentReport) -> str:
    points = "-" if r.points_per_hand is None else r.points_per_hand.as_text()
    speed = "-" if r.decisions_per_s is None else _speed(r.decisions_per_s)
    cells = [
        f"{r.agent} ({r.role})",
        str(r.games),
        f"{r.wins}-{r.draws}-{r.losses}",
        r.win_rate.as_text(),
        points,
        _fmt(r.bid_rate),
        _fmt(r.made_rate),
        _fmt(r.mean_bid, 2),
        speed,
        _fmt(r.median_ms, 4),
    ]
    return "| " + " | ".join(cells) + " |"


# ---------------------------------------------------------------------- the API
def check_preset(preset: str) -> None:
    """Fail early, naming the presets, when ``preset`` is unknown."""
    presets = smear_env.list_presets()
    if preset not in presets:
        close = difflib.get_close_matches(preset, presets, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown preset {preset!r}{hint}: expected one of {', '.join(presets)}")


def check_setup(agents: Sequence[str], preset: str, matches: int, rule_overrides: dict[str, Any]) -> None:
    """Validate everything a worker would trip over, in this process, with clear messages."""
    check_preset(preset)
    if matches < 2 or matches % 2:
        raise ValueError(
            f"matches must be a positive even number (each deal is played twice, seats swapped), got {matches}"
        )
    env = smear_env.raw_env(preset=preset, **rule_overrides)  # unknown or impossible rule options raise here
    for spec in agents:
        make_agent(spec, rules_for_agents(env, preset, rule_overrides), 0)  # unknown names raise, listing known ones


def evaluate(
    agent_a: str,
    agent_b: str,
    preset: str,
    matches: int,
    seed: int,
    workers: int | None = None,
    max_hands: int = 200,
    rule_overrides: dict[str, Any] | None = None,
    progress: bool = False,
) -> EvalResult:
    """Play ``matches`` games (``matches / 2`` duplicate deal pairs) of ``agent_a`` against ``agent_b``.

    Agents are registry names (:func:`agents.registry.agent_names`). ``workers``
    processes (default: every core) share the deal pairs; the results do not
    depend on it. A game not over after ``max_hands`` deals is stopped and
    counted as a draw. ``progress`` shows a tqdm bar on stderr.
    """
    overrides = dict(rule_overrides or {})
    check_setup([agent_a, agent_b], preset, matches, overrides)
    max_hands = as_int(max_hands, "max_hands", 1)
    config = MatchConfig(agent_a, agent_b, preset, seed, max_hands, overrides)
    workers = (os.cpu_count() or 1) if workers is None else as_int(workers, "workers (processes)", 1)
    chunks = _chunks(matches // 2, workers)
    start = time.perf_counter()
    results = sorted(_run_chunks(config, chunks, min(workers, len(chunks)), progress), key=lambda r: r[0])
    wall = time.perf_counter() - start
    tallies = [Tally(), Tally()]
    games: list[GameOutcome] = []
    for _, outcomes, chunk_tallies in results:
        games.extend(outcomes)
        for total, part in zip(tallies, chunk_tallies):
            total.merge(part)
    reports = (AgentReport.from_tally(agent_a, A, tallies[A]), AgentReport.from_tally(agent_b, B, tallies[B]))
    stopped = sum(g.stopped for g in games)
    return EvalResult(
        agent_a, agent_b, preset, matches, seed, max_hands, overrides, stopped, wall, reports, tuple(games),
        code_version(),
    )


# ---------------------------------------------------------------------- command line
def parse_rule(text: str) -> tuple[str, Any]:
    """``key=value`` with a JSON value (``target_score=21``, ``moon_bid=true``) or else a plain string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value.strip()


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="smear-rl evaluate",
        description="Duplicate-format evaluation of two agents, or a rating ladder of several.\n\n"
        + __doc__.split("\n\n", 1)[1].split("Examples::", 1)[0],
        epilog="examples:" + __doc__.split("Examples::", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "agents", nargs="*", help="agent A and agent B (names, name:key=value,... with options, checkpoints)"
    )
    parser.add_argument("--ladder", nargs="+", metavar="AGENT", help="rate these agents, every pair in duplicate")
    parser.add_argument("--preset", default="ten_point", help="game preset (smear_env.list_presets())")
    parser.add_argument("--matches", type=int, default=200, help="games per evaluation (per pair in a ladder); even")
    parser.add_argument("--seed", type=int, default=0, help="base seed of deals and agents")
    parser.add_argument("--workers", type=int_at_least(1), default=None, help="processes (default: every core)")
    parser.add_argument(
        "--max-hands", type=int_at_least(1), default=200, help="deals after which a game is stopped as a draw"
    )
    parser.add_argument("--rule", type=parse_rule, action="append", default=[], help="rule override key=value")
    parser.add_argument("--json", type=Path, help="write the full result as JSON here")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if bool(args.ladder) == bool(args.agents) or (args.agents and len(args.agents) != 2):
        parser.error("give two agents (A B) or --ladder with two or more agents")
    common = {
        "preset": args.preset,
        "seed": args.seed,
        "workers": args.workers,
        "max_hands": args.max_hands,
        "rule_overrides": dict(args.rule),
        "progress": not args.no_progress,
    }
    try:
        if args.json:  # before playing: an unwritable path would otherwise lose the whole evaluation at its end
            check_writable_file(args.json, "--json file")
        if args.ladder:
            from training.ladder import play_ladder

            result: Any = play_ladder(args.ladder, matches_per_pair=args.matches, **common)
        else:
            result = evaluate(*args.agents, matches=args.matches, **common)
    except ValueError as err:
        parser.error(str(err))
    print(result.markdown())
    if args.json:
        args.json.write_text(json.dumps(result.to_dict(), indent=1) + "\n")


if __name__ == "__main__":
    main()
