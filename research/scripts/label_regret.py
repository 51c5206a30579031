"""How closely agents play a teacher's cards: agreement and regret on every labelled decision of label files.

Why: ``smear-rl distill`` reports its fit on held-out labelling matches only. To ask
how a changed network plays where it actually goes (say its own positions against the
rule bot, labelled with ``smear-rl distill --opponent rule --label-only``), measure each
network on the same labels: the share of decisions where its top card is one of the
teacher's best (agreement) and the points a decision gives up by the teacher's values
(regret).

    .venv/bin/python research/scripts/label_regret.py runs/labels/labels.npz agents/shipped/retired/schmier.npz \
        runs/distill/agent.pt
"""

from __future__ import annotations

import argparse

from training.checkpoint import checkpoint_rules, load_checkpoint, network_from_checkpoint
from training.distill import agreement, load_labels, with_card_features


def measure(labels_path: str, checkpoints: list[str]) -> dict[str, dict[str, float]]:
    """Each checkpoint's agreement and regret on every labelled decision of ``labels_path``."""
    labels = load_labels([labels_path])
    out = {}
    for path in checkpoints:
        data = load_checkpoint(path)
        net = network_from_checkpoint(data).eval()
        out[path] = agreement(net, with_card_features(net, labels, checkpoint_rules(data)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", help="a labels.npz written by smear-rl distill")
    parser.add_argument("checkpoints", nargs="+", help="agent.pt files to measure")
    args = parser.parse_args()
    for path, measured in measure(args.labels, args.checkpoints).items():
        print(f"{path}: agreement {measured['agreement']:.3f}, regret {measured['regret']:.3f} points a decision")


if __name__ == "__main__":
    main()
