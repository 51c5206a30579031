"""Agents of observation layout 1 upgraded to the current layout: the same policy and the same moves, or refused.

The files are the `ten_point` agent shipped until 2026-12-04, the last one stored in layout 1, kept as test data
(checkpoint and exported .npz, as they were shipped) so the upgrade path that users' own layout-1 files take stays
tested."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.neural_agent import NeuralAgent, Policy, load_policy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from smear_env.game import Game  # noqa: E402
from smear_env.observation import (  # noqa: E402
    OBSERVATION_VERSION,
    Observer,
    action_mask,
    observation_size,
    older_positions,
    player_view,
)
from smear_env.rules import get_rules  # noqa: E402
from training.checkpoint import load_checkpoint, network_from_checkpoint, save_checkpoint, upgrade  # noqa: E402
from training.export import agent_from_checkpoint  # noqa: E402
from training.model import NumpyPolicy, PolicyValueNet  # noqa: E402

DATA = Path(__file__).parent / "data"
#: agents stored in layout 1, by preset: the ten_point agent shipped until 2026-12-04 (minnesota's first stage was
#: one too, until its second stage shipped on 2026-11-27)
SHIPPED = {"ten_point": DATA / "ten_point_layout1.pt"}
#: the same agents exported to .npz, as they were shipped
SHIPPED_NPZ = {"ten_point": DATA / "ten_point_layout1.npz"}
#: those agents' greedy moves with layout 1 (main at the merge base, before layout 2): every seat played by
#: the agent for the first two hands of seeded matches, so each move decides the positions after it (its minnesota
#: games are those of the first-stage minnesota agent, no longer shipped, and no longer read)
V1_MOVES = DATA / "shipped_moves_layout_1.json"
#: where each input of a four-seat layout 1 vector sits in the current vector
V1_AT = older_positions(4, version=1)


def raw(path: Path) -> dict:
    """A checkpoint file as stored, not upgraded."""
    return torch.load(path, map_location="cpu", weights_only=True)


def layout_1_network(data: dict) -> PolicyValueNet:
    net = PolicyValueNet(data["observation_size"], data["num_actions"], data["hidden"])
    net.load_state_dict(data["model"])
    return net.eval()


def positions(preset: str, hands: int):
    """Each seat's view of every decision of some rule-bot hands: (vector, mask, view)."""
    rules = get_rules(preset)
    observer = Observer(rules.num_players)
    for seed in range(hands):
        game = Game(rules, seed=seed)
        bots = [make_agent("rule", rules, s) for s in range(rules.num_players)]
        while not game.is_over and game.hands_played < 2:
            seat = game.current_player
            view = player_view(game, seat)
            yield observer.vector(game, seat), action_mask(game.legal_mask()), view
            game.apply(bots[seat].act(view))


@pytest.mark.parametrize("preset", sorted(SHIPPED))
def test_the_upgraded_shipped_agent_computes_the_same_policy_and_values(preset: str) -> None:
    stored = raw(SHIPPED[preset])
    assert stored["observation_version"] == 1  # the files stay as shipped; they are upgraded on load
    old = layout_1_network(stored)
    data = load_checkpoint(SHIPPED[preset], get_rules(preset))
    assert data["observation_version"] == OBSERVATION_VERSION and data["upgraded_from"] == 1
    assert data["observation_size"] == observation_size(4)
    new = network_from_checkpoint(data)
    old_policy, new_policy = NumpyPolicy(old), NumpyPolicy(new)
    rows = list(positions(preset, 4))
    obs = np.stack([vector for vector, _, _ in rows])
    masks = np.stack([mask for _, mask, _ in rows])
    assert np.delete(obs, V1_AT, axis=1).any()  # the new inputs are not all zero here: ignored, not absent
    before, after = old_policy.logits(obs[:, V1_AT], masks), new_policy.logits(obs, masks)
    assert np.array_equal(before.argmax(1), after.argmax(1))
    legal = masks.astype(bool)
    assert np.allclose(before[legal], after[legal], rtol=0, atol=1e-4)
    with torch.no_grad():
        _, values_before = old(torch.from_numpy(obs[:, V1_AT]), torch.from_numpy(masks))
        _, values_after = new(torch.from_numpy(obs), torch.from_numpy(masks))
    assert torch.allclose(values_before, values_after, rtol=0, atol=1e-4)


def test_an_upgraded_agent_plays_the_moves_of_the_layout_1_network() -> None:
    stored = raw(SHIPPED["ten_point"])
    policy = NumpyPolicy(layout_1_network(stored))
    agent = agent_from_checkpoint(SHIPPED["ten_point"], get_rules("ten_point"))
    for vector, mask, view in positions("ten_point", 2):
        if mask.sum() > 1:
            expected = int(np.argmax(policy.logits(vector[None, V1_AT], mask[None, :])[0]))
            assert agent.act(view, {"observation": vector, "action_mask": mask}) == agent.act(view) == expected


