"""Stand-in policies for collector tests: no network, so what a test checks is the collector's own arithmetic."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Policy = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]  # training.selfplay.PolicyFn's shape


def uniform_policy(seed: int) -> Policy:
    """Uniform over legal actions, values 0: with gamma and lambda 1 a decision's return is its episode's reward."""
    rng = np.random.default_rng(seed)

    def policy(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.where(masks, rng.normal(size=masks.shape), -1e9).astype(np.float32)
        return logits, np.zeros(len(obs), dtype=np.float32)

    return policy


def match_reward_added(make_collector: Callable[[float], Any], steps: int, match_reward: float) -> np.ndarray:
    """What ``match_reward`` adds to each return: the same matches collected with it and without it.

    ``make_collector(match_reward)`` builds a collector seeded the same way each time; with a
    uniform policy, zero values and gamma and lambda 1, the difference is the outcome term alone.
    """
    plain_collector, outcome_collector = make_collector(0.0), make_collector(match_reward)
    plain = plain_collector.collect(steps, uniform_policy(4), [])
    with_outcome = outcome_collector.collect(steps, uniform_policy(4), [])
    matches = plain_collector.pop_stats().get("matches", 0)
    assert matches >= 2 and outcome_collector.pop_stats().get("matches", 0) == matches
    assert plain.returns.shape == with_outcome.returns.shape
    return np.round(with_outcome.returns - plain.returns, 4)
