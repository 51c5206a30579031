"""Did a focused stage learn the house-rule sets it trained on? Two agents on a run's most-drawn focus sets.

Why: a stage with ``focus_sets`` (training/focus.py) draws its house-rule matches from the sets
where its starting agent lost most. If the held-out sets do not move, either PPO did not learn
those sets, or it learned them and that did not carry to sets it never saw. This plays the
agent before the stage and the one after it against the rule bot on the ``--top`` most-drawn
sets of the stage's ``focus.json``, on fresh deals (not the scoring's: the sets were chosen for
losing those, so replaying them would flatter any change), and prints each set and the means.
These are training sets: a diagnosis, never a strength figure.

    .venv/bin/python research/scripts/focus_transfer.py runs/universal_focus/3_focus/focus.json \\
        runs/universal/agent.npz runs/universal_focus/agent.pt --top 24 --games 40
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from smear_env.house_rules import describe_changes
from training.evaluate.seeds import derive_seed
from training.focus import FocusSet, score_set


def transfer(focus_file: Path, before: str, after: str, top: int, games: int, seed: int) -> list[tuple[str, ...]]:
    """Rows of (rules, share won when scored, before's win rate, after's) on the ``top`` most-drawn sets."""
    sets = sorted((FocusSet.from_dict(f) for f in json.loads(focus_file.read_text())), key=lambda f: -f.weight)
    rows = []
    for k, focus in enumerate(sets[:top]):
        rules = focus.rules()
        deals = derive_seed("focus transfer", seed, k)
        won = [score_set(agent, rules, games, deals) / games for agent in (before, after)]
        scored = focus.won / focus.games
        rows.append((f"{rules.name}: {describe_changes(rules)}", *(f"{w:.3f}" for w in (scored, *won))))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("focus", type=Path, help="a focused stage's focus.json")
    parser.add_argument("before", help="the agent the stage started from")
    parser.add_argument("after", help="the stage's agent")
    parser.add_argument("--top", type=int, default=24, help="the most-drawn sets to play")
    parser.add_argument("--games", type=int, default=40, help="games against the rule bot on each set (even)")
    parser.add_argument("--seed", type=int, default=0, help="deals (none of the scoring's)")
    args = parser.parse_args(argv)
    rows = transfer(args.focus, args.before, args.after, args.top, args.games, args.seed)
    print("| rules | won when scored | before, fresh deals | after, fresh deals |\n|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    means = [sum(float(r[i]) for r in rows) / len(rows) for i in (1, 2, 3)]
    print(f"| mean of {len(rows)} | {means[0]:.3f} | {means[1]:.3f} | {means[2]:.3f} |")


if __name__ == "__main__":
    main()
