"""Which agent holds each seat: roles A and B swap between the two games of a deal pair."""

from __future__ import annotations

A, B = 0, 1  # roles in a lineup: lineup[seat] is A or B
ROLE_NAMES = ("A", "B")


def lineup(game_index: int, num_players: int) -> tuple[int, ...]:
    """Role (A or B) of each seat: A in the even seats in even games, in the odd seats in odd games."""
    return tuple((seat + game_index) % 2 for seat in range(num_players))
