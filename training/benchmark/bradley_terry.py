"""Bradley-Terry strengths from match outcomes: the fit behind the benchmark's rating scale.

The model: agent ``a`` beats agent ``b`` with probability ``sigmoid(s_a - s_b)``, a strength
``s`` on the log-odds scale; a draw (or a stopped match) is half a win each way, as the
win rates count it. Why this and not OpenSkill (:mod:`training.ladder`): OpenSkill updates
game by game, so its ratings depend on the order the games were fed in, while a
published scale and a rating against it must be functions of the games alone. The
maximum-likelihood strengths are; with the panel's strengths held fixed, one agent's
strength is a one-dimensional concave fit.

Two choices, both stated on the benchmark page:

* **A virtual draw between every pair that played** (a weak prior). Without it a pair
  where one side won every game (search against random) pushes the strengths to
  infinity; with it that pair's gap is large and finite, and a pair of hundreds of
  games moves by a hundredth of a game's weight.
* **Intervals over deal pairs.** The two games of a duplicate pair share their cards,
  so they are not two independent samples. The variance is the sandwich (cluster-robust)
  one, ``H^-1 (sum_c g_c g_c^T) H^-1``: ``H`` the information, ``g_c`` the score residuals
  of cluster ``c``, a deal pair (of one match-up).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from training.stats import Z95

#: weight of the virtual draw added to every pair that played (in games)
PRIOR_GAMES = 1.0


@dataclass(frozen=True)
class Outcome:
    """One game: ``a``'s match score against ``b`` (1, 1/2 or 0), and the cluster (deal pair) it belongs to."""

    a: str
    b: str
    score_a: float
    cluster: Hashable


@dataclass(frozen=True)
class Strength:
    """A fitted strength on the log-odds scale with its 95% interval (the scale's own anchor: a point)."""

    value: float
    low: float
    high: float


def pair_outcomes(a: str, b: str, pair_scores: Sequence[float]) -> list[Outcome]:
    """Games as the fits read them from ``a``'s score summed over each deal pair (0 to 2): each pair a cluster.

    Each pair gives two games of half its sum: the fits' gradient, information and cluster
    sums are the same as from the two games themselves, so the sums are all a file keeps.
    """
    return [Outcome(a, b, score / 2, (a, b, k)) for k, score in enumerate(pair_scores) for _ in range(2)]


def _sigmoid(x: np.ndarray | float) -> np.ndarray | float:
    return 1.0 / (1.0 + np.exp(-x))


def fit_panel(outcomes: Sequence[Outcome], anchor: str) -> dict[str, Strength]:
    """Every agent's strength from the games among them, ``anchor``'s fixed at 0.

    ``ValueError`` when some agent is not linked to the anchor by a chain of games
    (its strength relative to the others would be undetermined).
    """
    names = sorted({o.a for o in outcomes} | {o.b for o in outcomes})
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game: expected it among {names}")
    _check_connected(names, outcomes, anchor)
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    rows = np.zeros((len(outcomes), len(free)))
    for k, o in enumerate(outcomes):
        if o.a in index:
            rows[k, index[o.a]] += 1
        if o.b in index:
            rows[k, index[o.b]] -= 1
    scores = np.array([o.score_a for o in outcomes])
    prior = _prior_rows(outcomes, index, len(free))
    theta = _newton(lambda t: _terms(t, rows, scores, prior), np.zeros(len(free)))
    _, information = _terms(theta, rows, scores, prior)
    residuals = scores - _sigmoid(rows @ theta)
    covariance = _sandwich(information, rows * residuals[:, None], [o.cluster for o in outcomes])
    out = {anchor: Strength(0.0, 0.0, 0.0)}
    for name, i in index.items():
        half = Z95 * math.sqrt(max(covariance[i, i], 0.0))
        out[name] = Strength(float(theta[i]), float(theta[i] - half), float(theta[i] + half))
    return out


