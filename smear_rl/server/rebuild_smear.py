"""The Smear side of the rebuild: what a seat's events say about the cards it cannot see.

See :mod:`smear_rl.server.rebuild` for the method. Here: reading Smear events
(notation, partner calls, hidden discards, takes); following the hand's public course
to know when the engine moves cards on its own (kitty, blinds, stock, redraw); the
constraints each play and discard puts on a seat's hidden cards, which mirror the
cascades of ``Game._legal_cards`` and ``Game._legal_discards``; and laying out a
full deal the engine can replay.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from smear_env import actions as A
from smear_env.cards import JOKERS_MASK, SUITS, cards_of, format_card, format_cards, mask_of
from smear_env.game import DISCARD, PHASE_NAMES, Deal, Game
from smear_env.observation import player_view
from smear_env.rules import Rules
from smear_env.trump import trump_table
from smear_rl.server.assign import assign, group_cards
from smear_rl.server.errors import RequestError, history_error
from smear_rl.server.rebuild import (
    HIDDEN,
    Event,
    Ledger,
    Rebuilt,
    SeatRequest,
    event_shape,
    finish_rebuild,
    hidden_take,
    index_of,
    parse_card_in,
    read_events,
    replay_moves,
)

BID_ACTIONS = A.MISDEAL  # ids up to here are bidding moves
_ACTION_IDS = {A.format_action(a): a for a in range(A.NUM_ACTIONS)}  # the canonical notation, read without parsing


class _Reader:
    """Reads the events in order with the checks that need no deal: shapes, seats, notation, hidden cards, twice."""

    def __init__(self, req: SeatRequest) -> None:
        self.req = req  # its match start was checked by the SmearHistory that reads it
        self.deck = frozenset(req.rules.deck)
        self.mine = set(req.hand)  # cards I hold now (dealt, taken; not yet played or discarded)
        self.ledger = Ledger(req.seat, req.hand)
        self.called_owner: dict[int, int] = {}  # called card -> seat holding it (-1: nobody)

    def read(self) -> tuple[list[Event], RequestError | None]:
        """The events up to the first problem visible without a deal, and that problem (None if there is none)."""
        return read_events(self.req, self._event)

    def _event(self, i: int, raw: Any) -> Event:
        seat = event_shape(i, raw, self.req.rules.num_players, {"seat", "move", "take", "partner"})
        if "take" in raw:
            return self._take(i, seat, raw["take"])
        return self._move(i, seat, raw)

    def _take(self, i: int, seat: int, take: Any) -> Event:
        if seat != self.req.seat:
            return hidden_take(i, seat, self.req.seat, take)
        if not isinstance(take, list):
            raise history_error(i, 'your own take lists its cards, e.g. ["JH", "4S"]', "take")
        cards = [parse_card_in(self.deck, c, f"events[{i}].take[{k}]") for k, c in enumerate(take)]
        for card in cards:
            self.ledger.place(i, card, "taken", seat)
            self.mine.add(card)
        return Event(i, seat, take=cards)

    def _move(self, i: int, seat: int, raw: dict[str, Any]) -> Event:
        me, text = self.req.seat, raw["move"]
        if isinstance(text, int) and not isinstance(text, bool):
            if not 0 <= text < A.NUM_ACTIONS:
                raise history_error(i, f"action {text} is out of range: expected 0..{A.NUM_ACTIONS - 1}", "move")
            text = A.format_action(text)
        if not isinstance(text, str):
            raise history_error(i, f"{text!r} is not a move: expected notation such as 'bid 4' or 'play TH'", "move")
        if text.strip().lower() == "discard":
            if seat == me:
                raise history_error(i, "your own discard names its card, e.g. 'discard 4C'", "move")
            self._no_partner(i, raw)
            return Event(i, seat, HIDDEN)
        action = _ACTION_IDS.get(text)
        if action is None:
            try:
                action = A.parse_action(text, self.req.rules)
            except ValueError as err:
                raise history_error(i, str(err), "move") from None
        if action == A.MISDEAL:
            raise history_error(
                i, "a misdeal throws the hand in: send only the events of the hand dealt after it", "move"
            )
        event = Event(i, seat, action)
        if A.CALL_BASE <= action < A.DONE or action >= A.PLAY_BASE:
            card = action - (
                A.PLAY_BASE if action >= A.PLAY_BASE else A.CALL_BASE if action < A.DISCARD_BASE else A.DISCARD_BASE
            )
            if card not in self.deck:
                raise history_error(i, f"{format_card(card)} is not in this deck ({len(self.deck)} cards)", "move")
            if A.DISCARD_BASE <= action < A.DONE:
                self._discard(i, seat, card)
            elif action >= A.PLAY_BASE:
                self._play(i, seat, card)
            else:
                event.partner = self._call(i, seat, card, raw)
                return event
        self._no_partner(i, raw)
        return event

    @staticmethod
    def _no_partner(i: int, raw: dict[str, Any]) -> None:
        if "partner" in raw:
            raise history_error(i, "partner belongs to a call ('call AH') only", "partner")

    def _discard(self, i: int, seat: int, card: int) -> None:
        if seat != self.req.seat:
            raise history_error(
                i,
                f'this reveals seat {seat}\'s hidden discard: send {{"seat": {seat}, "move": "discard"}}',
                "move",
            )
        if card not in self.mine:
            raise history_error(i, f"you (seat {seat}) do not hold {format_card(card)}", "move")
        self.mine.discard(card)

    def _play(self, i: int, seat: int, card: int) -> None:
        me = self.req.seat
        if seat == me:
            if card not in self.mine:
                raise history_error(i, f"you (seat {me}) do not hold {format_card(card)}", "move")
            self.mine.discard(card)
            self.ledger.move(i, card, "played")
            return
        owner = self.called_owner.get(card)
        drawn = owner == -1 and self.req.rules.stock_use == "redraw"  # nobody held it at the call; a redraw since may
        if owner is not None and owner != seat and not drawn:
            holder = f"seat {owner}, the called partner," if owner >= 0 else "nobody (the call named no partner)"
            raise history_error(i, f"{format_card(card)} is the called card, held by {holder} not seat {seat}", "move")
        self.ledger.place(i, card, "played", seat)

    def _call(self, i: int, seat: int, card: int, raw: dict[str, Any]) -> int:
        n, me = self.req.rules.num_players, self.req.seat
        if "partner" not in raw:
            raise history_error(
                i, "a call names the partner every seat then learns: the seat holding the card, or null", "partner"
            )
        partner = raw["partner"]
        if partner is not None and (not isinstance(partner, int) or isinstance(partner, bool) or not 0 <= partner < n):
            raise history_error(i, f"partner {partner!r} is not a seat: expected 0..{n - 1} or null", "partner")
        partner = -1 if partner is None else partner
        if card in self.mine and partner != me:
            raise history_error(i, f"you hold {format_card(card)}, so you (seat {me}) are the partner", "partner")
        if partner == me and card not in self.mine:
            raise history_error(i, f"you do not hold {format_card(card)}, so you are not the partner", "partner")
        if partner == seat:
            raise history_error(i, "the bidder cannot call a card of its own hand", "partner")
        self.called_owner[card] = partner
        return partner


# ---------------------------------------------------------------------- what the events say about hidden cards


@dataclass
class _Take:
    """Cards reaching ``seat`` after the move at ``trigger``: ``kitty`` from the kitty, then from the stock."""

    trigger: int
    seat: int
    count: int
    kitty: int = 0
    cards: list[int] | None = None  # known for my own takes


@dataclass
class _Walk:
    """The public course of the hand, read from the events: takes, bids, trump, call, discards, plays."""

    takes: list[_Take] = field(default_factory=list)
    bidder: int = -1
    trump: int = -1
    trump_at_discards: int = -1  # trump suit known when the discards were made (-1: not yet named then)
    trump_index: int = -1  # the event naming trump
    called: int = -1
    partner: int = -1
    call_index: int = -1  # the event calling a partner
    # called_partner: another seat named trump and called nobody, which the engine lets a bidder do only
    # holding every trump it could call (Game._after_trump); at_end: inferred from my being on turn after it
    call_skipped: bool = False
    call_skipped_at_end: bool = False
    discards: dict[int, int] = field(default_factory=dict)  # hidden discards per other seat
    plays: list[tuple[int, int, int]] = field(default_factory=list)  # (event index, seat, card)
    problems: list[RequestError] = field(default_factory=list)


def walk(req: SeatRequest, events: list[Event], complete: bool = True) -> _Walk:
    """Follow the hand's public course: when cards are taken and by whom, the bidder, trump, the partner, the plays.

    This mirrors when the engine moves cards on its own (``Game._after_bidding``,
    ``_after_trump``, the redraw in ``_discard``/``_next_discarder``): after the last
    bid the bidder takes the kitty and any blinds, after naming trump the stock when
    it goes to the bidder, and in a redraw each non-dealer draws what it exchanged,
    the dealer the rest. Turn order is left to the engine's replay.
    """
    r, n, dealer = req.rules, req.rules.num_players, req.dealer
    w = _Walk()
    bids = 0
    exchanged: dict[int, int] = {}
    for ev in events:
        if not ev.is_move:
            continue
        action, seat = ev.action, ev.seat
        if action is not None and 0 <= action <= BID_ACTIONS:
            bids += 1
            if action != A.PASS:  # the engine's auction allows only a higher bid, or the dealer's steal
                w.bidder = seat
            if bids == n:
                if w.bidder < 0:
                    w.problems.append(
                        history_error(
                            ev.index,
                            "every seat has passed, so the hand is thrown in and dealt again: "
                            "send only the events of the new deal",
                        )
                    )
                pickup = r.kitty_size + (r.blinds if r.stock_use == "blinds" else 0)
                if w.bidder >= 0 and pickup:
                    w.takes.append(_Take(ev.index, w.bidder, pickup, r.kitty_size))
        elif action is not None and A.TRUMP_BASE <= action < A.CALL_BASE:
            w.trump, w.trump_index = action - A.TRUMP_BASE, ev.index
            if r.stock_use == "to_bidder" and w.bidder >= 0 and r.stock_size:
                w.takes.append(_Take(ev.index, w.bidder, r.stock_size))
        elif action is not None and A.CALL_BASE <= action < A.DISCARD_BASE:
            w.called, w.partner, w.call_index = action - A.CALL_BASE, ev.partner, ev.index
        elif action == HIDDEN or (action is not None and A.DISCARD_BASE <= action <= A.DONE):
            w.trump_at_discards = w.trump
            if action != A.DONE and seat != req.seat:
                w.discards[seat] = w.discards.get(seat, 0) + 1
            if r.stock_use == "redraw" and seat != dealer:
                exchanged[seat] = exchanged.get(seat, 0) + (action != A.DONE)
                if action == A.DONE or exchanged[seat] == r.redraw_limit:
                    if exchanged[seat]:
                        w.takes.append(_Take(ev.index, seat, exchanged[seat]))
                    if seat == (dealer - 1) % n:  # the last non-dealer: the dealer takes the rest of the stock
                        rest = r.stock_size - sum(exchanged.values())
                        if rest > 0:
                            w.takes.append(_Take(ev.index, dealer, rest))
        elif action is not None and action >= A.PLAY_BASE:
            card = action - A.PLAY_BASE
            if w.trump < 0 and r.trump_by == "first_lead" and card < 52:
                w.trump = card // 13  # the first card led sets trump
            w.plays.append((ev.index, seat, card))
    _match_takes(req, events, w, complete)
    _skipped_call(req, events, w, complete)
    return w


def _skipped_call(req: SeatRequest, events: list[Event], w: _Walk, complete: bool) -> None:
    """Whether another seat named trump and went on without calling a partner (see :class:`_Walk`)."""
    if not req.rules.called_partner or w.trump_index < 0 or w.called >= 0 or w.bidder in (-1, req.seat):
        return
    later = any(ev.is_move and ev.index > w.trump_index for ev in events)
    if later or complete:
        w.call_skipped, w.call_skipped_at_end = True, not later


def _match_takes(req: SeatRequest, events: list[Event], w: _Walk, complete: bool) -> None:
    """Pair each scheduled take with the take events: mine are required (with my cards), others' optional counts."""
    me = req.seat
    sent = {seat: [ev for ev in events if not ev.is_move and ev.seat == seat] for seat in range(req.rules.num_players)}
    moves_of_mine = [ev.index for ev in events if ev.is_move and ev.seat == me]
    for seat, given in sent.items():
        due = [t for t in w.takes if t.seat == seat]
        for k, ev in enumerate(given):
            if k >= len(due) or ev.index < due[k].trigger:
                w.problems.append(history_error(ev.index, f"no cards reach seat {seat}'s hand here", "take"))
                return
            count = len(ev.take) if isinstance(ev.take, list) else ev.take
            if count != due[k].count:
                w.problems.append(
                    history_error(ev.index, f"seat {seat} takes {due[k].count} cards here, not {count}", "take")
                )
                return
            if seat == me:
                assert isinstance(ev.take, list)
                due[k].cards = ev.take
        if seat != me:
            continue
        for k, take in enumerate(due):
            at = given[k].index if k < len(given) else len(req.events)
            late = next((i for i in moves_of_mine if take.trigger < i < at), None)
            if late is not None or (k >= len(given) and complete):
                where = f"events[{late}]" if late is not None else "the history ends"
                w.problems.append(
                    RequestError(
                        f"{where}: seat {me} takes {take.count} cards after events[{take.trigger}]: send "
                        f'{{"seat": {me}, "take": [...their names]}} right after that move',
                        where if late is not None else "events",
                        "invalid_history",
                    )
                )
                return


