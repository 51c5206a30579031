"""Where an agent's moons win and lose: the harness's games replayed, every moon counted by its side's score.

A diagnostic for `minnesota`, where a made moon wins the match only from a positive score (from zero
or less it resets the score to 0) and a failed one loses it. A win rate says how often an agent
loses, not that it lost by shooting the moon from 0, where a made moon gains nothing. Plays the
same games as ``smear-rl evaluate A B --preset P --matches N --seed S`` (same deals, seats and
agent seeds) and prints, for A and for B, its moons by score before the hand (above zero, or zero
and below) and outcome, and how many of A's losses ended on a moon of its own that failed.

    .venv/bin/python research/scripts/moon_profile.py neural:match_moon=false random --matches 1000 --seed 1

(``neural:match_moon=false``: the shipped network's own moon calls; ``neural`` and a checkpoint path
call the moon by the match odds on minnesota, ``agents.neural_agent.NeuralAgent``.)
"""

from __future__ import annotations

import argparse
from collections import Counter

from smear_env.actions import MOON_BID
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.tally import Tally


def moon_profile(agent_a: str, agent_b: str, preset: str, matches: int, seed: int, max_hands: int) -> Counter[str]:
    """Counts of each side's moons by start and outcome, of A's losses, and of those that ended on A's failed moon."""
    runner = Runner(MatchConfig(agent_a, agent_b, preset, seed, max_hands, {}))
    counts: Counter[str] = Counter()
    for index in range(matches):
        outcome = runner.play(index, [Tally(), Tally()])
        game = runner.env.unwrapped.game
        last = None
        for result in game.results():
            if result.bid != MOON_BID:
                last = None
                continue
            team = game.team_of(result.bidder)
            role = "A" if result.bidder in outcome.a_seats else "B"
            start = "above 0" if result.scores_before[team] > 0 else "0 or less"
            counts[f"{role} moon from {start} {'made' if result.made else 'set'}"] += 1
            last = (role, start, result.made)
        if outcome.score_a == 0:
            counts["A lost"] += 1
            if last is not None and last[0] == "A" and not last[2]:
                counts[f"A lost on its moon from {last[1]}"] += 1
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent_a", help="agent spec, as smear-rl evaluate takes it (a .npz/.pt path or a bot name)")
    parser.add_argument("agent_b")
    parser.add_argument("--preset", default="minnesota")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-hands", type=int, default=200)
    args = parser.parse_args(argv)
    counts = moon_profile(args.agent_a, args.agent_b, args.preset, args.matches, args.seed, args.max_hands)
    print(f"{args.matches} matches, {args.agent_a} (A) against {args.agent_b} (B), {args.preset}, seed {args.seed}")
    for key in sorted(counts):
        print(f"  {key:<36} {counts[key]:>6}")


if __name__ == "__main__":
    main()