def test_upgrade_refuses_other_layouts_wrong_sizes_and_training_checkpoints(tmp_path: Path) -> None:
    stored = {k: v for k, v in raw(SHIPPED["ten_point"]).items() if k not in ("format", "format_version")}
    for version in (0, 4):
        save_checkpoint(tmp_path / f"v{version}.pt", {**stored, "observation_version": version})
        with pytest.raises(ValueError, match=f"observation layout {version} cannot be read as layout 3"):
            load_checkpoint(tmp_path / f"v{version}.pt")
    with pytest.raises(ValueError, match="layout 1 for 4 players has 637 inputs, but the checkpoint records 640"):
        upgrade({**stored, "observation_size": 640})
    with pytest.raises(ValueError, match="training checkpoint of observation layout 1: it cannot resume"):
        upgrade({**stored, "optimizer": {}})
    narrow = {**stored["model"], "trunk.0.weight": stored["model"]["trunk.0.weight"][:, :600]}
    with pytest.raises(ValueError, match=r"first layer is not \[hidden, 637\]"):
        upgrade({**stored, "model": narrow})
    assert upgrade(upgrade(stored))["observation_size"] == observation_size(4)  # the current layout passes as it is


def raw_policy_file(preset: str) -> dict[str, np.ndarray]:
    """A layout-1 .npz as stored, not upgraded."""
    with np.load(SHIPPED_NPZ[preset], allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


@pytest.mark.parametrize("preset", sorted(SHIPPED))
def test_the_shipped_npz_is_layout_1_and_upgraded_as_read_to_the_same_function(preset: str) -> None:
    arrays = raw_policy_file(preset)
    stored = json.loads(str(arrays["layout"][()]))
    assert stored["observation_version"] == 1  # the shipped files stay as they are
    policy = load_policy(SHIPPED_NPZ[preset])
    assert policy.layout["observation_version"] == OBSERVATION_VERSION and policy.layout["upgraded_from"] == 1
    rows = list(positions(preset, 3))
    obs, masks = np.stack([v for v, _, _ in rows]), np.stack([m for _, m, _ in rows])
    x = obs[:, V1_AT]  # layout 1's function, evaluated from the stored arrays
    for k in range(len(stored["hidden"])):
        x = np.maximum(x @ arrays[f"hidden.{k}.weight"] + arrays[f"hidden.{k}.bias"], 0)
    before = np.where(masks != 0, x @ arrays["policy.weight"] + arrays["policy.bias"], np.float32(-1e9))
    after = policy.logits(obs, masks)  # the zero weights add nothing; sums in another order may round apart
    assert np.array_equal(before.argmax(1), after.argmax(1))
    np.testing.assert_allclose(after[masks != 0], before[masks != 0], rtol=0, atol=1e-4)
    values = x @ arrays["value.weight"][:, 0] + arrays["value.bias"][0]
    np.testing.assert_allclose(policy.value(obs), values, rtol=0, atol=1e-4)


@pytest.mark.parametrize("preset", sorted(SHIPPED))
@pytest.mark.parametrize("source", ["npz", "pt"])
def test_upgraded_shipped_agents_play_the_moves_recorded_under_layout_1(preset: str, source: str) -> None:
    recorded = json.loads(V1_MOVES.read_text())
    assert recorded["observation_version"] == 1
    rules = get_rules(preset)
    agent = (
        make_agent(str(SHIPPED_NPZ[preset]), rules, 0)
        if source == "npz"
        else agent_from_checkpoint(SHIPPED[preset], rules)
    )
    observer = Observer(rules.num_players)
    for seed, moves in enumerate(recorded["games"][preset]):
        game = Game(rules, seed=seed)
        for expected in moves:
            seat = game.current_player
            view = player_view(game, seat)
            env = {"observation": observer.vector(game, seat), "action_mask": action_mask(game.legal_mask())}
            assert agent.act(view) == agent.act(view, env) == expected, (preset, seed, len(game.history))
            game.apply(expected)


def test_a_layout_1_npz_of_the_wrong_size_or_another_layout_is_refused(tmp_path: Path) -> None:
    arrays = raw_policy_file("ten_point")
    layout = json.loads(str(arrays["layout"][()]))
    narrow = {**arrays, "hidden.0.weight": arrays["hidden.0.weight"][:-3]}
    narrow["layout"] = np.array(json.dumps(layout | {"observation_size": layout["observation_size"] - 3}))
    Policy.from_arrays(narrow).save(tmp_path / "narrow.npz")  # loads, but is not upgraded: not layout 1's size
    with pytest.raises(ValueError, match="observation_version is 1 in the file but 3 here"):
        make_agent(str(tmp_path / "narrow.npz"), "ten_point")
    for version in (0, 4):
        other = {**arrays, "layout": np.array(json.dumps(layout | {"observation_version": version}))}
        Policy.from_arrays(other).save(tmp_path / f"v{version}.npz")
        with pytest.raises(ValueError, match=f"observation_version is {version} in the file but 3 here"):
            NeuralAgent(tmp_path / f"v{version}.npz")


def test_fine_tuning_from_a_shipped_layout_1_agent_starts_from_its_upgraded_weights(tmp_path: Path) -> None:
    from training.config import config_from_dict
    from training.ppo import Trainer

    stored = raw(SHIPPED["ten_point"])
    config = config_from_dict({"preset": "ten_point", "seed": 0, "hidden": list(stored["hidden"]), "num_games": 2,
                               "init_from": str(SHIPPED["ten_point"]), "bc_hands": 0, "device": "cpu"})  # fmt: skip
    trainer = Trainer(config, tmp_path / "ft")
    trainer.writer.close()
    first = trainer.net.state_dict()["trunk.0.weight"]
    assert first.shape[1] == observation_size(4)
    others = np.setdiff1d(np.arange(first.shape[1]), V1_AT)
    assert torch.equal(first[:, V1_AT], stored["model"]["trunk.0.weight"]) and not first[:, others].any()
