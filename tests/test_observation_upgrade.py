"""Checkpoints of observation layout 1 (the shipped agents) upgraded to layout 2: the same policy, or refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.neural_agent import NeuralAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from smear_env.game import Game  # noqa: E402
from smear_env.observation import OBSERVATION_VERSION, Observer, action_mask, observation_size, player_view  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from training.checkpoint import load_checkpoint, network_from_checkpoint, save_checkpoint, upgrade  # noqa: E402
from training.model import NumpyPolicy, PolicyValueNet  # noqa: E402

SHIPPED = {"ten_point": Path("checkpoints/ten_point.pt"), "minnesota": Path("checkpoints/minnesota.pt")}


def raw(path: Path) -> dict:
    """A checkpoint file as stored, not upgraded."""
    return torch.load(path, map_location="cpu", weights_only=True)


def layout_1_network(data: dict) -> PolicyValueNet:
    net = PolicyValueNet(data["observation_size"], data["num_actions"], data["hidden"])
    net.load_state_dict(data["model"])
    return net.eval()


def positions(preset: str, hands: int):
    """Each seat's view of every decision of some rule-bot hands: (vector, mask)."""
    rules = get_rules(preset)
    observer = Observer(rules.num_players)
    for seed in range(hands):
        game = Game(rules, seed=seed)
        bots = [make_agent("rule", rules, s) for s in range(rules.num_players)]
        while not game.is_over and game.hands_played < 2:
            seat = game.current_player
            yield observer.vector(game, seat), action_mask(game.legal_mask())
            game.apply(bots[seat].act(player_view(game, seat)))


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
    v1 = observation_size(4, version=1)
    rows = list(positions(preset, 4))
    obs = np.stack([vector for vector, _ in rows])
    masks = np.stack([mask for _, mask in rows])
    assert obs[:, v1:].any()  # the new inputs are not all zero in these positions: they are ignored, not absent
    before, after = old_policy.logits(obs[:, :v1], masks), new_policy.logits(obs, masks)
    assert np.array_equal(before.argmax(1), after.argmax(1))
    legal = masks.astype(bool)
    assert np.allclose(before[legal], after[legal], rtol=0, atol=1e-4)
    with torch.no_grad():
        _, values_before = old(torch.from_numpy(obs[:, :v1]), torch.from_numpy(masks))
        _, values_after = new(torch.from_numpy(obs), torch.from_numpy(masks))
    assert torch.allclose(values_before, values_after, rtol=0, atol=1e-4)


def test_an_upgraded_agent_plays_the_moves_of_the_layout_1_network() -> None:
    stored = raw(SHIPPED["ten_point"])
    policy = NumpyPolicy(layout_1_network(stored))
    agent = NeuralAgent(SHIPPED["ten_point"], get_rules("ten_point"))
    v1 = observation_size(4, version=1)
    for vector, mask in positions("ten_point", 2):
        if mask.sum() > 1:
            expected = int(np.argmax(policy.logits(vector[None, :v1], mask[None, :])[0]))
            legal = np.flatnonzero(mask).tolist()
            assert agent.act({"legal_actions": legal}, {"observation": vector, "action_mask": mask}) == expected


def test_upgrade_refuses_other_layouts_wrong_sizes_and_training_checkpoints(tmp_path: Path) -> None:
    stored = {k: v for k, v in raw(SHIPPED["minnesota"]).items() if k not in ("format", "format_version")}
    for version in (0, 3):
        save_checkpoint(tmp_path / f"v{version}.pt", {**stored, "observation_version": version})
        with pytest.raises(ValueError, match=f"observation_version is {version} in the checkpoint but 2 here"):
            load_checkpoint(tmp_path / f"v{version}.pt")
    with pytest.raises(ValueError, match="layout 1 for 4 players has 637 inputs, but the checkpoint records 640"):
        upgrade({**stored, "observation_size": 640})
    with pytest.raises(ValueError, match="training checkpoint of observation layout 1: it cannot resume"):
        upgrade({**stored, "optimizer": {}})
    narrow = {**stored["model"], "trunk.0.weight": stored["model"]["trunk.0.weight"][:, :600]}
    with pytest.raises(ValueError, match=r"first layer is not \[hidden, 637\]"):
        upgrade({**stored, "model": narrow})
    assert upgrade(upgrade(stored))["observation_size"] == observation_size(4)  # the current layout passes as it is
