"""Bohemian Schneider's observation shows what a bot needs: every card placed or unseen, pile, scores, progress."""

from __future__ import annotations

import numpy as np

import smear_env
from smear_env.cards import mask_of
from smear_env.schneider.game import DECK, PILE_SIZE, ROUND_POINTS, TRICKS_PER_ROUND
from smear_env.schneider.observation import layout


def test_every_card_is_placed_or_unseen_and_the_unseen_are_the_opponents_hand_and_the_pile() -> None:
    blocks = {name: (start, size) for name, start, size in layout()}

    def cards(vector: np.ndarray, name: str) -> int:
        start, size = blocks[name]
        return mask_of(int(c) for c in np.flatnonzero(vector[start : start + size]))

    def scalar(vector: np.ndarray, name: str, i: int = 0) -> float:
        return float(vector[blocks[name][0] + i])

    env = smear_env.env(preset="bohemian_schneider")
    rng = np.random.default_rng(5)
    emptied = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            game, seat = env.unwrapped.game, env.unwrapped.agent_name_mapping[agent]
            vector, opp = obs["observation"], 1 - seat
            assert cards(vector, "hand") == game.hands[seat]
            assert (cards(vector, "played_mine"), cards(vector, "played_opp")) == (game.played[seat], game.played[opp])
            seen = cards(vector, "hand") | cards(vector, "played_mine") | cards(vector, "played_opp")
            unseen = mask_of(DECK) & ~seen
            pile = round(scalar(vector, "pile_size") * PILE_SIZE)
            assert pile == len(game.pile) and unseen == game.hands[opp] | mask_of(game.pile)
            if not pile and not game.is_over:
                emptied += 1
                assert unseen == game.hands[opp]  # the pile is gone: the opponent's hand is known
            assert round(scalar(vector, "round_points") * ROUND_POINTS) == game.round_points(seat)
            assert round(scalar(vector, "round_points", 1) * ROUND_POINTS) == game.round_points(opp)
            assert round(scalar(vector, "tricks_done") * TRICKS_PER_ROUND) == len(game.tricks)
            assert round(scalar(vector, "rounds_progress") * game.rules.num_rounds) == game.rounds_played
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert emptied
