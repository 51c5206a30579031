"""The universal agent's evaluation protocol: every preset and held-out house-rule sets, through the harness.

Run it as ``python -m training.universal_eval AGENT --out DIR`` (``--quick`` for the
reduced protocol a busy 2-core machine finishes in hours, not days). Each match-up is
one ``smear-rl evaluate`` run written as ``DIR/<name>.json.gz`` (every game, compressed:
``smear-rl pool`` reads it); a match-up whose file exists is skipped, so the protocol
resumes after a stop. Then ``--summary`` prints the table of every file in ``DIR``.

Seeds: the deals of every match-up below are seeds this project never trained on,
tuned on or chose a candidate by (training runs deal from their config's seed and
evaluate during training on ``training.ppo.EVAL_SEED``); house-rule sets are the
held-out ones (:func:`smear_env.house_rules.evaluation_rule_sets`), never drawn in
training. Against the preset's specialist (its file, playing or retired:
``agents.shipped.specialist_policy_path``) it plays its
preset's own rules; the harness's duplicate deals and Wilson intervals apply throughout.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agents.shipped import specialist_policy_path
from smear_env.house_rules import BASE_PRESETS
from training.evaluate import cli as evaluate_cli
from training.evaluate.results import read_results
from training.pool import pool

#: the deal seeds of each opponent's match-ups (see the module docstring)
SEEDS = {"search": 101, "neural": 201, "rule": 301, "random": 1, "house_rule": 401, "house_search": 501}


@dataclass(frozen=True)
class MatchUp:
    """One harness run: the agent against ``opponent`` on a preset or held-out house-rule set, ``games`` games."""

    name: str
    opponent: str
    games: int
    seed: int
    preset: str = ""
    house: int | None = None
    max_hands: int = 200

    def argv(self, agent: str, out: Path, workers: int) -> list[str]:
        where = ["--house", str(self.house)] if self.house is not None else ["--preset", self.preset]
        return [agent, self.opponent, *where, "--matches", str(self.games), "--seed", str(self.seed),
                "--max-hands", str(self.max_hands), "--workers", str(workers), "--no-progress",
                "--json", str(out / f"{self.name}.json.gz")]  # fmt: skip


def protocol(quick: bool) -> list[MatchUp]:
    """The match-ups of the full protocol (issue 64's targets), or of ``quick``: fewer games against search."""
    search_games, house_search_sets = (100, 2) if quick else (400, 5)
    out: list[MatchUp] = []
    for preset in BASE_PRESETS:
        cap = 1000 if preset == "ten_point_5p" else 200  # five players alone stall with random ones: a longer cap
        out += [
            MatchUp(f"{preset}_vs_random", "random", 200 if quick else 1000, SEEDS["random"], preset, max_hands=cap),
            MatchUp(f"{preset}_vs_rule", "rule", 200 if quick else 400, SEEDS["rule"], preset),
            MatchUp(
                f"{preset}_vs_specialist",
                str(specialist_policy_path(preset)),
                200 if quick else 400,
                SEEDS["neural"],
                preset,
            ),  # fmt: skip
            MatchUp(f"{preset}_vs_search", "search", search_games, SEEDS["search"], preset),
        ]
    for k in range(10):
        out.append(MatchUp(f"house{k}_vs_rule", "rule", 200, SEEDS["house_rule"], house=k))
    for k in range(house_search_sets):
        out.append(MatchUp(f"house{k}_vs_search", "search", search_games if quick else 200, SEEDS["house_search"],
                           house=k))  # fmt: skip
    return out


#: how a results row names each opponent of the protocol, by its match-up's name (``<rules>_vs_<opponent>``)
OPPONENT_NAMES = {"random": "random players", "rule": "the rule bot", "specialist": "its preset's specialist",
                  "search": "the search bot"}  # fmt: skip


def summary(out: Path, prefix: str = "") -> str:
    """The results table of every match-up file in ``out``, as the agent's page shows it.

    One row a match-up: its rules (a preset, or a house-rule set with its changes), the
    opponent, games and seed (seeds, where a file pools runs), the agent's win rate with its 95% interval, its hand
    reward (points a hand over the opponent's, paired by deal), the commits it was measured at and the
    file (named ``research/evals/<prefix><match-up>.json.gz``, where the page keeps it).
    """
    lines = ["| rules | against | games (seed) | won [95% interval] | points a hand | code measured | data |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for path in sorted(out.glob("*.json.gz"), key=_row_order):
        runs = read_results(path)
        pooled, first = pool(runs), runs[0]
        changes = ", ".join(f"{k}={json.dumps(v)}" for k, v in first.rule_overrides.items())
        name = path.name.removesuffix(".json.gz")
        rules = f"house set {name[5:].split('_')[0]}: `{first.preset}`, {changes}" if changes else f"`{first.preset}`"
        reward = "-" if pooled.paired_reward is None else f"{pooled.paired_reward.value:+.2f}"
        commits = dict.fromkeys(version.split("+g")[-1][:7] for version in pooled.code_versions)  # x, x.changes: one
        measured = ", ".join(f"`{commit}` of {_commit_date(commit)}" for commit in commits)
        seeds = ", ".join(str(run.seed) for run in runs)
        against = OPPONENT_NAMES.get(name.rpartition("_vs_")[2], first.agent_b)
        lines.append(f"| {rules} | {against} | {pooled.games} (seed {seeds}) "
                     f"| {pooled.win_rate.as_text()} | {reward} | {measured} "
                     f"| `research/evals/{prefix}{name}.json.gz` |")  # fmt: skip
    return "\n".join(lines)


def _row_order(path: Path) -> tuple[int, str, int]:
    """Presets first, then house sets by number; within each, random, rule, specialist, search."""
    name = path.name.removesuffix(".json.gz")
    where, _, against = name.rpartition("_vs_")
    order = ["random", "rule", "specialist", "search"]
    rank = order.index(against) if against in order else len(order)
    if where.startswith("house") and where[5:].isdigit():
        return (1, f"{int(where[5:]):04d}", rank)
    return (0, where, rank)


@functools.cache
def _commit_date(commit: str) -> str:
    """The day of ``commit`` (``YYYY-MM-DD``) from git, or ``unknown`` outside the repository."""
    try:
        shown = subprocess.run(["git", "show", "-s", "--format=%cs", commit], capture_output=True, text=True,
                               cwd=Path(__file__).resolve().parents[1], check=True, timeout=30)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return shown.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.universal_eval", description=__doc__)
    parser.add_argument("agent", help="the agent to evaluate (an exported .npz or a checkpoint)")
    parser.add_argument("--out", type=Path, required=True, help="folder of the match-ups' JSON files")
    parser.add_argument("--quick", action="store_true", help="the reduced protocol (fewer games against search)")
    parser.add_argument("--only", default="", help="run only match-ups whose name contains this text")
    parser.add_argument("--workers", type=int, default=1, help="harness processes per match-up")
    parser.add_argument("--summary", action="store_true", help="print the table of the files in --out and stop")
    parser.add_argument("--prefix", default="", help="with --summary: the data files' names under research/evals/")
    args = parser.parse_args(argv)
    if args.summary:
        print(summary(args.out, args.prefix))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for match_up in protocol(args.quick):
        if args.only not in match_up.name or (args.out / f"{match_up.name}.json.gz").is_file():
            continue
        print(f"== {match_up.name}", flush=True)
        evaluate_cli.main(match_up.argv(args.agent, args.out, args.workers))


if __name__ == "__main__":
    main()
