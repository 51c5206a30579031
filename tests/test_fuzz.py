"""The engine and env under random rule sets the validator accepts (see tests/fuzz_rules.py)."""

from __future__ import annotations

import random

import numpy as np

import smear_env
from smear_env.rules import OPTION_NAMES
from tests.fuzz_rules import FIXED, FuzzStats, fuzz, play_match, random_rules


def test_random_rule_sets_play_without_an_exception_or_an_invariant_violation() -> None:
    stats = fuzz(matches=250, seed=16, step_cap=2000)
    assert stats.matches == 250
    assert stats.finished >= 200, "most matches should end within the step cap"
    assert stats.bot_moves > 0
    changed = set(stats.options_changed)
    missing = set(OPTION_NAMES) - FIXED - changed
    assert len(missing) <= 3, f"options the fuzz never changed: {sorted(missing)}"
    assert {"lowest_rank", "joker_rank", "non_bidder_cap", "teams", "discard_trump", "joker_follows_trump"} <= changed


def test_jokers_that_answer_a_trump_lead_under_random_rule_sets() -> None:
    """``joker_follows_trump`` needs jokers that are not trumps, so few random sets have it: here every one does."""
    rng, stats, played = random.Random(19), FuzzStats(), 0
    while played < 30:
        rules, _ = random_rules(rng)
        protected = tuple(name for name in rules.protected_discards if name != "jokers")
        try:
            rules = rules.replace(joker_rank="not_trump", joker_follows_trump=True, protected_discards=protected)
        except ValueError:
            continue  # no jokers, or a joker would set trump
        play_match(rules, rng.getrandbits(32), 2000, stats, frozenset({played % rules.num_players}))
        played += 1
    assert stats.hands >= 30 and stats.bot_moves > 0


def test_every_preset_as_it_is() -> None:
    stats = fuzz(matches=30, seed=17, presets_only=True)
    assert stats.matches == 30 and stats.hands > 0


def test_the_env_always_offers_a_move_to_the_agent_on_turn_under_random_rules() -> None:
    rng = random.Random(18)
    for episode in range(12):
        rules, _ = random_rules(rng)
        env = smear_env.raw_env(rules=rules, reward="hand")
        env.reset(seed=episode)
        for agent in env.agent_iter(max_iter=3000):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size, f"{agent} is on turn with an empty mask under {rules.to_dict()}"
            assert env.observation_space(agent).contains(obs), f"{agent}'s observation leaves its box: {rules}"
            env.step(int(rng.choice(legal)))
