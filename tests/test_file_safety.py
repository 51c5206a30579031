"""Files we read never run code: checkpoints, resumable training state, label files.

A crafted file whose pickled payload would create a marker file must fail with a clear
ValueError and leave no marker. The resumable state is tensors and plain data, read with
``torch.load(weights_only=True)``, and rebuilds the matches in flight exactly.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.registry import make_agent  # noqa: E402
from agents.shipped import shipped_policy_path  # noqa: E402
from smear_env.observation import observation_size  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from training.checkpoint import load_checkpoint, save_checkpoint  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.distill import Labels, load_labels  # noqa: E402
from training.model import PolicyValueNet  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.selfplay import OPPONENT_KINDS, Collector, bot_state, torch_policy  # noqa: E402

TINY = {
    "total_steps": 300, "num_games": 4, "rollout_steps": 100, "hidden": [16], "minibatch": 64, "epochs": 1,
    "bc_hands": 0, "checkpoint_every": 1, "eval_every_minutes": 0.0, "eval_matches": 2, "final_eval_matches": 2,
    "eval_opponents": ["random"], "opp_self": 0.3, "opp_pool": 0.2, "opp_rule": 0.2, "opp_random": 0.2, "opp_bold": 0.1,
    "snapshot_every": 1,
}  # fmt: skip


class WritesMarker:
    """Unpickling this creates a file: what a crafted checkpoint would do with real harm."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.touch, (self.marker,))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny finished run: checkpoint.pt (resumable) and agent.pt."""
    out = tmp_path_factory.mktemp("run")
    Trainer(config_from_dict(TINY), out).run(progress=False)
    return out


def agent_fields(run: Path) -> dict[str, Any]:
    data = load_checkpoint(run / "agent.pt")
    return {k: v for k, v in data.items() if k not in ("format", "format_version")}


