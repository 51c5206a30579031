"""The AEC environment: PettingZoo's own tests on every preset, masks, errors, rewards, fixed deals."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import smear_env
from smear_env import actions as A
from smear_env.aec import ENV_VERSION
from smear_env.game import Deal, replay
from smear_env.observation import Observer, action_mask, layout, observation_size

SMEAR_PRESETS = smear_env.list_smear_presets()


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_pettingzoo_api(preset: str) -> None:
    api_test(smear_env.env(preset=preset), num_cycles=200)


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_pettingzoo_seed(preset: str) -> None:
    seed_test(lambda: smear_env.env(preset=preset), num_cycles=200)


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_pettingzoo_render(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: smear_env.env(preset=preset, render_mode=render_mode))


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_registered_in_pettingzoo(preset: str) -> None:
    env = pettingzoo.make("aec", f"smear/{preset}-v{ENV_VERSION}")
    env.reset(seed=0)
    assert env.unwrapped.rules.name == preset


def test_unknown_preset_names_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown preset 'ten_pont'.*did you mean 'ten_point'"):
        smear_env.env(preset="ten_pont")


@pytest.mark.parametrize("make", [smear_env.env, smear_env.raw_env, smear_env.single_agent_env])
def test_an_unknown_preset_is_answered_with_every_game_the_env_plays(make: Any) -> None:
    """Bohemian Schneider is a preset name for the envs, so the list that answers a bad name holds it too."""
    with pytest.raises(ValueError, match=r"unknown preset 'nope': expected one of .*ten_point, .*bohemian_schneider"):
        make("nope")


def test_rule_overrides_reach_the_engine() -> None:
    env = smear_env.raw_env(preset="ten_point", target_score=21)
    assert env.rules.target_score == 21
    with pytest.raises(ValueError, match="unknown rule option 'target'"):
        smear_env.raw_env(preset="ten_point", target=21)


def _play_random(env, seed: int, check=None) -> dict[str, float]:
    """Play random legal moves to the end; returns each agent's final reward."""
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        if check:
            check(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_masks_zero_off_turn_and_never_empty_on_turn(preset: str) -> None:
    env = smear_env.env(preset=preset, reward="hand")
    env.reset(seed=3)

    def check(env, agent, obs):
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].sum() >= 1
        assert obs["observation"].shape == (observation_size(env.unwrapped.rules.num_players),)
        for other in env.agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0

    _play_random(env, 3, check)


def test_illegal_action_raises_and_leaves_env_unchanged() -> None:
    env = smear_env.env(preset="ten_point")
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    record = env.unwrapped.record()
    with pytest.raises(ValueError, match=r"action 'play AS' \(178\) is illegal.*bid phase; legal moves: pass, bid 4"):
        env.step(A.parse_action("play AS"))
    assert env.agent_selection == agent
    assert env.unwrapped.record() == record
    after = env.observe(agent)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    with pytest.raises(ValueError, match="out of range"):
        env.step(999)


def test_illegal_action_penalize_terminates_with_penalty() -> None:
    env = smear_env.env(preset="ten_point", illegal_action="penalize", illegal_penalty=-2.0)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(A.parse_action("play AS"))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -2.0
    assert all(r == 0.0 for a, r in env._cumulative_rewards.items() if a != offender)
    assert env.infos[offender]["illegal_move"] is True


def test_hand_reward_is_side_delta_minus_best_other() -> None:
    env = smear_env.env(preset="ten_point", reward="hand")
    env.reset(seed=5)
    rewards = _play_random(env, 5)
    game = env.unwrapped.game
    assert game.is_over and game.hands_played == 1
    result = game.results()[-1]
    for seat, agent in enumerate(env.unwrapped.possible_agents):
        side = result.side_of_seat[seat]
        theirs = max(delta for other, delta in result.deltas.items() if other != side)
        assert rewards[agent] == result.deltas[side] - theirs