# ---------------------------------------------------------------------- placing the hidden cards


@dataclass
class _Slots:
    """Where unseen cards may go: each other seat's hand now and its discards, my takes a prefix of the history
    does not name yet, and out of every hand (kitty, stock); how many each holds, and what each may not hold."""

    seats: list[int]
    hand_room: dict[int, int]
    discard_room: dict[int, int]
    played: dict[int, int]  # cards each seat played
    unseen: int  # cards whose place the seat does not know
    my_unreported: int = 0  # cards I took that a prefix of the history does not name yet
    forbid_hand: dict[int, int] = field(default_factory=dict)  # cards a seat cannot hold now (a suit it lacked...)
    forbid_discard: dict[int, int] = field(default_factory=dict)
    fixed_hand: dict[int, int] = field(default_factory=dict)  # cards known to be in a seat's hand (the called card)
    forbid_unreported: int = 0
    forbid_out: int = 0  # cards known to be in some hand or discards


def constraints(req: SeatRequest, w: _Walk) -> _Slots | RequestError | str:
    """The places hidden cards may go, from the walk; the reason when the counts alone rule it out."""
    r, me, n = req.rules, req.seat, req.rules.num_players
    seats = [s for s in range(n) if s != me]
    mine = mask_of(req.hand)
    for take in w.takes:
        if take.seat == me and take.cards is not None:
            mine |= mask_of(take.cards)
    played = dict.fromkeys(range(n), 0)
    for _, seat, card in w.plays:
        played[seat] |= 1 << card
    seen = mine
    for mask in played.values():
        seen |= mask
    taken = {s: sum(t.count for t in w.takes if t.seat == s) for s in seats}
    unknown_mine = sum(t.count for t in w.takes if t.seat == me and t.cards is None)  # not reported yet
    slots = _Slots(seats, {}, {}, played, mask_of(r.deck) & ~seen, unknown_mine)
    for s in seats:
        slots.discard_room[s] = w.discards.get(s, 0)
        if r.stock_use == "redraw" and s != req.dealer and slots.discard_room[s] > r.redraw_limit:
            return f"seat {s} exchanged {slots.discard_room[s]} cards; a non-dealer exchanges {r.redraw_limit} at most"
        slots.hand_room[s] = r.hand_size + taken[s] - slots.discard_room[s] - played[s].bit_count()
        if slots.hand_room[s] < 0:
            return f"seat {s} has played and discarded more cards than it held"
        slots.forbid_hand[s] = slots.forbid_discard[s] = slots.fixed_hand[s] = 0
    _called_card_constraints(req, w, slots)
    if w.call_skipped:
        elsewhere = _callable(r, w.trump) & ~slots.unseen & ~played[w.bidder]
        if elsewhere:
            return _skipped_call_problem(req, w, f"you have seen {format_cards(cards_of(elsewhere))} elsewhere")
        _skipped_call_constraints(req, w, slots)
    _void_constraints(req, w, slots.forbid_hand)
    return slots


