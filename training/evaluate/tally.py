"""What the games of an evaluation add up to: per agent a :class:`Tally`, per game a :class:`GameOutcome`.

Workers each tally their own games and the parent merges the tallies in game
order. Counts and sums are kept exactly (``Fraction`` means, a histogram of
decision times rather than every duration), so the merged figures are the same
for any split of the games and memory stays bounded however many are played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from training.evaluate import checks
from training.stats import RunningMean


@dataclass
class DecisionTimes:
    """``act()`` durations: count and total exactly, the median from a log histogram (bounded memory).

    50 bins per decade from 0.1 us to 100 s: the median is within about 2.3% of the exact one.
    """

    BINS_PER_DECADE = 50
    LOW = 1e-7
    NUM_BINS = 9 * 50 + 1

    count: int = 0
    total: float = 0.0
    bins: list[int] = field(default_factory=lambda: [0] * DecisionTimes.NUM_BINS)

    def add(self, seconds: float) -> None:
        """Record one decision."""
        self.count += 1
        self.total += seconds
        index = int(math.log10(max(seconds, self.LOW) / self.LOW) * self.BINS_PER_DECADE)
        self.bins[min(index, self.NUM_BINS - 1)] += 1

    def merge(self, other: DecisionTimes) -> None:
        """Fold another tally into this one."""
        self.count += other.count
        self.total += other.total
        self.bins = [a + b for a, b in zip(self.bins, other.bins)]

    def median(self) -> float | None:
        """Median seconds per decision (geometric centre of the median bin); None without decisions."""
        seen = 0
        for index, count in enumerate(self.bins):
            seen += count
            if count and 2 * seen >= self.count:
                return self.LOW * 10 ** ((index + 0.5) / self.BINS_PER_DECADE)
        return None


@dataclass
class Tally:
    """What one agent (A or B) did over some games; merged across workers in game order."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: RunningMean = field(default_factory=RunningMean)  # its side's points per hand (round)
    bids: int = 0  # hands whose winning bid was made by one of its seats
    made: int = 0  # of those, bids made
    bid_total: int = 0  # sum of those bids (a moon counts as the rules' max_hand_points)
    has_bids: bool = True  # False for games without bidding (Bohemian Schneider)
    times: DecisionTimes = field(default_factory=DecisionTimes)

    def merge(self, other: Tally) -> None:
        """Fold another tally into this one."""
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.points.merge(other.points)
        self.bids += other.bids
        self.made += other.made
        self.bid_total += other.bid_total
        self.has_bids = self.has_bids and other.has_bids
        self.times.merge(other.times)


@dataclass(frozen=True)
class GameOutcome:
    """One game of an evaluation: which seats A held, A's match score, and how long it ran."""

    index: int  # game index; games 2p and 2p+1 share deal seed p
    deal_seed: int
    a_seats: tuple[int, ...]
    score_a: float  # 1 win, 1/2 draw or stopped, 0 loss
    hands: int  # scored hands (rounds in Bohemian Schneider)
    stopped: bool  # not over after max_hands deals; counted as a draw
    reward_a: float | None = None  # A's score change per hand minus B's (games.mean_hand_reward); None: no hands

    @classmethod
    def from_dict(cls, data: Any, where: str = "game") -> GameOutcome:
        """A game as ``dataclasses.asdict`` wrote it to JSON (its seats read back as a list).

        ``ValueError`` naming the field (under ``where``) that is not as expected: results files
        and evaluation journals alike are read through here.
        """
        data = checks.checked(data, where, _GAME_CHECKS)
        return cls(**{**data, "a_seats": tuple(data["a_seats"])})


_GAME_CHECKS = checks.field_checks(
    GameOutcome,
    index=checks.COUNT,
    deal_seed=checks.INT,
    a_seats=(
        lambda v: isinstance(v, list | tuple) and all(checks.is_int(s) and s >= 0 for s in v),
        "a list of seats",
    ),
    score_a=checks.NUMBER,
    hands=checks.COUNT,
    stopped=checks.BOOL,
    reward_a=checks.NUMBER_OR_NONE,
)
