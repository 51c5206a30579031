"""Which agent holds each seat: roles A and B go by team, and swap between the two games of a deal pair.

Why by team and not by seat: partners must play for the same agent. With the
usual seating (two teams, partners across the table) the team of a seat is its
parity, and with everyone alone each seat is its own team; both give A the even
seats in even games, as evaluations always have. Any other seating list
(``rules.teams``, e.g. three teams of two among six players) keeps each team
whole: A holds the even-numbered teams in even games and the odd-numbered ones
in odd games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

A, B = 0, 1  # roles in a lineup: lineup[seat] is A or B
ROLE_NAMES = ("A", "B")


def seat_teams(rules: Any, num_players: int) -> tuple[int, ...]:
    """The match team of each seat: the Smear rules' seating, or each seat alone (Bohemian Schneider)."""
    team_of = getattr(rules, "team_of", None)
    return tuple(team_of(seat) if team_of else seat for seat in range(num_players))


def lineup(game_index: int, teams: Sequence[int]) -> tuple[int, ...]:
    """Role (A or B) of each seat in game ``game_index``; ``teams[seat]`` is the seat's match team.

    A holds the even-numbered teams in even games and the odd-numbered ones in odd games
    (``(team + game_index) % 2``), so the two games of a deal pair swap every seat's role.
    """
    if isinstance(teams, int):  # the old lineup(game_index, num_players): seats alone, not the teams
        raise ValueError(
            f"lineup takes the match team of each seat, got the number {teams}: expected a sequence such as "
            "seat_teams(rules, num_players)"
        )
    return tuple((team + game_index) % 2 for team in teams)
