"""The shipped universal agent reads each card under the rules its table plays, not under the preset it records."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.card_features import card_features
from agents.neural_agent import NeuralAgent, load_policy
from agents.shipped import universal_policy_path
from smear_env.game import PLAY, Game
from smear_env.observation import Observer, action_mask, player_view
from smear_env.rules import get_rules

UNIVERSAL = load_policy(universal_policy_path())


def card_play_positions(rules_name: str, seed: int, count: int) -> list[tuple[dict[str, Any], np.ndarray, np.ndarray]]:
    """Card-play positions with a choice (the seat's view, vector and mask), from a game the universal agent plays
    at every seat."""
    rules = get_rules(rules_name)
    game, observer, agent = Game(rules, seed=seed), Observer(rules.num_players), NeuralAgent(UNIVERSAL, rules)
    positions = []
    while len(positions) < count and not game.is_over:
        seat, legal = game.current_player, game.legal_mask()
        obs, mask = observer.vector(game, seat), action_mask(legal)
        view = player_view(game, seat)
        if game.phase == PLAY and legal & (legal - 1):
            positions.append((view, obs, mask))
        game.apply(agent.act(view, {"observation": obs, "action_mask": mask}))
    return positions


@pytest.mark.parametrize("rules_name", ["schmier", "ten_point_6p", "pitch_smudge"])
def test_its_card_head_reads_the_cards_under_the_tables_rules(rules_name: str) -> None:
    rules = get_rules(rules_name)
    agent = NeuralAgent(UNIVERSAL, rules)
    misread = 0
    for view, obs, mask in card_play_positions(rules_name, seed=5, count=30):
        right = UNIVERSAL.logits(obs, mask, card_features(obs, rules, 18))
        wrong = UNIVERSAL.logits(obs, mask, card_features(obs, UNIVERSAL.rules, 18))  # its recorded preset's
        misread += not np.allclose(right, wrong, atol=1e-3)
        legal = np.flatnonzero(mask)
        expected = np.exp(right[legal] - right[legal].max())
        scores = agent.decide(view, {"observation": obs, "action_mask": mask}).scores
        assert scores is not None
        np.testing.assert_allclose([scores[int(a)] for a in legal], expected / expected.sum(), atol=1e-5)
    assert UNIVERSAL.rules.name != rules_name and misread > 0  # the recorded preset's features would differ here


def test_its_logits_without_the_rules_are_refused() -> None:
    _, obs, mask = card_play_positions("schmier", seed=5, count=1)[0]
    with pytest.raises(ValueError, match="universal policy plays many rule sets"):
        UNIVERSAL.logits(obs, mask)
    np.testing.assert_array_equal(  # given the rules, the features are read under them
        UNIVERSAL.logits(obs, mask, rules=get_rules("schmier")),
        UNIVERSAL.logits(obs, mask, card_features(obs, get_rules("schmier"), 18)),
    )
