"""Experience collected in Ray worker processes: the same kind of batches, and a resumed run ends where a straight
one does (each worker's matches in flight and random stream are in the checkpoint)."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
ray = pytest.importorskip("ray")

from smear_env.house_rules import fingerprint  # noqa: E402
from smear_env.rules import rules_from_dict  # noqa: E402
from training import focus  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.collection import worker_games  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.focus import score_focus_sets  # noqa: E402
from training.ppo import Trainer  # noqa: E402

TINY = {
    "preset": "ten_point", "universal": True, "train_presets": ["ten_point", "ten_point_6p"], "teacher": "specialists",
    "hidden": [16], "card_head": 18, "num_games": 4, "rollout_steps": 96, "minibatch": 64, "epochs": 1,
    "bc_hands": 0, "total_steps": 192, "eval_every_minutes": 0, "final_eval_matches": 2,
    "eval_opponents": ["random"], "device": "cpu", "checkpoint_every": 1, "workers": 2, "snapshot_every": 1,
    "opp_pool": 0.5, "opp_self": 0.5, "opp_rule": 0.0,
}  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def test_the_matches_are_shared_among_the_workers() -> None:
    assert worker_games(64, 3) == [22, 21, 21] and sum(worker_games(5, 2)) == 5
    with pytest.raises(ValueError, match="more workers than num_games"):
        worker_games(2, 3)


def test_a_run_with_workers_resumes_to_the_weights_of_a_straight_run(tmp_path: Path) -> None:
    config = config_from_dict(TINY)
    straight = Trainer(config, tmp_path / "straight")
    straight.run(progress=False)
    assert straight.step >= 192 and straight.pool  # the workers played the pool's snapshots too
    Trainer(config, tmp_path / "stopped").run(progress=False, max_updates=1)
    Trainer(None, tmp_path / "stopped", resume=tmp_path / "stopped" / "checkpoint.pt").run(progress=False)
    a, b = (load_checkpoint(tmp_path / name / "agent.pt")["model"] for name in ("straight", "stopped"))
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_a_focused_run_s_workers_score_its_sets_as_one_process_does_and_play_only_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = {**TINY, "workers": 0, "teacher": "", "total_steps": 96}
    Trainer(config_from_dict(start), tmp_path / "start").run(progress=False)
    focused = {**TINY, "teacher": "", "house_share": 1.0, "focus_sets": 3, "focus_games": 2,
               "init_from": str(tmp_path / "start" / "agent.pt")}  # fmt: skip
    c = config_from_dict(focused)
    here = score_focus_sets(c.init_from, c.focus_sets, c.focus_games, c.seed, c.train_presets, c.focus_power,
                            log=lambda line: None)  # fmt: skip

    def not_here(*args: object) -> None:
        raise AssertionError("a run with workers scores its sets in them")

    monkeypatch.setattr(focus, "_here", not_here)
    trainer = Trainer(c, tmp_path / "focused")
    assert trainer.focus == here
    trainer.collector.collect(96, trainer.net.state_dict())
    sets = {fingerprint(f.rules()) for f in trainer.focus}
    workers = trainer.collector.state_dict()["workers"]
    played = [m["record"]["rules"] for w in workers for m in w["collector"]["matches"]]
    assert len(played) == 4 and {fingerprint(rules_from_dict(r)) for r in played} <= sets
    trainer.collector.shutdown()
    trainer.writer.close()
