"""How much a Bohemian Schneider search setting loses per decision to sampling noise, against a reference.

Positions (the pile not yet empty, two or more cards in hand) come from seeded
matches of a search bot against the rule bot. Each is valued once by a reference
search that samples many deals (``--reference`` of them, every card on the same
deals); then each setting picks its card and the script prints its mean regret,
the reference value of the reference's best card minus that of the card picked
(in match value, -1 lost .. +1 won), how often it picked another card, and its
time per decision. It measures noise, not bias: a setting that plays better
than the reference's model cannot show it here (play matches for that).

    nice -n 10 python benchmarks/schneider_search_regret.py search:samples=16 search:samples=32 search:tiebreak=0
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from agents.registry import make_agent
from agents.schneider_bots import SchneiderRuleAgent
from agents.schneider_search import SchneiderSearchAgent, knowledge_from_view
from smear_env.schneider.game import Game
from smear_env.schneider.observation import player_view

PRESET = "bohemian_schneider"


def positions(matches: int, seed: int) -> list[dict[str, Any]]:
    """Views of the search bot's decisions while the pile lasts, in ``matches`` matches against the rule bot."""
    views = []
    for match in range(matches):
        game = Game(seed=seed + match)
        agents = [SchneiderSearchAgent(None, seed + match, samples=8), SchneiderRuleAgent(seed + match)]
        if match % 2:
            agents.reverse()
        while not game.is_over:
            seat = game.current_player
            view = player_view(game, seat)
            if isinstance(agents[seat], SchneiderSearchAgent) and view["pile_size"] and len(view["legal_actions"]) > 1:
                views.append(view)
            game.apply(agents[seat].act(view))
    return views


def reference_values(views: list[dict[str, Any]], samples: int, seed: int) -> list[dict[int, float]]:
    """Each card's mean value over ``samples`` deals, per position."""
    out = []
    for i, view in enumerate(views):
        agent = SchneiderSearchAgent(None, seed + i, samples=samples, time_budget=1e9)
        per_sample = agent.sample_values(knowledge_from_view(view))
        out.append({card: sum(values) / len(values) for card, values in per_sample.items()})
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("settings", nargs="+", help="search settings as registry names, e.g. search:samples=16")
    parser.add_argument("--matches", type=int, default=12, help="matches to draw positions from")
    parser.add_argument("--reference", type=int, default=300, help="deals the reference samples per position")
    parser.add_argument("--seed", type=int, default=9000, help="seed of the matches and agents")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.reference < 2:
        parser.error("expected --matches >= 1 and --reference >= 2")
    views = positions(args.matches, args.seed)
    started = time.perf_counter()
    reference = reference_values(views, args.reference, args.seed)
    print(f"{len(views)} positions, reference of {args.reference} deals each ({time.perf_counter() - started:.0f} s)")
    print("| setting | mean regret (x1000) [95% CI] | other card than the reference's best | median ms |")
    print("|---|---|---|---|")
    for spec in args.settings:
        regrets, times = [], []
        for i, (view, values) in enumerate(zip(views, reference)):
            agent = make_agent(spec, PRESET, args.seed + i)
            start = time.perf_counter()
            card = agent.act(view)
            times.append(time.perf_counter() - start)
            regrets.append(max(values.values()) - values[card])
        mean = statistics.mean(regrets)
        half = 1.96 * statistics.stdev(regrets) / len(regrets) ** 0.5
        wrong = sum(r > 1e-12 for r in regrets)
        print(
            f"| {spec} | {mean * 1e3:.2f} [{(mean - half) * 1e3:.2f}, {(mean + half) * 1e3:.2f}] | "
            f"{wrong}/{len(regrets)} | {statistics.median(times) * 1e3:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
