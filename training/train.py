"""Train an agent by masked PPO self-play (``smear-rl train``), writing checkpoints and TensorBoard logs.

``--config`` names a TOML file or a shipped config (``ten_point``, ``minnesota``,
``ten_point_quick``, ``ten_point_exploiter``, ...); ``--set name=value`` overrides any field
of :class:`training.config.TrainConfig`. ``--resume runs/x/checkpoint.pt`` continues a
run with its own config (the output folder defaults to the checkpoint's); ``--set``
may then change only when it stops and how it is evaluated (e.g. ``--set
time_limit_minutes=90`` to train longer). A bar shows how far the run is, by
the limit it will stop at (decisions or training minutes, whichever comes first). At
the end the run evaluates the agent against each baseline and says in plain words what
it made, how it compares with them, and what to try next; ``runs/x/agent.pt`` is the
file to ship or to pass to ``smear-rl evaluate``.

A config that is missing, a folder, not TOML or not valid, an ``--out`` that is
a file, or a checkpoint that cannot be resumed ends it at once with one line
and exit code 2, leaving no output folder behind.

Examples::

    smear-rl train --config ten_point_quick --out runs/quick         # the main job (scripts/train.sh)
    smear-rl train --config minnesota --set time_limit_minutes=30 --set seed=3
    smear-rl train --resume runs/quick/checkpoint.pt --set time_limit_minutes=10
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from training.cli import ArgumentParser, check_output_folder, check_readable_file, int_at_least
from training.config import load_config, parse_overrides
from training.ppo import Trainer
from training.run_summary import plan, summary
from training.stopping import StopRequested, StopSignals


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog="smear-rl train",
        description=__doc__.split("Examples::")[0],
        epilog="examples:" + __doc__.split("Examples::")[1],
    )
    p.add_argument("--config", default=None,
                   help="a TOML file, or a shipped config (ten_point, minnesota, ...; default ten_point)")  # fmt: skip
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                   help="override a config field, e.g. --set total_steps=200000 (repeatable)")  # fmt: skip
    p.add_argument("--out", help="output folder (default runs/<preset>)")
    p.add_argument("--resume", help="checkpoint.pt of a run to continue")
    p.add_argument("--recipe", help="a recipe (a TOML file, or a shipped recipe's name): every stage in order, "
                   "resuming where it stopped (configs/recipes/)")  # fmt: skip
    p.add_argument("--start-from", metavar="RUN_DIR", default=None,
                   help="with --recipe, into a new --out: take the finished stages of another recipe's run that "
                   "are this recipe's first stages, instead of running them again")  # fmt: skip
    p.add_argument("--workers", type=int_at_least(0), default=None,
                   help="Ray processes collecting experience (the config's workers; 0: this process)")  # fmt: skip
    p.add_argument("--address", default="",
                   help="a running Ray cluster for the workers (host:port); default: Ray on this machine")  # fmt: skip
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.recipe:
        run_recipe(parser, args)
        return
    if args.start_from:
        parser.error("--start-from takes finished stages of a recipe's run: it goes with --recipe")
    try:
        if args.resume:
            check_readable_file(args.resume, "--resume checkpoint")
            out = check_output_folder(Path(args.out) if args.out else Path(args.resume).parent, "--out folder")
            if args.workers is not None:
                raise ValueError("--workers is part of a run's config: a resumed run keeps its own")
            trainer = Trainer(None, out, resume=args.resume, extend=parse_overrides(args.overrides),
                              address=args.address)  # fmt: skip
            check_address_has_workers(args.address, [trainer.config.workers])
        else:
            workers = [f"workers={args.workers}"] if args.workers is not None else []
            config = load_config(args.config or "ten_point", [*args.overrides, *workers])
            out = check_new_run_folder(Path(args.out or f"runs/{config.preset}"))
            check_address_has_workers(args.address, [config.workers])
            trainer = Trainer(config, out, address=args.address)
    except ValueError as err:
        parser.error(str(err))
    try:
        with StopSignals() as stop:
            print(plan(out, trainer.config, trainer.step), flush=True)
            trainer.run(progress=not args.no_progress, stop=stop)
    except StopRequested as stopped:
        sys.exit(f"\n{stopped}: continue with --resume {out / 'checkpoint.pt'}")
    except KeyboardInterrupt:  # asked twice: the state mid-rollout is not saved, resuming from a checkpoint stays exact
        sys.exit(f"\ninterrupted: continue with --resume {out / 'checkpoint.pt'} (saved every "
                 f"{trainer.config.checkpoint_every} updates and at each evaluation)")  # fmt: skip
    print(summary(out, trainer.config, trainer.step, trainer.train_seconds / 60))


def check_new_run_folder(out: Path) -> Path:
    """``out`` if a new run may start there: a folder holding another run's checkpoint or agent is refused.

    A new run writes its checkpoint, agent and curve over the old run's (the same command twice,
    with the default ``runs/<preset>``, wiped the first run); resuming it is what was meant, or another folder.
    """
    out = check_output_folder(out, "--out folder")
    held = [name for name in ("checkpoint.pt", "agent.pt") if (out / name).exists()]
    if held:
        raise ValueError(
            f"--out folder {str(out)!r} already holds a run ({', '.join(held)}): continue it with --resume "
            f"{out / 'checkpoint.pt'}, or give another --out (or remove the folder to start it again)"
        )
    return out


def check_address_has_workers(address: str, workers: list[int]) -> None:
    """``--address`` is where the collection workers run: a run without any would ignore it, and train alone."""
    if address and not any(workers):
        raise ValueError(f"--address {address} is the Ray cluster of the collection workers, and this run has none: "
                         "give --workers N (N >= 1)")  # fmt: skip


def run_recipe(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--recipe``: every stage of a recipe in ``--out`` (default ``runs/<recipe name>``), resumable."""
    from training.ray_start import RayClusterError
    from training.recipe import RecipeRun, load_recipe, start_from_run

    if args.resume or args.overrides or args.config:
        parser.error("--recipe runs the recipe's own stages: --config, --set and --resume do not go with it "
                     "(to continue a recipe, run the same command again)")  # fmt: skip
    try:
        recipe = load_recipe(args.recipe)
        out = check_output_folder(Path(args.out or f"runs/{recipe.name}"), "--out folder")
        stages = [{**recipe.defaults, **stage.settings}.get("workers", 0) for stage in recipe.stages]
        check_address_has_workers(args.address, [args.workers] if args.workers is not None else stages)
        if args.start_from:
            taken = start_from_run(recipe, out, args.start_from)
            print(f"[recipe {recipe.name}] stages {', '.join(taken)} taken from {args.start_from}")
        run = RecipeRun(recipe, out, workers=args.workers, address=args.address)
    except ValueError as err:
        parser.error(str(err))
    try:
        with StopSignals() as stop:
            agent = run.run(progress=not args.no_progress, stop=stop)
    except RayClusterError as err:  # its stage starts Ray: the cluster's refusal comes only now
        parser.error(str(err))
    except KeyboardInterrupt as stopped:  # StopRequested (saved) or asked twice (from the last checkpoint)
        why = f"{stopped}" if isinstance(stopped, StopRequested) else "interrupted"
        sys.exit(f"\n{why}: run the same command again to continue the recipe in {out}")
    print(f"\nagent: {agent}  (torch-free: {agent.with_suffix('.npz')}); stages: {out / 'recipe.json'}")


if __name__ == "__main__":
    main()
