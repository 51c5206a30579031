"""Card order once a trump suit is known: effective suits, trick power, point cards.

Built once per (rules, trump suit) and kept on the rules object, so that
following, winning and scoring are table look-ups and bit operations during play.

Trick power puts every card on one scale: trumps above ``JOKER_POWER``, jokers
that are not trumps (``joker_rank = "not_trump"``) at it, plain cards by rank
below it. A card can win a trick if it is a trump, such a joker, or of the led
suit; the highest power wins and equal powers keep the first played. That one
rule covers every preset's order and the non-trump jokers alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from smear_env.cards import JOKER1, JOKER2, JOKERS_MASK, RANKS, SAME_COLOUR, mask_of
from smear_env.rules import Rules

ACE, KING, QUEEN, JACK, TEN = (RANKS.index(r) for r in "AKQJT")
TWO, THREE = 0, 1

#: effective suit of a joker that is not a trump: a fifth "suit" nothing follows
JOKER_SUIT = 4
#: trick power of a joker that is not a trump (the little one of distinct jokers: one less); trumps rank above
JOKER_POWER = 100


@dataclass(frozen=True)
class TrumpTable:
    """Everything about card order that depends on the trump suit."""

    trump: int  # trump suit index, or -1 before trump is set
    trump_mask: int  # cards of the effective trump suit
    suit_masks: tuple[int, ...]  # cards that follow each effective suit C D H S (trump's = trump_mask), then none
    follow_masks: tuple[
        int, ...
    ]  # cards meeting the duty to follow each suit: suit_masks (+ jokers: joker_follows_trump)
    effective_suit: tuple[int, ...]  # of each card id (jokers: trump, JOKER_SUIT when not trumps, -1 with no trump)
    power: tuple[int, ...]  # trick strength: trumps above JOKER_POWER, others by rank within their suit
    order: tuple[int, ...]  # trump cards of this deck, highest first
    ace: int
    two: int
    three: int
    jack: int
    jick: int  # -1 when the Jick is not a trump
    protected: int  # trump cards that may never be discarded
    free: int  # cards playable at any time, whatever was led (jokers that are not trumps)


def _trump_order(rules: Rules, trump: int) -> list[int]:
    base = trump * 13
    jokers = [JOKER1, JOKER2][: rules.jokers]
    order = [base + ACE, base + KING, base + QUEEN, base + JACK]
    if rules.big_joker_above_jick:  # 002's big joker: between the Jack and the Jick; the little one below
        order.append(jokers.pop(0))
    if rules.jick:
        order.append(SAME_COLOUR[trump] * 13 + JACK)
    if rules.joker_rank == "below_jacks":
        order += jokers
    order += [base + r for r in range(TEN, -1, -1)]
    if rules.joker_rank == "lowest":
        order += jokers
    deck = set(rules.deck)
    return [c for c in order if c in deck]


def _protected(rules: Rules, t: TrumpTable) -> int:
    named = set(rules.protected_discards)
    if "scoring" in named:
        named |= {"jack"} if rules.jack_points else set()
        named |= {"jick"} if rules.jick_points else set()
        named |= {"jokers"} if rules.joker_points else set()
        named |= {"ace"} if rules.high in ("ace_played", "ace_captured") else set()
        named |= {"two"} if rules.low == "two_played" or rules.deuce_points else set()
        named |= {"three"} if rules.trey_points else set()
    cards = {"ace": [t.ace], "two": [t.two], "three": [t.three], "jack": [t.jack], "jick": [t.jick]}
    cards["jokers"] = [JOKER1, JOKER2]
    return mask_of(c for name in named for c in cards.get(name, []) if c >= 0) & t.trump_mask


def trump_table(rules: Rules, trump: int) -> TrumpTable:
    """The table for ``trump`` (a suit index, or -1 for "not set yet") under ``rules``.

    Kept in ``rules.trump_tables`` rather than a cache keyed by the rules: hashing and
    comparing a rule set's fifty options cost more than the look-up, twice a hand.
    """
    table = rules.trump_tables.get(trump)
    if table is None:
        table = rules.trump_tables[trump] = _build_table(rules, trump)
    return table


def _build_table(rules: Rules, trump: int) -> TrumpTable:
    if trump < 0:
        suit_masks = tuple(mask_of(range(s * 13, s * 13 + 13)) for s in range(4))
        effective = tuple([c // 13 for c in range(52)] + [-1, -1])
        power = tuple([c % 13 for c in range(52)] + [-1, -1])
        masks = (*suit_masks, 0)
        return TrumpTable(-1, 0, masks, masks, effective, power, (), -1, -1, -1, -1, -1, 0, 0)  # type: ignore[arg-type]
    order = _trump_order(rules, trump)
    trump_mask = mask_of(order)
    jokers_trump = rules.joker_rank != "not_trump"
    joker_suit = trump if jokers_trump else JOKER_SUIT
    effective = [c // 13 for c in range(52)] + [joker_suit, joker_suit]
    # both jokers at JOKER_POWER or above (the bar a card off the led suit must reach to win); the big one above
    power = [c % 13 for c in range(52)] + [JOKER_POWER + rules.distinct_jokers, JOKER_POWER]
    for i, card in enumerate(order):
        effective[card] = trump
        power[card] = 200 - i
    if not rules.distinct_jokers and rules.jokers == 2:
        power[JOKER2] = power[JOKER1]  # equal rank: the first played of the two wins a trick
    suit_masks = tuple(
        trump_mask if s == trump else mask_of(range(s * 13, s * 13 + 13)) & ~trump_mask & ~JOKERS_MASK for s in range(4)
    ) + (0,)  # nothing follows a joker that is not a trump: its lead obliges nobody
    jick = SAME_COLOUR[trump] * 13 + JACK if rules.jick else -1
    free = 0 if jokers_trump else mask_of(JOKER1 + i for i in range(rules.jokers))
    follow_masks = list(suit_masks)
    if rules.joker_follows_trump:  # a joker answers a trump lead as a trump would
        follow_masks[trump] |= free
    table = TrumpTable(
        trump,
        trump_mask,
        suit_masks,  # type: ignore[arg-type]
        tuple(follow_masks),
        tuple(effective),
        tuple(power),
        tuple(order),
        trump * 13 + ACE,
        trump * 13 + TWO,
        trump * 13 + THREE,
        trump * 13 + JACK,
        jick,
        0,
        free,
    )
    return TrumpTable(**{**table.__dict__, "protected": _protected(rules, table)})


def playable_cards(hand: int, led: int, table: TrumpTable, rules: Rules) -> int:
    """The cards of ``hand`` that may be played to a trick whose lead has effective suit ``led``.

    One cascade for every preset, kept here so the engine and search's solver cannot disagree: holding a card
    that follows (``follow_masks``), play one of those, a joker that is not a trump (free at any time), or,
    under ``follow_or_trump`` on a side-suit lead, a trump; holding none, play anything.
    """
    follow = hand & table.follow_masks[led]
    if not follow:
        return hand
    if rules.follow == "strict" or led == table.trump:
        return follow | (hand & table.free)
    return follow | (hand & (table.trump_mask | table.free))


def trick_winner(trick: list[tuple[int, int]] | tuple[tuple[int, int], ...], table: TrumpTable) -> tuple[int, int]:
    """(seat, card) winning the cards on the table so far: the highest card that can win (module docstring).

    Equal cards (the two jokers) keep the first played, which is why the comparison is strict.
    """
    power, suit = table.power, table.effective_suit
    led = suit[trick[0][1]]
    best_seat, best_card = trick[0]
    best = power[best_card]
    for seat, card in trick[1:]:
        strength = power[card]
        if strength > best and (strength >= JOKER_POWER or suit[card] == led):
            best_seat, best_card, best = seat, card, strength
    return best_seat, best_card


def beats(card: int, best: int, led: int, table: TrumpTable) -> bool:
    """Whether ``card`` played now takes a trick of effective suit ``led`` that ``best`` is winning."""
    strength = table.power[card]
    return strength > table.power[best] and (strength >= JOKER_POWER or table.effective_suit[card] == led)
