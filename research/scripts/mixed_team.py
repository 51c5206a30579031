"""A team of two agents: some of side A's seats play one agent, the rest another, against a third.

Why: when a network is changed toward another player's card play, does it lose because each
seat plays worse, or because its partners (copies of itself) no longer read each other's
play? Replacing one, two or all of a team's seats with the changed network tells the two
apart. This plays the harness's games (the same deals, lineups and agent seeds as
``smear-rl evaluate`` with the same seed); in each game the first ``--seats`` seats of A's
team play ``mixed``, its other seats ``agent_a``.

    .venv/bin/python research/scripts/mixed_team.py agents/shipped/retired/schmier.npz fitted.npz rule \
        --preset schmier --seats 1 --games 200
"""

from __future__ import annotations

import argparse

from agents.base import Agent
from agents.registry import make_agent
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.lineups import A, lineup
from training.evaluate.tally import Tally


class MixedRunner(Runner):
    """The harness's runner, with the first ``count`` seats of A's team in each game playing ``mixed``."""

    def __init__(self, config: MatchConfig, mixed: str, count: int) -> None:
        super().__init__(config)
        self.mixed, self.count = mixed, count

    def agent(self, role: int, seat: int, seed: int) -> Agent:
        key = (role, seat)
        if role == A and key not in self._agents and self._mixed_seat(seat):
            self._agents[key] = make_agent(self.mixed, self.rules, seed)
        return super().agent(role, seat, seed)

    def _mixed_seat(self, seat: int) -> bool:
        # A's seats alternate between games; its k-th seat in either game is the k-th of its team there
        team = [s for s, role in enumerate(lineup(0, self.teams)) if role == A]
        other = [s for s, role in enumerate(lineup(1, self.teams)) if role == A]
        return seat in team[: self.count] or seat in other[: self.count]


def play(
    agent_a: str, mixed: str, agent_b: str, preset: str, seats: int, games: int, seed: int = 1
) -> tuple[float, float]:
    """A's wins (draws half) and mean hand reward over the harness's first ``games`` games of ``seed``."""
    runner = MixedRunner(MatchConfig(agent_a, agent_b, preset, seed, 200, {}), mixed, seats)
    outcomes = [runner.play(index, [Tally(), Tally()]) for index in range(games)]
    rewards = [o.reward_a for o in outcomes if o.reward_a is not None]
    return sum(o.score_a for o in outcomes), sum(rewards) / len(rewards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent_a", help="the agent of A's other seats")
    parser.add_argument("mixed", help="the agent of A's first --seats seats")
    parser.add_argument("agent_b", help="the opponents")
    parser.add_argument("--preset", default="schmier")
    parser.add_argument("--seats", type=int, default=1, help="how many of A's seats play the mixed agent")
    parser.add_argument("--games", type=int, default=200, help="the harness's first games of this seed")
    parser.add_argument("--seed", type=int, default=1, help="the harness seed (as smear-rl evaluate --seed)")
    args = parser.parse_args()
    wins, reward = play(args.agent_a, args.mixed, args.agent_b, args.preset, args.seats, args.games, args.seed)
    print(f"A = {args.agent_a} with {args.seats} seat(s) of {args.mixed}, against {args.agent_b} on {args.preset}, "
          f"seed {args.seed}: {wins:g} of {args.games} games, hand reward {reward:+.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