def fit_one(outcomes: Sequence[Outcome], strengths: dict[str, float]) -> Strength:
    """The strength of the one agent that plays ``a`` in every outcome, the ``b`` side's strengths held fixed."""
    unknown = sorted({o.b for o in outcomes} - set(strengths))
    if unknown:
        raise ValueError(f"no strength given for {', '.join(unknown)}: expected one for every opponent")
    if len({o.a for o in outcomes}) != 1:
        raise ValueError(f"fit_one rates one agent, got games of {sorted({o.a for o in outcomes})}")
    opponents = np.array([strengths[o.b] for o in outcomes])
    scores = np.array([o.score_a for o in outcomes])
    prior_opponents = np.array([strengths[b] for b in sorted({o.b for o in outcomes})])

    def terms(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = _sigmoid(theta[0] - opponents)
        q = _sigmoid(theta[0] - prior_opponents)
        gradient = np.sum(scores - p) + PRIOR_GAMES * np.sum(0.5 - q)
        information = np.sum(p * (1 - p)) + PRIOR_GAMES * np.sum(q * (1 - q))
        return np.array([gradient]), np.array([[information]])

    theta = _newton(terms, np.zeros(1))
    _, information = terms(theta)
    residuals = (scores - _sigmoid(theta[0] - opponents))[:, None]
    variance = _sandwich(information, residuals, [o.cluster for o in outcomes])[0, 0]
    half = Z95 * math.sqrt(max(variance, 0.0))
    return Strength(float(theta[0]), float(theta[0] - half), float(theta[0] + half))


def _prior_rows(outcomes: Sequence[Outcome], index: dict[str, int], size: int) -> np.ndarray:
    """One row per pair that played (``e_a - e_b`` over the free strengths): where the virtual draws go."""
    pairs = sorted({tuple(sorted((o.a, o.b))) for o in outcomes})
    rows = np.zeros((len(pairs), size))
    for k, (a, b) in enumerate(pairs):
        if a in index:
            rows[k, index[a]] += 1
        if b in index:
            rows[k, index[b]] -= 1
    return rows


def _terms(theta: np.ndarray, rows: np.ndarray, scores: np.ndarray, prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and information (minus the Hessian) of the log-likelihood with the virtual draws."""
    p = _sigmoid(rows @ theta)
    q = _sigmoid(prior @ theta)
    gradient = rows.T @ (scores - p) + PRIOR_GAMES * prior.T @ (0.5 - q)
    information = (rows * (p * (1 - p))[:, None]).T @ rows + PRIOR_GAMES * (prior * (q * (1 - q))[:, None]).T @ prior
    return gradient, information


def _newton(terms, theta: np.ndarray, tolerance: float = 1e-10, max_steps: int = 200) -> np.ndarray:  # noqa: ANN001
    """Newton's method on a concave log-likelihood, steps capped at 2 log-odds so far-off starts converge."""
    for _ in range(max_steps):
        gradient, information = terms(theta)
        step = np.linalg.solve(information, gradient)
        largest = float(np.max(np.abs(step)))
        theta = theta + (step * (2.0 / largest) if largest > 2.0 else step)
        if largest < tolerance:
            return theta
    raise ValueError("the Bradley-Terry fit did not converge")


def _sandwich(information: np.ndarray, contributions: np.ndarray, clusters: Sequence[Hashable]) -> np.ndarray:
    """``H^-1 (sum_c g_c g_c^T) H^-1`` with ``g_c`` the summed score contributions of each cluster."""
    order = {c: i for i, c in enumerate(dict.fromkeys(clusters))}
    sums = np.zeros((len(order), contributions.shape[1]))
    np.add.at(sums, [order[c] for c in clusters], contributions)
    inverse = np.linalg.inv(information)
    return inverse @ (sums.T @ sums) @ inverse


def _check_connected(names: Sequence[str], outcomes: Sequence[Outcome], anchor: str) -> None:
    """``ValueError`` naming the agents no chain of games links to ``anchor``."""
    linked, frontier = {anchor}, [anchor]
    neighbours: dict[str, set[str]] = {n: set() for n in names}
    for o in outcomes:
        neighbours[o.a].add(o.b)
        neighbours[o.b].add(o.a)
    while frontier:
        for other in neighbours[frontier.pop()] - linked:
            linked.add(other)
            frontier.append(other)
    apart = sorted(set(names) - linked)
    if apart:
        raise ValueError(f"{', '.join(apart)} played no game linked to {anchor!r}: their strength is undetermined")
