"""How far a player that sees every card gets where the agent's games stall: an omniscient search in A's seats.

Against random players on ``ten_point_5p`` the shipped agent loses no game, yet many are
still going at the harness's 200-deal cap (a draw), nearly all with the agent in two seats
against three random ones (``research/scripts/hand_roles.py`` splits where its score goes). Is that
the agent's weakness or the game's? This puts, in A's seats, the search bot with the hidden
cards shown to it: it bids by one rollout of the true deal (no guess at the other hands),
and plays each card by solving the true remaining hands (one exact determinization, not
a sample of guesses). It is not a proof of an upper bound (the solver values a hand by my
side's change less the best other side's, and plays the others as if they played well),
but a player with that much information and search does not stall less by luck.

Plays the harness's games (the same deals, lineups and seeds as ``smear-rl evaluate`` with
the same seed) and prints, per count of A's seats, games won, lost and stopped, and each
role's mean score change a seat-hand, as ``research/scripts/hand_roles.py`` does.

    .venv/bin/python research/scripts/oracle_bound.py --games 100 --first 0 --seats 2 --json runs/oracle_0.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from agents.knowledge import Knowledge, knowledge_from_game
from agents.registry import make_agent
from agents.search_bot import SearchAgent, open_values
from smear_env.game import Deal
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.lineups import A, lineup
from training.evaluate.tally import Tally


def _sibling(name: str) -> Any:
    """A script beside this one, as a module (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hand_role = _sibling("hand_roles").hand_role


class OracleAgent(SearchAgent):
    """The search bot, reading the engine's game instead of its own view: every hand is open to it."""

    name = "oracle"

    def __init__(self, rules: Any, seed: int | None, env: Any) -> None:
        super().__init__(rules, seed, bid_samples=1, bid_risk=0.0, bid_by="rollouts")
        self.env = env

    def act(self, view: dict[str, Any], observation: Any = None) -> int:
        game = self.env.unwrapped.game
        return self.act_on(knowledge_from_game(game, game.current_player, self.rules))

    def _search_bid(self, k: Knowledge) -> int:
        true_deal = self.env.unwrapped.game.deals[-1]
        around = Deal.__dict__["around"]
        Deal.around = classmethod(lambda cls, rules, hand, seat, rng: true_deal)  # the one "sample" is the truth
        try:
            return super()._search_bid(k)
        finally:
            Deal.around = around

    def play_values(self, k: Knowledge) -> dict[int, float] | None:
        return open_values(k, list(self.env.unwrapped.game.hands))  # the true remaining hands, solved


class SplitAgent:
    """One agent for the auction, trump, call and discards, another for the card play: which half pays?"""

    def __init__(self, bidding: Any, playing: Any) -> None:
        self.bidding, self.playing = bidding, playing

    def reset(self, seed: int | None = None) -> None:
        self.bidding.reset(seed)
        self.playing.reset(seed)

    def act(self, view: dict[str, Any], observation: Any = None) -> int:
        agent = self.playing if view["phase"] == "play" else self.bidding
        return agent.act(view, observation)


class OracleRunner(Runner):
    """The harness's runner with the oracle in role A: bidding, card play or both (the other half ``other``)."""

    def __init__(self, config: MatchConfig, bids: str, play: str) -> None:
        super().__init__(config)
        self.bids, self.play_by = bids, play

    def _half(self, spec: str, seed: int) -> Any:
        return OracleAgent(self.rules, seed, self.env) if spec == "oracle" else make_agent(spec, self.rules, seed)

    def agent(self, role: int, seat: int, seed: int) -> Any:
        if role != A:
            return super().agent(role, seat, seed)
        key = (role, seat)
        if key not in self._agents:
            self._agents[key] = SplitAgent(self._half(self.bids, seed), self._half(self.play_by, seed))
        self._agents[key].reset(seed)
        return self._agents[key]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--preset", default="ten_point_5p")
    parser.add_argument("--first", type=int, default=0, help="the first of the harness's games to play")
    parser.add_argument("--games", type=int, default=20, help="how many of the harness's games, from --first")
    parser.add_argument("--seed", type=int, default=1, help="the harness seed (as smear-rl evaluate --seed)")
    parser.add_argument("--max-hands", type=int, default=200)
    parser.add_argument("--seats", type=int, help="play only the games where A holds this many seats")
    parser.add_argument("--bids", default="oracle", help="who bids, names trump, calls, discards: oracle or an agent")
    parser.add_argument("--play", default="oracle", help="who plays the cards: oracle or an agent spec")
    parser.add_argument("--json", help="write each game's outcome and the role totals here")
    args = parser.parse_args()
    config = MatchConfig(f"{args.bids}+{args.play}", args.opponent, args.preset, args.seed, args.max_hands, {})
    runner = OracleRunner(config, args.bids, args.play)
    games, roles_total = [], defaultdict(lambda: [0, 0.0])
    for index in range(args.first, args.first + args.games):
        roles = lineup(index, runner.teams)
        a_seats = [s for s, role in enumerate(roles) if role == A]
        if args.seats is not None and len(a_seats) != args.seats:
            continue
        outcome = runner.play(index, [Tally(), Tally()])
        for result in runner.env.unwrapped.game.hand_results:
            for seat in a_seats:
                entry = roles_total[f"{len(a_seats)} {hand_role(result, seat, roles)}"]
                entry[0] += 1
                entry[1] += result.deltas[result.side_of_seat[seat]]
        games.append({"index": index, "a_seats": len(a_seats), "score_a": outcome.score_a,
                      "stopped": outcome.stopped, "hands": outcome.hands})  # fmt: skip
        print(json.dumps(games[-1]), flush=True)
    for n in sorted({g["a_seats"] for g in games}):
        mine = [g for g in games if g["a_seats"] == n]
        won = sum(g["score_a"] == 1 for g in mine)
        lost = sum(g["score_a"] == 0 for g in mine)
        print(f"A in {n} seats: {len(mine)} games, {won} won, {lost} lost, {sum(g['stopped'] for g in mine)} stopped")
    for key, (count, total) in sorted(roles_total.items()):
        print(f"{key:28} {count:>7} seat-hands {total / count:+.2f}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"games": games, "roles": dict(roles_total), "args": vars(args)}, out, indent=1)


if __name__ == "__main__":
    main()
