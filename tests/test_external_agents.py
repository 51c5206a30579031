"""Policies from outside the project as agents: callables, SB3, RLlib and TorchRL files, each move checked.

Each library's saved policy must play the move the library itself picks (greedy, among the
legal ones) from the same observation, so a rating measures that policy and not an adapter.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import smear_env
from agents.external import PolicyAgent, in_process, is_external, load_policy
from agents.registry import make_agent
from smear_env.observation import observation_size, older_positions
from tests import external_policies
from training.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[1]
POLICIES = "tests.external_policies"


def _positions(preset: str, count: int, seed: int = 0) -> list[tuple[dict, dict]]:
    """(view, observation) of the player on turn in ``count`` positions of random play."""
    env = smear_env.raw_env(preset=preset)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        if env.unwrapped.game.is_over:
            env.reset(seed=int(rng.integers(1000)))
        agent = env.agent_selection
        view, observation = env.view(agent), env.observe(agent)
        out.append((view, observation))
        env.step(int(rng.choice(view["legal_actions"])))
    return out


@pytest.mark.parametrize(
    ("spec", "external"),
    [
        ("tests.external_policies:first_legal", True),
        ("my_policy.py:act", True),
        ("pkg.mod:obj.method", True),
        ("sb3:runs/x.zip", True),
        ("rllib:runs/ckpt", True),
        ("torchrl:x.pt", True),
        ("search:samples=12", False),
        ("runs/x.npz:match_moon=false", False),
        ("sample:x.npz", False),
        ("sample:runs/x.pt", False),
        ("rule", False),
        ("runs/agent.pt", False),
    ],
)
def test_policy_specs_are_told_apart_from_names_with_options_and_checkpoints(spec: str, external: bool) -> None:
    assert is_external(spec) is external


def test_a_function_in_a_module_plays_the_seat_on_the_envs_own_observation() -> None:
    agent = make_agent(f"{POLICIES}:recording", "minnesota", 0)
    assert isinstance(agent, PolicyAgent)
    for view, observation in _positions("minnesota", 30):
        external_policies.SEEN.clear()
        assert agent.act(view, observation) == min(view["legal_actions"])
        seen_obs, seen_mask = external_policies.SEEN[-1]
        assert np.array_equal(seen_obs, observation["observation"])
        assert np.array_equal(seen_mask, observation["action_mask"])


def test_without_an_observation_the_agent_builds_the_one_the_env_gives() -> None:
    """Training's collector hands bots the view alone: the policy must still see the env's vector and mask."""
    agent = make_agent(f"{POLICIES}:recording", "ten_point", 0)
    for view, observation in _positions("ten_point", 30, seed=2):
        agent.act(view)
        seen_obs, seen_mask = external_policies.SEEN[-1]
        assert np.array_equal(seen_obs, observation["observation"])
        assert np.array_equal(seen_mask, observation["action_mask"])


def test_a_python_file_a_predict_object_and_numpy_actions_all_play(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    body = "    legal = np.flatnonzero(action_mask)\n    return int(legal[1 % len(legal)])\n"
    path.write_text("import numpy as np\n\n\ndef act(observation, action_mask):\n" + body)
    by_file = make_agent(f"{path}:act", "pitch_smudge", 0)
    by_predict = make_agent(f"{POLICIES}:predictor", "pitch_smudge", 0)
    by_numpy = make_agent(f"{POLICIES}:last_legal", "pitch_smudge", 0)
    for view, observation in _positions("pitch_smudge", 20):
        legal = view["legal_actions"]
        assert by_file.act(view, observation) == legal[1 % len(legal)]
        assert by_predict.act(view, observation) == by_numpy.act(view, observation) == max(legal)


def test_a_policy_object_of_this_process_plays_while_its_block_lasts() -> None:
    view, observation = _positions("minnesota", 1)[0]
    with in_process(external_policies.predictor) as spec:
        assert is_external(spec) and make_agent(spec, "minnesota", 0).act(view, observation) == max(
            view["legal_actions"]
        )
    with pytest.raises(ValueError, match=f"policy '{spec}' is not a policy of this process"):
        make_agent(spec, "minnesota", 0)


def test_a_policy_plays_whole_evaluations_in_worker_processes() -> None:
    result = evaluate(f"{POLICIES}:first_legal", "random", "minnesota", 4, seed=1, workers=2)
    assert result.matches == 4 and result.a.decisions > 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (f"{POLICIES}:illegal", r"chose action \d+ \(.*\), which is not legal here: expected one of \["),
        (f"{POLICIES}:fractional", "returned 0.5: expected one integer action id"),
        (f"{POLICIES}:broken", "failed on an observation of 1005 floats .RuntimeError: the policy's own bug"),
    ],
)
def test_a_policy_that_misbehaves_is_named_with_what_it_did(spec: str, message: str) -> None:
    agent = make_agent(spec, "minnesota", 0)
    view, observation = _positions("minnesota", 1)[0]
    with pytest.raises(ValueError, match=f"policy '{spec}' {message}"):
        agent.act(view, observation)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_here:act", "module 'no_such_module_here' cannot be imported"),
        (f"{POLICIES}:nothing", "has no attribute 'nothing'"),
        (f"{POLICIES}:Predictor", "is a class: expected a function"),
        (f"{POLICIES}:NOT_CALLABLE", "is a int: expected a function"),
        ("missing_file.py:act", "'missing_file.py' is not a file"),
        ("sb3:/no/such/model.zip", "does not exist .expected a file or folder saved by sb3"),
    ],
)
def test_a_policy_that_cannot_be_loaded_is_refused_before_any_game(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "minnesota", 0)


def test_the_service_never_takes_a_policy_spec_from_a_request() -> None:
    from smear_rl.server.bots import Bots
    from smear_rl.server.errors import RequestError
    from smear_rl.server.limits import Settings

    bots = Bots(Settings())
    for spec in (f"{POLICIES}:first_legal", "sb3:/tmp/model.zip", "os:getcwd", "torchrl:/tmp/x.pt"):
        with pytest.raises(RequestError, match="is not a bot here"):
            bots.info(spec, smear_env.get_rules("minnesota"))


# ---------------------------------------------------------------- the libraries' saved policies


def test_an_sb3_maskable_ppo_model_plays_the_move_it_predicts(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    env = smear_env.single_agent_env("minnesota", seat=0, opponents="random", reward="hand")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})  # fmt: skip
    model.learn(64)
    model.save(tmp_path / "model.zip")
    agent = make_agent(f"sb3:{tmp_path / 'model.zip'}", "minnesota", 0)
    for view, observation in _positions("minnesota", 40):
        mask = observation["action_mask"].astype(bool)
        expected, _ = model.predict(observation["observation"], action_masks=mask, deterministic=True)
        assert agent.act(view, observation) == int(expected)


def test_a_torchrl_module_plays_its_greedy_legal_move(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchrl")
    from tensordict.nn import TensorDictModule

    torch.manual_seed(0)
    size = observation_size(4)
    net = torch.nn.Sequential(torch.nn.Linear(size, 32), torch.nn.ReLU(), torch.nn.Linear(32, smear_env.NUM_ACTIONS))
    grouped = TensorDictModule(net, in_keys=[("agents", "observation", "observation")],
                               out_keys=[("agents", "logits")])  # fmt: skip
    torch.save(grouped, tmp_path / "grouped.pt")
    torch.save(net, tmp_path / "plain.pt")
    agents = [make_agent(f"torchrl:{tmp_path / name}", "minnesota", 0) for name in ("grouped.pt", "plain.pt")]
    for view, observation in _positions("minnesota", 40):
        with torch.no_grad():
            logits = net(torch.from_numpy(observation["observation"])).numpy()
        expected = max(view["legal_actions"], key=lambda a: logits[a])
        assert [agent.act(view, observation) for agent in agents] == [expected, expected]


@pytest.mark.parametrize("version", [2, 1])
def test_a_policy_made_for_an_older_layout_reads_the_vector_it_was_trained_on(tmp_path: Path, version: int) -> None:
    """A network of env v3 or before (its first layer's size says which layout) gets that layout's vector."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    old_size = observation_size(5, version)  # 797 floats for five players in layout 2, 712 in layout 1
    layers = [torch.nn.Linear(old_size, 32), torch.nn.ReLU(), torch.nn.Linear(32, smear_env.NUM_ACTIONS)]
    net = torch.nn.Sequential(*layers)
    torch.save(net, tmp_path / "old.pt")
    agent = make_agent(f"torchrl:{tmp_path / 'old.pt'}", "ten_point_5p", 0)
    positions = older_positions(5, version)
    for view, observation in _positions("ten_point_5p", 40):
        with torch.no_grad():
            logits = net(torch.from_numpy(observation["observation"][positions])).numpy()
        assert agent.act(view, observation) == max(view["legal_actions"], key=lambda a: logits[a])
        assert agent.act(view) == agent.act(view, observation)  # the vector built from the view is narrowed alike


def test_an_rllib_module_plays_its_greedy_legal_move(tmp_path: Path) -> None:
    pytest.importorskip("ray.rllib")
    import ray
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    from smear_env.rllib import rllib_env, shared_policy_config

    register_env("smear", rllib_env)
    ray.init(include_dashboard=False, ignore_reinit_error=True, log_to_driver=False, num_cpus=1)
    try:
        config = PPOConfig().environment("smear", env_config={"preset": "minnesota", "reward": "hand"})
        config = config.env_runners(num_env_runners=0).debugging(seed=0)
        algo = shared_policy_config(config, model_config={"head_fcnet_hiddens": [32]}).build_algo()
        module = algo.get_module("shared")
        module.save_to_path(str(tmp_path / "module"))
        algo.save(str(tmp_path / "algo"))
        algo.stop()
    finally:
        ray.shutdown()
    agents = [make_agent(f"rllib:{tmp_path / name}", "minnesota", 0) for name in ("module", "algo")]
    for view, observation in _positions("minnesota", 40):
        batch = {
            "obs": {
                "observations": torch.from_numpy(observation["observation"][None]),
                "action_mask": torch.from_numpy(observation["action_mask"][None].astype(np.float32)),
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        expected = max(view["legal_actions"], key=lambda a: logits[a])
        assert [agent.act(view, observation) for agent in agents] == [expected, expected]


def test_a_library_file_that_is_not_a_policy_is_refused(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    torch.save({"not": "a module"}, tmp_path / "dict.pt")
    with pytest.raises(ValueError, match="holds a dict: expected a module saved with torch.save"):
        load_policy(f"torchrl:{tmp_path / 'dict.pt'}")


def test_a_sampling_policy_gets_each_games_seed_so_its_games_replay_whatever_the_workers() -> None:
    """Its generator once ran on from game to game: a game's moves hung on the games its process played before."""
    one = evaluate(f"{POLICIES}:sampler", "random", "minnesota", 8, seed=3, workers=1)
    two = evaluate(f"{POLICIES}:sampler", "random", "minnesota", 8, seed=3, workers=2)
    assert one.results_only() == two.results_only()
    later = evaluate(f"{POLICIES}:sampler", "random", "minnesota", 8, seed=3, workers=1)
    assert later.results_only() == one.results_only()


def test_an_object_with_predict_gets_each_games_seed_too() -> None:
    class Seeded(external_policies.Predictor):
        seeds: list[int | None] = []

        def reset(self, seed: int | None) -> None:
            self.seeds.append(seed)

    model = Seeded()
    with in_process(model) as spec:
        agent = make_agent(spec, "minnesota", 0)
        agent.reset(5)
    assert model.seeds == [5]
