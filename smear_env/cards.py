"""Cards and their notation, shared by every game in this package.

A card is an ``int`` id in ``0..53``: ``suit * 13 + rank`` for the 52 suited
cards (suits ``C D H S``, ranks ``2 3 4 5 6 7 8 9 T J Q K A`` low to high), then
``52`` for the first joker and ``53`` for the second. Every preset uses this one
id space, so observations and action ids mean the same card in every variant;
a smaller deck is just a subset of ids. A set of cards is an ``int`` bit mask
(bit ``id`` set), which keeps hands, follow checks and scoring to a few integer
operations.

Notation is rank then suit: ``TH`` (or ``10H``) is the ten of hearts, ``AS`` the
ace of spades, ``JK`` the first joker and ``JK2`` the second (``JK1``, ``BJ`` and
``LJ`` are accepted too). When a list of card strings names ``JK`` twice, the
second means the other joker.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from smear_env.checks import as_int

SUITS = "CDHS"
RANKS = "23456789TJQKA"
NUM_CARDS = 54
JOKER1 = 52
JOKER2 = 53
JOKERS_MASK = (1 << JOKER1) | (1 << JOKER2)
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1

#: suit index of the suit of the same colour (clubs<->spades, diamonds<->hearts)
SAME_COLOUR = {0: 3, 1: 2, 2: 1, 3: 0}

_RANK_ALIASES = {"10": "T"}
_JOKER_NAMES = {"JK": JOKER1, "JK1": JOKER1, "BJ": JOKER1, "JK2": JOKER2, "LJ": JOKER2}


def card_id(rank: str, suit: str) -> int:
    """Id of the card with rank character ``rank`` and suit character ``suit``."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def suit_of(card: int) -> int:
    """Printed suit index of a suited card (jokers have none: -1)."""
    return card // 13 if card < 52 else -1


def rank_of(card: int) -> int:
    """Rank index 0 (two) .. 12 (ace) of a suited card; -1 for a joker."""
    return card % 13 if card < 52 else -1


def format_card(card: int) -> str:
    """``TH``-style name of a card id (an int; numpy integers too, not a bool or a float)."""
    if type(card) is not int:
        card = as_int(card, "card id", 0, NUM_CARDS - 1)
    if card == JOKER1:
        return "JK"
    if card == JOKER2:
        return "JK2"
    if not 0 <= card < 52:
        raise ValueError(f"card id {card!r} is not a card: expected an int in 0..53")
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> int:
    """Card id of a name such as ``TH``, ``10h``, ``AS`` or ``JK``."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a card name: expected text such as 'TH', 'AS' or 'JK'")
    name = text.strip().upper()
    if name in _JOKER_NAMES:
        return _JOKER_NAMES[name]
    rank, suit = name[:-1], name[-1:]
    rank = _RANK_ALIASES.get(rank, rank)
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise ValueError(
            f"{text!r} is not a card: expected rank {'/'.join(RANKS)} (or 10) then suit "
            f"{'/'.join(SUITS)}, e.g. 'TH' or 'AS', or a joker 'JK'/'JK2'"
        )
    return card_id(rank, suit)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card ids of a space/comma separated string or a list of names.

    A repeated ``JK`` names the other joker, so a deal with both jokers can be
    written ``"JK JK"``. Any other repeated card is an error.
    """
    if isinstance(text, str):
        names = text.replace(",", " ").split()
    else:
        try:
            names = list(text)
        except TypeError:
            raise ValueError(f"{text!r} is not a list of cards: expected text such as 'AS KS JK' or a list") from None
    cards: list[int] = []
    for name in names:
        card = parse_card(name)
        if card in cards and card == JOKER1 and JOKER2 not in cards:
            card = JOKER2
        if card in cards:
            raise ValueError(f"card {format_card(card)} is listed twice in {names!r}")
        cards.append(card)
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """Space separated names of card ids, in the order given."""
    if isinstance(cards, str) or not hasattr(cards, "__iter__"):
        raise ValueError(f"{cards!r} is not a list of card ids: expected ints 0..{NUM_CARDS - 1}")
    return " ".join(format_card(c) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """Bit mask of a collection of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids in a bit mask, ascending."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def card_names(mask: int) -> list[str]:
    """Names of the cards in a bit mask, ascending by id."""
    return [format_card(c) for c in cards_of(mask)]


def make_deck(lowest_rank: str = "2", jokers: int = 0) -> list[int]:
    """Card ids of a deck holding ranks ``lowest_rank``..A of each suit and ``jokers`` jokers."""
    low = RANKS.index(lowest_rank)
    deck = [s * 13 + r for s in range(4) for r in range(low, 13)]
    return deck + [JOKER1, JOKER2][:jokers]


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle`` (CPython's Fisher-Yates) does.

    Spelled out so that every seeded deal stays the same whatever Python's ``random``
    does in later versions, and about twice as fast: the draws for each position are
    inlined instead of one method call per card.
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def card_ids(cards: Any, what: str) -> list[int]:
    """``cards`` (a list of card ids, as in a :class:`Deal`) as plain ints; ``ValueError`` naming ``what`` otherwise."""
    if isinstance(cards, str) or not isinstance(cards, list | tuple):
        raise ValueError(f"{what} is {cards!r}: expected a list of card ids (ints 0..{NUM_CARDS - 1})")
    ids = []
    for card in cards:
        if isinstance(card, bool) or not hasattr(card, "__index__") or not 0 <= card < NUM_CARDS:
            raise ValueError(f"{what} holds {card!r}: expected card ids, ints 0..{NUM_CARDS - 1}")
        ids.append(int(card))
    return ids


def parse_deal(data: Any, piles: tuple[str, ...]) -> tuple[list[list[int]], dict[str, list[int]]]:
    """The hands and piles of a deal's dict form (``{"hands": [...], "kitty": "..."}``), parsed.

    ``piles`` names the keys besides ``hands`` (each optional, empty when left out);
    any other key, a missing ``hands``, a value of the wrong type or a bad card name
    raises ``ValueError`` saying which part of the deal is wrong.
    """
    keys = ("hands", *piles)
    expected = f"a dict with 'hands' (one card list per seat) and optionally {', '.join(map(repr, piles))}"
    if not isinstance(data, Mapping):
        raise ValueError(f"deal {data!r} is not a dict: expected {expected}")
    unknown = [key for key in data if key not in keys]
    if unknown:
        raise ValueError(f"deal has unknown key {unknown[0]!r}: expected {expected}")
    if "hands" not in data:
        raise ValueError(f"deal has no 'hands': expected {expected}")
    hands = data["hands"]
    if isinstance(hands, str) or not isinstance(hands, list | tuple):
        raise ValueError(f"deal hands {hands!r} is not a list: expected one card list per seat")
    parsed = [_parse_part(hand, f"deal hand {seat}") for seat, hand in enumerate(hands)]
    return parsed, {pile: _parse_part(data.get(pile, ""), f"deal {pile}") for pile in piles}


def _parse_part(cards: Any, what: str) -> list[int]:
    try:
        return parse_cards(cards)
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None
