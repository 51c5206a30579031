"""An evaluation's finished games kept on disk as they are played, so a stopped evaluation resumes where it stopped.

Why: an evaluation against search runs for hours (400 games of ``ten_point_6p`` take about four on
one core), and a crash, a ``kill``, a batch scheduler's time limit or a reboot would otherwise lose
every game played. A game's deals, lineup and agents' seeds follow from its index alone
(:mod:`training.evaluate.games`), so a game played once need not be played again: each finished
chunk of deal pairs is appended to the journal as one JSON line (its games and the two agents'
tallies, exactly), and the same evaluation started again plays only the pairs the journal lacks.
The merged result is the one an uninterrupted run gives (the results, not the timings).

The journal's first line is the evaluation's setup (agents, their weights, rules, seed, games, the
code); a journal of any other evaluation is refused, naming what differs, and left as it is. The
code is compared by its digest (``smear_env.version.code_digest``), not its commit: a journal
resumes after a commit that changed no code (docs, results), and the result records the code
version of the run that finished it. A line cut short by a kill is dropped when the journal is
read; every line before it counts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import Any

from training.evaluate.tally import DecisionTimes, GameOutcome, Tally
from training.stats import RunningMean

FORMAT = 1  # the journal's layout; a journal of another layout is refused


@dataclass
class Chunk:
    """One finished chunk of deal pairs: its games in order and the (A, B) tallies of those games."""

    pairs: list[int]
    games: list[GameOutcome]
    tallies: list[Tally]
    elapsed: float = 0.0  # seconds from its run's start to this chunk's end (a run's wall time is its last)
    run: int = 0  # which start of the evaluation played it: 0, then 1 after a first resume, ...


@dataclass
class Journal:
    """The journal file of one evaluation: what it already holds, and appending what is played next."""

    path: Path
    setup: dict[str, Any]
    chunks: list[Chunk] = field(default_factory=list)

    @classmethod
    def open(cls, path: str | Path, setup: dict[str, Any]) -> Journal:
        """The journal at ``path`` for the evaluation ``setup`` (JSON-able): read when it exists, else begun.

        ``ValueError`` naming the file and what differs when it holds another evaluation's games
        or is not a journal; the file is left as it was then.
        """
        path = Path(path)
        setup = json.loads(json.dumps(setup))  # as it reads back: tuples as lists
        if not path.exists() or path.stat().st_size == 0:  # new, or its first line was never written
            try:
                path.write_text(json.dumps({"journal": FORMAT, "setup": setup}) + "\n")
            except OSError as err:
                raise ValueError(f"cannot write the evaluation journal {path}: {err.strerror}") from err
            return cls(path, setup)
        text = _read(path)
        lines = text.split("\n")[:-1]  # a last line without its newline was cut short by a kill: dropped
        header = _header(lines[0]) if lines else None
        if not isinstance(header, dict) or header.get("journal") != FORMAT:
            raise ValueError(f"{path}: not an evaluation journal of this smear-rl; delete it to start over")
        _check_same(header.get("setup", {}), setup, path)
        journal = cls(path, setup, [_chunk_from(_parse(line, path, n), path, n) for n, line in enumerate(lines[1:], 2)])
        pairs = [pair for chunk in journal.chunks for pair in chunk.pairs]
        if len(pairs) != len(set(pairs)):
            raise ValueError(f"{path} holds some deal pairs twice (two runs of one evaluation at once?); "
                             "delete it to start over")  # fmt: skip
        if not text.endswith("\n"):  # cut back to its whole lines, so the next line appended starts a line
            path.write_text("".join(line + "\n" for line in lines))
        return journal

    @property
    def runs(self) -> int:
        """How many starts of the evaluation played the chunks it holds."""
        return 1 + max((chunk.run for chunk in self.chunks), default=-1)

    @property
    def wall_seconds(self) -> float:
        """The wall time of the starts that played its chunks, added up."""
        last: dict[int, float] = {}
        for chunk in self.chunks:
            last[chunk.run] = max(last.get(chunk.run, 0.0), chunk.elapsed)
        return sum(last.values())

    def append(self, chunk: Chunk) -> None:
        """Add a finished chunk, on disk before this returns (flushed and synced): a kill after it keeps it."""
        line = json.dumps(_chunk_to(chunk), separators=(",", ":")) + "\n"
        with self.path.open("a") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self.chunks.append(chunk)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"cannot read the evaluation journal {path}: {err}") from err


def _header(line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        return None


def _parse(line: str, path: Path, number: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}, line {number}: not JSON ({err.msg}); delete the journal to start over") from err


RECORDED_ONLY = ("code_version",)  # kept in the setup for the reader, not compared: the code's digest is


def _check_same(theirs: dict[str, Any], ours: dict[str, Any], path: Path) -> None:
    """Refuse a journal of another evaluation, naming the first setting that differs."""
    if "code_digest" not in theirs:
        raise ValueError(f"{path} was written before journals recorded their code's digest: it cannot be checked "
                         "against this code; delete it to start over")  # fmt: skip
    for key in sorted((set(theirs) | set(ours)) - set(RECORDED_ONLY)):
        if theirs.get(key) != ours.get(key):
            raise ValueError(
                f"{path} holds the games of another evaluation: its {key} is {theirs.get(key)!r}, here "
                f"{ours.get(key)!r}. Resume it with the same command and code, or delete it to start over"
            )


def _chunk_to(chunk: Chunk) -> dict[str, Any]:
    return {
        "pairs": chunk.pairs,
        "games": [asdict(game) for game in chunk.games],
        "tallies": [_tally_to(tally) for tally in chunk.tallies],
        "elapsed": chunk.elapsed,
        "run": chunk.run,
    }


def _chunk_from(data: Any, path: Path, number: int) -> Chunk:
    try:
        games = [GameOutcome.from_dict(g) for g in data["games"]]
        tallies = [_tally_from(t) for t in data["tallies"]]
        return Chunk([int(p) for p in data["pairs"]], games, tallies, float(data["elapsed"]), int(data["run"]))
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        raise ValueError(f"{path}, line {number}: not a chunk of games ({err!r}); delete it to start over") from err


def _tally_to(tally: Tally) -> dict[str, Any]:
    """A tally as JSON, exactly: its sums as fractions' text, its decision times' histogram by nonzero bin."""
    data = {f.name: getattr(tally, f.name) for f in fields(tally)}  # shallow: its sums and times are written below
    data["points"] = {"n": tally.points.n, "total": str(tally.points.total), "total_sq": str(tally.points.total_sq)}
    data["times"] = {
        "count": tally.times.count,
        "total": tally.times.total,
        "bins": {str(i): c for i, c in enumerate(tally.times.bins) if c},
    }
    return data


def _tally_from(data: dict[str, Any]) -> Tally:
    points, times = data["points"], data["times"]
    bins = [0] * DecisionTimes.NUM_BINS
    for index, count in times["bins"].items():
        bins[int(index)] = int(count)
    return Tally(
        wins=int(data["wins"]),
        draws=int(data["draws"]),
        losses=int(data["losses"]),
        points=RunningMean(int(points["n"]), Fraction(points["total"]), Fraction(points["total_sq"])),
        bids=int(data["bids"]),
        made=int(data["made"]),
        bid_total=int(data["bid_total"]),
        has_bids=bool(data["has_bids"]),
        times=DecisionTimes(int(times["count"]), float(times["total"]), bins),
    )


def merged(chunks: Sequence[Chunk]) -> tuple[list[GameOutcome], list[Tally]]:
    """Every chunk's games in game order and the two agents' tallies added up (exact: any order gives the same)."""
    games = sorted((game for chunk in chunks for game in chunk.games), key=lambda game: game.index)
    tallies = [Tally(), Tally()]
    for chunk in sorted(chunks, key=lambda chunk: min(chunk.pairs)):
        for total, part in zip(tallies, chunk.tallies, strict=True):
            total.merge(part)
    return games, tallies
