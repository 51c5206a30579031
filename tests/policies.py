"""Stand-in policies for collector tests: no network, so what a test checks is the collector's own arithmetic."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Policy = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]  # training.selfplay.PolicyFn's shape


def uniform_policy(seed: int) -> Policy:
    """Uniform over legal actions, values 0: with gamma and lambda 1 a decision's return is its episode's reward."""
    rng = np.random.default_rng(seed)

    def policy(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.where(masks, rng.normal(size=masks.shape), -1e9).astype(np.float32)
        return logits, np.zeros(len(obs), dtype=np.float32)

    return policy
