"""Pool evaluations of one match-up run with different seeds into one win rate.

A long evaluation is easier to run in pieces (one seed at a time, on whatever
cores are free) than in one go. Each seed is an independent stream of duplicate
deals, so the games of several runs add up, as long as they pit the same agents
on the same rules. Two runs with the same seed replay the same deals and would
count them twice, so they are refused. A trained agent is known by its weights
where both runs recorded them, so one network under two file names (a run's copy
and the shipped file) pools; otherwise by name. Agent names stay while the bots behind
them improve, so the pooled line names the code versions the runs recorded:
pool runs of one version, or of versions known to play alike.

    smear-rl pool runs/eval_seed4.json runs/eval_seed5.json
    smear-rl pool runs/eval_seed*.json --save evals/eval.json.gz   # keep them, small, in one file
    smear-rl pool evals/eval.json.gz --seeds 2,3                   # some of the runs a file holds

A file written with ``--save`` holds every run and game, compressed, and is read like the
runs it gathers (by ``pool`` and ``smear-rl compare``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import smear_env
from training.cli import ArgumentParser, check_writable_file
from training.evaluate import EvalResult
from training.evaluate.results import read_results, write_results
from training.stats import Estimate, mean_interval, win_rate

#: fields every pooled run must share besides the rules: the same agents, stopped at the same length
MATCH_UP_FIELDS = ("agent_a", "agent_b", "max_hands", "start")
AGENT_FIELDS = ("agent_a", "agent_b")  # in the order of EvalResult.weights


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
    stopped: int  # games stopped after max_hands deals (counted as draws)
    paired_reward: Estimate | None  # A's hand reward per hand over every deal pair; None if a run lacks it
    run_seconds: float  # the runs' wall times added up (they may have run side by side)
    code_versions: tuple[str, ...]  # distinct code versions the runs recorded

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def markdown(self) -> str:
        seeds = ", ".join(str(s) for s in self.seeds)
        seeds = f"seeds {seeds} pooled" if len(self.seeds) > 1 else f"seed {seeds}"
        return (
            f"**{self.agent_a} vs {self.agent_b}** on `{self.preset}`, {seeds}: {self.games} games, "
            f"{self.wins}-{self.draws}-{self.losses} ({self.stopped} stopped, counted as draws), "
            f"win rate {self.win_rate.as_text()}{self._reward_text()}; {self.run_seconds:.0f} s of runs; "
            f"code {', '.join(self.code_versions)}"
        )

    def _reward_text(self) -> str:
        if self.paired_reward is None:
            return ""
        return f"; hand reward per hand {self.paired_reward.as_text()} over {self.paired_reward.n} deal pairs"


def pool(results: Sequence[EvalResult]) -> PooledResult:
    """A's wins, draws and losses summed over ``results``, with the interval of the total."""
    if not results:
        raise ValueError("nothing to pool: expected at least one evaluation result")
    first = results[0]
    for result in results[1:]:
        difference = _first_difference(first, result)
        if difference is not None:
            name, mine, theirs = difference
            raise ValueError(
                f"cannot pool different match-ups: {name} is {mine!r} in the first result "
                f"and {theirs!r} in the run with seed {result.seed}"
            )
    seeds = [r.seed for r in results]
    repeated = sorted({s for s in seeds if seeds.count(s) > 1})
    if repeated:
        raise ValueError(f"seed {repeated[0]} appears twice: runs with one seed replay the same deals")
    wins = sum(r.a.wins for r in results)
    draws = sum(r.a.draws for r in results)
    losses = sum(r.a.losses for r in results)
    return PooledResult(
        agent_a=_names(r.agent_a for r in results),
        agent_b=_names(r.agent_b for r in results),
        preset=first.preset,
        seeds=tuple(seeds),
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=win_rate(wins, draws, wins + draws + losses),
        stopped=sum(r.stopped for r in results),
        paired_reward=_pooled_reward(results),
        run_seconds=sum(r.wall_seconds for r in results),
        code_versions=tuple(dict.fromkeys(r.code_version for r in results)),
    )


