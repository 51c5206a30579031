"""``smear-rl play``: a person plays the bots in the terminal.

    smear-rl play --preset minnesota --seat 0 --bots search,rule,search --seed 3

Any preset (``bohemian_schneider`` too) or house-rule file, rule options set on
the command line, any bots by name or checkpoint, a seed that deals the same
cards again. Bad options exit with code 2 and a one-line reason.
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from agents.registry import make_agent, split_agent_specs
from smear_env import list_presets
from smear_rl.play.games import default_bot, load_kind, parse_override
from smear_rl.play.render import Glyphs, Presenter
from smear_rl.play.session import Session, bot_seed
from smear_rl.play.terminal import Reader, TerminalGame
from training.cli import ArgumentParser, check_writable_file, number_in

DESCRIPTION = """Play Smear (any preset or house rules) or Bohemian Schneider against bots in the terminal.

  smear-rl play --preset minnesota --seat 0 --bots search,rule,search --seed 3

At your turn type a move (bid 4, trump H, play AS), just a card (AS), or its number
in the list; hint, score, last, show, save FILE, help and quit do what they say."""
DEFAULT_DELAY = 0.6  # seconds before each bot move: readable, not slow


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="smear-rl play", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    rules = parser.add_mutually_exclusive_group()
    rules.add_argument("--preset", help=f"the game: {', '.join(list_presets())} (default ten_point)")
    rules.add_argument(
        "--rules", metavar="FILE", help='a house-rule TOML file: preset = "name" plus the options it changes'
    )
    parser.add_argument(
        "--set",
        metavar="OPTION=VALUE",
        action="append",
        default=[],
        help="change a rule option (repeatable): --set target_score=21 --set follow=strict",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0 to players-1 (default 0; seat 0 deals first)")
    parser.add_argument(
        "--bots",
        help="the other seats' players in seat order, comma-separated, or one for all: random, rule, bold, search, "
        "searchbid, neural, neural_search (options after a colon: search:samples=48), or a checkpoint file "
        "(default: search)",
    )
    parser.add_argument(
        "--hint-bot", metavar="BOT", help="the bot that answers hint (default: search, whatever --bots says)"
    )
    parser.add_argument("--seed", type=int, help="deal and bots from this seed (default: a fresh one, shown)")
    parser.add_argument(
        "--delay", type=number_in(0), default=DEFAULT_DELAY,
        help=f"seconds before each bot move, a finite number >= 0 (default {DEFAULT_DELAY})",
    )  # fmt: skip
    parser.add_argument("--max-hands", type=int, metavar="N", help="stop after N hands (Schneider: rounds)")
    parser.add_argument("--record", metavar="FILE", help="save the game record (JSON) here, kept after every hand")
    parser.add_argument("--ascii", action="store_true", help="suit letters (AS) instead of symbols (A♠), plain boxes")
    parser.add_argument("--no-color", action="store_true", help="no colours (suits keep their symbols)")
    return parser


def main(argv: list[str] | None = None, **injected: Any) -> None:
    """Run ``smear-rl play``; ``console``, ``read`` and ``sleep`` may be injected as for :func:`build_game`."""
    try:
        game = build_game(argv, **injected)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    game.run()


def build_game(
    argv: list[str] | None = None,
    *,
    console: Console | None = None,
    read: Reader | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> TerminalGame:
    """The game the options describe, checked before the first card: ``ValueError`` says what is wrong."""
    args = build_parser().parse_args(argv)
    console = console or Console(highlight=False, no_color=args.no_color)
    if read is None:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and the arrow-key history of entries at the prompt)
        read = input  # the plain prompt goes to input() itself, so readline can redraw it
    kind = load_kind(args.preset, args.rules, dict(parse_override(item) for item in args.set))
    if args.max_hands is not None and args.max_hands < 1:
        raise ValueError(f"--max-hands {args.max_hands}: expected at least 1")
    record = Path(args.record).expanduser() if args.record else None
    if record is not None:  # before the first card: a record that cannot be written would be lost at the end
        check_writable_file(record, "--record file")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    bots = split_agent_specs(args.bots) if args.bots else [default_bot(kind)]
    hint_name = args.hint_bot or default_bot(kind)
    try:
        session = Session.create(kind, args.seat, bots, seed)
        hint_bot = make_agent(hint_name, kind.agent_rules(), bot_seed(seed, -1))
    except ModuleNotFoundError as err:
        raise ValueError(f'that bot needs {err.name}: pip install "smear-rl[train]"') from None
    ascii_only = args.ascii or "utf" not in (console.encoding or "").lower()
    presenter = Presenter(kind, session.seat, session.specs, Glyphs(ascii=ascii_only))
    return TerminalGame(
        session,
        presenter,
        console,
        read,
        hint_bot=hint_bot,
        hint_name=hint_name,
        delay=args.delay,
        sleep=sleep,
        max_hands=args.max_hands,
        record_path=record,
    )
