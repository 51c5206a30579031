"""How often a bot throws trump away: every seat played by one agent, its discards counted by kind.

A diagnostic for warm starts across presets and for house rules that change the discard
(``discard_trump``): an agent trained where trump may not be discarded can carry a habit
into rules where it may, and its win rate alone does not say why it lost. Prints, for each
agent, the discards over ``--hands`` deals and how many were trump (and Jacks, Jokers or the
Trey among them: the cards that score for whoever takes them in a trick).

    .venv/bin/python research/scripts/discard_profile.py --preset ten_point_midwest --hands 40 rule random
"""

from __future__ import annotations

import argparse
from collections import Counter

import smear_env
from agents.registry import make_agent
from smear_env.cards import JOKER1, JOKER2
from smear_env.game import PLAY


def discard_counts(preset: str, spec: str, hands: int, seed: int) -> Counter[str]:
    """Discards of ``hands`` deals with ``spec`` in every seat: total, trump, and scoring trump."""
    env = smear_env.raw_env(preset=preset)
    game_seed = seed
    counts: Counter[str] = Counter()
    agents = [make_agent(spec, preset, seed=seed * 100 + s) for s in range(smear_env.get_rules(preset).num_players)]
    while counts["hands"] < hands:
        env.reset(seed=game_seed)
        game_seed += 1
        game = env.unwrapped.game
        counted_deal = 0  # the deal whose discards are counted (deals are numbered from 1)
        while not game.is_over and counts["hands"] < hands:
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            env.step(agents[seat].act(env.view(name), env.observe(name)))
            if game.phase == PLAY and len(game.deals) != counted_deal:
                counted_deal = len(game.deals)
                _count_hand(game, counts)
    return counts


def _count_hand(game: object, counts: Counter[str]) -> None:
    """Add one hand's discards (read as its trick play starts) to ``counts``; a preset without a discard adds 0."""
    trump_mask = game.table.trump_mask
    counts["hands"] += 1
    for seat in range(game.num_players):
        for card in game.discards(seat):
            counts["discards"] += 1
            if trump_mask >> card & 1:
                counts["trump"] += 1
                counts["scoring trump"] += _is_scoring(game, card)


def _is_scoring(game: object, card: int) -> bool:
    """A Jack, Jick, Joker or Trey of trump: points for whoever takes it in a trick."""
    table = game.table
    return card in {table.jack, table.jick, table.three, JOKER1, JOKER2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="+", help="agent specs: rule, random, search, a checkpoint path")
    parser.add_argument("--preset", default="ten_point_midwest")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{args.preset}, {args.hands} hands (seed {args.seed}), every seat played by the agent")
    print(f"{'agent':40} {'discards':>9} {'trump':>6} {'of them Jack/Jick/Joker/Trey':>30}")
    for spec in args.agents:
        c = discard_counts(args.preset, spec, args.hands, args.seed)
        print(f"{spec:40} {c['discards']:9d} {c['trump']:6d} {c['scoring trump']:30d}")


if __name__ == "__main__":
    main()
