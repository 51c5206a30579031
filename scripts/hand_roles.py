"""Where an agent's score comes from: its score change per hand, split by the part it played in the hand.

A win rate says who won, not why a match did not end. Against random players on
``ten_point_5p`` many matches are still going at the harness's deal cap (a draw), and
the question is which hands drag the agent's score down: its own bids, a random bidder
calling it as partner, or defending. This plays the harness's games (the same deals,
lineups and agent seeds as ``smear-rl evaluate`` with the same seed) and prints, for the
agent in role A, each role's count of seat-hands and mean score change, and the net per
seat-hand, split by how many seats A holds (five-seat games alternate 3 and 2).

    .venv/bin/python scripts/hand_roles.py agents/shipped/ten_point_5p.npz random --preset ten_point_5p --games 16
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import smear_env
from smear_env.rules import list_presets as smear_presets
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.lineups import A, lineup
from training.evaluate.tally import Tally

#: the part a seat of A played in a hand, from the bidder's role and the seat's scoring side
ROLES = ("bids", "partner of A", "partner of B", "defends against A", "defends against B")


def hand_role(result: Any, seat: int, roles: Sequence[int]) -> str:
    """What ``seat`` (one of A's) was in this hand: the bidder, on the bidder's side, or against it."""
    bidder_role = "A" if roles[result.bidder] == A else "B"
    if seat == result.bidder:
        return "bids"
    if result.side_of_seat[seat] == result.side_of_seat[result.bidder]:
        return f"partner of {bidder_role}"
    return f"defends against {bidder_role}"


def role_deltas(
    agent_a: str, agent_b: str, preset: str, games: int, seed: int = 1, max_hands: int = 200
) -> dict[tuple[int, str], list[float]]:
    """(seats A holds, role) -> [seat-hands, total score change] over the harness's first ``games`` games."""
    if preset in smear_env.OTHER_GAMES:
        smear = ", ".join(smear_presets())
        raise ValueError(f"{preset} has rounds, not bid hands: expected a Smear preset ({smear})")
    runner = Runner(MatchConfig(agent_a, agent_b, preset, seed, max_hands, {}))
    totals: dict[tuple[int, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for index in range(games):
        runner.play(index, [Tally(), Tally()])
        roles = lineup(index, runner.teams)
        a_seats = [s for s, role in enumerate(roles) if role == A]
        for result in runner.env.unwrapped.game.hand_results:
            for seat in a_seats:
                entry = totals[(len(a_seats), hand_role(result, seat, roles))]
                entry[0] += 1
                entry[1] += result.deltas[result.side_of_seat[seat]]
    return dict(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent_a", help="the agent whose hands are split: rule, random, search, a checkpoint path")
    parser.add_argument("agent_b", help="its opponent")
    parser.add_argument("--preset", default="ten_point_5p")
    parser.add_argument("--games", type=int, default=16, help="the harness's first games of this seed")
    parser.add_argument("--seed", type=int, default=1, help="the harness seed (as smear-rl evaluate --seed)")
    parser.add_argument("--max-hands", type=int, default=200, help="deals after which a game is stopped")
    args = parser.parse_args()
    totals = role_deltas(args.agent_a, args.agent_b, args.preset, args.games, args.seed, args.max_hands)
    print(f"{args.agent_a} (A) against {args.agent_b} on {args.preset}: {args.games} games, seed {args.seed}")
    print(f"{'A holds':>8} {'role':20} {'seat-hands':>11} {'share':>6} {'mean change':>12}")
    for n_seats in sorted({n for n, _ in totals}):
        rows = {role: totals[(n_seats, role)] for role in ROLES if (n_seats, role) in totals}
        seat_hands = sum(count for count, _ in rows.values())
        for role, (count, total) in rows.items():
            print(f"{n_seats:>8} {role:20} {count:>11.0f} {count / seat_hands:>6.1%} {total / count:>+12.2f}")
        net = sum(total for _, total in rows.values()) / seat_hands
        print(f"{n_seats:>8} {'net per seat-hand':20} {seat_hands:>11.0f} {'':>6} {net:>+12.2f}")


if __name__ == "__main__":
    main()
