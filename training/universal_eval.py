"""The universal agent's evaluation protocol: every preset and held-out house-rule sets, through the harness.

Run it as ``python -m training.universal_eval AGENT --out DIR`` (``--quick`` for the
reduced protocol a busy 2-core machine finishes in hours, not days). Each match-up is
written as ``DIR/<name>.json.gz`` (every game, compressed: ``smear-rl pool`` reads it): one
``smear-rl evaluate`` run, or against search several runs on consecutive seeds pooled into it
(:class:`MatchUp`); a match-up whose file exists is skipped and the one under way continues
from the games its runs kept (``smear-rl evaluate``'s journal), so the protocol resumes after a
stop. Then ``--summary`` prints the tables of the files in ``DIR``: issue 64's
targets, met or not, and every match-up's result; ``--page FILE`` writes them into an agent's page
(``--out research/evals --prefix universal_ --page docs/agents/universal.md`` for the shipped agent).

``--choice`` plays instead the match-ups a candidate is chosen by (:func:`choice_protocol`, on
seeds of their own), and ``--choice --summary --prefix CANDIDATE_ --baseline BASELINE_`` shows a
candidate's choice games beside a baseline's, paired deal by deal: a candidate is picked on those
and then measured on the protocol's seeds, so no reported figure is the one it was picked by.

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
from training.compare import Comparison, compare, signed
from training.evaluate import cli as evaluate_cli
from training.evaluate.results import read_results, write_results
from training.pool import PooledResult, pool
from training.stats import mean_interval

#: the deal seeds of each opponent's match-ups (see the module docstring)
SEEDS = {"search": 101, "neural": 201, "rule": 301, "random": 1, "house_rule": 401, "house_search": 501}
HOUSE_SEARCH_SETS = 5  # the held-out sets the search bot plays (its target holds on all of them)
SEARCH_PIECES = 4  # the full protocol's search games per preset: runs of 100 on seeds 101 to 104 (house sets: 2)
STALLING_CAP = 1000  # ten_point_5p's deal cap against random players: five players alone stall with random ones


@dataclass(frozen=True)
class MatchUp:
    """The agent against ``opponent`` on a preset or held-out house-rule set, ``games`` games in ``pieces`` runs.

    A match-up of several pieces deals its games as runs of ``games // pieces`` on seeds ``seed``,
    ``seed + 1``, ... pooled into one file: the layout the shipped agent's page was played in (the
    search bot 4 x 100 games on seeds 101 to 104), so a rerun deals what the page dealt and pairs
    with it deal by deal, and a stop loses at most a piece's chunk under way.
    """

    name: str
    opponent: str
    games: int
    seed: int
    preset: str = ""
    house: int | None = None
    max_hands: int = 200
    pieces: int = 1  # runs on consecutive seeds, pooled into the match-up's file

    def runs(self) -> list[tuple[int, int]]:
        """Each piece's seed and games."""
        return [(self.seed + k, self.games // self.pieces) for k in range(self.pieces)]

    def argv(self, agent: str, path: Path, workers: int, seed: int, games: int) -> list[str]:
        """``smear-rl evaluate``'s arguments for a piece of this match-up, its games written to ``path``."""
        where = ["--house", str(self.house)] if self.house is not None else ["--preset", self.preset]
        return [agent, self.opponent, *where, "--matches", str(games), "--seed", str(seed),
                "--max-hands", str(self.max_hands), "--workers", str(workers), "--no-progress",
                "--json", str(path)]  # fmt: skip


def protocol(quick: bool) -> list[MatchUp]:
    """The match-ups of the full protocol (issue 64's targets), or of ``quick``: fewer games against search."""
    search_games, house_search_sets = (100, 2) if quick else (400, HOUSE_SEARCH_SETS)
    pieces = 1 if quick else SEARCH_PIECES
    out: list[MatchUp] = []
    for preset in BASE_PRESETS:
        cap = STALLING_CAP if preset == "ten_point_5p" else 200
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
            MatchUp(f"{preset}_vs_search", "search", search_games, SEEDS["search"], preset, pieces=pieces),
        ]
    for k in range(10):
        out.append(MatchUp(f"house{k}_vs_rule", "rule", 200, SEEDS["house_rule"], house=k))
    for k in range(house_search_sets):
        out.append(MatchUp(f"house{k}_vs_search", "search", search_games if quick else 200, SEEDS["house_search"],
                           house=k, pieces=1 if quick else 2))  # fmt: skip
    return out


#: the deal seeds of the choice: the match-ups a candidate is chosen by, never a reported figure's (see SEEDS)
CHOICE_SEEDS = {"specialist": 701, "house_rule": 601, "random": 601}
CHOICE_HOUSE_SETS = range(10, 40)  # held-out sets past the ten the report plays


def choice_protocol() -> list[MatchUp]:
    """The match-ups a candidate is chosen by: each preset against its specialist, 30 held-out house sets, 5p.

    Their seeds are never a report's: a candidate that wins its choice is then measured on the
    protocol's own seeds, so the figure it is reported by is not the one it was picked by.
    ``ten_point_5p`` plays random players with the deal cap at :data:`STALLING_CAP`, where a stalling agent shows.
    """
    out = [MatchUp(f"{preset}_vs_specialist400", str(specialist_policy_path(preset)), 400,
                   CHOICE_SEEDS["specialist"], preset) for preset in BASE_PRESETS]  # fmt: skip
    out += [MatchUp(f"house{k}_vs_rule", "rule", 100, CHOICE_SEEDS["house_rule"], house=k) for k in CHOICE_HOUSE_SETS]
    out.append(MatchUp("ten_point_5p_vs_random", "random", 200, CHOICE_SEEDS["random"], "ten_point_5p",
                       max_hands=STALLING_CAP))  # fmt: skip
    return out


#: how a results row names each opponent of the protocol, by its match-up's name (``<rules>_vs_<opponent>``)
OPPONENT_NAMES = {"random": "random players", "rule": "the rule bot", "specialist": "its preset's specialist",
                  "search": "the search bot"}  # fmt: skip


@dataclass(frozen=True)
class Target:
    """One of issue 64's bars for a kind of match-up: a win rate, a lower bound for its interval, the games it needs."""

    won: float
    games: int = 0
    low: float = 0.0

    def header(self) -> str:
        bound = f", low {self.low:.2f}" if self.low else ""
        games = f", {self.games} games" if self.games else ""
        return f"{self.won:.2f}{bound}{games}"

    def met(self, result: PooledResult) -> bool:
        return result.win_rate.value >= self.won and result.win_rate.low >= self.low and result.games >= self.games

    def cell(self, result: PooledResult | None) -> str:
        """The result and whether it meets the bar, or how many of the games it needs were played."""
        if result is None:
            return "-"
        won = result.win_rate.as_text() if self.low else f"{result.win_rate.value:.3f}"
        if result.games < self.games:
            return f"{won} ({result.games} of {self.games} games)"
        return f"{won} {'met' if self.met(result) else 'not met'}"


#: issue 64's targets by match-up kind (presets: random, specialist, search; held-out house sets: rule, search)
TARGETS = {"random": Target(0.97), "specialist": Target(0.50, 400), "search": Target(0.50, 400, low=0.45),
           "house_rule": Target(0.65, 200), "house_search": Target(0.50, 200)}  # fmt: skip
TARGETS_HEADER = (f"| rules | random players ({TARGETS['random'].header()}) "
                  f"| its preset's specialist ({TARGETS['specialist'].header()}) "
                  f"| the search bot ({TARGETS['search'].header()}) |")  # fmt: skip
HOUSE_TARGETS_HEADER = (f"| held-out house set | the rule bot ({TARGETS['house_rule'].header()}) | the search bot "
                        f"({TARGETS['house_search'].header()}, on {HOUSE_SEARCH_SETS} sets) |")  # fmt: skip
RESULTS_HEADER = "| rules | against | games (seed) | won [95% interval] | points a hand | code measured | data |"


def match_up_files(out: Path, prefix: str = "") -> dict[str, Path]:
    """The protocol's match-ups with a file ``out/<prefix><match-up>.json.gz``, by match-up name, in the page's order.

    Other files in ``out`` (a candidate's choice games beside the report's in ``research/evals``) are not read.
    """
    names = {match_up.name for match_up in protocol(quick=False)}
    found = {name: out / f"{prefix}{name}.json.gz" for name in names if (out / f"{prefix}{name}.json.gz").is_file()}
    return dict(sorted(found.items(), key=lambda item: _row_order(item[0])))


def _pooled_results(out: Path, prefix: str) -> dict[str, PooledResult]:
    return {name: pool(read_results(path)) for name, path in match_up_files(out, prefix).items()}


def targets(out: Path, prefix: str = "") -> str:
    """Issue 64's targets against the match-ups in ``out``: a table of the presets, one of the held-out sets.

    Each cell is the pooled win rate and ``met`` or ``not met``, or how many of the games the
    target asks for were played so far; the last row of each counts the targets met.
    """
    results = _pooled_results(out, prefix)
    presets = sorted({name.rpartition("_vs_")[0] for name in results if not _is_house(name)})
    houses = sorted({name.rpartition("_vs_")[0] for name in results if _is_house(name)}, key=lambda h: int(h[5:]))
    kinds = ("random", "specialist", "search")
    rows = [TARGETS_HEADER, "|---|---|---|---|"]
    rows += [f"| `{p}` | " + " | ".join(TARGETS[k].cell(results.get(f"{p}_vs_{k}")) for k in kinds) + " |"
             for p in presets]  # fmt: skip
    rows.append("| all | " + " | ".join(_tally(TARGETS[k], [results.get(f"{p}_vs_{k}") for p in presets])
                                        for k in kinds) + " |")  # fmt: skip
    asked = {match_up.name for match_up in protocol(quick=False)}  # search plays the first HOUSE_SEARCH_SETS only
    house_rows = [HOUSE_TARGETS_HEADER, "|---|---|---|"]
    house_rows += [f"| {h[5:]} | {TARGETS['house_rule'].cell(results.get(f'{h}_vs_rule'))} | "
                   + (TARGETS["house_search"].cell(results.get(f"{h}_vs_search")) if f"{h}_vs_search" in asked else "")
                   + " |" for h in houses]  # fmt: skip
    searched = [results.get(f"{h}_vs_search") for h in houses if f"{h}_vs_search" in asked]
    house_rows.append(f"| all | {_tally(TARGETS['house_rule'], [results.get(f'{h}_vs_rule') for h in houses])} "
                      f"| {_tally(TARGETS['house_search'], searched, needed=HOUSE_SEARCH_SETS)} |")  # fmt: skip
    return "\n".join(rows) + "\n\n" + "\n".join(house_rows)


def _tally(target: Target, results: list[PooledResult | None], needed: int | None = None) -> str:
    """``7 of 10 met`` (of ``needed`` where the target holds on that many), and those short of their games."""
    met = sum(1 for r in results if r is not None and target.met(r))
    short = sum(1 for r in results if r is not None and r.games < target.games)
    missing = sum(1 for r in results if r is None)
    text = f"{met} of {needed or len(results)} {'needed ' if needed else ''}met"
    text += f", {short} short of {target.games} games" if short else ""
    return text + (f", {missing} not played" if missing else "")


def summary(out: Path, prefix: str = "") -> str:
    """The results table of every match-up file in ``out``, as the agent's page shows it.

    One row a match-up: its rules (a preset, or a house-rule set with its changes), the
    opponent, games and seed (seeds, where a file pools runs), the agent's win rate with its 95% interval, its hand
    reward (points a hand over the opponent's, paired by deal), the commits it was measured at and the
    file (named ``research/evals/<prefix><match-up>.json.gz``, where the page keeps it).
    """
    lines = [RESULTS_HEADER, "|---|---|---|---|---|---|---|"]
    for name, path in match_up_files(out, prefix).items():
        runs = read_results(path)
        pooled, first = pool(runs), runs[0]
        changes = ", ".join(f"{k}={json.dumps(v)}" for k, v in first.rule_overrides.items())
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


CHOICE_HEADER = "| the choice's match-ups | baseline | candidate | paired difference [95% interval] |"


def choice_comparison(out: Path, prefix: str, baseline: str) -> str:
    """A candidate's choice games (``out/<prefix><match-up>``) beside a baseline's (``out/<baseline><match-up>``).

    Both played the same deals against the same opponents, so each difference is paired deal
    by deal (``smear-rl compare``), which leaves out most of the card luck two win rates carry.
    The rows pooling several match-ups (the mean over the presets, the house sets) average their
    deal pairs' differences, each match-up weighing by its deal pairs. Only the match-ups both
    played are shown.
    """
    played = {}
    for match_up in choice_protocol():
        new, old = out / f"{prefix}{match_up.name}.json.gz", out / f"{baseline}{match_up.name}.json.gz"
        if new.is_file() and old.is_file():
            try:
                played[match_up] = compare(read_results(new), read_results(old))
            except ValueError as err:  # another opponent (a retired specialist's name now another network), ...
                raise ValueError(f"{match_up.name}: {new.name} and {old.name} cannot be paired: {err}") from None
    if not played:
        raise ValueError(f"no choice match-up has files for both {prefix!r} and {baseline!r} in {out}")
    rows = [CHOICE_HEADER, "|---|---|---|---|"]
    presets = [m for m in played if m.name.endswith("_vs_specialist400")]
    rows += [_choice_row(f"`{m.preset}` against its specialist ({m.games} games, seed {m.seed})", [played[m]])
             for m in presets]  # fmt: skip
    if presets:
        rows.append(_choice_row(f"mean of the {len(presets)} presets", [played[m] for m in presets]))
    houses = [m for m in played if m.house is not None]
    if houses:
        where = f"held-out house sets {houses[0].house} to {houses[-1].house} against the rule bot"
        games = f"{len(houses)} sets, {houses[0].games} games each, seed {houses[0].seed}"
        rows.append(_choice_row(f"{where} ({games}; sets at {TARGETS['house_rule'].won:.2f} or more)",
                                [played[m] for m in houses], bar=TARGETS["house_rule"].won))  # fmt: skip
    rows += [_choice_row(f"`{m.preset}` against random players ({m.games} games, seed {m.seed}, cap {m.max_hands}; "
                         "games stopped at the cap)", [played[m]], stopped=True)
             for m in played if m.opponent == "random"]  # fmt: skip
    return "\n".join(rows)


def _choice_row(label: str, comparisons: list[Comparison], bar: float | None = None, stopped: bool = False) -> str:
    """One row: each side's mean match score, the paired difference over every deal pair of ``comparisons``."""

    def side(scores: list[float], stops: int) -> str:
        text = f"{sum(scores) / len(scores):.3f}"
        text += f" ({sum(score >= bar for score in scores)})" if bar is not None else ""
        return text + (f" ({stops} stopped)" if stopped else "")

    baseline = side([c.baseline_score for c in comparisons], sum(c.baseline.stopped for c in comparisons))
    candidate = side([c.new_score for c in comparisons], sum(c.new.stopped for c in comparisons))
    difference = mean_interval([pair for c in comparisons for pair in c.score_pairs])
    assert difference is not None  # a comparison has at least one deal pair
    return f"| {label} | {baseline} | {candidate} | {signed(difference, 3)} |"


def write_tables(page: Path, tables: list[str]) -> None:
    """Replace each table in ``page`` whose header line is a table's first line by that table."""
    lines = page.read_text().splitlines()
    for table in tables:
        for block in table.split("\n\n"):
            new = block.splitlines()
            if new[0] not in lines:
                raise ValueError(f"{page} has no table headed {new[0]!r}: put the header line where the table goes")
            start = end = lines.index(new[0])
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            lines[start:end] = new
    page.write_text("\n".join(lines) + "\n")


def _is_house(name: str) -> bool:
    where = name.rpartition("_vs_")[0]
    return where.startswith("house") and where[5:].isdigit()


def _row_order(name: str) -> tuple[int, str, int]:
    """Presets first, then house sets by number; within each, random, rule, specialist, search."""
    where, _, against = name.rpartition("_vs_")
    order = ["random", "rule", "specialist", "search"]
    rank = order.index(against) if against in order else len(order)
    if _is_house(name):
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
    parser.add_argument("agent", nargs="?", help="the agent to evaluate (an exported .npz or a checkpoint)")
    parser.add_argument("--out", type=Path, required=True, help="folder of the match-ups' JSON files")
    parser.add_argument("--quick", action="store_true", help="the reduced protocol (fewer games against search)")
    parser.add_argument("--choice", action="store_true",
                        help="the match-ups a candidate is chosen by (their own seeds), not the report's")  # fmt: skip
    parser.add_argument("--only", default="", help="run only match-ups whose name contains this text")
    parser.add_argument("--workers", type=int, default=1, help="harness processes per match-up")
    parser.add_argument("--prefix", default="", help="the start of the files' names in --out")
    parser.add_argument("--summary", action="store_true", help="print the targets and results tables of --out and stop")
    parser.add_argument("--page", type=Path, help="with --summary: write the tables into this page instead")
    parser.add_argument("--baseline", default="", help="with --choice --summary: the prefix of the baseline's files")
    args = parser.parse_args(argv)
    if args.choice and (args.quick or args.page):
        parser.error("--choice has no --quick and writes no page: its games choose candidates, they report nothing")
    if args.baseline and not (args.choice and args.summary):
        parser.error("--baseline goes with --choice --summary (a candidate's choice games beside a baseline's)")
    if args.summary:
        _print_summary(parser, args)
        return
    if not args.agent:
        parser.error("the agent to evaluate is needed (or --summary)")
    args.out.mkdir(parents=True, exist_ok=True)
    for match_up in choice_protocol() if args.choice else protocol(args.quick):
        path = args.out / f"{args.prefix}{match_up.name}.json.gz"
        if args.only not in match_up.name or path.is_file():
            continue
        print(f"== {match_up.name}", flush=True)
        play(match_up, args.agent, path, args.workers)


def play(match_up: MatchUp, agent: str, path: Path, workers: int) -> None:
    """Play ``match_up`` into ``path``: one run, or its pieces (each resumable) pooled into it and then removed.

    A piece whose file exists is not played again; the pooled file is written only once every
    piece is, so a file at ``path`` always holds the whole match-up.
    """
    if match_up.pieces == 1:
        evaluate_cli.main(match_up.argv(agent, path, workers, match_up.seed, match_up.games))
        return
    piece_paths = []
    for seed, games in match_up.runs():
        piece = path.with_name(path.name.removesuffix(".json.gz") + f".seed{seed}.json.gz")
        if not piece.is_file():
            evaluate_cli.main(match_up.argv(agent, piece, workers, seed, games))
        piece_paths.append(piece)
    write_results(path, [result for piece in piece_paths for result in read_results(piece)])
    for piece in piece_paths:
        piece.unlink()


def _print_summary(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The report's tables (printed or written into --page), or a candidate's choice beside its baseline's."""
    if args.choice:
        if not args.baseline:
            parser.error("--choice --summary compares a candidate with a baseline: name its prefix with --baseline")
        try:
            print(choice_comparison(args.out, args.prefix, args.baseline))
        except ValueError as error:
            parser.error(str(error))
        return
    tables = [targets(args.out, args.prefix), summary(args.out, args.prefix)]
    if args.page:
        write_tables(args.page, tables)
    else:
        print("\n\n".join(tables))


if __name__ == "__main__":
    main()
