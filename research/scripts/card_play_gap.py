"""How far a network's card play is from search's, measured by a many-sample search, and how noisy the labels are.

Why: ``smear-rl distill`` measures a fit by the points a decision gives up by its
teacher's values, and the teacher (search with 12 samples) is noisy, so that figure
mixes the network's real shortfall with the teacher's noise. Here the network plays
matches against search; at each of its card choices a reference search with many
samples values every legal card, and two independent 12-sample searches choose too.
Printed, in points a decision by the reference's values: what the network's card
gives up, and what each 12-sample search's card gives up (its own noise); and by the
second 12-sample search's values, what the network's and the first search's cards
give up (what a fit's held-out regret measures).

    .venv/bin/python research/scripts/card_play_gap.py agents/shipped/pitch_smudge.npz --matches 6 \
        --reference 96 --seed 5
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.knowledge import knowledge_from_view
from agents.registry import make_agent
from agents.search_bot import SearchAgent, best_card
from smear_env import actions as A
from smear_env.game import PLAY, Game
from smear_env.observation import IncrementalObserver, action_mask, player_view
from training.checkpoint import checkpoint_rules, load_checkpoint
from training.evaluate import lineup
from training.evaluate.lineups import A as NETWORK
from training.export import agent_from_checkpoint

COLUMNS = ("network by reference", "search-12 (a) by reference", "search-12 (b) by reference",
           "search-12 (a) by search-12 (b)", "network by search-12 (b)")  # fmt: skip


def given_up(values: dict[int, float], card: int) -> float:
    return max(values.values()) - values[card]


def gaps(checkpoint: str, matches: int, reference: int, seed: int, opponent: str = "search") -> np.ndarray:
    """One row per network card choice with values from every search: the five COLUMNS, points given up.

    The judges' searches stop at their sample counts, so the rows follow from the seed when the
    opponent's moves do too (search at its defaults stops at a time budget as well).
    """
    rules = checkpoint_rules(load_checkpoint(checkpoint))
    network = agent_from_checkpoint(checkpoint, rules)
    opponents = [make_agent(opponent, rules, 0) for _ in range(rules.num_players)]
    judges = [make_agent(spec, rules, 0) for spec in
              ("search:samples=12,time_budget=30", "search:samples=12,time_budget=30",
               f"search:samples={reference},time_budget=60")]  # fmt: skip
    rows = []
    for m in range(matches):
        for k, bot in enumerate([network, *opponents, *judges]):
            bot.reset(1000 * seed + 10 * m + k)
        game = Game(rules, seed=1000 * seed + m, dealer=m % rules.num_players)
        observer, roles = IncrementalObserver(rules.num_players), lineup(m, game.teams)
        while not game.is_over:
            seat, legal = game.current_player, game.legal_mask()
            if legal & (legal - 1) == 0:
                game.apply(legal.bit_length() - 1)
                continue
            view, obs = player_view(game, seat), observer.vector(game, seat)
            bot = network if roles[seat] == NETWORK else opponents[seat]
            action = bot.act(view, {"observation": obs, "action_mask": action_mask(legal)})
            if bot is network and game.phase == PLAY and game.trump >= 0:
                k = knowledge_from_view(view, rules)
                a, b, ref = (judge.play_values(k) for judge in judges if isinstance(judge, SearchAgent))
                if a and b and ref:
                    card, a_card = action - A.PLAY_BASE, best_card(a, k)
                    rows.append((given_up(ref, card), given_up(ref, a_card), given_up(ref, best_card(b, k)),
                                 given_up(b, a_card), given_up(b, card)))  # fmt: skip
            game.apply(action)
    return np.array(rows).reshape(-1, len(COLUMNS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="agent.pt of a Smear preset")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--reference", type=int, default=96, help="samples of the reference search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="search", help="the other side (search's time budget makes it vary)")
    args = parser.parse_args()
    rows = gaps(args.checkpoint, args.matches, args.reference, args.seed, args.opponent)
    print(f"{len(rows)} card choices of the network in {args.matches} matches against search; points given up:")
    for name, column in zip(COLUMNS, rows.T, strict=True):
        print(f"  {name}: {column.mean():.3f}, its best card {np.mean(column < 1e-6):.3f} of the time")


if __name__ == "__main__":
    main()
