"""Match play with a step limit (``max_hands``) and the reward-mode names both games share."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pettingzoo.test import api_test

import smear_env


def _play(env, seed: int, bidder: bool = False) -> tuple[dict[str, float], dict[str, bool], dict[str, bool]]:
    """Random legal moves (or always the first legal one when ``bidder`` is False: pass, on Smear) to the end.

    Returns each agent's last reward, termination and truncation.
    """
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    rewards, terms, truncs = {}, {}, {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        if term or trunc:
            rewards[agent], terms[agent], truncs[agent] = reward, term, trunc
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(rng.choice(legal)) if bidder else int(legal[0]))
    return rewards, terms, truncs


def test_an_all_pass_ten_point_match_is_truncated_after_max_hands() -> None:
    env = smear_env.env(preset="ten_point", max_hands=3)  # everyone passes: redealt forever without the limit
    rewards, terms, truncs = _play(env, seed=1)
    assert len(env.unwrapped.game.deals) == 4  # three thrown in, the fourth dealt when the limit struck
    assert all(truncs.values()) and not any(terms.values())
    assert set(rewards.values()) == {0.0}


def test_a_one_hand_episode_stuck_in_redeals_is_truncated_too() -> None:
    env = smear_env.env(preset="ten_point", reward="hand", max_hands=2)
    _, terms, truncs = _play(env, seed=2)
    assert all(truncs.values()) and not any(terms.values())


def test_a_match_that_ends_first_terminates_instead() -> None:
    env = smear_env.env(preset="ten_point", target_score=1, max_hands=50)
    rewards, terms, truncs = _play(env, seed=3, bidder=True)
    assert all(terms.values()) and not any(truncs.values())
    assert sorted(set(rewards.values())) in ([-1.0, 1.0], [0.0])


def test_random_players_finish_every_episode_under_the_limit() -> None:
    for seed in range(5):
        env = smear_env.env(preset="ten_point", max_hands=4)
        _, terms, truncs = _play(env, seed=seed, bidder=True)
        assert all(terms[a] or truncs[a] for a in env.possible_agents)
        assert len(env.unwrapped.game.deals) <= 5


def test_schneider_rounds_count_as_hands() -> None:
    env = smear_env.env(preset="bohemian_schneider", num_rounds=4, max_hands=1)
    _, terms, truncs = _play(env, seed=0, bidder=True)
    assert all(truncs.values()) and not any(terms.values())
    assert len(env.unwrapped.game.deals) == 2


@pytest.mark.parametrize("preset", ["minnesota", "bohemian_schneider"])
def test_pettingzoo_api_holds_with_the_limit(preset: str) -> None:
    api_test(smear_env.env(preset=preset, max_hands=1), num_cycles=300)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3"])
def test_a_bad_limit_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match=f"max_hands {re.escape(repr(bad))} .*: expected an integer >= 1"):
        smear_env.env(preset="ten_point", max_hands=bad)


def test_hand_names_schneider_one_round_episodes() -> None:
    by_alias, by_name = (smear_env.env(preset="bohemian_schneider", reward=r) for r in ("hand", "round"))
    assert by_alias.unwrapped.reward_mode == "round"
    assert _play(by_alias, seed=4, bidder=True) == _play(by_name, seed=4, bidder=True)
    assert len(by_alias.unwrapped.game.deals) == 1


def test_an_unknown_reward_mode_lists_every_accepted_name() -> None:
    expected = r"reward 'hands' is not supported: expected one of 'match', 'round', 'hand'"
    with pytest.raises(ValueError, match=expected):
        smear_env.env(preset="bohemian_schneider", reward="hands")
