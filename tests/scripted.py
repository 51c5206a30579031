"""Helpers for scripted-deal tests: build a hand from card strings and play moves by label."""

from __future__ import annotations

from smear_env.game import Deal, Game
from smear_env.rules import get_rules


def new_game(
    preset: str,
    hands: list[str],
    kitty: str = "",
    stock: str = "",
    dealer: int = 0,
    single_hand: bool = False,
    **overrides: object,
) -> Game:
    """A game of ``preset`` (with overrides) whose first hand is the given deal."""
    rules = get_rules(preset, **overrides)
    return Game(rules, seed=0, dealer=dealer, single_hand=single_hand, deals=[Deal.parse(hands, kitty, stock)])


def play(game: Game, moves: str) -> None:
    """Apply comma-separated move labels, e.g. ``"bid 4, pass, pass, pass, trump H"``."""
    for move in moves.split(","):
        if move.strip():
            game.apply_move(move)


def rest_of_deck(preset: str, used: str, **overrides: object) -> str:
    """The cards of ``preset``'s deck not named in ``used``, as a card string (for stocks)."""
    from smear_env.cards import format_cards, parse_cards

    taken = set(parse_cards(used))
    return format_cards(c for c in get_rules(preset, **overrides).deck if c not in taken)
