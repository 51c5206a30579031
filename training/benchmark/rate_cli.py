"""``smear-rl rate``: an agent's rating on a benchmark task, the tasks, their scales, and leaderboard rows.

Examples::

    smear-rl rate --tasks                                         # the tasks and what each is
    smear-rl rate rule --task partnership                         # a bot (1000 by the scale's definition)
    smear-rl rate runs/x/agent.pt --task partnership --json x.json   # a checkpoint (or an exported .npz)
    smear-rl rate my_policies:act --task kitty_moon               # any function (observation, action_mask) -> action
    smear-rl rate sb3:runs/sb3/model.zip --task partnership       # a Stable-Baselines3 model (also rllib:, torchrl:)
    smear-rl rate --fit-scale --task partnership                  # the panel's round robin: a new published scale
    smear-rl rate --fit-scale --task six_players --keep-pairs runs/six   # ... resumable: run it again after a stop
    smear-rl rate --fit-scale --task house_rules --reuse-published    # ... playing only a new member's pairs
    smear-rl rate --table docs/benchmark/ratings/*/*.json         # leaderboard rows from rating files
    smear-rl rate --curve runs/sb3/snapshots.csv --task kitty_moon   # a run's snapshots against rule: its curve
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from pathlib import Path

from training.benchmark.curve import learning_curve, read_snapshots, write_curve
from training.benchmark.leaderboard import leaderboard
from training.benchmark.rate import Rating, rate
from training.benchmark.scale import fit_scale, load_scale
from training.benchmark.tasks import list_tasks, load_task
from training.cli import ArgumentParser, check_readable_file, check_writable_file, int_at_least
from training.evaluate import EvalResult, report


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="smear-rl rate",
        description="Rate an agent on a benchmark task: it plays the task's panel (random, rule, search, the shipped "
        "agent) in duplicate games under the task's protocol, and its Bradley-Terry strength is read on the task's "
        "published scale (random = 0, rule = 1000). See docs/benchmark/tasks.md.",
        epilog="examples:" + __doc__.split("Examples::", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("agent", nargs="?", help="a bot name, checkpoint (.pt), exported .npz, module:function, "
                        "file.py:function, sb3:PATH, rllib:PATH or torchrl:PATH")  # fmt: skip
    parser.add_argument("--task", help="a task's name (smear-rl rate --tasks) or a task file (.toml)")
    parser.add_argument("--name", help="what tables call the agent (default: the agent as given)")
    parser.add_argument("--json", type=Path, help="write the rating (or with --fit-scale the scale) here as JSON")
    parser.add_argument("--workers", type=int_at_least(1), default=None, help="processes (default: every core)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--tasks", action="store_true", help="list the tasks")
    mode.add_argument("--fit-scale", action="store_true",
                      help="play the panel's round robin and fit the task's scale (written beside the task file "
                           "unless --json names another)")  # fmt: skip
    mode.add_argument("--table", nargs="*", type=Path, metavar="RATING_JSON",
                      help="the leaderboard: every shipped task's panel on its scale, with these ratings")  # fmt: skip
    mode.add_argument("--curve", type=Path, metavar="SNAPSHOTS_CSV",
                      help="play each snapshot a run listed against rule on the task's deals; writes "
                           "curve_<task>.csv beside the list (the columns of the trainer's curve.csv)")  # fmt: skip
    parser.add_argument("--keep-pairs", type=Path, metavar="DIR",
                        help="with --fit-scale: keep each finished pair's games in DIR and reuse them when the "
                             "command is run again, so a stopped round robin resumes")  # fmt: skip
    parser.add_argument("--reuse-published", action="store_true",
                        help="with --fit-scale: take the pairs the task's published scale played with the same "
                             "networks from it, and play only the others (a new panel member's pairs)")  # fmt: skip
    parser.add_argument("--games", type=int_at_least(2), default=200, help="with --curve: games a snapshot (even)")
    parser.add_argument("--fraction", type=float, default=1.0, metavar="F",
                        help="rate on this share (0 < F <= 1) of each match-up's games: cheaper, wider, recorded as "
                             "reduced and not the protocol's rating (default 1: the protocol)")  # fmt: skip
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.tasks:
            print(tasks_table())
        elif args.curve:
            _curve(parser, args)
        elif args.table is not None:
            print(table_of([read_rating(p) for p in args.table]))
        else:
            _rate_or_fit(parser, args)
    except ValueError as err:
        parser.error(str(err))


def read_rating(path: Path) -> Rating:
    """A rating file (``smear-rl rate --json``); ``ValueError`` naming the file when it is not one."""
    text = check_readable_file(path).read_text()
    try:
        return Rating.from_dict(json.loads(text))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err.msg} at line {err.lineno})") from None
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"{path}: not a rating written by smear-rl rate --json ({err!r})") from None


def _rate_or_fit(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not args.task:
        parser.error("--task is required: one of " + ", ".join(list_tasks()) + " (or a task file)")
    if args.fit_scale == bool(args.agent):
        parser.error("give an agent to rate, or --fit-scale without one")
    for flag, given in (("--keep-pairs", args.keep_pairs), ("--reuse-published", args.reuse_published)):
        if given and not args.fit_scale:
            parser.error(f"{flag} is about the round robin's pairs: it goes with --fit-scale")
    if not 0 < args.fraction <= 1 or (args.fit_scale and args.fraction != 1):
        parser.error(f"--fraction {args.fraction:g}: expected a share in (0, 1], when rating an agent")
    task = load_task(args.task)
    out = args.json or (task.scale_path if args.fit_scale else None)
    if out is not None:  # before playing: an unwritable path would lose the whole run at its end
        check_writable_file(out, "--json file")
    if args.keep_pairs:
        try:
            args.keep_pairs.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            parser.error(f"--keep-pairs {str(args.keep_pairs)!r}: cannot make the folder ({err.strerror})")
    progress = not args.no_progress
    if args.fit_scale:
        reuse = load_scale(task) if args.reuse_published else None  # refuses a scale of another task version
        scale = fit_scale(task, args.workers, progress, on_pair=_print_pair, keep=args.keep_pairs, reuse=reuse)
        print(scale.markdown())
        scale.save(out)
        print(f"\nscale written to {out}", file=sys.stderr)
        return
    rating = rate(args.agent, task, args.workers, progress, args.name, _print_pair, args.fraction)
    command = f"smear-rl rate {shlex.quote(args.agent)} --task {shlex.quote(args.task)}"
    command += f" --name {shlex.quote(args.name)}" if args.name else ""
    rating = dataclasses.replace(rating, command=command + (f" --fraction {args.fraction:g}" if rating.reduced else ""))
    print("\n" + rating.markdown())
    if out is not None:
        rating.save(out)


def _curve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not args.task:
        parser.error("--task is required with --curve: one of " + ", ".join(list_tasks()) + " (or a task file)")
    if args.games % 2:
        parser.error(f"--games {args.games} is odd: expected an even number (each deal is played twice)")
    snapshots = read_snapshots(args.curve)
    task = load_task(args.task)
    out = check_writable_file(args.curve.with_name(f"curve_{task.name}.csv"), "curve file")
    points = learning_curve(snapshots, task, games=args.games, workers=args.workers, progress=not args.no_progress)
    write_curve(points, out)
    rows = ([f"{p.snapshot.train_minutes:.1f}", f"{p.snapshot.decisions:,}", p.win_rate.as_text()] for p in points)
    print("\n".join(report.table(["minutes", "decisions", f"win rate vs rule [95% CI], {args.games} games"], rows)))
    print(f"curve written to {out}", file=sys.stderr)


def _print_pair(result: EvalResult) -> None:
    print(f"{result.agent_a} vs {result.agent_b}: {result.a.win_rate.as_text()} over {result.matches} games",
          file=sys.stderr)  # fmt: skip


def table_of(ratings: list[Rating]) -> str:
    """The leaderboard of the shipped tasks that have a published scale, with these ratings."""
    scales = [load_scale(task) for task in map(load_task, list_tasks()) if task.scale_path.is_file()]
    return leaderboard(ratings, scales)


def tasks_table() -> str:
    """Every shipped task: its name, version, env id, panel and description."""
    rows = []
    for name in list_tasks():
        task = load_task(name)
        panel = ", ".join(f"{spec} x{games}" for spec, games in task.panel.items())
        rows.append([name, str(task.version), task.env_id, panel, task.description])
    return "\n".join(report.table(["task", "version", "env", "panel (games)", "what it is"], rows))


if __name__ == "__main__":
    main()