def _called_card_constraints(req: SeatRequest, w: _Walk, slots: _Slots) -> None:
    """The called card stays in the partner's hand until played (its discards spare it, ``Game._legal_discards``).

    Called with nobody holding it, it was in no hand at the call (``Game._call``): it is out of every hand, or
    in the hand of a seat that has drawn since (a redraw), as one of the cards drawn (:func:`_dealt_or_drawn`).
    """
    if w.called < 0:
        return
    bit = 1 << w.called
    if w.partner >= 0:
        if w.partner != req.seat and not slots.played[w.partner] & bit:
            slots.fixed_hand[w.partner] |= bit & slots.unseen
            slots.forbid_discard[w.partner] |= bit
        return
    drawn_since = {t.seat for t in w.takes if t.trigger > w.call_index}
    for s in slots.seats:
        if s not in drawn_since:
            slots.forbid_hand[s] |= bit
            slots.forbid_discard[s] |= bit
    if req.seat not in drawn_since:
        slots.forbid_unreported |= bit


def _callable(rules: Rules, trump: int) -> int:
    """The cards a bidder may call once ``trump`` is named, but for those in its own hand (``Game._legal_calls``)."""
    t = trump_table(rules, trump)
    return t.trump_mask & ~(1 << t.three)


def _skipped_call_constraints(req: SeatRequest, w: _Walk, slots: _Slots) -> None:
    """A bidder that called nobody held every trump it could call: none of them is anywhere else."""
    cards = _callable(req.rules, w.trump)
    for s in slots.seats:
        if s != w.bidder:
            slots.forbid_hand[s] |= cards
            slots.forbid_discard[s] |= cards
    slots.forbid_unreported |= cards
    slots.forbid_out |= cards