def test_match_reward_is_plus_minus_one_by_team() -> None:
    env = smear_env.env(preset="smear")  # ten hands: always ends
    env.reset(seed=2)
    rewards = _play_random(env, 2)
    game = env.unwrapped.game
    if len(game.winners) == 1:
        (team,) = game.winners
        team_of = game.rules.team_of
        assert [rewards[f"player_{s}"] for s in range(4)] == [1.0 if team_of(s) == team else -1.0 for s in range(4)]
    else:
        assert set(rewards.values()) == {0.0}


def test_reset_with_fixed_deal_and_dealer() -> None:
    hands = [
        "AH KH QH JH TH 9H 8H 7H 6H",
        "AS KS QS JS TS 9S 8S 7S 6S",
        "AC KC QC JC TC 9C 8C 7C 6C",
        "AD KD QD JD TD 9D 8D 7D 6D",
    ]
    env = smear_env.env(preset="smear")
    env.reset(seed=0, options={"deal": {"hands": hands}, "dealer": 2})
    view = env.unwrapped.view("player_3")
    assert view["hand"] == ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    assert view["dealer"] == 2 and env.agent_selection == "player_3"
    assert view["legal_moves"] == ["pass", "bid 2", "bid 3", "bid 4"]
    env.reset(options={"deal": Deal.parse(hands)})
    assert env.unwrapped.view("player_0")["hand"][0] == "6H"


def test_seeded_resets_reproduce_the_deal() -> None:
    a, b = smear_env.env(preset="ten_point"), smear_env.env(preset="ten_point")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.unwrapped.record() == b.unwrapped.record()
    a.reset(seed=12)
    assert a.unwrapped.record()["deals"] != b.unwrapped.record()["deals"]


def test_record_is_json_and_replays_to_the_same_state() -> None:
    env = smear_env.env(preset="minnesota", reward="hand")
    env.reset(seed=4)
    _play_random(env, 4)
    record = json.loads(json.dumps(env.unwrapped.record()))
    game = replay(record)
    original = env.unwrapped.game
    assert game.match_scores() == original.match_scores()
    assert game.results()[-1].awards == original.results()[-1].awards
    assert game.history == original.history


def test_view_holds_only_what_the_player_may_know() -> None:
    env = smear_env.env(preset="ten_point")
    env.reset(seed=8)
    view = env.unwrapped.view("player_2")
    assert len(view["hand"]) == 10
    assert "hands" not in view and "stock" not in view
    assert view["legal_moves"] == [] and view["current_player"] == 1


def test_observation_layout_covers_the_vector() -> None:
    for n in (2, 3, 4, 5, 6):
        blocks = layout(n)
        assert blocks[-1][1] + blocks[-1][2] == observation_size(n)


def test_action_helpers_round_trip() -> None:
    env = smear_env.raw_env(preset="ten_point")
    for action in range(A.NUM_ACTIONS):
        assert env.move_to_action(env.action_to_move(action)) == action


