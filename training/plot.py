"""Draw a training run's learning curve: ``smear-rl plot runs/x/curve.csv -o curve.png``.

Plots each evaluation's win rate against every baseline over training time
(evaluation time excluded), with its 95% Wilson interval as a band. ``curve.csv``
is written by ``smear-rl train`` in its output folder.
"""

from __future__ import annotations

import argparse
import csv
import math
from collections import defaultdict
from pathlib import Path

from training.cli import ArgumentParser, check_readable_file, check_writable_file, number_in

#: the curve.csv columns a plot reads
COLUMNS = ("opponent", "train_minutes", "win_rate", "ci_low", "ci_high")


def read_curve(curve: str | Path) -> dict[str, list[dict[str, float]]]:
    """The rows of a ``curve.csv`` by opponent; ``ValueError`` naming the file and what is wrong with it."""
    path = check_readable_file(curve, "curve")
    series: dict[str, list[dict[str, float]]] = defaultdict(list)
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise ValueError(f"it has no {missing[0]!r} column (expected the columns of training's curve.csv)")
            for line, row in enumerate(reader, 2):
                numbers = {c: float(row[c] or "nan") for c in COLUMNS[1:]}
                if not all(math.isfinite(v) for v in numbers.values()):
                    raise ValueError(f"line {line} holds a value that is not a number: {row}")
                series[row["opponent"]].append(numbers)
    except (ValueError, UnicodeDecodeError, csv.Error) as err:
        raise ValueError(f"curve {str(path)!r} cannot be plotted: {err}") from None
    if not series:
        raise ValueError(f"curve {str(path)!r} holds no evaluations to plot")
    return series


def plot_curve(curve: str | Path, out: str | Path, title: str | None = None, target: float | None = None) -> Path:
    series = read_curve(curve)
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on training machines
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for opponent, rows in series.items():
        x = [r["train_minutes"] for r in rows]
        ax.plot(x, [r["win_rate"] for r in rows], marker="o", ms=3, label=f"vs {opponent}")
        ax.fill_between(x, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.2)
    if target is not None:
        ax.axhline(target, color="grey", ls="--", lw=1, label=f"target {target:.0%} vs rule")
    ax.axhline(0.5, color="black", lw=0.5)
    ax.set(xlabel="training time (minutes, 2-core CPU, evaluations excluded)", ylabel="match win rate (duplicate)",
           ylim=(0, 1), title=title or f"learning curve: {Path(curve).parent.name}")  # fmt: skip
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return Path(out)


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="smear-rl plot", description=__doc__)
    p.add_argument("curve", help="curve.csv of a training run")
    p.add_argument("-o", "--out", required=True, help="PNG file to write")
    p.add_argument("--title", help="title above the plot (default: 'learning curve: ' and the run's folder name)")
    p.add_argument("--target", type=number_in(0, 1), default=None,
                   help="draw a target win rate against rule (0..1, e.g. 0.65)")  # fmt: skip
    return p


def check_image_format(out: str | Path) -> None:
    """``ValueError`` unless matplotlib can write an image of ``out``'s extension."""
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    if Path(out).suffix.lower().lstrip(".") not in formats:
        raise ValueError(f"plot file (-o) {str(out)!r}: expected an image file name ending in .{', .'.join(formats)}")


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        read_curve(args.curve)
        check_writable_file(args.out, "plot file (-o)", create_parents=True)
        check_image_format(args.out)
    except ValueError as err:
        parser.error(str(err))
    print(plot_curve(args.curve, args.out, args.title, args.target))


if __name__ == "__main__":
    main()
