"""A rating ladder: every pair of agents in duplicate format, rated with OpenSkill (Plackett-Luce).

Why these choices:

* Every pair plays with the same base seed, so all pairs see the same deals
  (common random numbers): differences between pairs come from the agents, not
  from the cards.
* OpenSkill updates ratings game by game, so the order of games matters. Games
  are fed round-robin across pairs (game 0 of every pair, then game 1, ...), so
  no pair is rated entirely before another; the order is fixed, so ratings are
  reproducible.
* The reported ``rating`` is OpenSkill's ordinal ``mu - 3 sigma``, a
  conservative skill estimate that ranks a well-measured agent above one with
  a similar ``mu`` but few games. A draw (or a stopped game) is a tie.

``smear-rl evaluate --ladder random rule search --preset ten_point``
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from training.evaluate import EvalResult, check_setup, evaluate, report


class LadderEntry(NamedTuple):
    """One agent's place on the ladder."""

    agent: str
    rating: float  # ordinal: mu - 3 sigma
    mu: float
    sigma: float
    games: int
    score: float  # match points taken over all its games (draws half)

    def cells(self, rank: int) -> list[str]:
        """This entry's row of the ladder table, placed ``rank``."""
        numbers = f"{self.rating:.2f}", f"{self.mu:.2f}", f"{self.sigma:.2f}", str(self.games), f"{self.score:.3f}"
        return [str(rank), self.agent, *numbers]


LADDER_HEADER = ("rank", "agent", "rating", "mu", "sigma", "games", "score")


@dataclass(frozen=True)
class LadderResult:
    """Ratings (best first) and the pairwise evaluations they came from."""

    preset: str
    seed: int
    matches_per_pair: int
    entries: tuple[LadderEntry, ...]
    pairs: tuple[EvalResult, ...]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["entries"] = [e._asdict() for e in self.entries]
        data["pairs"] = [p.to_dict() for p in self.pairs]
        return data

    def markdown(self) -> str:
        """The ladder table, then one line per pair."""
        lines = [
            f"**Ladder** on `{self.preset}`: {len(self.entries)} agents, {self.matches_per_pair} games per pair, "
            f"seed {self.seed}; rating = OpenSkill Plackett-Luce mu - 3 sigma",
            "",
            *report.table(LADDER_HEADER, (e.cells(rank) for rank, e in enumerate(self.entries, 1))),
            "",
        ]
        for p in self.pairs:
            lines.append(f"- {p.agent_a} vs {p.agent_b}: {p.agent_a} win rate {p.a.win_rate.as_text()}")
        return "\n".join(lines)


def play_ladder(
    agents: list[str],
    preset: str,
    matches_per_pair: int,
    seed: int,
    workers: int | None = None,
    max_hands: int = 200,
    rule_overrides: dict[str, Any] | None = None,
    progress: bool = False,
    start: str = "new",
) -> LadderResult:
    """Evaluate every pair of ``agents`` (:func:`training.evaluate.evaluate`) and rate them; see the module doc."""
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise ValueError(f"a ladder needs two or more distinct agents, got {agents}")
    check_setup(agents, preset, matches_per_pair, dict(rule_overrides or {}), start)  # all of it, before any play
    pairs = tuple(
        evaluate(a, b, preset, matches_per_pair, seed, workers, max_hands, rule_overrides, progress, start)
        for a, b in itertools.combinations(agents, 2)
    )
    entries = rate(agents, pairs)
    return LadderResult(preset, seed, matches_per_pair, entries, pairs)


def ladder(agents: list[str], preset: str, matches_per_pair: int, seed: int, **kwargs: Any) -> list[LadderEntry]:
    """Ratings of ``agents``, best first: ``[(agent, rating, mu, sigma, games, score), ...]``.

    ``kwargs`` go to :func:`play_ladder` (workers, max_hands, rule_overrides, progress, start).
    """
    return list(play_ladder(agents, preset, matches_per_pair, seed, **kwargs).entries)


def rate(agents: list[str], pairs: tuple[EvalResult, ...]) -> tuple[LadderEntry, ...]:
    """OpenSkill ratings from the games of ``pairs``, fed round-robin across pairs; best first."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in agents}
    games = dict.fromkeys(agents, 0)
    points = dict.fromkeys(agents, 0.0)
    rounds = itertools.zip_longest(*(p.games for p in pairs))
    for round_games in rounds:
        for pair, game in zip(pairs, round_games):
            if game is None:
                continue
            a, b = pair.agent_a, pair.agent_b
            ranks = [0, 0] if game.score_a == 0.5 else ([0, 1] if game.score_a == 1 else [1, 0])
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
            games[a] += 1
            games[b] += 1
            points[a] += game.score_a
            points[b] += 1 - game.score_a
    entries = [
        LadderEntry(n, ratings[n].ordinal(), ratings[n].mu, ratings[n].sigma, games[n], points[n] / max(games[n], 1))
        for n in agents
    ]
    return tuple(sorted(entries, key=lambda e: (-e.rating, e.agent)))