def test_render_ansi_shows_the_table() -> None:
    env = smear_env.env(preset="ten_point", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "phase bid" in text and "scores: team 0: 0" in text


@pytest.mark.parametrize("preset", ["ten_point", "bohemian_schneider"])
def test_use_before_reset_fails_clearly(preset: str) -> None:
    env = smear_env.env(preset=preset)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0"), env.record):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
            call()


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_incremental_observation_equals_a_fresh_one_at_every_step(preset: str) -> None:
    env = smear_env.env(preset=preset)
    fresh = Observer(env.rules.num_players)
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(400):
            game = env.game
            if game.is_over:
                break
            for seat, agent in enumerate(env.possible_agents):
                assert np.array_equal(env.observe(agent)["observation"], fresh.vector(game, seat))
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("preset", SMEAR_PRESETS)
def test_observing_only_on_turn_equals_a_fresh_observation_across_matches(preset: str) -> None:
    """As agents see it: each seat looks only when it is to move (many moves apart), game after game."""
    fresh = Observer(smear_env.get_rules(preset).num_players)
    env = smear_env.env(preset=preset, reward="hand")
    rng = np.random.default_rng(7)
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert np.array_equal(obs["observation"], fresh.vector(env.game, env.possible_agents.index(agent)))
            legal = np.flatnonzero(obs["action_mask"])
            assert np.array_equal(legal, env.game.legal_actions() if not (term or trunc) else [])
            env.step(None if term or trunc else int(rng.choice(legal)))


FEW_AND_MANY = [[A.PASS], [A.PLAY_BASE + 3, A.PLAY_BASE + 40], list(range(A.PLAY_BASE, A.PLAY_BASE + 20))]


@pytest.mark.parametrize("actions", FEW_AND_MANY)
def test_action_masks_are_fresh_writable_arrays(actions: list[int]) -> None:
    legal = sum(1 << a for a in actions)
    first = action_mask(legal)
    assert first.dtype == np.int8 and first.shape == (A.NUM_ACTIONS,)
    assert np.flatnonzero(first).tolist() == actions
    first[:] = 0  # a caller scribbling on its mask must not change the next one
    assert np.flatnonzero(action_mask(legal)).tolist() == actions


def test_the_spaces_of_an_unknown_agent_are_refused_naming_the_agents() -> None:
    env = smear_env.env(preset="ten_point")
    for space in (env.observation_space, env.action_space):
        with pytest.raises(ValueError, match="unknown agent 'nobody': expected one of player_0"):
            space("nobody")  # a bare KeyError once


def test_a_single_agent_episode_that_ended_refuses_another_step_and_leaves_the_table_as_it_was() -> None:
    """Stepping on once stepped the finished inner env, which quietly removed its agents."""
    from smear_env.single_agent import SingleAgentEnv

    single = SingleAgentEnv("ten_point", illegal_action="raise")
    with pytest.raises(ValueError, match="call reset"):
        single.step(0)  # before any reset
    single.reset(seed=3)
    done = False
    while not done:
        _, _, terminated, truncated, _ = single.step(int(np.flatnonzero(single.action_masks())[0]))
        done = terminated or truncated
    agents = list(single.aec.agents)
    for action in (None, 0):
        with pytest.raises(ValueError, match="the episode is over"):
            single.step(action)
    assert single.aec.agents == agents
    single.reset(seed=4)
    single.step(int(np.flatnonzero(single.action_masks())[0]))  # a new episode steps again


def test_an_agent_that_is_done_is_offered_no_move() -> None:
    """After an illegal move under penalize, or a match cut at max_hands, the agents can only step None."""
    env = smear_env.env(preset="ten_point", illegal_action="penalize")
    env.reset(seed=1)
    env.step(A.parse_action("play AS"))  # no card is played during the bidding: the episode ends
    assert all(env.terminations.values())
    assert all(not env.observe(agent)["action_mask"].any() for agent in env.agents)

    from smear_env.single_agent import SingleAgentEnv

    single = SingleAgentEnv("ten_point", opponents="random", reward="match", max_hands=1)
    single.reset(seed=2)
    done = False
    while not done:
        _, _, terminated, truncated, info = single.step(int(np.flatnonzero(single.action_masks())[0]))
        done = terminated or truncated
    assert truncated and not single.action_masks().any() and not info["action_mask"].any()


def test_a_single_agent_env_plays_the_rules_it_is_given() -> None:
    from smear_env.single_agent import SingleAgentEnv, single_agent_env

    rules = smear_env.get_rules("minnesota", target_score=21)
    for made in (SingleAgentEnv(rules=rules, opponents="rule"), single_agent_env(rules=rules, opponents="rule")):
        assert made.aec.rules == rules and all(bot.rules == rules for bot in made.opponents.values())
    with pytest.raises(ValueError, match="seat 9 is not a seat of minnesota: expected 0..3"):
        SingleAgentEnv(rules=rules, seat=9)
    schneider = SingleAgentEnv("bohemian_schneider", opponents="rule")
    schneider.reset(seed=1)
    assert schneider.action_masks().any()
