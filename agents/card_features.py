"""What each card in my hand would do now, read off a Smear observation vector: inputs of the card head.

Why: a network's policy head gives each card its own row of weights, so what it
learns about one card (it wins the trick, it is the highest left in its suit)
does not carry to the other 53. Fitted to search's card play on `pitch_smudge`,
such a network memorised 27 k labelled decisions and gave up as many points on
held-out ones as before (0.12 a decision); the same network with a head that
scores every card by one shared function of these features gave up 0.08
(docs/results.md, "A card head for search's card play"). Everything here is a
function of the observation and the rules, so the layout stays as it is and a
front end feeds the same vector.

Features of card ``c`` (zeros for cards not in my hand, and outside card play):

====  ==============================================================
0     in my hand (1)
1     a trump
2     a joker that is not a trump (plays to any trick, wins none it cannot)
3     played now, it would win the trick on the table
4     of the suit led
5     my side is winning the trick on the table
6     I lead (the table is empty)
7     its rank: place among the trumps (0 highest), else rank / 12
8     game points it carries / 10
9     a point card of its own (Jack, Jick, a joker, the trump Three or Two)
10    nobody else can hold a higher card of its effective suit
11    unseen cards above it in its effective suit / 6
12    unseen cards of its effective suit / 13
13    my cards of its effective suit / 6
14    game points on the table / 10
15    seats of other sides still to play to this trick after me / 3
16    it would take the trick now (or leads it) and no unseen card can take it from it
17    my side is winning the trick on the table and no unseen card can take it
====  ==============================================================

Features 15 to 17 came a day after the rest: a head reads the first 15 or all 18
(:data:`CARD_FEATURE_SETS`), so a file made with 15 plays as it did. They say what
a six-seat game needs, where a card that wins the trick now often loses it to one
of three seats still to play: whether the trick is safe, which is when Smear puts
points on a partner's trick.

"Unseen": not in my hand, not played, not among what I know is out of play.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping

import numpy as np

from smear_env.cards import JOKER1, JOKER2, NUM_CARDS, cards_of, mask_of
from smear_env.game import PLAY
from smear_env.observation import block_slices, block_starts
from smear_env.rules import Rules
from smear_env.scoring import CARD_VALUES
from smear_env.trump import JOKER_POWER, TrumpTable, beats, trick_winner, trump_table

#: features per card (the table above)
CARD_FEATURES = 18
#: how many of them a card head may read: the first 15 (heads made before features 15 to 17), or all
CARD_FEATURE_SETS = (15, CARD_FEATURES)


_CARD_BLOCK = (1 << NUM_CARDS) - 1


class _Blocks:
    """The vector's card blocks as bit masks: the whole row packed into one int once, each block a shift
    and a mask of it (one packbits per row instead of one per block)."""

    def __init__(self, row: np.ndarray) -> None:
        self.bits = int.from_bytes(np.packbits(row > 0, bitorder="little").tobytes(), "little")

    def __getitem__(self, start: int) -> int:
        return (self.bits >> start) & _CARD_BLOCK


def card_features(obs: np.ndarray, rules: Rules, count: int = CARD_FEATURES) -> np.ndarray:
    """``[54, count]`` for one observation vector, ``[B, 54, count]`` for a batch: the first ``count`` features."""
    if count not in CARD_FEATURE_SETS:
        raise ValueError(f"card features: {count!r} of them is not one of the sets {CARD_FEATURE_SETS}")
    rows = np.atleast_2d(np.asarray(obs, dtype=np.float32))
    out = np.zeros((len(rows), NUM_CARDS, CARD_FEATURES), np.float32)
    off = block_starts(rules.num_players)
    trump_block = block_slices(rules.num_players)["trump"]
    deck = mask_of(rules.deck)
    for i, row in enumerate(rows):
        trump = row[trump_block]
        if row[off["phase"] + PLAY] and trump.any():
            _fill(out[i], row, off, rules.num_players, deck, trump_table(rules, int(trump.argmax())))
    out = out[..., :count]
    return out if np.ndim(obs) == 2 else out[0]


def _fill(out: np.ndarray, row: np.ndarray, off: Mapping[str, int], n: int, deck: int, table: TrumpTable) -> None:
    blocks = _Blocks(row)
    hand = blocks[off["hand"]]
    played = [blocks[off[f"played[{k}]"]] for k in range(n)]
    seen = hand | blocks[off["out_of_play"]] | blocks[off["my_discards"]]
    for cards in played:
        seen |= cards
    unseen = cards_of(deck & ~seen)
    power, suit = table.power, table.effective_suit
    unseen_powers = _powers_by_suit(unseen, table)
    plays = _trick_plays(row, off, n, played, blocks[off["trick"]])
    following = bool(plays)  # the trick has a card on it: I do not lead
    if following:
        winner, best = trick_winner(plays, table)
        led, mine_winning = suit[plays[0][1]], float(row[off["my_side"] + winner])
    on_table = sum(CARD_VALUES[card] for _, card in plays)
    rivals = _rivals_after(row, off, n, len(plays))
    threat = _Threat(unseen, table)
    trick_safe = following and bool(mine_winning) and threat.cannot_beat(best, led, rivals)
    point_cards = {table.jack, table.jick, table.three, table.two, JOKER1, JOKER2}
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        strength, own_suit = power[card], suit[card]
        is_trump = own_suit == table.trump
        same_suit = table.suit_masks[own_suit] if 0 <= own_suit < 4 else 0  # a non-trump joker: no suit
        suit_powers = unseen_powers.get(own_suit, ()) if same_suit else ()
        above = len(suit_powers) - bisect_right(suit_powers, strength)
        takes = beats(card, best, led, table) if following else True  # a lead takes the empty trick
        out[card] = (  # one row at a time: numpy's per-element writes cost more than the features
            1.0,
            is_trump,
            strength >= JOKER_POWER and not is_trump,
            following and takes,
            following and own_suit == led,
            following and mine_winning,
            not following,
            table.order.index(card) / len(table.order) if is_trump else (card % 13) / 12 if card < 52 else 0.0,
            CARD_VALUES[card] / 10,
            card in point_cards,
            above == 0,
            above / 6,
            len(suit_powers) / 13,
            (hand & same_suit).bit_count() / 6,
            on_table / 10,
            rivals / 3,
            takes and threat.cannot_beat(card, led if following else own_suit, rivals),
            trick_safe,
        )


def _rivals_after(row: np.ndarray, off: dict[str, int], n: int, played_before_me: int) -> int:
    """Seats of other sides that play to this trick after me: relative seats 1 onwards, up to the trick's end."""
    side = row[off["my_side"] : off["my_side"] + n]
    return sum(1 for seat in range(1, n - played_before_me) if not side[seat])