def _skipped_call_problem(req: SeatRequest, w: _Walk, detail: str) -> RequestError | str:
    """Why the bidder cannot have gone on without calling a partner: it would have held every trump it could call."""
    cards = format_cards(cards_of(_callable(req.rules, w.trump)))
    held = f"a bidder calls nobody only holding every trump it could call ({cards}), and {detail}"
    if w.call_skipped_at_end:
        return RequestError(
            f"after these events it is seat {w.bidder}'s turn to call a partner, not seat {req.seat}'s: {held}",
            "seat",
            "not_your_turn",
        )
    return f"seat {w.bidder} named trump and called no partner: {held}"


def _void_constraints(req: SeatRequest, w: _Walk, forbid: dict[int, int]) -> None:
    """What each play shows about the hand behind it (the cascade of ``Game._legal_cards``, seen from outside)."""
    r, n = req.rules, req.rules.num_players
    if not w.plays or w.trump < 0:
        return  # no play yet, or plays before trump, which the engine refuses on replay
    t = trump_table(r, w.trump)
    deck = mask_of(r.deck)
    for k in range(0, len(w.plays), n):
        trick = w.plays[k : k + n]
        _, leader, lead = trick[0]
        if leader in forbid and k == 0:
            if r.first_lead == "trump" and r.trump_by == "bidder_names" and t.effective_suit[lead] != w.trump:
                forbid[leader] |= t.trump_mask  # the bidder leads trump to trick 1 if it has one
            if r.first_lead_no_joker and r.trump_by == "first_lead" and lead >= 52:
                forbid[leader] |= deck & ~JOKERS_MASK  # a joker may open only a hand of jokers
        led = t.effective_suit[lead]
        for _, seat, card in trick[1:]:
            if seat not in forbid:
                continue
            if k == 0 and seat == w.partner and w.called >= 0 and card != w.called:
                forbid[seat] |= 1 << w.called  # the partner must play the called card to the first trick
            if t.free >> card & 1:
                continue  # a joker that is not a trump may be played at any time
            suit = t.effective_suit[card]
            trumped_in = r.follow == "follow_or_trump" and led != w.trump and suit == w.trump
            if suit != led and not trumped_in:
                forbid[seat] |= t.follow_masks[led]  # on a trump lead, jokers too under joker_follows_trump


