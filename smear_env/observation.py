"""What one player may know, as a vector and as a plain dict.

The vector is built from the engine's bit masks: :class:`Observer` from scratch
(every card block unpacked from one byte string), and the env's
:class:`IncrementalObserver` by rewriting only what moved since a seat's last
look, so building it every step stays cheap. Seats in it are relative to the
observing player: relative seat ``k`` is the player ``k`` places to the left
(clockwise), 0 being the player.

With ``N`` players and card blocks of 54 (card ids of :mod:`smear_env.cards`):

=====================  ===========  ================================================
block                  size         meaning
=====================  ===========  ================================================
hand                   54           cards in my hand
my_discards            54           cards I put out of play (discards, blinds)
played[k]              54 x N       cards relative seat k has played to tricks
trick                  54           cards in the trick on the table
won_mine               54           cards in tricks my side has won
won_others             54           cards in tricks other sides have won
called_card            54           the card the bidder called (called partner)
phase                  6            one-hot: bid, trump, call, discard, play, over
trump                  4            one-hot trump suit C D H S (all 0 before it is set)
dealer                 N            one-hot relative seat of the dealer
bidder                 N            one-hot relative seat of the bidder (the high bidder so far while bidding)
partner                N            one-hot relative seat of the called partner, if any
leader                 N            one-hot relative seat that led the current trick
bids[k]                14 x N       one-hot per relative seat: none yet, pass, 1..11, moon
high_bid               1            highest bid / 12 (moon = 1)
discard_counts         N            cards each relative seat has discarded / 24
drawn_counts           N            cards each relative seat took from kitty or stock / 24
tricks_done            1            tricks completed / tricks per hand
scores                 N            match score of each relative seat's team / target, clipped to [-1, 1]
hands_progress         1            hands played / hands in the match (fixed-length matches; else 0)
=====================  ===========  ================================================

Total ``75 N + 337`` floats: 637 for 4 players, 712 for 5, 787 for 6.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

from smear_env import actions as A
from smear_env.cards import NUM_CARDS, SUITS, card_names, format_card, mask_of, parse_card, parse_cards
from smear_env.game import PHASE_NAMES, PLAY, Game
from smear_env.rules import Rules

OBSERVATION_VERSION = 1  # bump whenever the layout below changes: checkpoints record it
NUM_CARD_BLOCKS_FIXED = 6  # hand, my_discards, trick, won_mine, won_others, called_card
BID_SLOTS = 14


def layout(num_players: int) -> list[tuple[str, int, int]]:
    """(block name, start, size) of every block of the vector, in order."""
    n = num_players
    sizes = [("hand", 54), ("my_discards", 54)]
    sizes += [(f"played[{k}]", 54) for k in range(n)]
    sizes += [("trick", 54), ("won_mine", 54), ("won_others", 54), ("called_card", 54)]
    sizes += [("phase", 6), ("trump", 4), ("dealer", n), ("bidder", n), ("partner", n), ("leader", n)]
    sizes += [(f"bids[{k}]", BID_SLOTS) for k in range(n)]
    sizes += [("high_bid", 1), ("discard_counts", n), ("drawn_counts", n), ("tricks_done", 1)]
    sizes += [("scores", n), ("hands_progress", 1)]
    out, start = [], 0
    for name, size in sizes:
        out.append((name, start, size))
        start += size
    return out


def observation_size(num_players: int) -> int:
    return 75 * num_players + 337


class Observer:
    """Builds observation vectors and action masks for one number of players."""

    def __init__(self, num_players: int) -> None:
        n = self.n = num_players
        self.size = observation_size(num_players)
        num_card_blocks = num_players + NUM_CARD_BLOCKS_FIXED
        self.scalar_start = num_card_blocks * NUM_CARDS
        # gather indices keeping the 54 card bits of each 64-bit block
        self._card_bits = (np.arange(num_card_blocks)[:, None] * 64 + np.arange(NUM_CARDS)).ravel()
        off = {name: start for name, start, _ in layout(num_players)}
        self._phase, self._trump, self._dealer = off["phase"], off["trump"], off["dealer"]
        self._bidder, self._partner, self._leader = off["bidder"], off["partner"], off["leader"]
        self._bids, self._high_bid = off["bids[0]"], off["high_bid"]
        self._discards, self._drawn, self._tricks = off["discard_counts"], off["drawn_counts"], off["tricks_done"]
        self._scores, self._progress = off["scores"], off["hands_progress"]
        self._rel = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self._in_seat_order = [itemgetter(*rel) for rel in self._rel]  # per-seat lists -> relative order
        self._bid_slot = [self._bids + BID_SLOTS * k for k in range(n)]

    def _card_masks(self, game: Game, seat: int) -> list[int]:
        """The card blocks of ``seat``'s vector, as bit masks in layout order."""
        trick = 0
        for _, card in game.trick:
            trick |= 1 << card
        won_mine, won_others = self._won_masks(game, seat) if game.tricks else (0, 0)
        called = 1 << game.called_card if game.called_card >= 0 else 0
        return [game.hands[seat], game.discarded[seat], *self._in_seat_order[seat](game.played), trick,
                won_mine, won_others, called]  # fmt: skip

    def vector(self, game: Game, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` (float32, see the module docstring), built from scratch."""
        out = np.zeros(self.size, dtype=np.float32)
        out[: self.scalar_start] = self._unpack_cards(self._card_masks(game, seat))
        for i, v in zip(*self._scalars(game, seat), strict=True):
            out[i] = v
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
        target = r.target_score if r.match_end == "target" else 4 * r.num_hands
        team_scores = [max(-1.0, min(1.0, v / target)) for v in game.scores]
        bids, discards, drawn, teams = game.bids, game.discard_counts, game.drawn_counts, game.teams
        index = [self._dealer + (game.dealer - seat) % self.n]
        values = [1.0]
        for k, s in enumerate(self._rel[seat]):
            bid = bids[s]
            index.extend((self._bid_slot[k] + (0 if bid is None else bid + 1), self._discards + k, self._drawn + k,
                          self._scores + k))  # fmt: skip
            values.extend((1.0, discards[s] / 24.0, drawn[s] / 24.0, team_scores[teams[s]]))
        if r.match_end == "hands":
            index.append(self._progress)
            values.append(game.hands_played / r.num_hands)
        return index, values


class IncrementalObserver(Observer):
    """An :class:`Observer` that keeps each seat's last vector and rewrites only what changed.

    Built for the env's step loop, where the observation is most of the cost and
    every numpy call costs about a microsecond. Between two observations of a
    seat only a few cards move and a few scalars change: the card blocks are
    compared as bit masks with the seat's last ones and only the bits that
    differ are written, and the scalars are compared as two small tuples (the
    fast ones moving every trick, the slow ones only with a bid, a discard, a
    draw or a new hand). Gives exactly :meth:`Observer.vector` (the tests check
    it step by step); call :meth:`forget` when a new game starts.
    """

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        # one-hot slots of the fast key, in its order: phase, trump, bidder, partner, leader
        self._one_hot = (self._phase, self._trump, self._bidder, self._partner, self._leader)
        self._block_starts = [k * NUM_CARDS for k in range(num_players + NUM_CARD_BLOCKS_FIXED)]
        self._no_cards = [0] * len(self._block_starts)
        n = num_players
        # each seat's last vector and the state it was built from: the vector is a function of these
        # three, so a new game is diffed against the last one like any other move
        self._buffers: list[np.ndarray | None] = [None] * n
        self._views: list[memoryview] = [memoryview(b"")] * n  # each buffer's memoryview: its item writes are faster
        self._masks: list[list[int]] = [[] for _ in range(n)]
        self._fast: list[tuple[int, ...]] = [()] * n
        self._slow: list[tuple[Any, ...]] = [()] * n
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

    def vector(self, game: Game, seat: int) -> np.ndarray:
        buf = self._buffers[seat]
        masks = self._card_masks(game, seat)
        deal = len(game.deals)
        if buf is None:
            buf = self._buffers[seat] = super().vector(game, seat)
            self._views[seat] = memoryview(buf)
            self._fast[seat] = self._fast_key(game, seat)
            self._slow[seat] = self._slow_key(game)
        else:
            view = self._views[seat]
            if deal == self._deal_of[seat]:
                self._update_cards(view, self._masks[seat], masks)
            else:  # a new deal: clear every card block at once, then set the few cards held so far
                buf[: self.scalar_start] = 0.0
                self._update_cards(view, self._no_cards, masks)
            self._update_fast(view, game, seat)
            if game.phase != PLAY or self._settled[seat] != deal:  # nothing slow moves during card play
                self._update_slow(view, game, seat, deal)
        self._masks[seat], self._deal_of[seat] = masks, deal
        return buf.copy()

    def _update_cards(self, buf: memoryview, old: list[int], new: list[int]) -> None:
        for base, before, now in zip(self._block_starts, old, new):
            if before != now:
                added, gone = now & ~before, before & ~now
                while added:
                    low = added & -added
                    buf[base + low.bit_length() - 1] = 1.0
                    added ^= low
                while gone:
                    low = gone & -gone
                    buf[base + low.bit_length() - 1] = 0.0
                    gone ^= low

    def _update_fast(self, buf: memoryview, game: Game, seat: int) -> None:
        fast, old = self._fast_key(game, seat), self._fast[seat]
        if fast == old:
            return
        for base, before, now in zip(self._one_hot, old, fast):  # zip stops after the five one-hot slots
            if before != now:
                if before >= 0:
                    buf[base + before] = 0.0
                if now >= 0:
                    buf[base + now] = 1.0
        buf[self._high_bid] = fast[5] / A.MOON_BID
        buf[self._tricks] = fast[6] / game.rules.play_hand_size
        self._fast[seat] = fast

    @staticmethod
    def _slow_key(game: Game) -> tuple[Any, ...]:
        """Scalars that change only with a bid, a discard, a draw or a new hand (seats absolute)."""
        return (game.dealer, tuple(game.bids), tuple(game.discard_counts), tuple(game.drawn_counts),
                tuple(game.scores), game.hands_played)  # fmt: skip

    def _update_slow(self, buf: memoryview, game: Game, seat: int, deal: int) -> None:
        """Rewrite the slow scalars of the seats whose values moved (the layout: :meth:`Observer._slow_scalars`)."""
        if game.phase == PLAY:  # no bid, discard, draw or score moves while the cards are played: look once
            self._settled[seat] = deal
        key, old = self._slow_key(game), self._slow[seat]
        if key == old:
            return
        n, rel = self.n, self._rel[seat]
        if key[0] != old[0]:
            buf[self._dealer + (old[0] - seat) % n] = 0.0
            buf[self._dealer + (key[0] - seat) % n] = 1.0
        if key[1] != old[1]:
            for k, s in enumerate(rel):
                before, now = old[1][s], key[1][s]
                if before != now:
                    buf[self._bid_slot[k] + (0 if before is None else before + 1)] = 0.0
                    buf[self._bid_slot[k] + (0 if now is None else now + 1)] = 1.0
        for start, position in ((self._discards, 2), (self._drawn, 3)):
            if key[position] != old[position]:
                counts = key[position]
                for k, s in enumerate(rel):
                    buf[start + k] = counts[s] / 24.0
        if key[4:] != old[4:]:
            r = game.rules
            target = r.target_score if r.match_end == "target" else 4 * r.num_hands
            teams = game.teams
            for k, s in enumerate(rel):
                buf[self._scores + k] = max(-1.0, min(1.0, game.scores[teams[s]] / target))
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


def player_view(game: Game, seat: int) -> dict[str, Any]:
    """A structured, human-readable view of what ``seat`` may know (seats absolute).

    Holds the same information as the vector, for rule-based bots and front ends.
    """
    r = game.rules

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
        "hand": card_names(game.hands[seat]),
        "my_discards": card_names(game.discarded[seat]),
        "bids": ["" if b is None else "pass" if b == 0 else "moon" if b == A.MOON_BID else str(b) for b in game.bids],
        "high_bid": game.high_bid,
        "bidder": game.bidder,
        "trump": SUITS[game.trump] if game.trump >= 0 else None,
        "called_card": format_card(game.called_card) if game.called_card >= 0 else None,
        "partner": game.partner,
        "discard_counts": list(game.discard_counts),
        "drawn_counts": list(game.drawn_counts),
        "trick": [(s, format_card(c)) for s, c in game.trick],
        "leader": game.leader,
        "tricks": [
            {"leader": leader, "cards": [(s, format_card(c)) for s, c in plays], "winner": winner}
            for leader, plays, winner in game.tricks
        ],
        "played": [card_names(m) for m in game.played],
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
        self.hands[seat] = mask_of(parse_cards(view["hand"]))
        self.discarded = [0] * n
        self.discarded[seat] = mask_of(parse_cards(view["my_discards"]))
        self.played = [mask_of(parse_cards(cards)) for cards in view["played"]]
        self.trick = [(s, parse_card(c)) for s, c in view["trick"]]
        self.won = [0] * n
        for trick in view["tricks"]:
            self.won[trick["winner"]] |= mask_of(parse_card(c) for _, c in trick["cards"])
        self.tricks = view["tricks"]
        self.bidder, self.partner = view["bidder"], view["partner"]
        self.leader, self.dealer = view["leader"], view["dealer"]
        self.sides = list(self.teams)
        if self.partner >= 0:
            self.sides[self.partner] = self.sides[self.bidder]
        self.called_card = parse_card(view["called_card"]) if view["called_card"] else -1
        self.phase = PHASE_NAMES.index(view["phase"])
        self.trump = SUITS.index(view["trump"]) if view["trump"] else -1
        self.high_bid = view["high_bid"]
        self.bids = [_bid_value(b) for b in view["bids"]]
        self.discard_counts, self.drawn_counts = view["discard_counts"], view["drawn_counts"]
        self.scores, self.hands_played = view["scores"], view["hands_played"]


def _bid_value(label: str) -> int | None:
    """A bid as the engine stores it, from its label in a view."""
    return {"": None, "pass": 0, "moon": A.MOON_BID}.get(label) if not label.isdigit() else int(label)


def vector_from_view(view: dict[str, Any], rules: Rules) -> np.ndarray:
    """The observation vector of the player whose :func:`player_view` this is.

    Lets a front end that only keeps views (or receives them over the wire) feed
    a trained agent: it equals the env's observation at every step (tested).
    """
    return Observer(rules.num_players).vector(_ViewState(view, rules), view["seat"])  # type: ignore[arg-type]
