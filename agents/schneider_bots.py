"""A rule-based Bohemian Schneider player, and a small evaluation harness.

The one rule of the game shapes the heuristics: a led card ``c`` loses only to
the card one rank above it (``card_above(c)``). So:

* A lead is **safe** when that card cannot be in the opponent's hand: ``c`` is
  an Ace, or the card above it has been played or is in my own hand. Once the
  pile is empty, every card not seen is in the opponent's hand, so "safe" is
  then exact.
* As follower, winning needs exactly the card above the led one. Taking it is
  always worth it: it captures both cards (a counter used to win is secured,
  not given away) and wins the lead, the big advantage in this game. Otherwise
  whatever I play goes to the leader, so I throw the card I need least: a
  non-counter, keeping cards that are safe leads or that can still beat a lead.
* As leader: safe counters first (sure points), then other safe cards (keep
  the lead), then low non-counters (a 7 or 8 beaten costs no point), and an
  unsafe counter only when nothing else is left.

Run ``python -m agents.schneider_bots --matches 1000`` to measure the bot
against :class:`agents.random_agent.RandomAgent` with seats swapped.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import numpy as np

from agents.base import Agent
from agents.random_agent import RandomAgent
from smear_env.cards import parse_card, parse_cards, rank_of
from smear_env.schneider.game import ACE_RANK, Game, SchneiderRules, card_above, is_counter
from smear_env.schneider.observation import player_view


class SchneiderRuleAgent(Agent):
    """Plays safe leads, wins tricks with the one-higher card, and throws cheap cards otherwise."""

    name = "schneider_rules"

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        legal = self.legal_actions(view)
        hand = set(legal)  # every card in hand is legal in this game
        seen = {card for cards in view["played"] for card in parse_cards(cards)}
        gone = hand | seen  # cards the opponent cannot hold
        if view["trick"]:
            return self._follow(parse_card(view["trick"][0][1]), hand, gone)
        return self._lead(hand, gone)

    # ------------------------------------------------------------------ follower
    def _follow(self, led: int, hand: set[int], gone: set[int]) -> int:
        winner = card_above(led)
        if winner in hand:
            return winner
        return min(hand, key=lambda c: (self._keep_value(c, gone), c))

    @staticmethod
    def _keep_value(card: int, gone: set[int]) -> int:
        """How much I want to keep ``card``: counters most, then safe leads, then cards that can still win."""
        value = rank_of(card)
        if is_counter(card):
            value += 100  # throwing it hands the leader a point
        if _is_safe(card, gone):
            value += 20  # a sure trick later
        if rank_of(card) > 5 and card - 1 not in gone:
            value += 10  # can beat the card below it if the opponent leads that
        return value

    # ------------------------------------------------------------------ leader
    def _lead(self, hand: set[int], gone: set[int]) -> int:
        safe = [c for c in hand if _is_safe(c, gone)]
        groups = (
            [c for c in safe if is_counter(c)],
            safe,
            [c for c in hand if not is_counter(c)],
            list(hand),
        )
        choices = next(group for group in groups if group)
        lowest = min(rank_of(c) for c in choices)
        return self.rng.choice(sorted(c for c in choices if rank_of(c) == lowest))


def _is_safe(card: int, gone: set[int]) -> bool:
    """A led ``card`` cannot be beaten: it is an Ace, or the card above it is out of the opponent's reach."""
    return rank_of(card) == ACE_RANK or card_above(card) in gone


# ---------------------------------------------------------------------- evaluation
def play_match(agents: list[Agent], seed: int, rules: SchneiderRules | None = None) -> Game:
    """Play one match between ``agents`` (by seat) on the engine directly; returns the finished game."""
    game = Game(rules, seed=seed)
    while not game.is_over:
        seat = game.current_player
        game.apply(agents[seat].act(player_view(game, seat)))
    return game


def evaluate(
    make_a: Callable[[int], Agent],
    make_b: Callable[[int], Agent],
    matches: int = 1000,
    seed: int = 0,
    rules: SchneiderRules | None = None,
) -> dict[str, float]:
    """Results of agent A against agent B over ``matches`` matches, A in seat 0 in even matches, seat 1 in odd.

    ``make_a(seed)`` / ``make_b(seed)`` build a freshly seeded agent for each match.
    """
    wins = losses = draws = 0
    margin = 0
    for i in range(matches):
        seat_a = i % 2
        a, b = make_a(seed + 2 * i), make_b(seed + 2 * i + 1)
        agents = [a, b] if seat_a == 0 else [b, a]
        game = play_match(agents, seed=seed + i, rules=rules)
        reward = game.rewards()[seat_a]
        wins += reward > 0
        losses += reward < 0
        draws += reward == 0
        margin += game.scores[seat_a] - game.scores[1 - seat_a]
    return {
        "matches": matches,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": wins / matches,
        "mean_margin": margin / matches,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Rule-based Bohemian Schneider bot against random play.")
    parser.add_argument("--matches", type=int, default=1000, help="matches to play (seats alternate)")
    parser.add_argument("--seed", type=int, default=0, help="base seed of deals and agents")
    args = parser.parse_args(argv)
    result = evaluate(SchneiderRuleAgent, RandomAgent, args.matches, args.seed)
    print(
        f"schneider_rules vs random over {result['matches']} matches (seats swapped): "
        f"{result['wins']} wins, {result['losses']} losses, {result['draws']} draws; "
        f"win rate {result['win_rate']:.3f}, mean score margin {result['mean_margin']:+.1f}"
    )


if __name__ == "__main__":
    main()
