"""The command line of the evaluation harness: ``smear-rl evaluate`` (also ``python -m training.evaluate``).

It plays one evaluation (:func:`training.evaluate.evaluate`) or, with
``--ladder``, a rating ladder (:mod:`training.ladder`), prints the report (a
table with what its columns mean; markdown with ``--markdown``, and always for a
ladder) and writes the JSON result. It sits apart from the library it drives, so
the library never imports the ladder that is built on it.

Examples::

    smear-rl evaluate random random --preset smear --matches 200
    smear-rl evaluate rule random --preset bohemian_schneider --matches 200 --json out.json
    smear-rl evaluate random random --preset ten_point --rule target_score=21 --max-hands 100
    smear-rl evaluate --ladder random rule search --preset ten_point --matches 200
    smear-rl evaluate neural rule --house 3 --matches 200    # held-out house-rule set 3
    smear-rl evaluate neural search --matches 400 --json s.json.gz   # stopped? the same command resumes it

A/B test of two settings of one bot: stop every game after its first deal and read the
hand reward line, A's score change per hand minus B's over duplicate deal pairs (only
deals the two settings play differently move it, so it separates them with far fewer
games than the match win rate)::

    smear-rl evaluate search:samples=48 search --preset minnesota --max-hands 1 --matches 600

A/B test of bidding by the match score (``go_out``, ``block``): start every match late, each
team two hands or less from the target, where those settings act::

    smear-rl evaluate rule rule:go_out=false,block=false --preset pitch_smudge --start late --matches 2000
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import training.evaluate
from smear_env.house_rules import changes_from, describe_changes, evaluation_rule_sets
from smear_env.rules import Rules
from training.cli import ArgumentParser, check_writable_file, int_at_least
from training.evaluate.games import STARTS
from training.evaluate.results import write_results
from training.evaluate.run import evaluate
from training.ladder import play_ladder


def parse_rule(text: str) -> tuple[str, Any]:
    """``key=value`` with a JSON value (``target_score=21``, ``moon_bid=true``) or else a plain string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value.strip()


def add_table_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """``--preset``, ``--house K``, ``--games`` and ``--seed``: the table and deals of a diagnostic script's match-up
    (``research/scripts/``); :func:`table_from_arguments` reads them back."""
    parser.add_argument("--preset", default="ten_point", help="game preset (smear_env.list_presets())")
    parser.add_argument("--house", type=int_at_least(0), default=None, metavar="K",
                        help="held-out house-rule set K instead of --preset")  # fmt: skip
    parser.add_argument("--games", type=int_at_least(2), default=games, help="games (duplicate pairs: an even count)")
    parser.add_argument("--seed", type=int, default=0)


def table_from_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The preset and rule changes :func:`add_table_arguments`' options name (``--house K``: the K-th held-out set);
    an odd ``--games`` or ``--preset`` beside ``--house`` ends the script with a usage error."""
    if args.games % 2:
        parser.error(f"--games {args.games}: expected an even count (every deal is played twice, seats swapped)")
    house = held_out_set(parser, args)
    return (args.preset, {}) if house is None else (house.name, changes_from(house))


def held_out_set(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Rules | None:
    """The held-out house-rule set ``--house K`` names (None without it); a usage error when ``--preset`` (or
    ``--rule``) is given too, since the set brings its own."""
    if args.house is None:
        return None
    if getattr(args, "rule", None) or args.preset != "ten_point":
        parser.error("--house K plays the K-th held-out house-rule set: --preset and --rule do not go with it")
    return evaluation_rule_sets(args.house + 1)[args.house]


def _method() -> str:
    """The package's account of the method (duplicate deals, determinism, outcomes), for ``--help``."""
    doc = training.evaluate.__doc__ or ""
    return doc.split("\n\n", 1)[1].split("The package, one concern", 1)[0]


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="smear-rl evaluate",
        description="Duplicate-format evaluation of two agents, or a rating ladder of several.\n\n" + _method(),
        epilog="examples:" + __doc__.split("Examples::", 1)[1],
    )
    parser.add_argument(
        "agents", nargs="*", help="agent A and agent B (names, name:key=value,... with options, checkpoints)"
    )
    parser.add_argument("--ladder", nargs="+", metavar="AGENT", help="rate these agents, every pair in duplicate")
    parser.add_argument("--preset", default="ten_point", help="game preset (smear_env.list_presets())")
    parser.add_argument("--matches", type=int, default=200, help="games per evaluation (per pair in a ladder); even")
    parser.add_argument("--seed", type=int, default=0, help="base seed of deals and agents")
    parser.add_argument("--workers", type=int_at_least(1), default=None, help="processes (default: every core)")
    parser.add_argument(
        "--max-hands", type=int_at_least(1), default=200, help="deals after which a game is stopped as a draw"
    )
    parser.add_argument("--rule", type=parse_rule, action="append", default=[], help="rule override key=value")
    parser.add_argument(
        "--house", type=int_at_least(0), default=None, metavar="K",
        help="play held-out house-rule set K (smear_env.house_rules.evaluation_rule_sets, never trained on) "
        "instead of --preset and --rule",
    )  # fmt: skip
    parser.add_argument(
        "--start", choices=STARTS, default="new",
        help="new matches, or late ones: each team two hands or less from the target (bidding by the match score)",
    )  # fmt: skip
    parser.add_argument(
        "--json", type=Path,
        help="write the full result as JSON here (gzip-compressed if the name ends in .gz); the games are kept in "
        "JSON.partial as they are played, and the same command again resumes a stopped evaluation",
    )  # fmt: skip
    parser.add_argument("--markdown", action="store_true", help="print the report as a markdown table")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if bool(args.ladder) == bool(args.agents) or (args.agents and len(args.agents) != 2):
        parser.error("give two agents (A B) or --ladder with two or more agents")
    house = held_out_set(parser, args)
    if house is not None:
        args.preset, args.rule = house.name, list(changes_from(house).items())
        print(f"house-rule set {args.house}: {house.name} with {describe_changes(house)}", file=sys.stderr)
    common = {
        "preset": args.preset,
        "seed": args.seed,
        "workers": args.workers,
        "max_hands": args.max_hands,
        "rule_overrides": dict(args.rule),
        "progress": not args.no_progress,
        "start": args.start,
    }
    try:
        if args.json:  # before playing: an unwritable path would otherwise lose the whole evaluation at its end
            check_writable_file(args.json, "--json file")
        if args.ladder:
            result: Any = play_ladder(args.ladder, matches_per_pair=args.matches, **common)
        else:
            result = evaluate(*args.agents, matches=args.matches, journal=_journal(args.json), **common)
    except ValueError as err:
        parser.error(str(err))
    print(result.markdown() if args.markdown or args.ladder else result.text())
    if args.json:
        if args.ladder:
            args.json.write_text(json.dumps(result.to_dict(), indent=1) + "\n")
        else:
            write_results(args.json, [result])
            Path(f"{args.json}.partial").unlink(missing_ok=True)


def _journal(json_path: Path | None) -> Path | None:
    """Where the games are kept as they are played (``<json>.partial``), so the same command resumes a stopped run."""
    if json_path is None:
        return None
    journal = Path(f"{json_path}.partial")
    if journal.exists():
        print(f"continuing from the games kept in {journal}", file=sys.stderr)
    return journal


if __name__ == "__main__":
    main()
