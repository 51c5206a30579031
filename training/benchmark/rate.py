"""Rating one agent on a task: it plays the task's panel under the protocol, and its strength is read on the scale.

The agent plays each panel member on the scale the protocol's number of duplicate
games, on the task's deals (:func:`training.evaluate.evaluate`); its Bradley-Terry
strength is fitted against the members' published strengths, held fixed
(:func:`training.benchmark.bradley_terry.fit_one`), and put on the scale (random = 0,
rule = 1000). The interval is the agent's own sampling error over deal pairs; the
scale itself is a fixed definition, not an estimate, so it adds none.

Beside the rating: each match-up's win rate (95% Wilson interval), the points the
agent's side took a hand, its hand reward a hand (its side's score change minus the
panel member's, a deal pair's games averaged, with a 95% interval over pairs), and the
mean time of its decisions against the protocol's limit (an agent over it is flagged:
its rating does not compare with those within it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.external import in_process
from agents.registry import make_agent
from smear_env.version import code_version
from training.benchmark.bradley_terry import Strength, fit_one, pair_outcomes
from training.benchmark.scale import Scale, deal_pair_scores, load_scale, panel_members, write_json
from training.benchmark.tasks import Task
from training.evaluate import EvalResult, evaluate, report
from training.evaluate.run import weights_of
from training.stats import Estimate


@dataclass(frozen=True)
class MatchUp:
    """The rated agent against one panel member."""

    opponent: str
    opponent_rating: float
    games: int
    wins: int
    draws: int
    losses: int
    stopped: int  # games stopped after the protocol's max_hands (counted as draws)
    win_rate: Estimate
    points_per_hand: Estimate | None  # the points the rated agent's side took a hand
    hand_reward: Estimate | None  # its score change a hand minus the member's, over deal pairs
    pair_scores: tuple[float, ...]  # its match score summed over each deal pair's two games: what the fit reads

    @classmethod
    def from_result(cls, result: EvalResult, opponent_rating: float) -> MatchUp:
        a = result.a
        return cls(result.agent_b, opponent_rating, result.matches, a.wins, a.draws, a.losses, result.stopped,
                   a.win_rate, a.points_per_hand, result.paired_reward, deal_pair_scores(result))  # fmt: skip

    def cells(self) -> list[str]:
        return [
            self.opponent,
            f"{self.opponent_rating:.0f}",
            str(self.games),
            f"{self.wins}-{self.draws}-{self.losses}",
            self.win_rate.as_text(),
            "-" if self.points_per_hand is None else self.points_per_hand.as_text(2),
            "-" if self.hand_reward is None else self.hand_reward.as_text(2),
        ]


@dataclass(frozen=True)
class Rating:
    """An agent's rating on a task, with what it came from; ``to_dict``/``from_dict`` round-trip through JSON."""

    name: str  # what tables call the agent
    agent: str  # the spec it was built from
    weights: str | None  # its network's digest (weights_of), None for a bot or an outside policy
    task: str
    task_version: int
    env_id: str
    rating: float
    low: float
    high: float
    strength: float  # log-odds, random's 0
    match_ups: tuple[MatchUp, ...]
    decisions: int
    mean_ms: float  # mean milliseconds a decision, over every match-up
    max_decision_ms: float  # the protocol's limit on that mean
    scale_published: str
    not_on_scale: dict[str, str]  # panel members the scale has no strength for, and why (not played)
    code_version: str
    wall_seconds: float
    command: str = ""  # the command line that made it, where one did
    games_fraction: float = 1.0  # below 1: each match-up played this share of the protocol's games (not its rating)
    scale_id: str = ""  # the id of the scale it was read on (Scale.scale_id); older files: none

    @property
    def within_time_limit(self) -> bool:
        return self.mean_ms <= self.max_decision_ms

    @property
    def reduced(self) -> bool:
        """Whether fewer games than the protocol's were played: a wider interval, not the protocol's rating."""
        return self.games_fraction != 1.0

    def reduced_note(self) -> str:
        """How a reduced rating says so (empty for the protocol's)."""
        return f"reduced: {self.games_fraction:.0%} of the protocol's games" if self.reduced else ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        data = dict(data)
        ups = []
        for up in data["match_ups"]:
            up = dict(up)
            for key in ("win_rate", "points_per_hand", "hand_reward"):
                up[key] = None if up[key] is None else Estimate(**up[key])
            ups.append(MatchUp(**{**up, "pair_scores": tuple(up["pair_scores"])}))
        data["match_ups"] = tuple(ups)
        return cls(**data)

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_dict())

    def rating_text(self) -> str:
        return f"{self.rating:.0f} [{self.low:.0f}, {self.high:.0f}]"

    def markdown(self) -> str:
        """The rating line, one row per panel member, and the decision time against the limit."""
        title = (
            f"**{self.name}** on task `{self.task}` v{self.task_version} ({self.env_id}): rating "
            f"**{self.rating_text()}** (95% CI) on the scale published {self.scale_published}, id "
            f"`{self.scale_id or 'unrecorded'}` (random = 0, rule = 1000)"
        )
        if self.reduced:
            title += f"; **{self.reduced_note()}**, so not the protocol's rating"
        header = ["opponent", "its rating", "games", "W-D-L", "win rate [95% CI]", "points/hand [95% CI]",
                  "hand reward/hand [95% CI]"]  # fmt: skip
        lines = [title, "", *report.table(header, (m.cells() for m in self.match_ups)), ""]
        verdict = "within" if self.within_time_limit else "OVER: this rating does not compare with those within"
        lines.append(
            f"{self.decisions:,} decisions, {self.mean_ms:.3g} ms each on average (the protocol's limit: "
            f"{self.max_decision_ms:g} ms, {verdict}); {sum(m.stopped for m in self.match_ups)} games stopped "
            f"(counted as draws); {self.wall_seconds / 60:.1f} minutes; {self.code_version}"
        )
        lines += [f"- {agent}: not on the scale, not played ({why})" for agent, why in self.not_on_scale.items()]
        return "\n".join(lines)