def discard_regimes(rules: Rules, trump: int, exchanging: bool) -> list[tuple[int, int]]:
    """Every way a seat's run of discards can have been legal under ``Game._legal_discards``, each as (cards it
    cannot have kept, cards it cannot have discarded): a split of its cards is legal if it fits one of them.

    Kept means held after its last discard, but for a partner's called card, which the engine sets apart.
    ``trump`` is the suit named when the discards were made (-1: none yet, so any card goes); ``exchanging``:
    a redraw's non-dealer, who gives up non-trumps only. Trumps discarded only when forced, or freely while
    holding more than ``play_hand_size`` trumps (``excess_trumps``), allow the same splits in another order
    (holding too many trumps, a seat keeps only trumps either way): only non-trumps discarded; or only trumps
    kept and no protected one discarded; or only protected trumps kept (the engine's last resort).
    """
    if trump < 0:
        return [(0, 0)]
    t = trump_table(rules, trump)
    if exchanging:
        return [(0, t.trump_mask)]
    if rules.discard_trump == "free":
        return [(0, 0)]
    deck = mask_of(rules.deck)
    return [(0, t.trump_mask), (deck & ~t.trump_mask, t.protected), (deck & ~t.protected, 0)]


def _regimes(req: SeatRequest, w: _Walk, slots: _Slots, seat: int) -> list[tuple[int, int]]:
    """The :func:`discard_regimes` of ``seat`` that the cards it has played since leave possible."""
    if not slots.discard_room[seat]:
        return [(0, 0)]
    exchanging = req.rules.stock_use == "redraw" and seat != req.dealer
    kept = slots.played[seat] & ~(1 << w.called if seat == w.partner and w.called >= 0 else 0)
    return [regime for regime in discard_regimes(req.rules, w.trump_at_discards, exchanging) if not kept & regime[0]]


