"""Pool evaluations of one match-up run with different seeds into one win rate.

A long evaluation is easier to run in pieces (one seed at a time, on whatever
cores are free) than in one go. Each seed is an independent stream of duplicate
deals, so the games of several runs add up, as long as they pit the same agents
on the same rules. Two runs with the same seed replay the same deals and would
count them twice, so they are refused.

    python -m training.pool runs/eval_seed4.json runs/eval_seed5.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from training.evaluate import EvalResult
from training.stats import Estimate, win_rate

#: fields every pooled run must share: the same agents, on the same rules, stopped at the same length
MATCH_UP_FIELDS = ("agent_a", "agent_b", "preset", "rule_overrides", "max_hands")


@dataclass(frozen=True)
class PooledResult:
    """Agent A's match results over several seeds of one match-up."""

    agent_a: str
    agent_b: str
    preset: str
    seeds: tuple[int, ...]
    wins: int
    draws: int
    losses: int
    win_rate: Estimate  # match score of A, draws half, with its 95% Wilson interval
    wall_seconds: float

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def markdown(self) -> str:
        seeds = ", ".join(str(s) for s in self.seeds)
        seeds = f"seeds {seeds} pooled" if len(self.seeds) > 1 else f"seed {seeds}"
        return (
            f"**{self.agent_a} vs {self.agent_b}** on `{self.preset}`, {seeds}: {self.games} games, "
            f"{self.wins}-{self.draws}-{self.losses}, win rate {self.win_rate.as_text()} ({self.wall_seconds:.0f} s)"
        )


def pool(results: Sequence[EvalResult]) -> PooledResult:
    """A's wins, draws and losses summed over ``results``, with the interval of the total."""
    if not results:
        raise ValueError("nothing to pool: expected at least one evaluation result")
    first = results[0]
    for result in results[1:]:
        for name in MATCH_UP_FIELDS:
            if getattr(result, name) != getattr(first, name):
                raise ValueError(
                    f"cannot pool different match-ups: {name} is {getattr(first, name)!r} in the first result "
                    f"and {getattr(result, name)!r} in the run with seed {result.seed}"
                )
    seeds = [r.seed for r in results]
    repeated = sorted({s for s in seeds if seeds.count(s) > 1})
    if repeated:
        raise ValueError(f"seed {repeated[0]} appears twice: runs with one seed replay the same deals")
    wins = sum(r.a.wins for r in results)
    draws = sum(r.a.draws for r in results)
    losses = sum(r.a.losses for r in results)
    return PooledResult(
        agent_a=first.agent_a,
        agent_b=first.agent_b,
        preset=first.preset,
        seeds=tuple(seeds),
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=win_rate(wins, draws, wins + draws + losses),
        wall_seconds=sum(r.wall_seconds for r in results),
    )


def load_result(path: Path) -> EvalResult:
    """An evaluation written by ``python -m training.evaluate ... --json path``."""
    try:
        return EvalResult.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not an evaluation result written by training.evaluate --json ({err})") from err


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.pool", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="JSON files from training.evaluate --json")
    args = parser.parse_args(argv)
    try:
        print(pool([load_result(path) for path in args.results]).markdown())
    except ValueError as err:
        parser.error(str(err))


if __name__ == "__main__":
    main()
