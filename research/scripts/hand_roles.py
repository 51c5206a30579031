"""Where an agent's score comes from: its score change per hand, split by the part it played in the hand.

A win rate says who won, not why a match did not end. Against random players on
``ten_point_5p`` many matches are still going at the harness's deal cap (a draw), and
the question is which hands drag the agent's score down: its own bids, a random bidder
calling it as partner, or defending. This plays the harness's games (the same deals,
lineups and agent seeds as ``smear-rl evaluate`` with the same seed) and prints, for the
agent in role A, each role's count of seat-hands and mean score change, and the net per
seat-hand, split by how many seats A holds (five-seat games alternate 3 and 2).

    .venv/bin/python research/scripts/hand_roles.py agents/shipped/retired/ten_point_5p.npz random \
        --preset ten_point_5p --games 16

``--by-bid`` splits each role by the winning bid as well, with the share of those bids made.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Iterator, Sequence
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


def seat_hands(
    agent_a: str, agent_b: str, preset: str, games: int, seed: int = 1, max_hands: int = 200
) -> Iterator[tuple[int, str, Any, int]]:
    """(seats A holds, role, hand result, seat) for each seat-hand of A over the harness's first ``games`` games."""
    if preset in smear_env.OTHER_GAMES:
        smear = ", ".join(smear_presets())
        raise ValueError(f"{preset} has rounds, not bid hands: expected a Smear preset ({smear})")
    runner = Runner(MatchConfig(agent_a, agent_b, preset, seed, max_hands, {}))
    for index in range(games):
        runner.play(index, [Tally(), Tally()])
        roles = lineup(index, runner.teams)
        a_seats = [s for s, role in enumerate(roles) if role == A]
        for result in runner.env.unwrapped.game.hand_results:
            for seat in a_seats:
                yield len(a_seats), hand_role(result, seat, roles), result, seat


def role_deltas(
    agent_a: str, agent_b: str, preset: str, games: int, seed: int = 1, max_hands: int = 200
) -> dict[tuple[int, str], list[float]]:
    """(seats A holds, role) -> [seat-hands, total score change] over the harness's first ``games`` games."""
    totals: dict[tuple[int, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for n_seats, role, result, seat in seat_hands(agent_a, agent_b, preset, games, seed, max_hands):
        entry = totals[(n_seats, role)]
        entry[0] += 1
        entry[1] += result.deltas[result.side_of_seat[seat]]
    return dict(totals)


def bid_deltas(
    agent_a: str, agent_b: str, preset: str, games: int, seed: int = 1, max_hands: int = 200
) -> dict[tuple[int, str, int], list[float]]:
    """(seats A holds, role, winning bid) -> [seat-hands, total score change, hands the bid was made].

    Why: a called partner's loss is the bid it could not help make; the split by bid shows
    whether those are bids a partner's play could save or bids of 10 (every point of the hand).
    """
    totals: dict[tuple[int, str, int], list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for n_seats, role, result, seat in seat_hands(agent_a, agent_b, preset, games, seed, max_hands):
        entry = totals[(n_seats, role, result.bid)]
        entry[0] += 1
        entry[1] += result.deltas[result.side_of_seat[seat]]
        entry[2] += result.made
    return dict(totals)


def print_roles(totals: dict[tuple[int, str], list[float]]) -> None:
    """Each role's share of seat-hands and mean score change, and the net, per count of A's seats."""
    print(f"{'A holds':>8} {'role':20} {'seat-hands':>11} {'share':>6} {'mean change':>12}")
    for n_seats in sorted({n for n, _ in totals}):
        rows = {role: totals[(n_seats, role)] for role in ROLES if (n_seats, role) in totals}
        seat_hands = sum(count for count, _ in rows.values())
        for role, (count, total) in rows.items():
            print(f"{n_seats:>8} {role:20} {count:>11.0f} {count / seat_hands:>6.1%} {total / count:>+12.2f}")
        net = sum(total for _, total in rows.values()) / seat_hands
        print(f"{n_seats:>8} {'net per seat-hand':20} {seat_hands:>11.0f} {'':>6} {net:>+12.2f}")


def print_bids(totals: dict[tuple[int, str, int], list[float]]) -> None:
    """Each (seats, role, bid) cell's seat-hands, mean score change and share of bids made."""
    print(f"{'A holds':>8} {'role':20} {'bid':>4} {'seat-hands':>11} {'mean change':>12} {'made':>6}")
    for (n_seats, role, bid), (count, total, made) in sorted(totals.items(), key=_bid_row_order):
        print(f"{n_seats:>8} {role:20} {bid:>4} {count:>11.0f} {total / count:>+12.2f} {made / count:>6.1%}")


def _bid_row_order(item: tuple[tuple[int, str, int], list[float]]) -> tuple[int, int, int]:
    n_seats, role, bid = item[0]
    return n_seats, ROLES.index(role), bid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent_a", help="the agent whose hands are split: rule, random, search, a checkpoint path")
    parser.add_argument("agent_b", help="its opponent")
    parser.add_argument("--preset", default="ten_point_5p")
    parser.add_argument("--games", type=int, default=16, help="the harness's first games of this seed")
    parser.add_argument("--seed", type=int, default=1, help="the harness seed (as smear-rl evaluate --seed)")
    parser.add_argument("--max-hands", type=int, default=200, help="deals after which a game is stopped")
    parser.add_argument("--by-bid", action="store_true", help="split each role by the winning bid too")
    args = parser.parse_args()
    print(f"{args.agent_a} (A) against {args.agent_b} on {args.preset}: {args.games} games, seed {args.seed}")
    match = (args.agent_a, args.agent_b, args.preset, args.games, args.seed, args.max_hands)
    if args.by_bid:
        print_bids(bid_deltas(*match))
    else:
        print_roles(role_deltas(*match))


if __name__ == "__main__":
    main()
