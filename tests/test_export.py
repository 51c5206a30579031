"""Torch-free agents: a checkpoint exported to .npz plays exactly as the checkpoint, and loads without torch.

The shipped agents are .npz files only; read as checkpoints (``training.checkpoint.checkpoint_from_policy``)
they give the torch network that training starts from, and a training checkpoint (.pt) is made from one
where a test needs it (:func:`shipped_checkpoint`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.files import written_whole  # noqa: E402
from agents.neural_agent import NeuralAgent, load_policy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.shipped import (  # noqa: E402
    retired_presets,
    shipped_policy_path,
    shipped_presets,
    specialist_policy_path,
    specialist_presets,
)
from smear_env.game import Game  # noqa: E402
from smear_env.observation import OBSERVATION_VERSION, Observer, action_mask, player_view  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from smear_env.schneider import game as schneider  # noqa: E402
from smear_env.schneider import observation as schneider_observation  # noqa: E402
from smear_env.signature import SCHNEIDER, game_of, network_signature, rules_for_preset  # noqa: E402
from smear_rl import cli  # noqa: E402
from training.checkpoint import load_checkpoint, network_from_checkpoint, save_checkpoint  # noqa: E402
from training.export import export_checkpoint, policy_from_checkpoint  # noqa: E402
from training.model import network_input  # noqa: E402

SHIPPED = [
    "ten_point",
    "minnesota",
    "ten_point_6p",
    "ten_point_midwest",
    "ten_point_5p",
    "four_point",
    "six_point",
    "pitch_smudge",
    "bohemian_schneider",
    "schmier",
    "smear",
]
RETIRED = ["six_point", "ten_point_5p", "four_point", "schmier"]  # the universal agent beat them: they only teach


def shipped_checkpoint(preset: str, folder: Path) -> Path:
    """The shipped agent of ``preset`` written as a training checkpoint (``agent.pt``) in ``folder``."""
    data = load_checkpoint(specialist_policy_path(preset))
    fields = {k: v for k, v in data.items() if k not in ("format", "format_version", "source", "source_sha256")}
    return save_checkpoint(folder / f"{preset}.pt", fields)


def positions(preset: str, count: int) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """Views, observation vectors and masks of ``count`` decisions with a choice, from rule-bot matches."""
    rules = rules_for_preset(preset)
    bot = make_agent("rule", rules, 0)
    if game_of(rules) == SCHNEIDER:
        new_game, view_of, vector_of, mask_of = (
            lambda seed: schneider.Game(rules, seed=seed),
            schneider_observation.player_view,
            schneider_observation.observation_vector,
            schneider_observation.action_mask,
        )
    else:
        observer = Observer(rules.num_players)
        new_game, view_of, vector_of, mask_of = (
            lambda seed: Game(rules, seed=seed),
            player_view,
            observer.vector,
            action_mask,
        )
    views, obs, masks = [], [], []
    seed = 0
    while len(views) < count:
        game = new_game(seed)
        seed += 1
        while not game.is_over and len(game.deals) < 6 and len(views) < count:
            seat = game.current_player
            view = view_of(game, seat)
            if len(view["legal_actions"]) > 1:
                views.append(view)
                obs.append(vector_of(game, seat))
                masks.append(mask_of(game.legal_mask()))
            game.apply(bot.act(view))
    return views, np.stack(obs), np.stack(masks)


@pytest.mark.parametrize("preset", SHIPPED)
def test_the_shipped_file_plays_as_the_torch_network_read_from_it_on_thousands_of_positions(preset: str) -> None:
    """The numpy agent and the torch network that a run started from the file (init_from) would train."""
    views, obs, masks = positions(preset, 2500)
    net = network_from_checkpoint(load_checkpoint(specialist_policy_path(preset)))
    inputs = network_input(net, obs, rules_for_preset(preset))
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(inputs), torch.from_numpy(masks))
    torch_choice = logits.argmax(dim=1).numpy()
    torch_probs = torch.softmax(logits.double(), dim=1).numpy()
    agent = make_agent(f"{specialist_policy_path(preset)}:match_moon=false", preset, 0)  # its own moves, moon too
    assert isinstance(agent, NeuralAgent)
    for i, view in enumerate(views):
        decision = agent.decide(view)
        assert decision.action == torch_choice[i] == agent.act(view)
        legal = view["legal_actions"]
        assert decision.scores is not None and sorted(decision.scores) == legal
        got = np.array([decision.scores[a] for a in legal])
        np.testing.assert_allclose(got, torch_probs[i, legal], atol=2e-5)


@pytest.mark.parametrize("preset", SHIPPED)
def test_the_shipped_file_read_as_a_checkpoint_exports_back_to_itself(preset: str, tmp_path: Path) -> None:
    shipped = load_policy(specialist_policy_path(preset))
    fresh = policy_from_checkpoint(shipped_checkpoint(preset, tmp_path))
    made = {"source", "source_sha256"}  # where each export came from: the shipped file names its .pt
    assert {k: v for k, v in shipped.layout.items() if k not in made} == {
        k: v for k, v in json.loads(json.dumps(fresh.layout)).items() if k not in made
    }
    assert shipped.layout["source"] == f"{preset}.pt" and len(shipped.layout["source_sha256"]) == 64
    shipped_arrays, fresh_arrays = shipped.to_arrays(), fresh.to_arrays()
    assert sorted(shipped_arrays) == sorted(fresh_arrays)
    for name, array in fresh_arrays.items():
        if name != "layout":
            assert np.array_equal(shipped_arrays[name], array), name
    layout_now = network_signature(rules_for_preset(preset))["observation_version"]
    assert shipped.layout["config"]["preset"] == preset and shipped.layout["observation_version"] == layout_now
    smear = preset != "bohemian_schneider"  # every Smear agent is stored in layout 2 and widened as read
    assert shipped.layout.get("upgraded_from") == (2 if smear else None)


def test_a_checkpoint_is_converted_once_per_version_of_the_file(tmp_path: Path) -> None:
    """Training builds a fixed .pt opponent for every match: the same file and rules share one conversion."""
    path = shipped_checkpoint("ten_point", tmp_path)  # any checkpoint
    rules = get_rules("ten_point")
    first = policy_from_checkpoint(path, rules)
    assert policy_from_checkpoint(path, rules) is first
    assert policy_from_checkpoint(path, get_rules("ten_point")) is first  # equal rules, not the same object
    os.utime(path, ns=(0, 12345))  # as if rewritten: another modification time
    again = policy_from_checkpoint(path, rules)
    assert again is not first and again.layout == first.layout
    with pytest.raises(ValueError, match="rules"):
        policy_from_checkpoint(path, get_rules("ten_point", target_score=21))  # a refusal is never cached


def test_shipped_agents_are_found_by_name_and_others_named_in_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert specialist_presets() == sorted(SHIPPED) and retired_presets() == sorted(RETIRED)
    assert shipped_presets() == sorted(set(SHIPPED) - set(RETIRED))
    for preset in ("ten_point", "minnesota"):  # every preset has an agent now: a folder that lacks smear's
        shutil.copy(shipped_policy_path(preset), tmp_path)
    monkeypatch.setattr("agents.shipped.SHIPPED_DIR", tmp_path)
    with pytest.raises(
        ValueError, match="no shipped neural agent for 'smear': the presets with one are minnesota, ten_point "
    ):
        make_agent("neural", "smear")
    with pytest.raises(ValueError, match="other rules.*'target_score' is 52 in the file but 21 here"):
        make_agent("neural", get_rules("ten_point", target_score=21))  # no universal agent there: what differs
    monkeypatch.undo()
    house = make_agent("neural", get_rules("ten_point", target_score=21))  # the shipped universal agent plays it
    assert isinstance(house, NeuralAgent) and house.path.endswith("universal.npz")
    sampler = make_agent("neural:greedy=false", "ten_point", 3)
    assert isinstance(sampler, NeuralAgent) and not sampler.greedy


def test_agent_refuses_a_view_of_other_rules_it_was_not_built_for() -> None:
    minnesota = NeuralAgent(shipped_policy_path("minnesota"))  # rules from the file
    game = Game("ten_point", seed=3)
    with pytest.raises(ValueError, match="plays 'minnesota' .* asked to act in 'ten_point'"):
        minnesota.act(player_view(game, game.current_player))
    renamed = player_view(game, game.current_player) | {"preset": "minnesota"}
    with pytest.raises(ValueError, match="offers 'bid 5', which those rules never allow"):
        minnesota.act(renamed)


def test_file_for_another_observation_layout_fails_saying_so(tmp_path: Path) -> None:
    policy = load_policy(shipped_policy_path("ten_point"))
    old = dataclasses.replace(policy, layout=policy.layout | {"observation_version": 0})  # card head and all
    old.save(tmp_path / "old.npz")
    with pytest.raises(ValueError, match=f"observation_version is 0 in the file but {OBSERVATION_VERSION} here"):
        make_agent(str(tmp_path / "old.npz"), "ten_point")


def test_saving_over_a_policy_file_never_shows_a_reader_half_a_file(tmp_path: Path) -> None:
    """A training run reads its frozen opponent's file while a user may export a new one to the same path."""
    path = shipped_policy_path("ten_point")
    target = tmp_path / "agent.npz"
    shutil.copy(path, target)
    with target.open("rb") as reader:  # opened before the new file is written, read after
        load_policy(shipped_policy_path("minnesota")).save(target)
        assert reader.read() == path.read_bytes()
    assert load_policy(target).layout["preset"] == "minnesota"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent.npz"]


