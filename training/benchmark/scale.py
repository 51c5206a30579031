"""A task's published rating scale: the panel's strengths, fitted once over the panel's own games.

Why published once: a rating compares with another only if the scale under both stayed
put. So the panel (random, rule, search, the shipped agent) plays every pair once under
the task's protocol, the Bradley-Terry strengths of those games are fitted
(:func:`training.benchmark.bradley_terry.fit_panel`), and the result is written beside
the task file (``configs/tasks/<task>.scale.json``) and committed. A rating then fits the
rated agent's strength alone against those fixed strengths, on the same scale every day.

The scale is linear in log-odds and pinned at two ends: random = 0 and rule = 1000, so
``rating = 1000 * s / s_rule`` with random's strength 0. A difference of ``d`` rating points
is ``d * s_rule / 1000`` in log-odds: the file records ``s_rule`` as ``unit`` ("1000
points"), so a rating difference converts into an expected match score.

The file names what the scale was fitted with: each member's agent spec and, for a
network, the digest of its weights (``training.evaluate.run.weights_of``), and the protocol
(the preset and house rules, the panel's game counts, the decision time limit). A rating
refuses a panel whose networks changed since (a new shipped agent needs a new scale) and a
task file whose protocol is not the scale's, and notes a member the scale has no strength
for (the shipped agent of rules no agent played when the scale was fitted). Each scale has an
id, a digest of its file's content (:meth:`Scale.scale_id`): a rating records the id of the
scale it was read on, and the leaderboard refuses a rating of another scale, so ratings in
one table, or cited side by side as "task v1, scale <id>", were read on one scale.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import itertools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.registry import make_agent
from smear_env.version import SOURCE_ROOT, code_digest, code_version
from training.benchmark.bradley_terry import fit_panel, pair_outcomes
from training.benchmark.tasks import ANCHORS, NEURAL, Task, tasks_dir
from training.evaluate import EvalResult, evaluate, report
from training.evaluate.run import weights_of

RANDOM, RULE = ANCHORS
SCALE_POINTS = 1000.0  # rule's rating: the scale's unit


@dataclass(frozen=True)
class Member:
    """One panel member on the scale: its strength (log-odds, random's 0), rating and the rating's 95% interval."""

    agent: str
    weights: str | None  # its network's digest (weights_of), None for a bot without one
    strength: float
    rating: float
    low: float
    high: float


@dataclass(frozen=True)
class PairRecord:
    """The evidence: one pair's games in the panel's round robin, from ``a``'s side.

    ``pair_scores`` holds ``a``'s match score summed over the two games of each deal pair
    (0 to 2), in order: all the fit needs (its strengths and their intervals over deal
    pairs), so the published strengths can be refitted from the file alone.
    """

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    stopped: int
    pair_scores: tuple[float, ...]
    played_by: str = ""  # the code version that played it, where not the scale's own (a pair kept from a scale before)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PairRecord:
        return cls(**{**data, "pair_scores": tuple(data["pair_scores"])})

    @classmethod
    def from_result(cls, result: EvalResult) -> PairRecord:
        a = result.a
        return cls(result.agent_a, result.agent_b, result.matches, a.wins, a.draws, a.losses, result.stopped,
                   deal_pair_scores(result))  # fmt: skip


def deal_pair_scores(result: EvalResult) -> tuple[float, ...]:
    """A's match score summed over the two games of each deal pair of an evaluation, in pair order."""
    sums: dict[int, float] = {}
    for game in result.games:
        sums[game.index // 2] = sums.get(game.index // 2, 0.0) + game.score_a
    return tuple(sums[k] for k in sorted(sums))


@dataclass(frozen=True)
class Scale:
    """A task's published scale (see the module doc); ``to_dict``/``from_dict`` round-trip through its JSON file."""

    task: str
    task_version: int
    env_id: str
    seed: int
    max_hands: int
    members: tuple[Member, ...]
    absent: dict[str, str]  # panel members with no strength, and why
    pairs: tuple[PairRecord, ...]
    unit: float  # rule's strength in log-odds: what 1000 rating points are
    code_version: str
    published: str  # the date it was fitted, YYYY-MM-DD
    preset: str  # the task's rules it was fitted on: the preset ...
    rules: dict[str, Any]  # ... and the house rules on top
    panel: dict[str, int]  # the protocol's duplicate games against each member
    max_decision_ms: float  # the protocol's limit on the rated agent's mean decision time

    def scale_id(self) -> str:
        """A digest of the scale's content: the same for the same file, whatever its layout; cited with ratings."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def strengths(self) -> dict[str, float]:
        return {m.agent: m.strength for m in self.members}

    def rating(self, strength: float) -> float:
        """A strength (log-odds, random's 0) on this scale."""
        return SCALE_POINTS * strength / self.unit

    def member(self, agent: str) -> Member:
        return next(m for m in self.members if m.agent == agent)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scale:
        data = dict(data)
        data["members"] = tuple(Member(**m) for m in data["members"])
        data["pairs"] = tuple(PairRecord.from_dict(p) for p in data["pairs"])
        return cls(**data)

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_dict())

    def markdown(self) -> str:
        """The members and their ratings, then the pairs' results."""
        title = (
            f"**Scale of task `{self.task}` v{self.task_version}** ({self.env_id}), id `{self.scale_id()}`, fitted "
            f"{self.published} ({self.code_version}) on seed {self.seed}: random = 0, rule = 1000; 1000 points = "
            f"{self.unit:.3f} log-odds"
        )
        rows = ([m.agent, f"{m.rating:.0f} [{m.low:.0f}, {m.high:.0f}]", f"{m.strength:.3f}"] for m in self.members)
        lines = [title, "", *report.table(["agent", "rating [95% CI]", "strength (log-odds)"], rows), ""]
        lines += [f"- {p.a} vs {p.b}: {p.games} games, {p.wins}-{p.draws}-{p.losses}"
                  + (f" (played by {p.played_by}, kept from the scale before)" if p.played_by else "")
                  for p in self.pairs]  # fmt: skip
        lines += [f"- {agent}: not on the scale ({why})" for agent, why in self.absent.items()]
        return "\n".join(lines)


def write_json(path: str | Path, data: dict[str, Any]) -> None:
    """``data`` as indented JSON with each list of numbers on one line (the deal pairs' scores stay compact)."""
    text = json.dumps(data, indent=1)
    text = re.sub(r"\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text)  # fmt: skip
    Path(path).write_text(text + "\n")


PROTOCOL_FIELDS = ("preset", "rules", "panel", "max_decision_ms")  # what a scale records of the task's protocol


def load_scale(task: Task) -> Scale:
    """The task's published scale; ``ValueError`` when there is none or it was fitted for another task or version."""
    path = task.scale_path
    if not path.is_file():
        raise ValueError(
            f"task {task.name!r} has no published scale ({str(path)!r} is missing): fit one with "
            f"smear-rl rate --fit-scale --task {task.name if task.path.parent == tasks_dir() else task.path}"
        )
    try:
        data = json.loads(path.read_text())
        missing = [name for name in PROTOCOL_FIELDS if isinstance(data, dict) and name not in data]
        if missing:
            raise ValueError(f"scale file {str(path)!r} was fitted before scales recorded their protocol "
                             f"({missing[0]} and the rest): fit the scale again (smear-rl rate --fit-scale "
                             f"--task {task.name})")  # fmt: skip
        scale = Scale.from_dict(data)
    except (OSError, json.JSONDecodeError, TypeError, KeyError, AttributeError) as err:
        raise ValueError(f"scale file {str(path)!r} cannot be read: {err!r}") from None
    fitted = (scale.task, scale.task_version, scale.env_id, scale.seed, scale.max_hands)
    wanted = (task.name, task.version, task.env_id, task.seed, task.max_hands)
    if fitted != wanted:
        raise ValueError(
            f"scale file {str(path)!r} was fitted for task {fitted[0]!r} v{fitted[1]} on {fitted[2]} (seed "
            f"{fitted[3]}, {fitted[4]} hands) but the task is {wanted[0]!r} v{wanted[1]} on {wanted[2]} (seed "
            f"{wanted[3]}, {wanted[4]} hands): fit the scale again"
        )
    for name in PROTOCOL_FIELDS:
        value = getattr(task, name)
        if json.loads(json.dumps(value)) != json.loads(json.dumps(getattr(scale, name))):
            raise ValueError(
                f"scale file {str(path)!r} was fitted with {name} {getattr(scale, name)!r}, and the task file "
                f"{str(task.path)!r} says {value!r}: a task whose protocol changed is another task (a new version, "
                "a new scale)"
            )
    return scale


def panel_members(task: Task) -> tuple[dict[str, str | None], dict[str, str]]:
    """The panel members that play the task's rules (spec -> weights digest), and those that cannot, with why.

    Only the shipped agent may be missing (no agent plays these house rules yet); any
    other member that cannot be built is an error in the task.
    """
    rules = task.game_rules()
    present: dict[str, str | None] = {}
    absent: dict[str, str] = {}
    for spec in task.panel:
        try:
            present[spec] = weights_of(make_agent(spec, rules, 0))
        except ValueError as err:
            if spec.partition(":")[0] != NEURAL:
                raise ValueError(f"task {task.name!r}: panel member {spec!r} cannot play its rules: {err}") from None
            where = str(err).replace(f"{SOURCE_ROOT}/", "")  # the file as the repository names it, on any machine
            absent[spec] = f"no shipped agent plays these rules yet: {where}"
    return present, absent


def fit_scale(
    task: Task,
    workers: int | None = None,
    progress: bool = False,
    on_pair: Callable[[EvalResult], None] | None = None,
    keep: Path | None = None,
    reuse: Scale | None = None,
) -> Scale:
    """Play the panel's round robin under the task's protocol and fit its scale (see the module doc).

    Each pair plays the smaller of its two members' game counts, on the task's deals.
    ``on_pair`` is called with each pair's evaluation as it ends (to print it). With
    ``keep``, each finished pair is written into that folder and a pair found there, played
    under the same protocol by the same networks and code, is not played again: a round
    robin of an hour that is stopped resumes where it was. With ``reuse`` (the task's published
    scale), a pair that scale played with the same two networks is taken from it rather than
    played again, marked with the code version that played it: adding a member to a panel
    (a shipped agent for rules that had none) plays only the new member's pairs.
    """
    task.check_env()
    present, absent = panel_members(task)
    version = code_version()
    pairs = []
    for a, b in itertools.combinations(present, 2):
        games = min(task.panel[a], task.panel[b])
        key = _pair_key(task, a, b, games, present)
        record = _published_pair(reuse, a, b, games, present) or _kept_pair(keep, key)
        if record is None:
            result = evaluate(a, b, task.preset, games, task.seed, workers, task.max_hands, task.rules, progress)
            if on_pair is not None:
                on_pair(result)
            record = PairRecord.from_result(result)
            _keep_pair(keep, key, record)
        pairs.append(record)
    members, unit = fit_members(pairs, present)
    return Scale(task.name, task.version, task.env_id, task.seed, task.max_hands, members, absent, tuple(pairs), unit,
                 version, datetime.date.today().isoformat(), task.preset, dict(task.rules), dict(task.panel),
                 task.max_decision_ms)  # fmt: skip


def _pair_key(task: Task, a: str, b: str, games: int, weights: dict[str, str | None]) -> dict:
    """What a kept pair must match to be reused: the task's protocol, the two members and their networks, the code.

    The code by its digest, not its commit: a commit of docs or results keeps the pairs played.
    """
    return {"task": task.name, "task_version": task.version, "env_id": task.env_id, "seed": task.seed,
            "max_hands": task.max_hands, "rules": task.rules, "a": a, "b": b, "games": games,
            "weights": [weights[a], weights[b]], "code_digest": code_digest()}  # fmt: skip


def _published_pair(
    reuse: Scale | None, a: str, b: str, games: int, weights: dict[str, str | None]
) -> PairRecord | None:
    """The pair as ``reuse`` (a published scale of the same task) played it, if its two members' networks are these."""
    if reuse is None:
        return None
    digests = {m.agent: m.weights for m in reuse.members}
    if a not in digests or b not in digests or (digests[a], digests[b]) != (weights[a], weights[b]):
        return None
    for pair in reuse.pairs:
        if (pair.a, pair.b, pair.games) == (a, b, games):
            return dataclasses.replace(pair, played_by=pair.played_by or reuse.code_version)
    return None


def _pair_file(keep: Path, key: dict) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.=-]+", "_", f"{key['a']}__{key['b']}")
    return keep / f"{key['task']}_v{key['task_version']}_{safe}.json"


def _kept_pair(keep: Path | None, key: dict) -> PairRecord | None:
    """The pair's record kept by an earlier run, if one with this very key is there."""
    path = None if keep is None else _pair_file(keep, key)
    if path is None or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        if data["key"] != json.loads(json.dumps(key)):
            return None  # another protocol, network or code version: play the pair again
        return PairRecord.from_dict(data["pair"])
    except (OSError, json.JSONDecodeError, TypeError, KeyError):
        return None  # a file cut short by a stop: play the pair again


def _keep_pair(keep: Path | None, key: dict, record: PairRecord) -> None:
    if keep is None:
        return
    keep.mkdir(parents=True, exist_ok=True)
    path = _pair_file(keep, key)
    partial = path.with_suffix(".part")
    write_json(partial, {"key": key, "pair": asdict(record)})
    partial.replace(path)  # whole or absent, never half written


def fit_members(pairs: Sequence[PairRecord], weights: dict[str, str | None]) -> tuple[tuple[Member, ...], float]:
    """The members' strengths and ratings from the round robin's games, and the unit (rule's strength)."""
    strengths = fit_panel([o for p in pairs for o in pair_outcomes(p.a, p.b, p.pair_scores)], anchor=RANDOM)
    unit = strengths[RULE].value
    if unit <= 0:
        raise ValueError("rule is no stronger than random on the panel's games: no scale can be fitted")
    members = []
    for spec, digest in weights.items():
        s = strengths[spec]
        ratings = [SCALE_POINTS * v / unit for v in (s.value, s.low, s.high)]
        if spec in ANCHORS:  # the anchors define the scale: exactly 0 and 1000, no interval
            ratings = [0.0 if spec == RANDOM else SCALE_POINTS] * 3
        members.append(Member(spec, digest, s.value, *ratings))
    return tuple(members), unit
