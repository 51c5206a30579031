"""Policies as a user outside the project writes them, for the tests of ``module:function`` agents."""

from __future__ import annotations

from typing import Any

import numpy as np

SEEN: list[tuple[np.ndarray, np.ndarray]] = []  # what recording() was given, for tests to compare


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """The lowest legal action id."""
    return int(np.flatnonzero(action_mask)[0])


def last_legal(observation: np.ndarray, action_mask: np.ndarray) -> np.int64:
    """The highest legal action id, as numpy returns it."""
    return np.flatnonzero(action_mask)[-1]


def recording(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """``first_legal``, keeping what it was given."""
    SEEN.append((observation.copy(), action_mask.copy()))
    return first_legal(observation, action_mask)


def illegal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """An action that is not legal."""
    return int(np.flatnonzero(action_mask == 0)[0])


def fractional(observation: np.ndarray, action_mask: np.ndarray) -> float:
    return 0.5


def broken(observation: np.ndarray, action_mask: np.ndarray) -> int:
    raise RuntimeError("the policy's own bug")


class Predictor:
    """An object with SB3's ``predict`` signature."""

    def predict(self, observation: np.ndarray, action_masks: np.ndarray, deterministic: bool = True) -> Any:
        return np.array(np.flatnonzero(action_masks)[-1]), None


predictor = Predictor()
NOT_CALLABLE = 42


class Sampler:
    """A policy that samples its moves, from a generator made from each game's seed (its ``reset``)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))


sampler = Sampler()
