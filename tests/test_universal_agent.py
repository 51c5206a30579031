"""The shipped universal agent reads each card under the rules its table plays, not under the preset it records,
and ``neural`` plays every rule set the engine accepts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.card_features import card_features
from agents.neural_agent import NeuralAgent, load_policy
from agents.registry import make_agent
from agents.shipped import universal_policy_path
from smear_env.game import PLAY, Game
from smear_env.house_rules import BASE_PRESETS
from smear_env.observation import MAX_SEATS, Observer, action_mask, player_view
from smear_env.rules import OptionSpec, Rules, get_rules, option_specs

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


def other_values(spec: OptionSpec, current: Any) -> list[Any]:
    """Values of an option other than ``current``, read from its declaration: each choice, the other truth value,
    an integer's bounds and neighbours, and none where accepted; lists of names empty, short and whole."""
    if spec.kind == "choice":
        return [c for c in spec.choices if c != current]
    if spec.kind == "bool":
        return [not current]
    if spec.kind == "int":
        assert spec.range is not None
        low = 0 if spec.range.low is None else spec.range.low
        high = low + 60 if spec.range.high is None else spec.range.high
        near = {low, low + 1, (low + high) // 2, high, (current or 0) - 1, (current or 0) + 1, 2 * (current or 0)}
        values = sorted(v for v in near if v != current and low <= v <= high)
        return values + [None] if spec.optional and current is not None else values
    if spec.kind == "names":
        return [(), spec.choices[:2], spec.choices]
    return []  # teams and strings: the house-rule sets and the presets change those


def single_changes() -> list[Rules]:
    """Every preset with one option changed to each of its other values, where the engine accepts the result."""
    accepted = []
    for preset in BASE_PRESETS:
        base = get_rules(preset)
        for spec in option_specs():
            for value in other_values(spec, getattr(base, spec.name)) if spec.name != "name" else []:
                try:
                    accepted.append(get_rules(preset, **{spec.name: value}))
                except ValueError:
                    continue  # a combination the engine refuses (seven players, a deck too short for the deal)
    return accepted


def test_neural_plays_a_hand_of_every_preset_with_any_one_option_changed() -> None:
    """Found so: minnesota without its jick crashed at the first moon call (the match odds' fit weighs each of its
    fourteen trumps). Each accepted change of every option the rules declare, one hand at every seat."""
    changes = single_changes()
    assert len(changes) > 600
    for rules in changes:
        if rules.num_players > MAX_SEATS:  # more seats than any network reads: the preset's agent refuses
            with pytest.raises(ValueError, match=f"'num_players' is .* in the file but {rules.num_players} here"):
                make_agent("neural", rules, 3)
            continue
        agent = make_agent("neural", rules, 3)
        game = Game(rules, seed=3, single_hand=True)
        while not game.is_over:
            game.apply(agent.act(player_view(game, game.current_player)))
