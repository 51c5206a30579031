"""Time per decision of each agent, counting only real choices (two or more legal moves), on one core.

Each measured agent plays seat 0 of single hands against rule bots; the other
seats' moves are not timed. Prints median and 90th-percentile milliseconds per
decision. Agents are registry names or checkpoint paths; an unknown name, an
unreadable checkpoint or a bad value ends it at once with one line and exit code 2.

    python benchmarks/bench_agents.py --preset ten_point --agents rule random checkpoints/ten_point.pt --decisions 2000
"""

from __future__ import annotations

import statistics
import time

from agents.registry import make_agent
from smear_env.game import Game
from smear_env.observation import player_view
from smear_env.rules import get_rules
from training.cli import ArgumentParser, int_at_least


def time_agent(spec: str, preset: str, decisions: int, seed: int = 0) -> list[float]:
    """Seconds of each timed decision of ``spec`` in seat 0."""
    rules = get_rules(preset)
    agent = make_agent(spec, rules, seed)
    others = [make_agent("rule", rules, seed + s) for s in range(rules.num_players)]
    times: list[float] = []
    hand = 0
    while len(times) < decisions:
        game = Game(rules, seed=seed * 100_000 + hand, single_hand=True)
        hand += 1
        while not game.is_over:
            seat = game.current_player
            view = player_view(game, seat)
            if seat != 0:
                game.apply(others[seat].act(view))
                continue
            start = time.perf_counter()
            action = agent.act(view)
            if len(view["legal_actions"]) > 1:
                times.append(time.perf_counter() - start)
            game.apply(action)
    return times[:decisions]


def main(argv: list[str] | None = None) -> None:
    p = ArgumentParser(prog="benchmarks/bench_agents.py", description=__doc__.split("\n")[0])
    p.add_argument("--preset", default="ten_point", help="a Smear preset")
    p.add_argument("--agents", nargs="+", default=["random", "rule"])
    p.add_argument("--decisions", type=int_at_least(1), default=2000, help="timed decisions per agent")
    args = p.parse_args(argv)
    try:  # every agent is built once before any is timed: a bad name or checkpoint fails now, not halfway
        rules = get_rules(args.preset)
        for spec in args.agents:
            make_agent(spec, rules, 0)
    except ValueError as err:
        p.error(str(err))
    print(f"preset {args.preset}: ms per decision with 2+ legal moves, seat 0 against rule bots")
    print("| agent | decisions | median ms | p90 ms |\n|---|---|---|---|")
    for spec in args.agents:
        times = sorted(time_agent(spec, args.preset, args.decisions))
        p90 = times[int(0.9 * (len(times) - 1))]
        print(f"| {spec} | {len(times)} | {statistics.median(times) * 1e3:.3f} | {p90 * 1e3:.3f} |", flush=True)


if __name__ == "__main__":
    main()
