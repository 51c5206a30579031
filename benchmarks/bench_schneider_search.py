"""Time per decision of Bohemian Schneider agents, counting only real choices (two or more cards in hand).

Each measured agent plays whole matches against the rule bot, in seat 0 and seat 1
in turn; only its own decisions are timed. Prints, per agent, the median and
90th-percentile milliseconds per decision, overall and split by phase: while the
pile lasts (the search samples hidden cards) and once it is empty (one exact solve).
Agents are registry names with options, e.g. ``search:samples=32``. Run it alone on
an idle core: the figures are wall-clock times.

    python benchmarks/bench_schneider_search.py --agents rule search search:depth=1 --matches 20
"""

from __future__ import annotations

import argparse
import statistics
import time

from agents.registry import make_agent
from smear_env.schneider.game import Game
from smear_env.schneider.observation import player_view

PRESET = "bohemian_schneider"


def time_agent(spec: str, matches: int, seed: int = 0) -> dict[str, list[float]]:
    """Seconds of each timed decision of ``spec``, by phase ("pile", "endgame")."""
    times: dict[str, list[float]] = {"pile": [], "endgame": []}
    for match in range(matches):
        seat = match % 2
        agents = [make_agent("rule", PRESET, seed + match), make_agent("rule", PRESET, seed + match)]
        agents[seat] = make_agent(spec, PRESET, seed + match)
        game = Game(seed=seed * 100_000 + match)
        while not game.is_over:
            player = game.current_player
            view = player_view(game, player)
            start = time.perf_counter()
            action = agents[player].act(view)
            elapsed = time.perf_counter() - start
            if player == seat and len(view["legal_actions"]) > 1:
                times["pile" if view["pile_size"] else "endgame"].append(elapsed)
            game.apply(action)
    return times


def summary(times: list[float]) -> str:
    """``median | p90 | max`` in milliseconds."""
    if not times:
        return "- | - | -"
    times = sorted(times)
    p90 = times[int(0.9 * (len(times) - 1))]
    return f"{statistics.median(times) * 1e3:.2f} | {p90 * 1e3:.2f} | {times[-1] * 1e3:.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", nargs="+", default=["search"], help="registry names, with options")
    parser.add_argument("--matches", type=int, default=20, help="matches per agent (seats alternate)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and agents")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    print(f"{PRESET}: ms per decision with 2+ cards in hand, against the rule bot, {args.matches} matches each")
    print("| agent | phase | decisions | median ms | p90 ms | max ms |\n|---|---|---|---|---|---|")
    for spec in args.agents:
        times = time_agent(spec, args.matches, args.seed)
        for phase, values in (("all", times["pile"] + times["endgame"]), *times.items()):
            print(f"| {spec} | {phase} | {len(values)} | {summary(values)} |", flush=True)


if __name__ == "__main__":
    main()
