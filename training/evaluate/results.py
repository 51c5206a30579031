"""The result of an evaluation: one :class:`AgentReport` per agent and every game, as data and as JSON.

``EvalResult.to_dict`` / ``from_dict`` round-trip through JSON (``smear-rl
evaluate --json``, :mod:`training.pool`); ``results_only`` leaves out what depends
on the machine (wall and decision times, the code version), so two runs with one
seed compare equal whatever the machine or the number of workers.

A results file (:func:`write_results`, :func:`read_results`) holds one result, as
``--json`` writes it, or several (the seeds of one match-up, as ``smear-rl pool --save``
gathers them), and is gzip-compressed when its name ends in ``.gz``: a run's games take
most of its bytes, and the project keeps hundreds of runs.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import smear_env
from training.evaluate import checks, report
from training.evaluate.lineups import ROLE_NAMES, A, B
from training.evaluate.tally import GameOutcome, Tally
from training.stats import Estimate, mean_interval, win_rate


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
    def from_dict(cls, data: dict[str, Any], where: str = "report") -> AgentReport:
        """A report as ``to_dict`` wrote it; ``ValueError`` naming the field (under ``where``) that is not so."""
        data = checks.checked(data, where, _REPORT_CHECKS)
        for key in ("win_rate", "points_per_hand"):
            value = data[key]
            data[key] = None if value is None else Estimate(**checks.checked(value, f"{where}.{key}", _ESTIMATE))
        return cls(**data)

    def cells(self) -> list[str]:
        """This agent's row of the evaluation table (:meth:`EvalResult.markdown`)."""
        points = "-" if self.points_per_hand is None else self.points_per_hand.as_text()
        return [
            f"{self.agent} ({self.role})",
            str(self.games),
            f"{self.wins}-{self.draws}-{self.losses}",
            self.win_rate.as_text(),
            points,
            report.number(self.bid_rate),
            report.number(self.made_rate),
            report.number(self.mean_bid, 2),
            report.speed(self.decisions_per_s),
            report.number(self.median_ms, 4),
        ]


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
    start: str = "new"  # where the games started: new matches, or "late" ones (games.start_scores); older: new
    weights: tuple[str | None, ...] = (None, None)  # A's and B's network (run.weights_of), None for bots; older: none

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
        """A result as ``to_dict`` wrote it; ``ValueError`` naming a field that is not, its value and what was expected.

        Every field's type is checked (a seed of ``"0"`` would otherwise pass for another run's seed in ``pool``).
        """
        data = dict(data)
        data.pop("paired_reward", None)
        data = checks.checked(data, "", _RESULT_CHECKS)
        data["reports"] = tuple(AgentReport.from_dict(r, f"reports[{i}]") for i, r in enumerate(data["reports"]))
        data["games"] = tuple(GameOutcome.from_dict(g, f"games[{i}]") for i, g in enumerate(data["games"]))
        if "weights" in data:
            data["weights"] = tuple(data["weights"])
        return cls(**data)

    def results_only(self) -> dict[str, Any]:
        """``to_dict()`` without wall-clock measurements: equal for equal seeds, whatever the machine or workers."""
        data = self.to_dict()
        del data["wall_seconds"], data["code_version"]
        for agent in data["reports"]:
            for key in AgentReport.TIMING_FIELDS:
                del agent[key]
        return data

    def text(self) -> str:
        """The report for a terminal: a title, an aligned table, the hand reward in words and what each column means.

        Narrower than :meth:`markdown`: a path is shown by its file name (the title names it whole),
        the bidding columns only for games with bids, and time as milliseconds a decision.
        """
        bids = self.a.bid_rate is not None
        header = ["agent", "games", "W-D-L", "win rate [95% CI]", f"points/{self._unit()} [95% CI]"]
        header += ["bids", "made", "mean bid"] * bids + ["ms/decision"]
        rows = [report.text_cells(r, bids) for r in self.reports]
        lines = [*report.wrapped(f"{self._title()}."), "", *report.aligned(header, rows), ""]
        reward = self.paired_reward
        if reward is not None:
            lines += report.wrapped(
                f"Hand reward: {reward.value:+.2f} points a hand for {self.agent_a} over {self.agent_b} "
                f"[{reward.low:+.2f}, {reward.high:+.2f}] (each side's score change, sets counted; the two games of "
                f"each deal averaged, over {reward.n} deals)."
            )
            lines.append("")
        return "\n".join(lines + report.legend(bids, self._unit()))

    def _unit(self) -> str:
        return "round" if self.preset in smear_env.OTHER_GAMES else "hand"

    def _title(self) -> str:
        plural = "s" * (self.max_hands != 1)
        title = (
            f"{self.agent_a} (A) vs {self.agent_b} (B) on {self.preset}: {self.matches} games "
            f"({self.matches // 2} deals, each played twice with the seats swapped), seed {self.seed}, "
            f"{self.wall_seconds:.1f} s; {self.stopped} stopped after {self.max_hands} deal{plural} (draws)"
        )
        return title + ("; every match started late" if self.start == "late" else "")

    def markdown(self) -> str:
        """A title line and a markdown table, one row per agent."""
        unit = "round" if self.preset in smear_env.OTHER_GAMES else "hand"
        title = (
            f"**{self.agent_a} vs {self.agent_b}** on `{self.preset}`: {self.matches} games "
            f"({self.matches // 2} duplicate deal pairs), seed {self.seed}; {self.stopped} stopped after "
            f"{self.max_hands} deal{'s' * (self.max_hands != 1)} (counted as draws); {self.wall_seconds:.1f} s"
        )
        if self.start == "late":
            title += "; every match started late (each team two hands or less from the target)"
        header = ["agent", "games", "W-D-L", "win rate [95% CI]", f"points/{unit} [95% CI]", "bid rate", "made rate",
                  "mean bid", "decisions/s", "median ms"]  # fmt: skip
        lines = [title, "", *report.table(header, (r.cells() for r in self.reports))]
        reward = self.paired_reward
        if reward is not None:
            lines += [
                "",
                f"{self.agent_a}'s hand reward per hand (its side's score change minus {self.agent_b}'s, "
                f"each deal pair's games averaged): {reward.as_text()} over {reward.n} pairs",
            ]
        return "\n".join(lines)


