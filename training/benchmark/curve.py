"""Learning curves on a task: every snapshot of a training run against the rule bot, on the task's deals.

Why snapshots played afterwards: the libraries the benchmark compares (SB3, RLlib,
TorchRL, this project's trainer) evaluate differently during training, or not at all.
A run that saves its policy every few minutes and lists the files in ``snapshots.csv``
(``train_minutes,decisions,agent``: when, after how many learner decisions, and the agent
spec that loads it) gets its curve here, every snapshot playing the same duplicate games
(the task's rules, seed and ``max_hands``), and spends none of its training time on it.

The curve is written with the columns of the trainer's ``curve.csv``
(``training.ppo.CURVE_FIELDS``: ``step`` holds the decisions), so ``smear-rl plot`` draws
it and a curve of any library reads like one of ours.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from training.benchmark.tasks import Task
from training.cli import check_readable_file
from training.evaluate import evaluate
from training.stats import Estimate

SNAPSHOT_FIELDS = ("train_minutes", "decisions", "agent")


@dataclass(frozen=True)
class Snapshot:
    """A policy saved during training: when, after how many learner decisions, and how to load it."""

    train_minutes: float
    decisions: int
    agent: str


class Snapshots:
    """Writes a run's ``snapshots.csv`` as it trains: ``due`` says when the next one is wanted, ``add`` lists one."""

    def __init__(self, out: str | Path, every_minutes: float) -> None:
        self.path = Path(out) / "snapshots.csv"
        self.every_minutes = every_minutes
        self.next_at = every_minutes
        with self.path.open("w", newline="") as f:
            csv.writer(f).writerow(SNAPSHOT_FIELDS)

    @classmethod
    def for_run(cls, out: Path | None, every_minutes: float) -> Snapshots | None:
        """A run's snapshot list in ``out`` (the folder made), or None when it saves none (no folder, or 0 minutes)."""
        if out is None:
            return None
        Path(out).mkdir(parents=True, exist_ok=True)
        return cls(out, every_minutes) if every_minutes > 0 else None

    def due(self, train_minutes: float) -> bool:
        return train_minutes >= self.next_at

    def add(self, agent: str, train_minutes: float, decisions: int) -> None:
        with self.path.open("a", newline="") as f:
            csv.writer(f).writerow([round(train_minutes, 3), decisions, agent])
        while self.next_at <= train_minutes:
            self.next_at += self.every_minutes


def read_snapshots(path: str | Path) -> list[Snapshot]:
    """The snapshots a run listed; ``ValueError`` naming the file and the line that does not read."""
    path = check_readable_file(path, "snapshots")
    out = []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != SNAPSHOT_FIELDS:
            raise ValueError(f"snapshots {str(path)!r}: expected the columns {', '.join(SNAPSHOT_FIELDS)}")
        for line, row in enumerate(reader, 2):
            try:
                out.append(Snapshot(float(row["train_minutes"]), int(row["decisions"]), row["agent"]))
            except (TypeError, ValueError):
                raise ValueError(f"snapshots {str(path)!r}, line {line}: {row} does not read") from None
    if not out:
        raise ValueError(f"snapshots {str(path)!r} lists no snapshot")
    return out


@dataclass(frozen=True)
class CurvePoint:
    """One snapshot against the opponent."""

    snapshot: Snapshot
    opponent: str
    games: int
    win_rate: Estimate
    points_diff: float  # its side's points a hand minus the opponent's


def learning_curve(
    snapshots: list[Snapshot],
    task: Task,
    opponent: str = "rule",
    games: int = 200,
    workers: int | None = None,
    progress: bool = False,
) -> list[CurvePoint]:
    """Each snapshot against ``opponent`` in ``games`` duplicate games of the task (its rules, seed, max_hands)."""
    task.check_env()
    points = []
    for snap in snapshots:
        result = evaluate(snap.agent, opponent, task.preset, games, task.seed, workers, task.max_hands, task.rules,
                          progress)  # fmt: skip
        mine, theirs = result.a.points_per_hand, result.b.points_per_hand
        diff = mine.value - theirs.value if mine and theirs else 0.0
        points.append(CurvePoint(snap, opponent, games, result.a.win_rate, diff))
    return points


def write_curve(points: list[CurvePoint], path: str | Path) -> None:
    """The points as the trainer's ``curve.csv`` writes them (``smear-rl plot`` reads it)."""
    from training.ppo import CURVE_FIELDS  # torch: the snapshots being played need it anyway

    with Path(path).open("w", newline="") as f:
        out = csv.DictWriter(f, CURVE_FIELDS)
        out.writeheader()
        for p in points:
            out.writerow({"train_minutes": p.snapshot.train_minutes, "step": p.snapshot.decisions,
                          "opponent": p.opponent, "matches": p.games, "win_rate": round(p.win_rate.value, 4),
                          "ci_low": round(p.win_rate.low, 4), "ci_high": round(p.win_rate.high, 4),
                          "points_diff": round(p.points_diff, 4)})  # fmt: skip
