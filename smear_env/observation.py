"""What one player may know, as a vector and as a plain dict.

The vector is built from the engine's bit masks: :class:`Observer` from scratch
(every card block unpacked from one byte string), and the env's
:class:`IncrementalObserver` by rewriting only what moved since a seat's last
look, so building it every step stays cheap. Seats in it are relative to the
observing player: relative seat ``k`` is the player ``k`` places to the left
(clockwise), 0 being the player.

Card blocks are 54 wide (card ids of :mod:`smear_env.cards`) whatever the deck, and every
per-seat block has ``S = max(N, 6)`` slots with ``N`` players: relative seats ``N`` to ``S - 1`` stay
zero, so tables of two to six players all read one vector of one size (layout version 3):

=====================  ===========  ================================================
block                  size         meaning
=====================  ===========  ================================================
hand                   54           cards in my hand
my_discards            54           cards I put out of play (discards, blinds)
played[k]              54 x S       cards relative seat k has played to tricks
trick                  54           cards in the trick on the table
won_mine               54           cards in tricks my side has won
won_others             54           cards in tricks other sides have won
called_card            54           the card the bidder called (called partner)
phase                  6            one-hot: bid, trump, call, discard, play, over
trump                  4            one-hot trump suit C D H S (all 0 before it is set)
dealer                 S            one-hot relative seat of the dealer
bidder                 S            one-hot relative seat of the bidder (the high bidder so far while bidding)
partner                S            one-hot relative seat of the called partner, if any
leader                 S            one-hot relative seat that led the current trick
bids[k]                14 x S       one-hot per relative seat: none yet, pass, 1..11, moon
high_bid               1            highest bid / 12 (moon = 1)
discard_counts         S            cards each relative seat has discarded / 24, at most 1
drawn_counts           S            cards each relative seat took from kitty or stock / 24, at most 1
tricks_done            1            tricks completed / tricks per hand
scores                 S            match score of each relative seat's team / target, clipped to [-1, 1]
hands_progress         1            hands played / hands in the match (fixed-length matches; else 0)
out_of_play            54           cards I know are out of play this hand: my discards and a called card nobody holds
voids[k]               4 x S        suits C D H S relative seat k has shown it holds none of (trump's slot: no trump)
my_side                S            relative seats on my scoring side this hand (my team; a called partner once called)
need                   S            points relative seat k's team still needs / max hand points, clipped to [0, 1]
only_bids_win          1            1 when a side can win the match only at the end of a hand it bid and made
rules                  R            the rule options (:mod:`smear_env.rules_features`: R = RULES_FEATURES)
=====================  ===========  ================================================

Total ``81 S + 392 + R`` floats, the same for every table of up to six players
(:data:`OBSERVATION_VERSION` 3). Version 2 was these blocks without ``rules``, with ``N``
slots per seat instead of ``S`` (``81 N + 392`` floats: 716 for 4 players); version 1 was
version 2's blocks up to ``hands_progress`` (``75 N + 337``). Every input of an older
vector has its place in the new one (:func:`older_positions`), so a network of layout 1
or 2 reads a version 3 vector through its own weights moved there and zero weights
everywhere else, computing exactly what it did (``agents.neural_agent.upgraded``,
``training.checkpoint.upgrade``). The observers build the version 2 vector of the
table's ``N`` seats (:func:`compact_layout`), then widen it.

What a play proves (:func:`note_voids`, shared with the bots' :mod:`agents.knowledge`):
a follower who plays a card of another effective suit than the one led holds none of
the led suit, except that under ``follow_or_trump`` a trump on a side-suit lead is
allowed while holding the led suit, so it proves nothing; a third-suit card there
proves the led suit void and nothing about trumps (a player void in the led suit may
play any card, trumps kept or not). Where the bidder must lead a trump to the first
trick if able (``first_lead = "trump"``), a first lead of another suit proves the
bidder holds no trump; the called partner's forced play of the called card to the
first trick proves nothing. A joker that is not a trump (``joker_rank = "not_trump"``)
may be played at any time and its lead obliges nobody: neither proves a void, except
that under ``joker_follows_trump`` a joker answers a trump lead as a trump does, so a
plain card on a trump lead proves the player holds neither a trump nor a joker. A void
shown stays true for the rest of the hand (no card reaches a hand once play has started).
The vector's void blocks have a slot per suit and none for jokers;
:func:`shown_lacks` gives each seat's proven absences as cards, jokers included.

Need: under ``match_end = "target"`` the target less the team's score (0 once
reached); in fixed-length matches the leading team's score less the team's. One
unit is the most points a hand can award, so 1 means a whole hand or more away.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from operator import itemgetter
from types import MappingProxyType
from typing import Any

import numpy as np

from smear_env import actions as A
from smear_env.cards import NUM_CARDS, SUITS, format_card, mask_of, parse_card, parse_cards
from smear_env.checks import as_int
from smear_env.game import PHASE_NAMES, PLAY, Game
from smear_env.rules import Rules
from smear_env.rules_features import RULES_FEATURES, feature_names, rules_features
from smear_env.trump import TrumpTable, trump_table

#: the layout version checkpoints and exports record; bump it whenever the layout below changes
OBSERVATION_VERSION = 3
#: seat slots of every per-seat block: a table of up to this many players reads one vector size
MAX_SEATS = 6
NUM_CARD_BLOCKS_FIXED = 6  # hand, my_discards, trick, won_mine, won_others, called_card
BID_SLOTS = 14
SUIT_SLOTS = 4  # void bits per seat: C D H S (effective suits)


def layout(num_players: int) -> list[tuple[str, int, int]]:
    """(block name, start, size) of every block of the vector (layout 3), in order."""
    blocks = compact_layout(max(num_players, MAX_SEATS))
    _, start, size = blocks[-1]
    return [*blocks, ("rules", start + size, RULES_FEATURES)]


@functools.lru_cache(maxsize=16)
def block_starts(num_players: int) -> Mapping[str, int]:
    """Where each block of the vector starts, by name: what readers of the vector (card features, teachers) index
    by, built once per player count since they read it for every batch."""
    return MappingProxyType({name: start for name, start, _ in layout(num_players)})


@functools.lru_cache(maxsize=16)
def block_slices(num_players: int) -> Mapping[str, slice]:
    """Each block of the vector as a slice, by name: for readers of a whole block (the trump suit's one-hot), so
    none of them repeats a block's width."""
    return MappingProxyType({name: slice(start, start + size) for name, start, size in layout(num_players)})


def compact_layout(num_players: int) -> list[tuple[str, int, int]]:
    """The blocks of layout 2: every block but ``rules``, with exactly ``num_players`` slots per seat."""
    n = num_players
    sizes = [("hand", 54), ("my_discards", 54)]
    sizes += [(f"played[{k}]", 54) for k in range(n)]
    sizes += [("trick", 54), ("won_mine", 54), ("won_others", 54), ("called_card", 54)]
    sizes += [("phase", 6), ("trump", SUIT_SLOTS), ("dealer", n), ("bidder", n), ("partner", n), ("leader", n)]
    sizes += [(f"bids[{k}]", BID_SLOTS) for k in range(n)]
    sizes += [("high_bid", 1), ("discard_counts", n), ("drawn_counts", n), ("tricks_done", 1)]
    sizes += [("scores", n), ("hands_progress", 1)]
    # version 2: appended, so the version 1 blocks keep their places
    sizes += [("out_of_play", 54)]
    sizes += [(f"voids[{k}]", SUIT_SLOTS) for k in range(n)]
    sizes += [("my_side", n), ("need", n), ("only_bids_win", 1)]
    out, start = [], 0
    for name, size in sizes:
        out.append((name, start, size))
        start += size
    return out


def observation_size(num_players: int, version: int = OBSERVATION_VERSION) -> int:
    """Floats in the vector for ``num_players`` (of layout ``version``: 1, 2 or the current 3)."""
    if version == 1:
        return 75 * num_players + 337
    if version == 2:
        return 81 * num_players + 392
    if version != OBSERVATION_VERSION:
        raise ValueError(f"observation layout version {version!r} is unknown: expected 1, 2 or {OBSERVATION_VERSION}")
    return 81 * max(num_players, MAX_SEATS) + 392 + RULES_FEATURES


def older_positions(num_players: int, version: int) -> np.ndarray:
    """Where each input of a layout ``version`` (1 or 2) vector for ``num_players`` sits in the layout 3 vector.

    Layout 1 is layout 2's first inputs, and every block of layout 2 is the same block
    of layout 3 with its first ``num_players`` seat slots, so the map is one index per input.
    """
    size = observation_size(num_players, version)  # refuses an unknown version
    if version == OBSERVATION_VERSION:
        return np.arange(size)
    wide = block_starts(num_players)
    positions = [wide[name] + i for name, _, block in compact_layout(num_players) for i in range(block)]
    return np.asarray(positions[:size], dtype=np.int64)


def input_positions(num_players: int, version: Any, rules_names: Sequence[str] | None = None) -> np.ndarray | None:
    """Where each input of a network made for layout ``version`` sits in today's vector; None when it is today's.

    A layout 1 or 2 network's inputs move to :func:`older_positions`. A layout 3
    network records the names of its rules block (``rules_names``): an option declared
    since then has a new feature the network never saw, and its other features may
    have moved, so each of its rules inputs goes to the position of its name now.
    ``ValueError`` for a version this reads no map from, or a rules feature no
    longer declared (its weights would have nowhere to go).
    """
    if version in (1, 2):
        return older_positions(num_players, version)
    if version != OBSERVATION_VERSION:
        raise ValueError(f"observation layout version {version!r} is unknown: expected 1, 2 or {OBSERVATION_VERSION}")
    now = feature_names()
    if rules_names is None or list(rules_names) == now:
        return None
    where = {name: i for i, name in enumerate(now)}
    gone = [name for name in rules_names if name not in where]
    if gone:
        raise ValueError(f"its rules block reads {', '.join(map(repr, gone))}, which no rule option declares now")
    start = observation_size(num_players) - RULES_FEATURES
    return np.concatenate([np.arange(start), start + np.asarray([where[n] for n in rules_names], dtype=np.int64)])


# ---------------------------------------------------------------------- what a player may infer
def note_voids(
    voids: int, plays: Sequence[tuple[int, int]], table: TrumpTable, rules: Rules, first_trick: bool,
    called_card: int, start: int = 0,
) -> int:  # fmt: skip
    """``voids`` with what ``plays[start:]`` of one trick prove (bit ``4 * seat + suit``: seat holds none of suit).

    The reasoning is the module docstring's "What a play proves": the follow rule
    of ``rules`` decides which plays were a choice and which were forced.
    """
    if not plays or table.trump < 0:
        return voids
    effective, trump = table.effective_suit, table.trump
    led = effective[plays[0][1]]
    if start == 0 and first_trick and rules.first_lead == "trump" and led != trump:
        voids |= 1 << (SUIT_SLOTS * plays[0][0] + trump)  # the bidder had to lead a trump if it held one
    if table.free >> plays[0][1] & 1:
        return voids  # a joker that is not a trump was led: it obliges nobody
    trump_is_free = rules.follow == "follow_or_trump" and led != trump  # trumping in while holding the led suit
    for seat, card in plays[max(start, 1) :]:
        suit = effective[card]
        if suit == led or (trump_is_free and suit == trump) or (first_trick and card == called_card):
            continue  # followed, trumped in, or the called partner's forced card
        if table.free >> card & 1:
            continue  # a joker that is not a trump may be played at any time
        voids |= 1 << (SUIT_SLOTS * seat + led)
    return voids


def shown_voids(
    tricks: Sequence[tuple[int, Sequence[tuple[int, int]], int]], trick: Sequence[tuple[int, int]],
    table: TrumpTable, rules: Rules, called_card: int,
) -> int:  # fmt: skip
    """Every void shown so far this hand (:func:`note_voids` over the finished tricks and the one on the table)."""
    voids = 0
    for index, (_, plays, _) in enumerate(tricks):
        voids = note_voids(voids, plays, table, rules, index == 0, called_card)
    return note_voids(voids, trick, table, rules, not tricks, called_card)


def shown_lacks(
    tricks: Sequence[tuple[int, Sequence[tuple[int, int]], int]], trick: Sequence[tuple[int, int]],
    table: TrumpTable, rules: Rules, called_card: int,
) -> list[int]:  # fmt: skip
    """Per seat, the cards it has shown it holds none of this hand, as card masks: the jokers included.

    :func:`note_voids` decides, trick by trick, who failed to answer the led suit; here that becomes every card
    that would have answered it (``follow_masks``: a trump lead's jokers too under ``joker_follows_trump``), and
    for a bidder who had to lead a trump to the first trick, every trump. A deal sampled for a player's guess at
    the hidden hands gives no seat a card of its mask.
    """
    lacks = [0] * rules.num_players
    every_trick = [plays for _, plays, _ in tricks]
    if trick:
        every_trick.append(trick)
    for index, plays in enumerate(every_trick):
        voids, led = note_voids(0, plays, table, rules, index == 0, called_card), table.effective_suit[plays[0][1]]
        while voids:
            bit = voids & -voids
            voids ^= bit
            seat, suit = divmod(bit.bit_length() - 1, SUIT_SLOTS)
            lacks[seat] |= table.follow_masks[suit] if suit == led else table.suit_masks[suit]
    return lacks


def only_bids_win(rules: Rules) -> bool:
    """Whether a side can win the match only at the end of a hand it bid and made (so a side past the
    target still needs a made bid, and a side that can go out only by bidding can be blocked): under
    ``win_requires_made_bid``, or where ``non_bidder_cap`` keeps defenders below the target."""
    capped = rules.non_bidder_cap is not None and rules.match_end == "target"
    return rules.win_requires_made_bid or capped


def points_needed(rules: Rules, scores: Sequence[int]) -> list[int]:
    """Per team, the points it still needs: to the target (0 once reached), or in fixed-length matches
    to the leading team's score."""
    if rules.match_end == "hands":
        top = max(scores)
        return [top - score for score in scores]
    return [max(0, rules.target_score - score) for score in scores]


# ---------------------------------------------------------------------- the vector
class Observer:
    """Builds observation vectors and action masks for one number of players."""

    def __init__(self, num_players: int) -> None:
        n = self.n = num_players = as_int(num_players, "num_players", 2)
        self.size = observation_size(num_players)
        self.compact_size = observation_size(num_players, version=2)  # what the observer fills, then widens
        self._wide_at = older_positions(num_players, version=2)
        self._rules_at = self.size - RULES_FEATURES
        num_card_blocks = num_players + NUM_CARD_BLOCKS_FIXED
        self.scalar_start = num_card_blocks * NUM_CARDS
        # gather indices keeping the 54 card bits of each 64-bit block
        self._card_bits = (np.arange(num_card_blocks)[:, None] * 64 + np.arange(NUM_CARDS)).ravel()
        off = {name: start for name, start, _ in compact_layout(num_players)}
        self._phase, self._trump, self._dealer = off["phase"], off["trump"], off["dealer"]
        self._bidder, self._partner, self._leader = off["bidder"], off["partner"], off["leader"]
        self._bids, self._high_bid = off["bids[0]"], off["high_bid"]
        self._discards, self._drawn, self._tricks = off["discard_counts"], off["drawn_counts"], off["tricks_done"]
        self._scores, self._progress = off["scores"], off["hands_progress"]
        self._need, self._only_bids = off["need"], off["only_bids_win"]
        self._out_of_play_at = off["out_of_play"]  # a card block apart from layout 1's
        # voids and my_side lie end to end: one bit mask, the tail, written bit by bit from its start
        self._tail_start, self._side_shift = off["voids[0]"], off["my_side"] - off["voids[0]"]
        self._rel = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self._in_seat_order = [itemgetter(*rel) for rel in self._rel]  # per-seat lists -> relative order
        self._bid_slot = [self._bids + BID_SLOTS * k for k in range(n)]
        self._all_voids = (1 << SUIT_SLOTS * n) - 1

    def _card_masks(self, game: Game, seat: int) -> list[int]:
        """Layout 1's card blocks of ``seat``'s vector, as bit masks in layout order."""
        trick = 0
        for _, card in game.trick:
            trick |= 1 << card
        won_mine, won_others = self._won_masks(game, seat) if game.tricks else (0, 0)
        called = 1 << game.called_card if game.called_card >= 0 else 0
        return [game.hands[seat], game.discarded[seat], *self._in_seat_order[seat](game.played), trick,
                won_mine, won_others, called]  # fmt: skip

    @staticmethod
    def _out_of_play(game: Game, seat: int) -> int:
        """Cards ``seat`` knows are out of play: its discards (what it took from a kitty or stock and put
        back is among them), and a called card nobody holds."""
        called = game.called_card
        return game.discarded[seat] | (1 << called if called >= 0 and game.partner < 0 else 0)

    def _tail(self, game: Game, seat: int, voids: int) -> int:
        """The voids and my_side blocks, end to end, as one bit mask (``voids``: absolute, :meth:`_voids`)."""
        tail = self._my_side(game, seat) << self._side_shift
        if voids:
            shift = SUIT_SLOTS * seat  # absolute seat order -> relative: rotate by my seat
            tail |= (voids >> shift | voids << (SUIT_SLOTS * self.n - shift)) & self._all_voids
        return tail

    def _voids(self, game: Game) -> int:
        """Voids shown so far (absolute seats)."""
        return shown_voids(game.tricks, game.trick, game.table, game.rules, game.called_card)

    def _my_side(self, game: Game, seat: int) -> int:
        """Relative seats on ``seat``'s scoring side, as a bit mask."""
        sides = game.sides
        side = sides[seat]
        return sum(1 << k for k, s in enumerate(self._rel[seat]) if sides[s] == side)

    def _checked_seat(self, game: Game, seat: Any) -> int:
        """``seat`` as an int seat of ``game``, which must have this observer's number of players."""
        if game.num_players != self.n:
            raise ValueError(f"a game of {game.num_players} players given to an observer of {self.n}")
        return as_int(seat, "seat", 0, self.n - 1)

    def vector(self, game: Game, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` (float32, see the module docstring), built from scratch."""
        if type(seat) is not int or not 0 <= seat < self.n or game.num_players != self.n:
            seat = self._checked_seat(game, seat)
        out = np.zeros(self.compact_size, dtype=np.float32)
        out[: self.scalar_start] = self._unpack_cards(self._card_masks(game, seat))
        tail = self._tail(game, seat, self._voids(game))
        for start, mask in ((self._out_of_play_at, self._out_of_play(game, seat)), (self._tail_start, tail)):
            while mask:
                low = mask & -mask
                out[start + low.bit_length() - 1] = 1.0
                mask ^= low
        for i, v in zip(*self._scalars(game, seat), strict=True):
            out[i] = v
        return self.widen(out, game.rules, seat)

    def widen(self, compact: np.ndarray, rules: Rules, seat: int) -> np.ndarray:
        """The layout 3 vector of a compact (layout 2) one: its inputs in their places, then the rules block."""
        out = np.zeros(self.size, dtype=np.float32)
        out[self._wide_at] = compact
        out[self._rules_at :] = rules_features(rules, seat)
        return out

    def _won_masks(self, game: Game, seat: int) -> tuple[int, int]:
        """Cards in the tricks won by ``seat``'s side and by the other sides."""
        sides, won = game.sides, game.won
        side = sides[seat]
        mine = others = 0
        for s in range(self.n):
            if sides[s] == side:
                mine |= won[s]
            else:
                others |= won[s]
        return mine, others

    def _unpack_cards(self, masks: list[int]) -> np.ndarray:
        """The card blocks as 0/1 bytes, from their bit masks."""
        raw = b"".join([m.to_bytes(8, "little") for m in masks])
        return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[self._card_bits]

    def _scalars(self, game: Game, seat: int) -> tuple[list[int], list[float]]:
        """Positions and values of the non-zero scalar features."""
        index, values = self._fast_scalars(game, seat)
        slow_index, slow_values = self._slow_scalars(game, seat)
        return index + slow_index, values + slow_values

    def _fast_scalars(self, game: Game, seat: int) -> tuple[list[int], list[float]]:
        """Scalars that may change with any move: phase, trump, bidder, partner, leader, tricks."""
        phase, trump, bidder, partner, leader, high_bid, tricks = self._fast_key(game, seat)
        index = [self._phase + phase, self._high_bid, self._tricks]
        values = [1.0, high_bid / A.MOON_BID, tricks / game.rules.play_hand_size]
        for base, who in ((self._trump, trump), (self._bidder, bidder), (self._partner, partner),
                          (self._leader, leader)):  # fmt: skip
            if who >= 0:
                index.append(base + who)
                values.append(1.0)
        return index, values

    def _fast_key(self, game: Game, seat: int) -> tuple[int, ...]:
        """Phase, trump, relative seats of the bidder, the called partner and the trick's leader
        (-1: none yet), high bid and tricks done: the scalars that may change with any move."""
        n = self.n
        return (
            game.phase,
            game.trump,
            (game.bidder - seat) % n if game.bidder >= 0 else -1,
            (game.partner - seat) % n if game.partner >= 0 else -1,
            (game.leader - seat) % n if game.phase == PLAY else -1,
            game.high_bid,
            len(game.tricks),
        )

    def _slow_scalars(self, game: Game, seat: int) -> tuple[list[int], list[float]]:
        """Scalars that change only with a bid, a discard, a draw or a new hand."""
        r = game.rules
        bids, discards, drawn, teams = game.bids, game.discard_counts, game.drawn_counts, game.teams
        team_scores, team_needs = _match_scalars(r, game.scores)
        index = [self._dealer + (game.dealer - seat) % self.n]
        values = [1.0]
        for k, s in enumerate(self._rel[seat]):
            bid = bids[s]
            index.extend((self._bid_slot[k] + (0 if bid is None else bid + 1), self._discards + k, self._drawn + k,
                          self._scores + k, self._need + k))  # fmt: skip
            values.extend((1.0, card_count(discards[s]), card_count(drawn[s]), team_scores[teams[s]],
                           team_needs[teams[s]]))  # fmt: skip
        if r.match_end == "hands":
            index.append(self._progress)
            values.append(game.hands_played / r.num_hands)
        if only_bids_win(r):
            index.append(self._only_bids)
            values.append(1.0)
        return index, values


def card_count(cards: int) -> float:
    """A seat's discards or draws as an input: / 24, at most 1 (a two-seat dealer who steals may draw 40)."""
    return min(1.0, cards / 24.0)


def _match_scalars(rules: Rules, scores: Sequence[int]) -> tuple[list[float], list[float]]:
    """Per team: its score / the target (clipped to [-1, 1]) and the points it needs / max hand points (to [0, 1])."""
    target = rules.target_score if rules.match_end == "target" else 4 * rules.num_hands
    unit = rules.max_hand_points
    return ([max(-1.0, min(1.0, v / target)) for v in scores],
            [min(1.0, need / unit) for need in points_needed(rules, scores)])  # fmt: skip


class IncrementalObserver(Observer):
    """An :class:`Observer` that keeps each seat's last vector and rewrites only what changed.

    Built for the env's step loop, where the observation is most of the cost and
    every numpy call costs about a microsecond. Every 0/1 feature (the card
    blocks, the one-hot scalars, voids, my side) is bit ``i`` of one Python int
    for vector position ``i``, so a look is one int built from the engine's
    masks, XORed with the seat's last one, and only the differing positions
    written (through a memoryview). The few real-valued scalars are compared as
    two small tuples: the fast ones (high bid, tricks done) with every move, the
    slow ones (counts, scores, needs) and the slow bits (dealer, bids) only with
    a bid, a discard, a draw or a new hand. Voids are public, so they are kept
    once for every seat and extended play by play. Gives exactly
    :meth:`Observer.vector` (the tests check it step by step); call
    :meth:`forget` when a new game starts.
    """

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        n = num_players
        rel = self._rel
        # where each engine mask goes: bit c of a card block at start s is bit s + c of the int
        self._played_at = [[(s, NUM_CARDS * (2 + k)) for k, s in enumerate(rel[seat])] for seat in range(n)]
        self._trick_at, self._won_at = NUM_CARDS * (2 + n), NUM_CARDS * (3 + n)
        self._others_at, self._called_at = NUM_CARDS * (4 + n), NUM_CARDS * (5 + n)
        self._cards = (1 << self.scalar_start) - 1  # layout 1's card blocks: cleared at once on a new deal
        # each seat's last vector and what it was built from: the vector is a function of these, so a
        # new game is diffed against the last one like any other move
        self._buffers: list[np.ndarray | None] = [None] * n
        self._views: list[memoryview] = [memoryview(b"")] * n  # each buffer's memoryview: its item writes are faster
        self._bits: list[int] = [0] * n  # the 0/1 features of the last vector
        self._fast: list[tuple[int, int]] = [(-1, -1)] * n  # high bid, tricks done
        self._slow: list[tuple[Any, ...]] = [()] * n  # see _slow_key
        self._slow_bits: list[int] = [0] * n  # dealer, bids and only_bids_win, as of the slow key
        self._tail_keys: list[tuple[int, ...]] = [()] * n  # voids, partner, bidder ...
        self._tails: list[int] = [0] * n  # ... and the voids and my_side bits built from them
        # my_side masks of each seat, kept while the rules stay the same (they decide the teams)
        self._sides_of: Rules | None = None
        self._team_sides: list[int] = []  # while no partner is called: the teams
        self._called_sides: dict[tuple[int, int], list[int]] = {}  # (partner, bidder) -> with the called partner
        self.forget()

    def __getstate__(self) -> dict[str, Any]:
        """Picklable (training checkpoints hold matches in flight): memoryviews are rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if k != "_views"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._views = [memoryview(b"") if b is None else memoryview(b) for b in self._buffers]

    def forget(self) -> None:
        """Drop what is keyed by progress in one game (call it when a new game starts)."""
        n = self.n
        # deals are numbered by len(game.deals), which counts redeals and, unlike hands_played, does not
        # move when the hand is scored
        self._settled: list[int] = [-1] * n  # the deal whose play phase last saw the slow key
        self._deal_of: list[int] = [-1] * n  # the deal of each seat's last vector
        # voids shown in this deal's finished tricks (the deal, tricks read, voids)
        self._void_deal, self._void_tricks, self._void_mask = -1, 0, 0
        self._won_key, self._won_by_side, self._won_all = (-1, -1), {}, 0  # cards won, as of (deal, tricks)

    def vector(self, game: Game, seat: int) -> np.ndarray:
        if type(seat) is not int or not 0 <= seat < self.n or game.num_players != self.n:
            seat = self._checked_seat(game, seat)
        buf = self._buffers[seat]
        if buf is None:
            buf = self._buffers[seat] = np.zeros(self.compact_size, dtype=np.float32)
            self._views[seat] = memoryview(buf)
        view, deal = self._views[seat], len(game.deals)
        old = self._bits[seat]
        if deal != self._deal_of[seat]:  # a new deal: clear layout 1's card blocks at once, set the few cards held
            buf[: self.scalar_start] = 0.0
            old &= ~self._cards
            self._deal_of[seat] = deal
        if game.phase != PLAY or self._settled[seat] != deal:  # nothing slow moves during card play
            self._update_slow(view, game, seat, deal)
        bits = self._bits_of(game, seat)
        if bits != old:
            changed = bits ^ old
            added = changed & bits
            gone = changed ^ added
            while added:  # from the top: on ints this long, a bit's position costs less than its value
                top = added.bit_length() - 1
                view[top] = 1.0
                added ^= 1 << top
            while gone:
                top = gone.bit_length() - 1
                view[top] = 0.0
                gone ^= 1 << top
            self._bits[seat] = bits
        fast = (game.high_bid, len(game.tricks))
        if fast != self._fast[seat]:
            view[self._high_bid] = fast[0] / A.MOON_BID
            view[self._tricks] = fast[1] / game.rules.play_hand_size
            self._fast[seat] = fast
        return self.widen(buf, game.rules, seat)

    def _bits_of(self, game: Game, seat: int) -> int:
        """Every 0/1 feature of ``seat``'s vector as one int (bit ``i``: position ``i``)."""
        discarded, played, n = game.discarded[seat], game.played, self.n
        bits = game.hands[seat] | discarded << NUM_CARDS | discarded << self._out_of_play_at
        for s, at in self._played_at[seat]:
            bits |= played[s] << at
        if game.trick:
            trick = 0
            for _, card in game.trick:
                trick |= 1 << card
            bits |= trick << self._trick_at
        if game.tricks:
            mine, others = self._won_masks(game, seat)
            bits |= mine << self._won_at | others << self._others_at
        if game.called_card >= 0:
            bits |= 1 << self._called_at + game.called_card
            if game.partner < 0:  # nobody holds it: out of play
                bits |= 1 << self._out_of_play_at + game.called_card
        bits |= 1 << self._phase + game.phase
        if game.trump >= 0:
            bits |= 1 << self._trump + game.trump
        if game.bidder >= 0:
            bits |= 1 << self._bidder + (game.bidder - seat) % n
        if game.partner >= 0:
            bits |= 1 << self._partner + (game.partner - seat) % n
        if game.phase == PLAY:
            bits |= 1 << self._leader + (game.leader - seat) % n
        voids = self._voids(game) if game.tricks or game.trick else 0  # none before the first card
        key = (voids, game.partner, game.bidder if game.partner >= 0 else -1)
        if key != self._tail_keys[seat]:
            self._tails[seat], self._tail_keys[seat] = self._tail(game, seat, voids) << self._tail_start, key
        return bits | self._slow_bits[seat] | self._tails[seat]

    def _voids(self, game: Game) -> int:
        """As :meth:`Observer._voids`: each finished trick is read once, the trick on the table at every look.

        Only a card off the led suit, or the lead of a first trick where trump must
        be led, can prove a void (:func:`note_voids`); the trick on the table is
        passed over without the call while it holds neither.
        """
        tricks, trick = game.tricks, game.trick
        if len(game.deals) != self._void_deal:
            self._void_deal, self._void_tricks, self._void_mask = len(game.deals), 0, 0
        voids = self._void_mask
        if self._void_tricks < len(tricks):
            for i in range(self._void_tricks, len(tricks)):
                voids = note_voids(voids, tricks[i][1], game.table, game.rules, i == 0, game.called_card)
            self._void_tricks, self._void_mask = len(tricks), voids
        if trick:
            suit = game.table.effective_suit
            led = suit[trick[0][1]]
            lead_proves = not tricks and game.rules.first_lead == "trump"
            for _, card in trick:
                if suit[card] != led or lead_proves:
                    return note_voids(voids, trick, game.table, game.rules, not tricks, game.called_card)
        return voids

    def _won_masks(self, game: Game, seat: int) -> tuple[int, int]:
        """As :meth:`Observer._won_masks`; the cards won per side are read once per trick for every seat."""
        key = (len(game.deals), len(game.tricks))
        if key != self._won_key:
            by_side: dict[int, int] = {}
            for side, won in zip(game.sides, game.won):
                by_side[side] = by_side.get(side, 0) | won
            self._won_key, self._won_by_side, self._won_all = key, by_side, sum(by_side.values())
        mine = self._won_by_side[game.sides[seat]]
        return mine, self._won_all & ~mine

    def _my_side(self, game: Game, seat: int) -> int:
        """As :meth:`Observer._my_side`, kept per rule set: the sides are the teams until a partner is called."""
        if game.rules is not self._sides_of:
            self._sides_of, self._team_sides, self._called_sides = game.rules, [], {}
        partner = game.partner
        if partner < 0:
            if not self._team_sides:
                self._team_sides = [Observer._my_side(self, game, s) for s in range(self.n)]
            return self._team_sides[seat]
        key = (partner, game.bidder)
        masks = self._called_sides.get(key)
        if masks is None:
            masks = self._called_sides[key] = [Observer._my_side(self, game, s) for s in range(self.n)]
        return masks[seat]

    @staticmethod
    def _slow_key(game: Game) -> tuple[Any, ...]:
        """Scalars that change only with a bid, a discard, a draw or a new hand (seats absolute)."""
        return (game.dealer, tuple(game.bids), tuple(game.discard_counts), tuple(game.drawn_counts),
                tuple(game.scores), game.hands_played)  # fmt: skip

    def _update_slow(self, buf: memoryview, game: Game, seat: int, deal: int) -> None:
        """Rebuild the slow bits and rewrite the slow real-valued scalars (layout: :meth:`Observer._slow_scalars`)."""
        if game.phase == PLAY:  # no bid, discard, draw or score moves while the cards are played: look once
            self._settled[seat] = deal
        key, old = self._slow_key(game), self._slow[seat]
        if key == old:
            return
        n, rel, r = self.n, self._rel[seat], game.rules
        if key[:2] != old[:2]:  # the dealer or a bid
            bits = 1 << self._dealer + (game.dealer - seat) % n
            for k, s in enumerate(rel):
                bid = game.bids[s]
                bits |= 1 << self._bids + BID_SLOTS * k + (0 if bid is None else bid + 1)
            self._slow_bits[seat] = bits | (1 << self._only_bids if only_bids_win(r) else 0)
        for start, position in ((self._discards, 2), (self._drawn, 3)):
            if not old or key[position] != old[position]:
                counts = key[position]
                for k, s in enumerate(rel):
                    buf[start + k] = card_count(counts[s])
        if not old or key[4:] != old[4:]:
            teams = game.teams
            team_scores, team_needs = _match_scalars(r, game.scores)
            for k, s in enumerate(rel):
                buf[self._scores + k] = team_scores[teams[s]]
                buf[self._need + k] = team_needs[teams[s]]
            if r.match_end == "hands":
                buf[self._progress] = game.hands_played / r.num_hands
        self._slow[seat] = key


_MASK_CACHE: dict[int, np.ndarray] = {}
_MASK_CACHE_SIZE = 1 << 16  # distinct legal sets kept (about 12 MB at most); the cache is emptied when full
_FEW_LEGAL = 5  # legal sets this small are built bit by bit, not cached


def action_mask(legal: int) -> np.ndarray:
    """int8 mask over the action space from the engine's legal-move bit mask (a fresh, writable array).

    A few legal moves (most card plays) are set one by one on a zeroed array;
    larger sets (bids, trumps, discards) recur, so their masks are cached and
    copied: either way about a microsecond, where unpacking bits costs three.
    """
    if legal.bit_count() <= _FEW_LEGAL:
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        while legal:
            low = legal & -legal
            mask[low.bit_length() - 1] = 1
            legal ^= low
        return mask
    mask = _MASK_CACHE.get(legal)
    if mask is None:
        if len(_MASK_CACHE) >= _MASK_CACHE_SIZE:
            _MASK_CACHE.clear()
        raw = np.frombuffer(legal.to_bytes(23, "little"), dtype=np.uint8)
        mask = _MASK_CACHE[legal] = np.unpackbits(raw, bitorder="little")[: A.NUM_ACTIONS].view(np.int8)
    return mask.copy()


# ---------------------------------------------------------------------- the plain-dict view
_CARD_NAMES = tuple(format_card(c) for c in range(NUM_CARDS))  # card id -> name, looked up instead of formatted
_CARD_IDS = {name: card for card, name in enumerate(_CARD_NAMES)}  # the names views hold -> card id


def _names(mask: int) -> list[str]:
    """Names of the cards in a bit mask, ascending by id (``smear_env.cards.card_names``, by table look-up)."""
    names = []
    while mask:
        low = mask & -mask
        names.append(_CARD_NAMES[low.bit_length() - 1])
        mask ^= low
    return names


def card_id_of(name: str) -> int:
    """Card id of a name as views write it (``TH``, ``JK2``), falling back to :func:`parse_card` for others."""
    card = _CARD_IDS.get(name)
    return parse_card(name) if card is None else card


def mask_of_names(names: Sequence[str]) -> int:
    """Bit mask of the cards a view lists: by table look-up, or :func:`parse_cards` for other spellings."""
    mask = 0
    for name in names:
        card = _CARD_IDS.get(name)
        if card is None or mask >> card & 1:  # another spelling, or a repeat ("JK JK" names both jokers)
            return mask_of(parse_cards(names))
        mask |= 1 << card
    return mask


def player_view(game: Game, seat: int) -> dict[str, Any]:
    """A structured, human-readable view of what ``seat`` may know (seats absolute).

    Holds the same information as the vector, for rule-based bots and front ends.
    """
    if not isinstance(game, Game):
        raise ValueError(f"player_view of {game!r}: expected a smear_env Game")
    if type(seat) is not int or not 0 <= seat < game.num_players:
        seat = as_int(seat, "seat", 0, game.num_players - 1)
    r = game.rules
    names = _CARD_NAMES
    legal = game.legal_actions() if game.current_player == seat else []
    return {
        "seat": seat,
        "num_players": game.num_players,
        "team": r.team_of(seat),
        "teams": [list(seats) for seats in r.team_seats],
        "preset": r.name,
        "phase": PHASE_NAMES[game.phase],
        "dealer": game.dealer,
        "current_player": game.current_player,
        "hand": _names(game.hands[seat]),
        "my_discards": _names(game.discarded[seat]),
        "bids": ["" if b is None else "pass" if b == 0 else "moon" if b == A.MOON_BID else str(b) for b in game.bids],
        "high_bid": game.high_bid,
        "bidder": game.bidder,
        "trump": SUITS[game.trump] if game.trump >= 0 else None,
        "called_card": names[game.called_card] if game.called_card >= 0 else None,
        "partner": game.partner,
        "discard_counts": list(game.discard_counts),
        "drawn_counts": list(game.drawn_counts),
        "trick": [(s, names[c]) for s, c in game.trick],
        "leader": game.leader,
        "tricks": [
            {"leader": leader, "cards": [(s, names[c]) for s, c in plays], "winner": winner}
            for leader, plays, winner in game.tricks
        ],
        "played": [_names(m) for m in game.played],
        "scores": list(game.scores),
        "hands_played": game.hands_played,
        "legal_actions": legal,
        "legal_moves": [A.format_action(a) for a in legal],
    }


class _ViewState:
    """The parts of a :class:`Game` an :class:`Observer` reads, rebuilt from one player's view."""

    def __init__(self, view: dict[str, Any], rules: Rules) -> None:
        n, seat = rules.num_players, view["seat"]
        self.rules, self.num_players = rules, n
        self.teams = [rules.team_of(s) for s in range(n)]
        self.hands = [0] * n
        self.hands[seat] = mask_of_names(view["hand"])
        self.discarded = [0] * n
        self.discarded[seat] = mask_of_names(view["my_discards"])
        self.played = [mask_of_names(cards) for cards in view["played"]]
        self.trick = [(s, card_id_of(c)) for s, c in view["trick"]]
        self.tricks = [(t["leader"], [(s, card_id_of(c)) for s, c in t["cards"]], t["winner"]) for t in view["tricks"]]
        self.won = [0] * n
        for _, plays, winner in self.tricks:
            self.won[winner] |= mask_of(c for _, c in plays)
        self.bidder, self.partner = view["bidder"], view["partner"]
        self.leader, self.dealer = view["leader"], view["dealer"]
        self.sides = list(self.teams)
        if self.partner >= 0:
            self.sides[self.partner] = self.sides[self.bidder]
        self.called_card = card_id_of(view["called_card"]) if view["called_card"] else -1
        self.phase = PHASE_NAMES.index(view["phase"])
        self.trump = SUITS.index(view["trump"]) if view["trump"] else -1
        self.table = trump_table(rules, self.trump)
        self.high_bid = view["high_bid"]
        self.bids = [bid_value(b) for b in view["bids"]]
        self.discard_counts, self.drawn_counts = view["discard_counts"], view["drawn_counts"]
        self.scores, self.hands_played = view["scores"], view["hands_played"]


def bid_value(label: str) -> int | None:
    """A bid as the engine stores it (None not yet, 0 pass, N, ``MOON_BID``), from its label in a view."""
    return {"": None, "pass": 0, "moon": A.MOON_BID}.get(label) if not label.isdigit() else int(label)


def vector_from_view(view: dict[str, Any], rules: Rules) -> np.ndarray:
    """The observation vector of the player whose :func:`player_view` this is.

    Lets a front end that only keeps views (or receives them over the wire) feed
    a trained agent: it equals the env's observation at every step (tested).
    """
    return Observer(rules.num_players).vector(_ViewState(view, rules), view["seat"])  # type: ignore[arg-type]