def test_corrupt_foreign_and_pickled_files_fail_clearly(tmp_path: Path) -> None:
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    np.savez(tmp_path / "foreign.npz", weights=np.zeros(3))
    np.savez(tmp_path / "pickled.npz", layout=np.array([{"format": "smear-rl-policy"}], dtype=object))
    blob = shipped_policy_path("ten_point").read_bytes()
    (tmp_path / "cut.npz").write_bytes(blob[: len(blob) // 2])
    for name, message in (
        ("junk", "not a readable"),
        ("foreign", "no 'layout' array"),
        ("pickled", "not a readable"),
        ("cut", "not a readable"),
    ):
        with pytest.raises(ValueError, match=message):
            NeuralAgent(tmp_path / f"{name}.npz")
    with pytest.raises(ValueError, match="is a training checkpoint: export it first"):
        NeuralAgent(shipped_checkpoint("ten_point", tmp_path))


def test_export_command_writes_a_file_that_plays_like_the_checkpoint(tmp_path: Path) -> None:
    out, checkpoint = tmp_path / "agent.npz", str(shipped_checkpoint("minnesota", tmp_path))
    cli.main(["export", checkpoint, "-o", str(out)])
    exported = make_agent(str(out), "minnesota")
    in_memory = make_agent(checkpoint, "minnesota")  # .pt paths keep working, converted in memory
    game = Game("minnesota", seed=9)
    for _ in range(40):
        view = player_view(game, game.current_player)
        assert exported.act(view) == in_memory.act(view)
        game.apply(exported.act(view))
    assert export_checkpoint(checkpoint, tmp_path / "again.npz").is_file()
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["export", str(tmp_path / "missing.pt")])
    assert exit_info.value.code == 2


@pytest.mark.parametrize(
    ("out", "words"),
    [
        ("{checkpoint}", "is not an .npz"),  # the checkpoint itself: it was replaced by the policy, then a traceback
        ("other.pt", "is not an .npz"),
        ("{folder}", "is a folder"),  # a traceback once, and a 1.5 MB stray file beside the folder
        ("{folder}/missing/x.npz", "does not exist"),
    ],
)
def test_export_refuses_an_output_it_cannot_or_must_not_write_and_leaves_everything_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, words: str
) -> None:
    checkpoint = shipped_checkpoint("minnesota", tmp_path)
    before = checkpoint.read_bytes()
    files = sorted(tmp_path.iterdir())
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["export", str(checkpoint), "-o", out.format(checkpoint=checkpoint, folder=tmp_path)])
    assert exit_info.value.code == 2 and words in capsys.readouterr().err
    assert checkpoint.read_bytes() == before and sorted(tmp_path.iterdir()) == files


def test_a_file_written_whole_leaves_no_partial_file_when_the_rename_fails(tmp_path: Path) -> None:
    target = tmp_path / "a_folder"
    target.mkdir()
    with pytest.raises(OSError), written_whole(target) as partial:
        partial.write_bytes(b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_folder"]


def test_neural_agent_and_registry_never_import_torch_or_training() -> None:
    code = (
        "import sys; from agents.registry import make_agent; from smear_env.game import Game; "
        "from smear_env.observation import player_view; g = Game('ten_point', seed=1); "
        "a = make_agent('neural', 'ten_point'); a.act(player_view(g, g.current_player)); "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('torch', 'training')]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
