"""TorchRL: ``PettingZooWrapper(use_mask=True)`` takes the Smear AEC env as it is (the ``torchrl`` extra)."""

from __future__ import annotations

import pytest

from smear_env.observation import observation_size
from tests.file_modules import ROOT, load_module

pytest.importorskip("torchrl")


def _example():
    return load_module(ROOT / "examples" / "torchrl_rollout.py")


@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")
def test_rollout_takes_only_legal_actions_and_finishes_hands() -> None:
    rollout = _example().main(["--preset", "ten_point", "--steps", "200", "--seed", "3"])
    group = rollout["agents"]
    assert group["mask"].sum(-1).eq(1).all()  # exactly one seat on turn at every step
    assert int(rollout["next", "done"].sum()) >= 1
    assert group["observation", "observation"].shape[-1] == observation_size(4)


@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")
def test_the_same_seed_collects_the_same_rollout() -> None:
    example = _example()
    first, again = (example.collect("minnesota", 60, seed=5) for _ in range(2))
    assert (first["agents", "action"] == again["agents", "action"]).all()


@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")
def test_the_ppo_example_trains_and_saves_a_policy_the_registry_plays(tmp_path) -> None:  # noqa: ANN001
    from agents.registry import make_agent
    from training.benchmark.curve import read_snapshots
    from training.evaluate import evaluate

    example = load_module(ROOT / "examples" / "torchrl_ppo.py")
    argv = ["--frames", "512", "--batch", "256", "--minibatch", "128", "--epochs", "1", "--hidden", "32"]
    result = example.main([*argv, "--out", str(tmp_path), "--snapshot-minutes", "0.0001"])
    assert result["frames"] == 512
    snapshots = read_snapshots(tmp_path / "snapshots.csv")
    assert [s.decisions for s in snapshots] == [256, 512] and snapshots[0].agent.startswith("torchrl:")
    make_agent(snapshots[0].agent, "minnesota", 0)
    played = evaluate(f"torchrl:{tmp_path / 'policy.pt'}", "random", "minnesota", 2, seed=1, workers=1)
    assert played.a.decisions > 0
