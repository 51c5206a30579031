"""Which half of an agent's game trails another's: its bids or its card play.

Why: an agent that loses to another head to head may lose in the auction or in the tricks, and
the harness's win rate cannot say which. Two seats made of halves can: the agent's bids (and
its trumps and calls) with the other's discards and card play, and the other way round, each
played against the other agent on the same duplicate deals. Where the bidder's first lead sets
trump (``trump_by = "first_lead"``: ``pitch_smudge``, ``four_point``, ``six_point``) that lead is
the trump choice, so it goes with the bids. On ``pitch_smudge`` (research log, 2026-12-07) the
universal agent won 0.470 against the specialist; with the first lead counted as play, its bids
with the specialist's play won 0.467 and the specialist's bids with its play 0.492.

    .venv/bin/python research/scripts/bids_or_play.py agents/shipped/universal.npz agents/shipped/pitch_smudge.npz \
        --preset pitch_smudge --games 2000 --seed 9003
"""

from __future__ import annotations

import argparse
from typing import Any

from agents.base import Agent
from agents.registry import make_agent
from training.evaluate.cli import add_table_arguments, table_from_arguments
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.lineups import A
from training.evaluate.tally import Tally
from training.stats import wilson_interval

AUCTION = ("bid", "trump", "call")  # the phases the bidding half plays; the other half discards and plays the cards


def names_trump(view: dict[str, Any]) -> bool:
    """Whether this move chooses trump: the auction's phases, or a lead that sets trump (``trump_by = "first_lead"``,
    where no trump is set until the bidder leads)."""
    return view.get("phase") in AUCTION or (view.get("phase") == "play" and view.get("trump") is None)


class Halves(Agent):
    """One seat: ``bidder`` in the auction (bids, trump, calls, and a trump-setting first lead), ``player`` in the
    discards and the tricks."""

    def __init__(self, bidder: Agent, player: Agent, seed: int | None = None) -> None:
        super().__init__(seed)
        self.bidder, self.player = bidder, player

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.bidder.reset(seed)
        self.player.reset(seed)

    def act(self, view: dict[str, Any], observation: Any = None) -> int:
        half = self.bidder if names_trump(view) else self.player
        return half.act(view, observation)


class HalvesRunner(Runner):
    """The harness's runner with side A's seats made of halves: ``bidder``'s auction, ``player``'s play."""

    def __init__(self, config: MatchConfig, bidder: str, player: str) -> None:
        super().__init__(config)
        self.bidder, self.player = bidder, player

    def agent(self, role: int, seat: int, seed: int) -> Agent:
        key = (role, seat)
        if role == A and key not in self._agents:
            halves = make_agent(self.bidder, self.rules, seed), make_agent(self.player, self.rules, seed)
            self._agents[key] = Halves(*halves, seed)
        return super().agent(role, seat, seed)


def score(bidder: str, player: str, other: str, preset: str, rules: dict[str, Any], games: int, seed: int) -> float:
    """The share of ``games`` duplicate games won against ``other`` by seats that bid as ``bidder`` and play as
    ``player`` (a draw counts half)."""
    runner = HalvesRunner(MatchConfig(bidder, other, preset, seed, 200, rules), bidder, player)
    tallies = [Tally(), Tally()]
    return sum(runner.play(game, tallies).score_a for game in range(games)) / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="agent spec (make_agent), e.g. agents/shipped/universal.npz")
    parser.add_argument("other", help="agent spec it plays against, e.g. agents/shipped/pitch_smudge.npz")
    add_table_arguments(parser, games=400)
    args = parser.parse_args(argv)
    preset, rules = table_from_arguments(parser, args)
    a, b = args.agent, args.other
    print(f"against {b} on {preset} {rules or ''}, {args.games} games, seed {args.seed}")
    seats = {(a, a): "the agent", (a, b): "its bids, the other's play", (b, a): "the other's bids, its play"}
    for (bidder, player), label in seats.items():
        won = score(bidder, player, b, preset, rules, args.games, args.seed)
        low, high = wilson_interval(won * args.games, args.games)
        print(f"{label:28} {won:.3f} [{low:.3f}, {high:.3f}]", flush=True)


if __name__ == "__main__":
    main()