def _pooled_reward(results: Sequence[EvalResult]) -> Estimate | None:
    """The interval over every run's deal pairs, or None when some run did not record hand rewards."""
    rewards: list[float] = []
    for result in results:
        mine = result.pair_rewards()
        if mine is None:
            return None
        rewards += mine
    return mean_interval(rewards)


def _first_difference(
    first: EvalResult, other: EvalResult, fields: Sequence[str] = MATCH_UP_FIELDS
) -> tuple[str, Any, Any] | None:
    """(field, first's value, other's value) of a way the two runs are not the same match-up, or None.

    ``fields`` are the match-up's fields compared besides the rules (all of them by default).
    """
    for name in fields:
        if name in AGENT_FIELDS:
            networks = _networks(first, other, name)
            if networks is not None:  # both recorded the network: it decides, whatever the files were called
                if networks[0] != networks[1]:
                    return f"{name}'s network (weights)", *networks
                continue
        if getattr(first, name) != getattr(other, name):
            return name, getattr(first, name), getattr(other, name)
    if _rules_of(first) == _rules_of(other):
        return None
    if first.preset != other.preset:
        return "preset", first.preset, other.preset
    return "rule_overrides", first.rule_overrides, other.rule_overrides


def same_match_up_but_agent_a(first: EvalResult, other: EvalResult) -> tuple[str, Any, Any] | None:
    """Like the check ``pool`` makes, but agent A may differ: (field, first's, other's) where they differ, or None."""
    return _first_difference(first, other, tuple(f for f in MATCH_UP_FIELDS if f != "agent_a"))


def _names(names: Iterable[str]) -> str:
    """One agent's name, or its first name and the others it ran under (the same network, see _networks)."""
    first, *others = dict.fromkeys(names)
    return f"{first} (the same network as {', '.join(others)})" if others else first


def _networks(first: EvalResult, other: EvalResult, field: str) -> tuple[str, str] | None:
    """The networks (digest and mode) the agent ``field`` names played in each run, if both runs recorded them.

    One network under two file names is one agent; two networks under one file name (a file
    overwritten between runs, say by training on) are two, though their names agree.
    """
    side = AGENT_FIELDS.index(field)
    mine, theirs = first.weights[side], other.weights[side]
    return None if mine is None or theirs is None else (mine, theirs)


def _rules_of(result: EvalResult) -> Any:
    """The rules a run played, resolved, so an override that restates the preset's value changes nothing."""
    if result.preset in smear_env.OTHER_GAMES:
        return (result.preset, sorted(result.rule_overrides.items()))
    return smear_env.get_rules(result.preset, **result.rule_overrides).to_dict()


def load_results(paths: Iterable[Path]) -> list[EvalResult]:
    """Every result in ``paths``, in order: files written by ``smear-rl evaluate --json`` or ``pool --save``."""
    return [result for path in paths for result in read_results(path)]


def _seed_list(text: str) -> list[int]:
    """``--seeds 2,3,4``: the seeds, for argparse."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of seeds like 2,3,4") from None


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(prog="smear-rl pool", description=__doc__)
    parser.add_argument(
        "results", nargs="+", type=Path, help="files written by smear-rl evaluate --json (or by pool --save)"
    )
    parser.add_argument(
        "--seeds", type=_seed_list, metavar="S1,S2,...", help="pool only the runs of these seeds (default: all)"
    )
    parser.add_argument(
        "--save", type=Path, metavar="FILE",
        help="also write the runs, every game of each, into FILE (gzip-compressed if it ends in .gz)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        if args.save:
            check_writable_file(args.save, "--save file")
        sources = [(path, result) for path in args.results for result in read_results(path)]
    except ValueError as err:
        parser.error(str(err))
    if args.seeds is not None:
        absent = sorted(set(args.seeds) - {result.seed for _, result in sources})
        if absent:
            parser.error(f"--seeds: no run of seed {absent[0]} in {', '.join(map(str, args.results))}")
        sources = [(path, result) for path, result in sources if result.seed in args.seeds]
    results = [result for _, result in sources]
    try:
        pooled = pool(results)
    except ValueError as err:
        parser.error(f"{err} ({', '.join(f'{path} has seed {r.seed}' for path, r in sources)})")
    print(pooled.markdown())
    if args.save:
        write_results(args.save, results)


if __name__ == "__main__":
    main()
