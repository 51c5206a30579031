"""Ray RLlib: its PettingZooEnv and action-masking module run on Smear with no glue (the ``rllib`` extra)."""

from __future__ import annotations

import numpy as np
import pytest

import smear_env
from smear_env.rllib import RLlibObservations, rllib_env
from tests.file_modules import ROOT, load_module

pytest.importorskip("ray.rllib")


def test_observations_are_in_rllib_masking_modules_dialect() -> None:
    env = RLlibObservations(smear_env.raw_env(preset="minnesota"))
    env.reset(seed=0)
    agent = env.agent_selection
    obs = env.observe(agent)
    assert set(obs) == {"observations", "action_mask"} and obs["action_mask"].dtype == np.float32
    assert env.observation_space(agent).contains(obs)
    assert env.view(agent)["legal_actions"] == list(np.flatnonzero(obs["action_mask"]))


def test_pettingzoo_env_plays_a_hand_of_masked_random_moves() -> None:
    env = rllib_env({"preset": "ten_point", "reward": "hand", "max_hands": 5})
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=1)
    rewards: dict[str, float] = {}
    for _ in range(1000):
        ((agent, seen),) = obs.items()
        assert env.observation_spaces[agent].contains(seen)
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step({agent: action})
        if terminated["__all__"] or truncated["__all__"]:
            rewards = reward
            break
    assert set(rewards) == {f"player_{i}" for i in range(4)}
    assert rewards["player_0"] == rewards["player_2"] == -rewards["player_1"] or truncated["__all__"]


def test_an_illegal_action_ends_the_episode_inside_an_env_runner() -> None:
    env = rllib_env({"preset": "minnesota"})
    obs, _ = env.reset(seed=0)
    ((agent, seen),) = obs.items()
    illegal = int(np.flatnonzero(seen["action_mask"] == 0)[0])
    _, reward, terminated, _, _ = env.step({agent: illegal})
    assert terminated["__all__"] and reward[agent] == -1.0


def test_self_play_ppo_example_trains_one_iteration_and_saves_the_shared_module(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    from agents.registry import make_agent
    from training.benchmark.curve import read_snapshots

    module = load_module(ROOT / "examples" / "rllib_selfplay.py")
    monkeypatch.chdir(tmp_path)  # a relative --out, as a user types it (RLlib itself saves to absolute paths only)
    argv = ["--iterations", "1", "--env-runners", "0", "--batch", "256", "--out", "run"]
    history = module.main([*argv, "--snapshot-minutes", "0.0001"])
    assert history[0]["env_steps"] >= 256 and history[0]["episodes"] >= 1
    (snapshot,) = read_snapshots(tmp_path / "run" / "snapshots.csv")
    assert snapshot.decisions == history[0]["env_steps"] and snapshot.agent == "rllib:run/snapshots/module_256"
    make_agent("rllib:run/module", "minnesota", 0)