def place_hidden(req: SeatRequest, w: _Walk, slots: _Slots) -> dict[str, Any] | RequestError | str:
    """Each other seat's hidden hand and discards and the cards nobody took, or why no placement fits."""
    seats = slots.seats
    for s in seats:
        if slots.fixed_hand[s] & slots.forbid_hand[s]:
            called = format_card(slots.fixed_hand[s].bit_length() - 1)
            return f"seat {s} holds the called {called}, yet played as if it did not (on the first trick, or a void)"
    choices = [_regimes(req, w, slots, s) for s in seats]
    for combo in itertools.product(*choices):
        forbid_hand = {s: slots.forbid_hand[s] | extra for s, (extra, _) in zip(seats, combo)}
        forbid_discard = {s: slots.forbid_discard[s] | extra for s, (_, extra) in zip(seats, combo)}
        result = _place_once(slots, forbid_hand, forbid_discard)
        if result is not None:
            return result
    return _why_not(req, w, slots)


def _place_once(slots: _Slots, forbid_hand: dict[int, int], forbid_discard: dict[int, int]) -> dict[str, Any] | None:
    """One placement of the unseen cards under these constraints (one way each seat's discards were legal)."""
    seats = slots.seats
    free = slots.unseen
    for s in seats:
        free &= ~slots.fixed_hand[s]
    # slots: 2k = seat k's hand, 2k+1 its discards, then my unreported takes, then out of every hand
    capacities = []
    for s in seats:
        capacities += [slots.hand_room[s] - slots.fixed_hand[s].bit_count(), slots.discard_room[s]]
    capacities.append(slots.my_unreported)
    out_slot = len(capacities)
    capacities.append(free.bit_count() - sum(capacities))
    if min(capacities) < 0:
        return None
    forbidden = [mask for s in seats for mask in (forbid_hand[s], forbid_discard[s])]
    forbidden += [slots.forbid_unreported, slots.forbid_out]
    placed = assign(group_cards(free, forbidden), capacities)
    if placed is None:
        return None
    hands = {s: slots.fixed_hand[s] | placed[2 * k] for k, s in enumerate(seats)}
    discards = {s: placed[2 * k + 1] for k, s in enumerate(seats)}
    return {"hands": hands, "discards": discards, "mine_unknown": cards_of(placed[out_slot - 1]),
            "out": cards_of(placed[out_slot])}  # fmt: skip


