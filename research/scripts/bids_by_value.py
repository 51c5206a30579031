"""Each side's winning bids by value: how many, how many made, and the points the bidder's side took.

Why: the harness reports a side's bid rate, make rate and mean bid, which cannot tell
an agent that bids too high from one whose bids its opponent defends better. Split by
the bid's value, on the same duplicate deals against two opponents, it can: the house
set 7 exploiter of the universal agent (research log, exploiters) was read this way.

    .venv/bin/python research/scripts/bids_by_value.py agents/shipped/universal.npz rule --house 7 \
        --games 200 --seed 9001
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from training.evaluate.cli import add_table_arguments, table_from_arguments
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.tally import Tally


def bids_by_value(agent: str, opponent: str, preset: str, rules: dict[str, Any], games: int, seed: int) -> dict:
    """``{(side, bid): [hands, made, bidder's side points]}``, side ``"agent"`` or ``"opponent"``, over ``games``."""
    runner = Runner(MatchConfig(agent, opponent, preset, seed, 200, rules))
    counts: dict[tuple[str, int], list[int]] = {}
    for game_index in range(games):
        outcome = runner.play(game_index, [Tally(), Tally()])
        for hand in runner.env.unwrapped.game.hand_results:
            if hand.bidder is None or hand.bidder < 0:  # thrown in: nobody bid
                continue
            side = "agent" if hand.bidder in outcome.a_seats else "opponent"
            row = counts.setdefault((side, hand.bid), [0, 0, 0])
            row[0] += 1
            row[1] += bool(hand.made)
            row[2] += hand.points[hand.side_of_seat[hand.bidder]]
    return dict(sorted(counts.items()))


def table(counts: dict) -> str:
    lines = ["side      bid  hands  made   bidder's points a hand"]
    for (side, bid), (hands, made, points) in counts.items():
        lines.append(f"{side:9} {bid:3} {hands:6}  {made / hands:.3f}  {points / hands:.2f}")
    sides: Counter[str] = Counter()
    for (side, _), (hands, _, _) in counts.items():
        sides[side] += hands
    lines.append(", ".join(f"{side}: {hands} bids" for side, hands in sides.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="agent spec (make_agent), e.g. agents/shipped/universal.npz")
    parser.add_argument("opponent", help="agent spec of the other side, e.g. rule")
    add_table_arguments(parser, games=200)
    args = parser.parse_args(argv)
    preset, rules = table_from_arguments(parser, args)
    print(f"{args.agent} against {args.opponent} on {preset} {rules or ''}, {args.games} games, seed {args.seed}")
    print(table(bids_by_value(args.agent, args.opponent, preset, rules, args.games, args.seed)))


if __name__ == "__main__":
    main()