def test_a_checkpoint_whose_pickle_runs_code_fails_cleanly_without_running_it(run: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    torch.save({"format": "smear-rl-checkpoint", "format_version": 1, "model": WritesMarker(marker)},
               tmp_path / "evil.pt")  # fmt: skip
    with pytest.raises(ValueError, match=r"'.*evil.pt' is not a readable smear-rl checkpoint \(UnpicklingError"):
        load_checkpoint(tmp_path / "evil.pt")
    with pytest.raises(ValueError, match="is not a readable smear-rl checkpoint"):
        make_agent(str(tmp_path / "evil.pt"), "ten_point", 0)
    with pytest.raises(ValueError, match="is not a readable smear-rl checkpoint"):
        Trainer(None, tmp_path / "resumed", resume=tmp_path / "evil.pt")
    assert not marker.exists()
    assert not (tmp_path / "resumed").exists()


def test_an_old_checkpoint_with_pickled_training_state_is_refused_unread(run: Path, tmp_path: Path) -> None:
    """The format before this one kept the collector as pickled bytes: never unpickled now."""
    marker = tmp_path / "pwned"
    old = {**agent_fields(run), "optimizer": {}, "pool": [], "state": pickle.dumps(WritesMarker(marker))}
    save_checkpoint(tmp_path / "old_checkpoint.pt", old)
    with pytest.raises(ValueError, match="written by an older smear-rl that pickled its training state"):
        Trainer(None, tmp_path / "resumed", resume=tmp_path / "old_checkpoint.pt")
    assert make_agent(str(tmp_path / "old_checkpoint.pt"), "ten_point", 0).name == "neural"  # still an agent
    assert not marker.exists()
    assert not (tmp_path / "resumed").exists()


def plain_data_only(value: Any, where: str = "checkpoint") -> None:
    """Fail on anything in a loaded checkpoint but tensors and plain data (no pickled bytes, no objects)."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str | int), where
            plain_data_only(item, f"{where}[{key!r}]")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            plain_data_only(item, f"{where}[{index}]")
    else:
        assert value is None or isinstance(value, bool | int | float | str | torch.Tensor), (where, type(value))


def test_the_resumable_checkpoint_is_tensors_and_plain_data(run: Path) -> None:
    data = load_checkpoint(run / "checkpoint.pt")  # torch.load(weights_only=True)
    plain_data_only(data)
    assert "state" not in data and {"rng", "collector", "imitated"} <= set(data["training_state"])
    matches = data["training_state"]["collector"]["matches"]
    assert len(matches) == TINY["num_games"] and all(m["record"]["game"] == "smear" for m in matches)


@pytest.mark.parametrize("preset", ["ten_point", "minnesota"])
def test_shipped_agents_load_as_agents_and_as_checkpoints_without_pickle(preset: str) -> None:
    path = shipped_policy_path(preset)
    with np.load(path, allow_pickle=False) as arrays:  # the whole file reads with pickle refused
        assert "layout" in arrays.files and all(arrays[name].dtype != object for name in arrays.files)
    assert make_agent(str(path), preset, 0).name == "neural"
    assert load_checkpoint(path, get_rules(preset))["preset"] == preset  # what init_from and distill read


@pytest.mark.parametrize(
    ("drop", "change", "message"),
    [
        ("rules", None, r"it has no 'rules' \(a dict of rule options\)"),
        ("hidden", None, r"it has no 'hidden' \(a list of layer widths\)"),
        (None, {"hidden": "256"}, r"its 'hidden' is a str, not a list of layer widths"),
        (None, {"model": [1, 2]}, r"its 'model' is a list, not a dict of tensors"),
        (None, {"model": {"trunk.0.weight": [0.0]}}, r"its 'model' is a dict, not a dict of tensors"),
        (None, {"rules": {"target_score": "x"}}, r"its rules do not load: rule option target_score='x'"),
        (None, {"observation_size": -1}, r"its 'observation_size' is a int, not a positive int"),
    ],
)
def test_a_tagged_checkpoint_with_missing_or_mistyped_fields_is_not_readable(
    run: Path, tmp_path: Path, drop: str | None, change: dict[str, Any] | None, message: str
) -> None:
    data = {k: v for k, v in agent_fields(run).items() if k != drop} | (change or {})
    save_checkpoint(tmp_path / "bad.pt", data)
    for load in (lambda: load_checkpoint(tmp_path / "bad.pt"), lambda: make_agent(str(tmp_path / "bad.pt"))):
        with pytest.raises(ValueError, match=r"'.*bad.pt' is not a readable smear-rl checkpoint: " + message):
            load()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda s: s.pop("collector"), "missing field 'collector'"),
        (lambda s: s.update(version=1), "state version 1, this reads 2"),
        (lambda s: s.update(rng={"bit_generator": "MT19937"}), "state must be for a PCG64 RNG"),
        (lambda s: s["collector"]["matches"][1].pop("bots"), "the matches in flight lack field 'bots'"),
        (lambda s: s["collector"]["matches"][0]["record"].pop("moves"), "record has no 'moves'"),
        (lambda s: s["collector"]["matches"][0]["record"]["moves"].append("bid 99"), "record move .* 'bid 99'"),
        (lambda s: s["collector"]["matches"].pop(), "3 matches are in flight in the checkpoint, this run plays 4"),
        (lambda s: s["collector"]["ready"].append({"obs": [1.0]}), "obs is a list, not a tensor"),
    ],
)
def test_a_damaged_training_state_is_refused_naming_the_problem(
    run: Path, tmp_path: Path, damage: Any, message: str
) -> None:
    data = load_checkpoint(run / "checkpoint.pt")
    damage(data["training_state"])
    save_checkpoint(tmp_path / "damaged.pt", {k: v for k, v in data.items() if k not in ("format", "format_version")})
    with pytest.raises(ValueError, match=rf"cannot be resumed: malformed training state: .*{message}"):
        Trainer(None, tmp_path / "resumed", resume=tmp_path / "damaged.pt")
    assert not (tmp_path / "resumed").exists()


def test_the_collector_state_rebuilds_every_match_in_flight_exactly(tmp_path: Path) -> None:
    """Every opponent kind, mid-match: saved, read back under weights_only, rebuilt, and played on identically."""
    rules = get_rules("ten_point")
    net = PolicyValueNet(observation_size(4), 181, [16], 0)
    policy = torch_policy(net, torch.device("cpu"))
    mix = {kind: 1.0 for kind in OPPONENT_KINDS}
    shipped = str(shipped_policy_path("ten_point"))  # the fixed kind: a neural agent, rebuilt from its file
    original = Collector(rules, len(OPPONENT_KINDS) * 3, mix, np.random.default_rng(3), fixed_agent=shipped)
    original.pool_size = 1
    original.matches = [original._new_match() for _ in original.matches]  # pool opponents too, now there is one
    original.collect(60, policy, [policy])
    torch.save(original.state_dict(), tmp_path / "collector.pt")
    copy = Collector(rules, len(original.matches), mix, np.random.default_rng(0), fixed_agent=shipped)
    copy.load_state_dict(torch.load(tmp_path / "collector.pt", weights_only=True))
    copy.rng.bit_generator.state = original.rng.bit_generator.state
    copy.pool_size = 1
    assert {m.opponent for m in original.matches} >= {"rule", "bold", "searchbid", "fixed", "neural"}
    for mine, theirs in zip(original.matches, copy.matches, strict=True):
        assert theirs.game.record() == mine.game.record() and theirs.roles == mine.roles
        assert {s: bot_state(b) for s, b in theirs.bots.items()} == {s: bot_state(b) for s, b in mine.bots.items()}
    ahead, behind = original.collect(60, policy, [policy]), copy.collect(60, policy, [policy])
    for field in ("obs", "masks", "actions", "logps", "values", "advantages", "returns"):
        assert np.array_equal(getattr(ahead, field), getattr(behind, field)), field
    assert [m.game.record() for m in original.matches] == [m.game.record() for m in copy.matches]


def test_a_label_file_with_pickled_objects_is_refused_without_running_them(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = np.array([WritesMarker(marker)], dtype=object)
    np.savez(tmp_path / "evil.npz", obs=payload, masks=payload, values=payload, student=payload, match=payload)
    with pytest.raises(ValueError, match=r"evil.npz' is not a labels file written by training.distill: .*allow_pickle"):
        load_labels([str(tmp_path / "evil.npz")])
    assert not marker.exists()


def test_label_files_of_the_wrong_shape_are_refused(tmp_path: Path) -> None:
    rows = 3
    good = Labels(np.zeros((rows, 5), np.float32), np.ones((rows, 4), bool), np.zeros((rows, 4), np.float32),
                  np.zeros(rows, bool), np.zeros(rows, np.int32))  # fmt: skip
    good.save(tmp_path / "good.npz")
    assert len(load_labels([str(tmp_path / "good.npz")]).obs) == rows
    for name, value, message in (
        ("match", np.zeros(rows + 1, np.int32), "its 'match' has 4 rows, its 'obs' 3"),
        ("masks", np.zeros((rows, 4), np.float32), "its 'masks' is a 2-d float32 array"),
        ("values", np.zeros((rows, 7), np.float32), r"its masks are \(3, 4\) but its values \(3, 7\)"),
    ):
        Labels(**{**good.__dict__, name: value}).save(tmp_path / "bad.npz")
        with pytest.raises(ValueError, match=f"bad.npz' is not a labels file written by training.distill: {message}"):
            load_labels([str(tmp_path / "bad.npz")])
    np.savez(tmp_path / "partial.npz", obs=good.obs)
    with pytest.raises(ValueError, match="it has no 'masks' array"):
        load_labels([str(tmp_path / "partial.npz")])
    (tmp_path / "cut.npz").write_bytes((tmp_path / "good.npz").read_bytes()[:100])
    with pytest.raises(ValueError, match="cut.npz' is not a labels file"):
        load_labels([str(tmp_path / "cut.npz")])