def check_panel(task: Task, scale: Scale) -> dict[str, str]:
    """``ValueError`` when a member's network changed since the scale was fitted; members it lacks, with why."""
    present, absent = panel_members(task)
    changed = [
        f"{m.agent} (now {present.get(m.agent)}, fitted with {m.weights})"
        for m in scale.members
        if m.agent not in present or present[m.agent] != m.weights
    ]
    if changed:
        raise ValueError(
            f"task {task.name!r}: the panel is not the one its scale was fitted with: {'; '.join(changed)}; "
            "fit the scale again (smear-rl rate --fit-scale)"
        )
    missing = dict(absent)
    on_scale = {m.agent for m in scale.members}
    missing |= {spec: "it plays these rules now, but the scale was fitted without it" for spec in present
                if spec not in on_scale}  # fmt: skip
    return missing


def strength_of(match_ups: tuple[MatchUp, ...], scale: Scale) -> Strength:
    """The rated agent's strength from its match-ups' deal pairs, the scale's members held fixed."""
    outcomes = [o for m in match_ups for o in pair_outcomes("rated", m.opponent, m.pair_scores)]
    return fit_one(outcomes, scale.strengths())


def reduced_games(games: int, fraction: float) -> int:
    """A share of a match-up's games, rounded up to whole deal pairs (each deal is played twice)."""
    if not 0 < fraction <= 1:
        raise ValueError(f"a share of the protocol's games must be in (0, 1], not {fraction!r}")
    return games if fraction == 1 else 2 * math.ceil(games * fraction / 2)


def rate(
    agent: str | Any,
    task: Task,
    workers: int | None = None,
    progress: bool = False,
    name: str | None = None,
    on_match_up: Callable[[EvalResult], None] | None = None,
    games_fraction: float = 1.0,
) -> Rating:
    """Rate ``agent`` on ``task``; see the module doc.

    ``agent`` is any agent spec (a name, a checkpoint, an ``.npz``, a policy's spec), or a
    policy object of this process: a function ``(observation, action_mask) -> action`` or an
    object with SB3's ``predict``, played in this process alone (``workers`` is then 1).
    ``games_fraction`` below 1 plays that share of each match-up's games (:func:`reduced_games`),
    where the protocol's cost too much: the rating records it and says it is not the protocol's.
    """
    reduced_games(2, games_fraction)  # refuses a share outside (0, 1] before anything is built
    if not isinstance(agent, str):
        with in_process(agent) as spec:
            return _rate(spec, task, 1, progress, name or getattr(agent, "__name__", type(agent).__name__),
                         on_match_up, games_fraction)  # fmt: skip
    return _rate(agent, task, workers, progress, name, on_match_up, games_fraction)


def _rate(
    agent: str,
    task: Task,
    workers: int | None,
    progress: bool,
    name: str | None,
    on_match_up: Callable[[EvalResult], None] | None,
    games_fraction: float = 1.0,
) -> Rating:
    task.check_env()
    scale = load_scale(task)
    not_on_scale = check_panel(task, scale)
    weights = weights_of(make_agent(agent, task.game_rules(), 0))  # an agent that cannot play fails before any game
    version = code_version()
    began = time.perf_counter()
    results = []
    for member in scale.members:
        games = reduced_games(task.panel[member.agent], games_fraction)
        result = evaluate(agent, member.agent, task.preset, games, task.seed, workers, task.max_hands, task.rules,
                          progress)  # fmt: skip
        if on_match_up is not None:
            on_match_up(result)
        results.append(result)
    match_ups = tuple(MatchUp.from_result(r, scale.member(r.agent_b).rating) for r in results)
    strength = strength_of(match_ups, scale)
    decisions = sum(r.a.decisions for r in results)
    seconds = sum(r.a.act_seconds for r in results)
    return Rating(
        name=name or agent,
        agent=agent,
        weights=weights,
        task=task.name,
        task_version=task.version,
        env_id=task.env_id,
        rating=scale.rating(strength.value),
        low=scale.rating(strength.low),
        high=scale.rating(strength.high),
        strength=strength.value,
        match_ups=match_ups,
        decisions=decisions,
        mean_ms=1000 * seconds / max(decisions, 1),
        max_decision_ms=task.max_decision_ms,
        scale_published=scale.published,
        not_on_scale=not_on_scale,
        code_version=version,
        wall_seconds=time.perf_counter() - began,
        games_fraction=games_fraction,
        scale_id=scale.scale_id(),
    )
