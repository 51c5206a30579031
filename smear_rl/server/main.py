"""``smear-rl serve``: run the bot service under uvicorn, bound to 127.0.0.1 unless told otherwise.

    smear-rl serve                                   # http://127.0.0.1:8000/docs
    smear-rl serve --port 9000 --max-tables 50 --search-workers 1 --cors-origins '*'
    smear-rl export runs/ten_point/agent.pt -o mine.npz  # a trained agent, torch-free
    smear-rl serve --agent mine=mine.npz                 # ... served, asked for as bot "mine"

Every limit is an option (``smear-rl serve --help``); see ``docs/protocol.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from smear_rl.server.limits import add_arguments, settings_from_args


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smear-rl serve",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    add_arguments(parser)
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="serve an exported agent (.npz, from smear-rl export) as bot NAME; repeatable",
    )
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    return parser


def exported_agents(items: list[str]) -> dict[str, str]:
    """``NAME=PATH`` options as a mapping; ``ValueError`` naming a malformed one or a missing file."""
    from agents.registry import agent_names
    from smear_env.schneider.game import GAME_NAME

    taken = set(agent_names()) | set(agent_names(GAME_NAME))  # the service's own bots keep their names
    out = {}
    for item in items:
        name, equals, path = item.partition("=")
        if not equals or not name.isidentifier() or not path:
            raise ValueError(f"--agent {item!r}: expected NAME=PATH, e.g. mine=runs/x.npz")
        if name in taken or name in out:
            what = "a bot of the service's own" if name in taken else "given twice"
            raise ValueError(f"--agent {item!r}: the name {name!r} is {what}: expected another name")
        if not Path(path).is_file():
            raise ValueError(f"--agent {item!r}: no file {path!r}")
        out[name] = path
    return out


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        settings = settings_from_args(args)
        exported = exported_agents(args.agent)
        from agents.neural_agent import load_policy

        for path in exported.values():
            load_policy(path)  # a bad file fails now, not on the first request
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    import uvicorn

    from smear_rl.server.app import create_app

    uvicorn.run(
        create_app(settings, exported),
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=10,
    )  # calls still queued (search) do not hold up a stop for long


if __name__ == "__main__":
    main()
