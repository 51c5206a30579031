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

import functools

import numpy as np

from smear_env.cards import JOKER1, JOKER2, NUM_CARDS, cards_of, mask_of
from smear_env.game import PLAY
from smear_env.observation import layout
from smear_env.rules import Rules
from smear_env.scoring import CARD_VALUES
from smear_env.trump import JOKER_POWER, TrumpTable, beats, trick_winner, trump_table

#: features per card (the table above)
CARD_FEATURES = 18
#: how many of them a card head may read: the first 15 (heads made before features 15 to 17), or all
CARD_FEATURE_SETS = (15, CARD_FEATURES)


@functools.lru_cache(maxsize=16)
def _offsets(num_players: int) -> dict[str, int]:
    return {name: start for name, start, _ in layout(num_players)}


def _mask(row: np.ndarray, start: int) -> int:
    """A card block of the vector as a bit mask."""
    return int.from_bytes(np.packbits(row[start : start + NUM_CARDS] > 0, bitorder="little").tobytes(), "little")


def card_features(obs: np.ndarray, rules: Rules, count: int = CARD_FEATURES) -> np.ndarray:
    """``[54, count]`` for one observation vector, ``[B, 54, count]`` for a batch: the first ``count`` features."""
    if count not in CARD_FEATURE_SETS:
        raise ValueError(f"card features: {count!r} of them is not one of the sets {CARD_FEATURE_SETS}")
    rows = np.atleast_2d(np.asarray(obs, dtype=np.float32))
    out = np.zeros((len(rows), NUM_CARDS, CARD_FEATURES), np.float32)
    off = _offsets(rules.num_players)
    deck = mask_of(rules.deck)
    for i, row in enumerate(rows):
        trump = row[off["trump"] : off["trump"] + 4]
        if row[off["phase"] + PLAY] and trump.any():
            _fill(out[i], row, off, rules.num_players, deck, trump_table(rules, int(trump.argmax())))
    out = out[..., :count]
    return out if np.ndim(obs) == 2 else out[0]


def _fill(out: np.ndarray, row: np.ndarray, off: dict[str, int], n: int, deck: int, table: TrumpTable) -> None:
    hand = _mask(row, off["hand"])
    played = [_mask(row, off[f"played[{k}]"]) for k in range(n)]
    seen = hand | _mask(row, off["out_of_play"]) | _mask(row, off["my_discards"])
    for cards in played:
        seen |= cards
    unseen = deck & ~seen
    power, suit = table.power, table.effective_suit
    plays = _trick_plays(row, off, n, played)
    if plays:
        winner, best = trick_winner(plays, table)
        led, mine_winning = suit[plays[0][1]], float(row[off["my_side"] + winner])
    on_table = sum(CARD_VALUES[card] for _, card in plays)
    rivals = _rivals_after(row, off, n, len(plays))
    threat = _Threat(unseen, table)
    trick_safe = bool(plays) and bool(mine_winning) and threat.cannot_beat(best, led, rivals)
    point_cards = {table.jack, table.jick, table.three, table.two, JOKER1, JOKER2}
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        strength, own_suit = power[card], suit[card]
        is_trump = own_suit == table.trump
        same_suit = table.suit_masks[own_suit] if 0 <= own_suit < 4 else 0
        above = sum(1 for c in cards_of(unseen & same_suit) if power[c] > strength)
        takes = beats(card, best, led, table) if plays else True  # a lead takes the empty trick
        f = out[card]
        f[0], f[1], f[2] = 1.0, is_trump, strength >= JOKER_POWER and not is_trump
        if plays:
            f[3], f[4], f[5] = takes, own_suit == led, mine_winning
        f[6] = not plays
        f[7] = table.order.index(card) / len(table.order) if is_trump else (card % 13) / 12 if card < 52 else 0.0
        f[8] = CARD_VALUES[card] / 10
        f[9] = card in point_cards
        f[10], f[11] = above == 0, above / 6
        f[12] = (unseen & same_suit).bit_count() / 13
        f[13] = (hand & same_suit).bit_count() / 6
        f[14] = on_table / 10
        f[15] = rivals / 3
        f[16] = takes and threat.cannot_beat(card, led if plays else own_suit, rivals)
        f[17] = trick_safe


def _rivals_after(row: np.ndarray, off: dict[str, int], n: int, played_before_me: int) -> int:
    """Seats of other sides that play to this trick after me: relative seats 1 onwards, up to the trick's end."""
    side = row[off["my_side"] : off["my_side"] + n]
    return sum(1 for seat in range(1, n - played_before_me) if not side[seat])


class _Threat:
    """The strongest unseen card that could take a trick of each led suit (the rule of ``trump.beats``)."""

    def __init__(self, unseen: int, table: TrumpTable) -> None:
        self.power, self.suit = table.power, table.effective_suit
        self.cards = [(self.power[c], self.suit[c]) for c in cards_of(unseen)]
        self.top: dict[int, int] = {}

    def strongest(self, led: int) -> int:
        if led not in self.top:
            self.top[led] = max((p for p, s in self.cards if p >= JOKER_POWER or s == led), default=-1)
        return self.top[led]

    def cannot_beat(self, card: int, led: int, rivals: int) -> bool:
        """No seat of another side after me can take ``card``'s trick with a card it might hold."""
        return rivals == 0 or self.power[card] >= self.strongest(led)


def _trick_plays(row: np.ndarray, off: dict[str, int], n: int, played: list[int]) -> list[tuple[int, int]]:
    """The trick on the table as (relative seat, card) in play order, read off the leader and each seat's
    played cards (the form ``smear_env.trump.trick_winner`` reads)."""
    trick = _mask(row, off["trick"])
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
