"""Helpers for scripted-deal tests: build a hand from card strings and play moves by label.

Card strings are space separated card names (``"AH KH JK2"``); a trick string lists a trick's cards
in play order, its leader first. Seats are numbered from 0, clockwise.
"""

from __future__ import annotations

from collections.abc import Collection

from smear_env.actions import DISCARD_BASE, DONE, format_action
from smear_env.cards import format_card, format_cards, parse_cards
from smear_env.game import DISCARD, Deal, Game
from smear_env.rules import get_rules

# Every trump when hearts are trump in a deck with a Jick (the JD) and two jokers (the ten-point
# presets): the cards kept out of the filler that ``deal_keeping`` deals to be discarded.
HEART_TRUMPS_WITH_JICK = frozenset(parse_cards("AH KH QH JH JD JK JK2 TH 9H 8H 7H 6H 5H 4H 3H 2H"))


# ------------------------------------------------------------------ dealing


def new_game(
    preset: str,
    hands: list[str],
    kitty: str = "",
    stock: str = "",
    dealer: int = 0,
    single_hand: bool = False,
    scores: list[int] | None = None,
    hands_played: int = 0,
    **overrides: object,
) -> Game:
    """A game of ``preset`` (with overrides) whose first hand is the given deal.

    ``scores`` and ``hands_played`` start the match part-way through (see :class:`Game`).
    """
    rules = get_rules(preset, **overrides)
    deals = [Deal.parse(hands, kitty, stock)]
    return Game(
        rules, seed=0, dealer=dealer, single_hand=single_hand, deals=deals, scores=scores, hands_played=hands_played
    )


def rest_of_deck(preset: str, used: str, **overrides: object) -> str:
    """The cards of ``preset``'s deck not named in ``used``, as a card string (for stocks)."""
    taken = set(parse_cards(used))
    return format_cards(c for c in get_rules(preset, **overrides).deck if c not in taken)


def deal_with_rest_as_stock(preset: str, hands: list[str], dealer: int = 0, **overrides: object) -> Game:
    """A game of ``preset`` dealt ``hands``; every card not dealt is the stock, top first in deck order."""
    stock = rest_of_deck(preset, " ".join(hands))
    return new_game(preset, hands=hands, stock=stock, dealer=dealer, **overrides)  # type: ignore[arg-type]


def deal_with_blinds(preset: str, hands: list[str], blinds: str, **overrides: object) -> Game:
    """A game of ``preset`` dealt ``hands``; the stock is ``blinds`` on top, then the rest of the deck."""
    stock = f"{blinds} {rest_of_deck(preset, ' '.join(hands) + ' ' + blinds)}"
    return new_game(preset, hands=hands, stock=stock, **overrides)  # type: ignore[arg-type]


def deal_keeping(
    preset: str,
    keeps: list[str],
    dealer: int = 0,
    *,
    no_filler: Collection[int] = HEART_TRUMPS_WITH_JICK,
    rest_as_stock: bool = True,
    **overrides: object,
) -> Game:
    """A game of ``preset`` whose seats keep ``keeps[seat]`` (6 cards each) for play.

    Each seat is dealt its six kept cards plus filler up to ``preset``'s hand size, to be discarded:
    the next unused run, in deck order, of the cards nobody keeps, skipping ``no_filler`` (by default
    every trump when hearts are trump, so that the filler may always be discarded). With
    ``rest_as_stock`` every card not dealt is the stock; without, the leftover cards are not dealt.
    """
    rules = get_rules(preset)
    kept = set(parse_cards(" ".join(keeps)))
    pool = [c for c in rules.deck if c not in kept and c not in no_filler]
    extra = rules.hand_size - 6
    hands = [f"{keep} {format_cards(pool[i * extra : (i + 1) * extra])}" for i, keep in enumerate(keeps)]
    if rest_as_stock:
        return deal_with_rest_as_stock(preset, hands, dealer=dealer, **overrides)  # type: ignore[arg-type]
    return new_game(preset, hands=hands, dealer=dealer, **overrides)  # type: ignore[arg-type]


# ------------------------------------------------------------------ playing


def play(game: Game, moves: str) -> None:
    """Apply comma-separated move labels, e.g. ``"bid 4, pass, pass, pass, trump H"``."""
    for move in moves.split(","):
        if move.strip():
            game.apply_move(move)


def play_tricks(game: Game, tricks: list[str]) -> None:
    """Play each trick string's cards in order (``"AH 7H 9H TH"``: four ``play`` moves)."""
    for trick in tricks:
        play(game, ", ".join(f"play {card}" for card in trick.split()))


def discard_cards(game: Game, discards: list[str]) -> None:
    """Discard every card of every string in ``discards``, in order; each string is one seat's turn."""
    play(game, ", ".join(f"discard {card}" for cards in discards for card in cards.split()))


def discard_down(game: Game, keeps: list[str | None]) -> None:
    """Each seat on turn discards, one legal card at a time, every card it does not keep.

    Stops at a seat whose keep is ``None``, or that holds only cards it may not discard.
    """
    while game.phase == DISCARD:
        seat = game.current_player
        keep_cards = keeps[seat]
        if keep_cards is None:
            return
        keep = set(parse_cards(keep_cards))
        choices = [a for a in game.legal_actions() if DISCARD_BASE <= a < DONE and a - DISCARD_BASE not in keep]
        if not choices:
            return
        game.apply(choices[0])


def play_hand(
    game: Game,
    moves: str,
    tricks: list[str],
    *,
    keeps: list[str | None] | None = None,
    discards: list[str] | None = None,
) -> Game:
    """Play a scripted hand: the ``moves`` (bids, trump, ...), then the discards, then the ``tricks``.

    The discards are made by :func:`discard_down` to ``keeps`` or by :func:`discard_cards` of
    ``discards``, whichever is given; with neither, none are made here. Returns ``game``.
    """
    play(game, moves)
    if keeps is not None:
        discard_down(game, keeps)
    if discards is not None:
        discard_cards(game, discards)
    play_tricks(game, tricks)
    return game


# ------------------------------------------------------------------ looking


def legal_moves(game: Game) -> set[str]:
    """The labels of the moves legal now, e.g. ``{"play AH", "play 7C"}``."""
    return {format_action(a) for a in game.legal_actions()}


def hand_of(game: Game, seat: int) -> set[str]:
    """The names of the cards ``seat`` holds now."""
    return {format_card(c) for c in game.hand(seat)}


def hand_sizes(game: Game) -> list[int]:
    """How many cards each seat holds now."""
    return [len(game.hand(seat)) for seat in range(game.num_players)]


def trick_winners(game: Game) -> list[int]:
    """The seat that won each trick played so far in this hand, in order."""
    return [trick.winner for trick in game.completed_tricks()]
