"""A teacher for card play that sees every hand: each legal card valued by solving the real deal.

Why: against random players on ``ten_point_5p`` the shipped agent's games stall at the
harness's 200-deal cap in about a third of those where it holds two seats, where the
search bot shown every hand in those seats (``research/scripts/oracle_bound.py``) stalled in 4 of
100 (docs/results.md). Search values a card over deals drawn uniformly from what the seat
has seen; this teacher values it in the deal that is really there. Over the positions a
student meets, a fit to these values learns each card's worth averaged over the deals
that actually arise there (the hidden cards as the opponents really hold them), which is
search's measure without its uniform guess. The student still sees only its own
observation, so what it can learn is that average, not the all-seeing play: on
``ten_point_5p`` the fit won 0.910 of 1000 games against random where its student won
0.906, no gain.

The cost is one solve per legal card of one deal, where search solves one per card and
sample. ``--teacher oracle`` plays no side of its own: it needs ``--opponent``.
"""

from __future__ import annotations

from agents.knowledge import Knowledge
from agents.search_bot import open_values
from smear_env.game import Game

ORACLE = "oracle"  # the teacher spec's name


class OracleTeacher:
    """Each card's value in the real deal, as search's solver reckons it (the game holds every hand)."""

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reseed: the values follow from the deal alone."""

    def play_values(self, game: Game, k: Knowledge) -> dict[int, float]:
        """The value of each card ``k``'s seat may play now, solved on ``game``'s real hands."""
        return open_values(k, list(game.hands))