def _why_not(req: SeatRequest, w: _Walk, slots: _Slots) -> RequestError | str:
    """A reason a person can check: a seat whose hidden hand cannot be filled, a skipped call, else the general one."""
    for s in slots.seats:
        fits = slots.unseen & ~slots.forbid_hand[s]
        if fits.bit_count() < slots.hand_room[s]:
            shown = _void_suits(req, slots.forbid_hand[s])
            return (
                f"seat {s} still holds {slots.hand_room[s]} unseen cards but only {fits.bit_count()} unseen "
                f"cards fit what it showed{shown}"
            )
    if w.call_skipped:
        return _skipped_call_problem(req, w, "no arrangement of the unseen cards gives it those and fits the rest")
    return "no arrangement of the unseen cards fits every seat's plays, discards and the cards each took"


def _void_suits(req: SeatRequest, forbid: int) -> str:
    names = [SUITS[s] for s in range(4) if forbid & mask_of(range(13 * s, 13 * s + 13)) & mask_of(req.rules.deck)]
    names += ["jokers"] if forbid & JOKERS_MASK & mask_of(req.rules.deck) else []  # joker_follows_trump
    return f" (no {', '.join(names)})" if names else ""


def build_deal(req: SeatRequest, w: _Walk, placed: dict[str, Any]) -> tuple[Deal, dict[int, list[int]]]:
    """The full deal: hands as dealt, kitty and stock laid out so the engine's takes draw the right cards.

    Returns the deal and each other seat's hidden discards (cards), in the order to make them.
    """
    r, me, n = req.rules, req.seat, req.rules.num_players
    hidden_hands, discards = placed["hands"], placed["discards"]
    mine_unknown = list(placed["mine_unknown"])
    dealt_first, drawn_last = _dealt_or_drawn(req, w)
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[me] = list(req.hand)
    to_take: dict[int, list[int]] = {}
    for s in range(n):
        if s == me:
            continue
        held = cards_of(hidden_hands[s] | discards[s] | _played_by(w, s))
        count = sum(t.count for t in w.takes if t.seat == s)
        # a redraw's non-dealer exchanges cards it was dealt: what it takes is among what it kept
        keep_first = r.stock_use == "redraw" and s != req.dealer
        movable = [c for c in held if not (keep_first and discards[s] >> c & 1)]
        movable.sort(key=lambda c: (drawn_last >> c & 1) - (dealt_first >> c & 1))  # takes come off the end
        to_take[s] = movable[len(movable) - count :] if count else []
        hands[s] = [c for c in held if c not in set(to_take[s])]
    kitty: list[int] = []
    stock: list[int] = []
    for take in w.takes:
        if take.seat == me:
            cards = take.cards if take.cards is not None else [mine_unknown.pop() for _ in range(take.count)]
        else:
            cards, to_take[take.seat] = to_take[take.seat][: take.count], to_take[take.seat][take.count :]
        kitty += cards[: take.kitty]
        stock += cards[take.kitty :]
    out = list(placed["out"])
    missing_kitty = r.kitty_size - len(kitty)
    kitty += out[:missing_kitty]
    stock += out[missing_kitty:]
    order = {s: _discard_order(r, w, discards[s]) for s in range(n) if s != me}
    return Deal(hands, kitty, stock), order


def _dealt_or_drawn(req: SeatRequest, w: _Walk) -> tuple[int, int]:
    """Cards a seat held before the call (dealt, or taken first), and the card it can only have drawn after it.

    Before: a partner's called card, and the trumps a bidder that called nobody held. After: a called card
    nobody held at the call (drawn in a redraw). Other cards may be dealt or taken alike.
    """
    if w.called >= 0:
        bit = 1 << w.called
        return (bit, 0) if w.partner >= 0 else (0, bit)
    return (_callable(req.rules, w.trump), 0) if w.call_skipped else (0, 0)


def _played_by(w: _Walk, seat: int) -> int:
    return mask_of(card for _, s, card in w.plays if s == seat)


def _discard_order(r: Rules, w: _Walk, discards: int) -> list[int]:
    """Hidden discards in an order the rules allow: non-trumps, then unprotected trumps, then protected ones."""
    t = trump_table(r, w.trump_at_discards)
    return sorted(cards_of(discards), key=lambda c: (bool(t.trump_mask >> c & 1), bool(t.protected >> c & 1), c))


# ---------------------------------------------------------------------- replaying on the engine


