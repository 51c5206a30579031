"""Confidence intervals for match results: Wilson score for win rates, normal for means.

Why these two:

* A win rate near 0 or 1 (a strong bot against random) makes the textbook
  ``p +- z sqrt(p(1-p)/n)`` interval collapse to zero width or leave [0, 1]; the
  Wilson score interval stays inside [0, 1] and keeps close to its nominal 95%
  coverage even for small ``n`` and extreme ``p``.
* Mean hand points average many small integers, so the central limit theorem
  makes a normal interval on the sample mean adequate.

Draws count as half a win: a match score of 1 (win), 1/2 (draw) or 0 (loss) is
averaged, and the Wilson interval is computed for that fraction over all games.
That keeps the rate symmetric (A's rate is 1 minus B's) and puts an agent
against a copy of itself at 1/2, as Elo-style ratings do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

#: two-sided 95% standard normal quantile
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a 95% interval ``[low, high]`` and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int

    def as_text(self, digits: int = 3) -> str:
        """``0.512 [0.443, 0.581]``: the estimate and its interval, for tables."""
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def match_score(wins: float, draws: float, games: int) -> float:
    """Fraction of the available match points taken: ``(wins + draws / 2) / games``."""
    if games <= 0:
        raise ValueError(f"games must be positive, got {games}")
    return (wins + draws / 2) / games


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (``successes`` may be fractional: draws).

    ``center = (p + z^2/2n) / (1 + z^2/n)``, ``half = z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2)``.
    """
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in [0, n={n}], got {successes}")
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


def win_rate(wins: int, draws: int, games: int) -> Estimate:
    """Match score (draws count half) with its 95% Wilson interval."""
    low, high = wilson_interval(wins + draws / 2, games)
    return Estimate(match_score(wins, draws, games), low, high, games)


def mean_interval(values: Sequence[float], z: float = Z95) -> Estimate | None:
    """Sample mean with a normal 95% interval ``mean +- z s / sqrt(n)`` (sample sd, n - 1); None when empty.

    With a single value the interval is that value (no spread can be estimated).
    """
    n = len(values)
    if n == 0:
        return None
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


@dataclass
class RunningMean:
    """Count, sum and sum of squares of a sample, kept exactly (``Fraction``) so merging is order-free.

    Evaluation workers each tally their games and the parent merges the tallies;
    exact sums make the final mean and interval bit-identical for any split of the
    games (floating sums would depend on the order of addition). Memory stays
    constant however many hands are played.
    """

    n: int = 0
    total: Fraction = Fraction(0)
    total_sq: Fraction = Fraction(0)

    def add(self, value: Fraction | int) -> None:
        """Add one sample (ints, or Fractions for averages over several seats)."""
        self.n += 1
        self.total += value
        self.total_sq += value * value

    def merge(self, other: RunningMean) -> None:
        """Fold another tally into this one."""
        self.n += other.n
        self.total += other.total
        self.total_sq += other.total_sq

    def estimate(self, z: float = Z95) -> Estimate | None:
        """The mean with a normal 95% interval, as :func:`mean_interval` gives for the same values."""
        if self.n == 0:
            return None
        mean = self.total / self.n
        if self.n == 1:
            return Estimate(float(mean), float(mean), float(mean), 1)
        variance = (self.total_sq - self.total * mean) / (self.n - 1)
        half = z * math.sqrt(variance / self.n)
        return Estimate(float(mean), float(mean) - half, float(mean) + half, self.n)
