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
