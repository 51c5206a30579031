"""The single-seat Gymnasium env: Gymnasium's checker, illegal moves, rewards, seeding, opponents, MaskablePPO."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import smear_env
from agents.random_agent import RandomAgent
from smear_env.single_agent import SingleAgentEnv
from tests.file_modules import ROOT, load_module


def _random_episode(env: SingleAgentEnv, seed: int) -> tuple[list[np.ndarray], list[float], bool]:
    """A seeded episode of random legal moves: the observations, the rewards, and whether it was truncated."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    seen, rewards = [obs], []
    while True:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        seen.append(obs)
        rewards.append(reward)
        assert "illegal_move" not in info
        if terminated or truncated:
            return seen, rewards, truncated


@pytest.mark.filterwarnings("ignore:.*render modes.*")
@pytest.mark.parametrize(
    ("preset", "reward"), [("ten_point", "hand"), ("minnesota", "match"), ("bohemian_schneider", "hand")]
)
def test_gymnasium_check_env_passes_with_the_default_illegal_action(preset: str, reward: str) -> None:
    check_env(smear_env.single_agent_env(preset, seat=1, opponents="random", reward=reward, max_hands=30))


def test_an_illegal_action_ends_the_episode_with_the_worst_reward_and_changes_nothing() -> None:
    env = smear_env.single_agent_env("ten_point", opponents="rule")
    obs, _ = env.reset(seed=5)
    history = list(env.aec.game.history)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (terminated, truncated, info["illegal_move"]) == (True, False, True)
    assert reward == -20.0  # set on a bid of 10 while the others take all 10 points
    assert env.aec.game.history == history and np.array_equal(after, obs)


def test_the_penalty_is_never_better_than_a_lost_match() -> None:
    assert smear_env.single_agent_env("minnesota", reward="match").illegal_penalty == -1.0
    assert smear_env.single_agent_env("bohemian_schneider", reward="hand").illegal_penalty == -60.0
    assert smear_env.single_agent_env("ten_point", illegal_penalty=-3).illegal_penalty == -3.0


def test_raise_mode_names_the_illegal_move() -> None:
    env = smear_env.single_agent_env("ten_point", illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal"):
        env.step(180)
    with pytest.raises(ValueError, match="illegal_action 'ignore' is not supported"):
        smear_env.single_agent_env("ten_point", illegal_action="ignore")


def test_the_return_is_the_learners_hand_reward_in_the_engine() -> None:
    env = smear_env.single_agent_env("ten_point", seat=2, opponents="rule", reward="hand")
    for seed in range(4):
        _, rewards, truncated = _random_episode(env, seed)
        result = env.aec.game.hand_results[-1]
        assert not truncated and sum(rewards) == result.hand_reward(2)
        assert all(r == 0 for r in rewards[:-1])


def test_a_seed_reproduces_the_episode_and_the_dealer_varies() -> None:
    env = smear_env.single_agent_env("minnesota", opponents="random")
    first, again = _random_episode(env, 7), _random_episode(env, 7)
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0])) and first[1] == again[1]
    dealers = set()
    for seed in range(12):
        env.reset(seed=seed)
        dealers.add(env.aec.game.first_dealer)
    assert len(dealers) > 1
    env.reset(seed=0, options={"dealer": 3})
    assert env.aec.game.first_dealer == 3


def test_max_hands_truncates_a_match() -> None:
    env = smear_env.single_agent_env("ten_point", opponents="random", reward="match", max_hands=2)
    _, rewards, truncated = _random_episode(env, 3)
    assert truncated and rewards[-1] == 0.0


def test_opponents_by_list_and_by_object_and_house_rules_reach_them() -> None:
    env = smear_env.single_agent_env("minnesota", seat=1, opponents=["rule", RandomAgent(0), "random"], target_score=11)
    assert [type(b).__name__ for b in env.opponents.values()] == ["RuleAgent", "RandomAgent", "RandomAgent"]
    assert list(env.opponents) == ["player_0", "player_2", "player_3"]
    assert env.aec.rules.target_score == 11 and env.opponents["player_0"].rules.target_score == 11
    _random_episode(env, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 4}, r"seat 4 is not a seat of ten_point: expected 0..3"),
        ({"opponents": ["rule", "rule"]}, r"opponents: 2 given for 3 other seats"),
        ({"opponents": "rul"}, r"unknown agent 'rul'"),
        ({"opponents": RandomAgent(0)}, r"one bot object cannot play several seats"),
        ({"opponents": [1, 2, 3]}, r"1 is neither an agent name nor an agent"),
    ],
)
def test_bad_settings_are_refused_clearly(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        smear_env.single_agent_env("ten_point", **kwargs)


def test_importing_smear_env_does_not_import_the_bots() -> None:
    import subprocess

    script = "import sys, smear_env; smear_env.SingleAgentEnv; print('agents' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def _example(name: str):
    return load_module(ROOT / "examples" / f"{name}.py")


def test_maskable_ppo_example_trains_and_evaluates() -> None:
    pytest.importorskip("sb3_contrib")
    result = _example("sb3_maskable_ppo").main(["--steps", "512", "--eval-hands", "20", "--minutes", "1"])
    assert result["steps"] >= 256
    assert np.isfinite(result["trained"]) and np.isfinite(result["random"])


def test_maskable_ppo_example_saves_its_model_and_snapshots_for_the_benchmark(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from agents.registry import make_agent
    from training.benchmark.curve import read_snapshots

    argv = ["--preset", "minnesota", "--steps", "512", "--eval-hands", "0", "--out", str(tmp_path)]
    result = _example("sb3_maskable_ppo").main([*argv, "--snapshot-minutes", "0.0001"])
    assert result["steps"] >= 256 and (tmp_path / "model.zip").is_file()
    snapshots = read_snapshots(tmp_path / "snapshots.csv")
    assert snapshots and all(s.agent.startswith("sb3:") for s in snapshots)
    make_agent(f"sb3:{tmp_path / 'model.zip'}", "minnesota", 0)
