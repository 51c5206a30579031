"""A player's hand as a person reads it: grouped by suit, trumps together and first.

Plain data (card names in notation), so the terminal, a web table and the bot
service group hands the same way. Once trump is set the groups follow the
*effective* suit: the Jick and the jokers are trumps and sit in the trump group
in trick order (``A K Q J Jick JK ... 2``). Before trump, jokers form their own
group. Suits alternate in colour (spades, hearts, clubs, diamonds) so that two
red or two black suits never sit side by side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from smear_env.cards import SUITS, format_card, parse_card, rank_of, suit_of
from smear_env.rules import Rules
from smear_env.trump import trump_table

#: display order of the suits: colours alternate
SUIT_ORDER = "SHCD"


@dataclass(frozen=True)
class SuitGroup:
    """Cards of one effective suit in a hand, highest first."""

    suit: str | None  # "C", "D", "H" or "S"; None for jokers before trump is set
    trump: bool  # this is the trump suit (Jick and jokers included)
    cards: tuple[str, ...]  # card names, highest first


def hand_groups(cards: Iterable[str], rules: Rules | None = None, trump: str | None = None) -> list[SuitGroup]:
    """``cards`` grouped by effective suit: trump first, then the other suits, then (before trump) jokers.

    ``rules`` is needed for the trump order of a Smear game; without it (Bohemian
    Schneider) there are no trumps and each suit is ranked Ace high.
    """
    ids = [parse_card(c) for c in cards]
    table = trump_table(rules, SUITS.index(trump)) if rules is not None and trump else None
    groups: list[SuitGroup] = []
    if table is not None:
        trumps = [c for c in table.order if c in ids]
        if trumps:
            groups.append(SuitGroup(trump, True, _names(trumps)))
        ids = [c for c in ids if c not in trumps]
    for suit in SUIT_ORDER:
        in_suit = sorted((c for c in ids if suit_of(c) == SUITS.index(suit)), key=rank_of, reverse=True)
        if in_suit:
            groups.append(SuitGroup(suit, False, _names(in_suit)))
    jokers = sorted(c for c in ids if suit_of(c) < 0)
    if jokers:
        groups.append(SuitGroup(None, False, _names(jokers)))
    return groups


def sort_cards(cards: Iterable[str], rules: Rules | None = None, trump: str | None = None) -> list[str]:
    """Card names in the order :func:`hand_groups` shows them."""
    return [card for group in hand_groups(cards, rules, trump) for card in group.cards]


def _names(ids: list[int]) -> tuple[str, ...]:
    return tuple(format_card(c) for c in ids)