def _powers_by_suit(unseen: list[int], table: TrumpTable) -> dict[int, list[int]]:
    """Effective suit -> the powers of the unseen cards that follow it, ascending (to count those above a card)."""
    out: dict[int, list[int]] = {}
    for card in unseen:
        out.setdefault(table.effective_suit[card], []).append(table.power[card])
    for powers in out.values():
        powers.sort()
    return out


class _Threat:
    """The strongest unseen card that could take a trick of each led suit (the rule of ``trump.beats``)."""

    def __init__(self, unseen: list[int], table: TrumpTable) -> None:
        self.power, self.suit = table.power, table.effective_suit
        self.cards = [(self.power[c], self.suit[c]) for c in unseen]
        self.top: dict[int, int] = {}

    def strongest(self, led: int) -> int:
        if led not in self.top:
            self.top[led] = max((p for p, s in self.cards if p >= JOKER_POWER or s == led), default=-1)
        return self.top[led]

    def cannot_beat(self, card: int, led: int, rivals: int) -> bool:
        """No seat of another side after me can take ``card``'s trick with a card it might hold."""
        return rivals == 0 or self.power[card] >= self.strongest(led)


def _trick_plays(row: np.ndarray, off: dict[str, int], n: int, played: list[int], trick: int) -> list[tuple[int, int]]:
    """The trick on the table (its cards: ``trick``) as (relative seat, card) in play order, read off the
    leader and each seat's played cards (the form ``smear_env.trump.trick_winner`` reads)."""
    leader = row[off["leader"] : off["leader"] + n]
    plays: list[tuple[int, int]] = []
    if not trick or not leader.any():
        return plays
    first = int(leader.argmax())
    for step in range(n):
        seat = (first + step) % n
        here = trick & played[seat]
        if not here:
            break
        plays.append((seat, here.bit_length() - 1))
    return plays