def replay_events(
    req: SeatRequest, events: list[Event], deal: Deal, order: dict[int, list[int]], keep_views: bool
) -> tuple[Game, list[dict[str, Any]], RequestError | None]:
    """Replay the events on the engine from ``deal``; the game, my views at my decisions, and the first refusal."""
    game = Game(req.rules, seed=0, dealer=req.dealer, deals=[deal], scores=req.scores, hands_played=req.hands_played)
    pending = {s: list(cards) for s, cards in order.items()}

    def action_of(game: Game, ev: Event) -> int | RequestError:
        if ev.action != HIDDEN:
            return ev.action  # type: ignore[return-value]
        action = _hidden_discard(game, pending[ev.seat])
        if action is None:
            return history_error(
                ev.index, f"seat {ev.seat} has no card to discard here (the {_phase(game)} phase)", "move"
            )
        return action

    views, problem = replay_moves(
        game, events, req.seat, keep_views, player_view, action_of, _public_refusal, _partner_as_named
    )
    return game, views, problem


def _partner_as_named(game: Game, ev: Event) -> RequestError | None:
    """After a call: the partner the engine finds on the deal is the one the history names (every seat learns it)."""
    if ev.action is None or not A.CALL_BASE <= ev.action < A.DISCARD_BASE:
        return None
    if game.contract().partner == (None if ev.partner < 0 else ev.partner):
        return None
    return history_error(ev.index, "the partner it names does not fit the history", "partner")


def _hidden_discard(game: Game, pending: list[int]) -> int | None:
    if game.phase != DISCARD:
        return None
    legal = game.legal_mask()
    for card in pending:
        if legal >> (A.DISCARD_BASE + card) & 1:
            pending.remove(card)
            return A.DISCARD_BASE + card
    return None


def _phase(game: Game) -> str:
    return PHASE_NAMES[game.phase]


def _public_refusal(game: Game, ev: Event) -> str:
    """Why another seat's move was illegal, without the engine's list of legal moves (made of hidden cards)."""
    move = A.format_action(ev.action) if ev.action is not None and ev.action >= 0 else "discard"
    return f"{move!r} by seat {ev.seat} was not legal at that point (the {_phase(game)} phase)"


# ---------------------------------------------------------------------- the History of a Smear seat


class SmearHistory:
    """A Smear seat's history, read, placed and replayed (the :class:`~smear_rl.server.rebuild.History` protocol)."""

    def __init__(self, req: SeatRequest) -> None:
        self.req = req
        try:  # the engine's own checks of a match resumed part-way (hands_played within a fixed-length match)
            Game(req.rules, seed=0, dealer=req.dealer, scores=req.scores, hands_played=req.hands_played)
        except ValueError as err:
            raise RequestError(str(err), "hands_played") from None

    def read(self) -> tuple[list[Event], RequestError | None]:
        return _Reader(self.req).read()

    def attempt(self, events: list[Event], complete: bool) -> tuple[Deal, dict[int, list[int]]] | RequestError | str:
        w = walk(self.req, events, complete)
        if w.problems:
            return min(w.problems, key=index_of)
        slots = constraints(self.req, w)
        if not isinstance(slots, _Slots):
            return slots
        placed = place_hidden(self.req, w, slots)
        if not isinstance(placed, dict):
            return placed
        deal, order = build_deal(self.req, w, placed)
        size = self.req.rules.hand_size
        for seat, hand in enumerate(deal.hands):  # the engine refuses such a deal: say why instead (never a 500)
            if len(hand) != size:
                return f"seat {seat} would have been dealt {len(hand)} cards, not {size}"
        return deal, order

    def replay(self, events: list[Event], fitting: Any, keep_views: bool) -> tuple[Game, list, RequestError | None]:
        deal, order = fitting
        return replay_events(self.req, events, deal, order, keep_views)

    def finish(self, game: Game, views: list[dict[str, Any]]) -> Rebuilt:
        return finish_rebuild(game, self.req.seat, views, player_view)

    @staticmethod
    def describe(ev: Event) -> str:
        if ev.action is None:
            return f"seat {ev.seat}'s take"
        move = "discard" if ev.action == HIDDEN else A.format_action(ev.action)
        return f"{move!r} by seat {ev.seat}"
