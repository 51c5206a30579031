"""The ``smear-rl`` command: one entry point whose subcommands live in the modules that own them.

Each subcommand is a module with a ``main(argv)`` function, imported only when
asked for, so ``smear-rl serve`` works without torch and ``smear-rl train``
without the service's packages. A missing optional dependency is reported with
the extra that brings it.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
from collections.abc import Callable

# One BLAS thread per process, set before numpy loads: bots, trainers and teachers multiply one position (or a
# few) at a time, where BLAS threads only wait on each other. Measured 2026-12-04 on 2 busy cores: a distillation
# run's collection went from 172 to 562 decisions a second (a teacher's 0.1 ms product had taken 5 ms).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: subcommand -> (module holding ``main(argv)``, extra that installs what it needs or "", one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "train": ("training.train", "train", "train an agent by self-play (PPO), writing checkpoints and TensorBoard logs"),
    "evaluate": ("training.evaluate.cli", "eval", "pit agents against each other in duplicate matches, with intervals"),
    "demo": ("agents.demo", "", "print a match among bots, hand by hand"),
    "play": ("smear_rl.play.cli", "", "play the bots in the terminal: any preset or house rules, hints, records"),
    "pool": ("training.pool", "eval", "add up evaluation results of one match-up run on several seeds"),
    "compare": ("training.compare", "eval", "compare two agents game by game on the same deals (paired)"),
    "rate": ("training.benchmark.rate_cli", "eval", "rate an agent on a benchmark task: one rating on a fixed scale"),
    "exploit": ("training.benchmark.exploit_cli", "train", "PPO against a frozen agent: approximate exploitability"),
    "distill": ("training.distill", "train", "teach a trained agent the search bot's card play"),
    "plot": ("training.plot", "train", "draw a training run's learning curve as a PNG"),
    "bench": ("smear_rl.bench", "", "measure the speed of the env, the engine and the bots on this machine"),
    "export": ("training.export", "train", "export a training checkpoint (.pt) to a torch-free policy file (.npz)"),
    "serve": ("smear_rl.server.main", "serve", "run the bot service: bots' moves and tables over HTTP (127.0.0.1)"),
}


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: smear-rl <command> [options]   (smear-rl <command> --help for its options)", "", "commands:"]
    lines += [f"  {name:<{width}}  {help_}" for name, (_, _, help_) in COMMANDS.items()]
    return "\n".join(lines)


def _entry(command: str) -> Callable[[list[str]], object]:
    module_name, extra, _ = COMMANDS[command]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and not err.name.startswith(("smear_env", "smear_rl", "agents", "training")) and extra:
            sys.exit(f"error: 'smear-rl {command}' needs {err.name}: pip install \"smear-rl[{extra}]\"")
        raise
    return module.main


def main(argv: list[str] | None = None) -> None:
    """Run ``smear-rl <command> ...``; unknown commands exit with code 2 and the list of commands."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        close = difflib.get_close_matches(command, COMMANDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        print(f"error: unknown command {command!r}{hint}\n\n{_usage()}", file=sys.stderr)
        sys.exit(2)
    try:
        _entry(command)(rest)
    except BrokenPipeError:  # the reader left early (`smear-rl pool ... | head -1`): stop quietly, as cat does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush fails no more
        sys.exit(141)  # 128 + SIGPIPE, the status a shell gives a program killed by a closed pipe


if __name__ == "__main__":
    main()