# What each field of a results file holds (older files lack the fields with defaults).
_ESTIMATE_OR_NONE: checks.Check = (
    lambda v: v is None or isinstance(v, dict),
    "an object (value, low, high, n) or null",
)
_ESTIMATE = checks.field_checks(Estimate, value=checks.NUMBER, low=checks.NUMBER, high=checks.NUMBER, n=checks.COUNT)
_REPORT_CHECKS = checks.field_checks(
    AgentReport,
    agent=checks.STR,
    role=(lambda v: v in ROLE_NAMES, f"one of {', '.join(map(repr, ROLE_NAMES))}"),
    **dict.fromkeys(("games", "wins", "draws", "losses", "hands", "decisions"), checks.COUNT),
    win_rate=(lambda v: isinstance(v, dict), "an object (value, low, high, n)"),
    points_per_hand=_ESTIMATE_OR_NONE,
    **dict.fromkeys(("bid_rate", "made_rate", "mean_bid", "decisions_per_s", "median_ms"), checks.NUMBER_OR_NONE),
    act_seconds=checks.NUMBER,
)
_RESULT_CHECKS = checks.field_checks(
    EvalResult,
    agent_a=checks.STR,
    agent_b=checks.STR,
    preset=checks.STR,
    matches=checks.COUNT,
    seed=checks.INT,
    max_hands=checks.COUNT,
    rule_overrides=(
        lambda v: isinstance(v, dict) and all(isinstance(k, str) for k in v),
        "an object of rule options by name",
    ),
    stopped=checks.COUNT,
    wall_seconds=checks.NUMBER,
    reports=(lambda v: isinstance(v, list | tuple) and len(v) == 2, "a list of two reports (A's, B's)"),
    games=(lambda v: isinstance(v, list | tuple), "a list of games"),
    code_version=checks.STR,
    start=(lambda v: v in ("new", "late"), "'new' or 'late'"),
    weights=(
        lambda v: isinstance(v, list | tuple) and len(v) == 2 and all(w is None or isinstance(w, str) for w in v),
        "a list of two file names or nulls (A's, B's)",
    ),
)


def write_results(path: str | Path, results: Sequence[EvalResult]) -> Path:
    """Write ``results`` to ``path``: one as a JSON object, several as a list; gzip-compressed if it ends in ``.gz``.

    Plain JSON is indented for reading; compressed JSON is compact, with no time stamp in the
    gzip header, so the same results always make the same bytes.
    """
    path = Path(path)
    data: Any = results[0].to_dict() if len(results) == 1 else [r.to_dict() for r in results]
    if path.suffix == ".gz":
        text = json.dumps(data, separators=(",", ":")) + "\n"
        path.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
    else:
        path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def read_results(path: str | Path) -> list[EvalResult]:
    """Every result in a file :func:`write_results` wrote (``smear-rl evaluate --json``, ``pool --save``).

    ``ValueError`` naming the file and what is wrong with it when it cannot be read or is not such a file.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror}") from err
    try:
        data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)  # gzip's magic bytes
        items = data if isinstance(data, list) else [data]
        if not items or not all(isinstance(item, dict) for item in items):
            raise ValueError(f"it holds a JSON {type(data).__name__}, not an object or a list of objects")
        return [EvalResult.from_dict(item) for item in items]
    except KeyError as err:
        problem = f"missing field {err}"
    except (ValueError, TypeError, AttributeError, OSError, EOFError) as err:
        problem = str(err)
    raise ValueError(f"{path}: not an evaluation result written by smear-rl evaluate --json ({problem})")
