"""Draw a training run's learning curve: ``smear-rl plot runs/x/curve.csv -o curve.png``.

Plots each evaluation's win rate against every baseline over training time
(evaluation time excluded), with its 95% Wilson interval as a band. ``curve.csv``
is written by ``smear-rl train`` in its output folder.
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path


def plot_curve(curve: str | Path, out: str | Path, title: str | None = None, target: float | None = None) -> Path:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on training machines
    import matplotlib.pyplot as plt

    series: dict[str, list[dict[str, str]]] = defaultdict(list)
    with Path(curve).open() as f:
        for row in csv.DictReader(f):
            series[row["opponent"]].append(row)
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for opponent, rows in series.items():
        x = [float(r["train_minutes"]) for r in rows]
        ax.plot(x, [float(r["win_rate"]) for r in rows], marker="o", ms=3, label=f"vs {opponent}")
        ax.fill_between(x, [float(r["ci_low"]) for r in rows], [float(r["ci_high"]) for r in rows], alpha=0.2)
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


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="smear-rl plot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("curve", help="curve.csv of a training run")
    p.add_argument("-o", "--out", required=True, help="PNG file to write")
    p.add_argument("--title", help="title above the plot (default: none)")
    p.add_argument("--target", type=float, default=None, help="draw a target win rate against rule (e.g. 0.65)")
    args = p.parse_args(argv)
    print(plot_curve(args.curve, args.out, args.title, args.target))


if __name__ == "__main__":
    main()
