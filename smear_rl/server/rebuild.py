"""Rebuild exactly what one seat knows from the events it saw, or refuse the history naming its first problem.

A stateless client sends one seat's dealt hand and the hand's events (see
:mod:`smear_rl.server.history`); the server needs the engine state that seat is in,
to ask a bot for its move. Other seats' cards are hidden, so the server finds a full
deal consistent with everything the seat saw and replays the events on the engine.
Each game supplies what "consistent" means (:mod:`~smear_rl.server.rebuild_smear`,
:mod:`~smear_rl.server.rebuild_schneider`): the constraints the engine's legal-move
functions put on hidden cards, seen from outside. Then:

* the hidden cards are placed by an exact solver (:mod:`smear_rl.server.assign`): if
  any deal fits, one is found, and the engine replays the events on it, accepting
  every one (its other checks, such as turn order, do not depend on hidden cards);
* if none fits, or the engine refuses an event, the history cannot have happened:
  422, naming the first event at which it stops fitting. The longest prefix that
  fits is found by bisection, and the engine replays the next event on that
  prefix's deal, to tell a public rule it breaks (turn order, a card already played)
  from a constraint on hidden cards that rules it out.

The result is the engine's own player view of the seat, equal to what the env shows
that seat (tested over many real games of every preset).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from smear_env.cards import NUM_CARDS, format_card, parse_card
from smear_env.game import check_scores
from smear_env.schneider.game import SchneiderRules
from smear_rl.server.errors import RequestError, history_error


@dataclass
class Event:
    """One parsed event: a move (an action id, or ``HIDDEN`` for another seat's discard) or a take."""

    index: int
    seat: int
    action: int | None = None
    take: list[int] | int | None = None  # my cards, or another seat's count
    partner: int = -1  # for a call: the seat holding the called card (-1: nobody)

    @property
    def is_move(self) -> bool:
        return self.action is not None


HIDDEN = -1  # action of another seat's discard, its card withheld


@dataclass
class SeatRequest:
    """What a client says one seat knows: rules, seat, the deal's dealer, the match so far, its dealt hand, events."""

    rules: Any  # smear_env Rules, or SchneiderRules
    seat: int
    dealer: int
    scores: list[int]
    hands_played: int
    hand: list[int]
    events: list[Any]


@dataclass
class Rebuilt:
    """The engine state the seat is in, its view, and its views at its earlier decisions of the hand (if asked)."""

    game: Any
    view: dict[str, Any]
    decision_views: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (event index, my view then)


Fitting = tuple[Any, ...]  # a deal and whatever the game's replay needs with it


class History(Protocol):
    """One game's reading of a seat's history (Smear, Bohemian Schneider)."""

    req: SeatRequest

    def read(self) -> tuple[list[Event], RequestError | None]:
        """The events up to the first problem visible without a deal, and that problem."""

    def attempt(self, events: list[Event], complete: bool) -> Fitting | RequestError | str:
        """A deal fitting ``events``; a problem at a known event; or why no deal fits.

        ``complete``: the events are the whole history (a take of mine it does not report
        is missing); in a prefix such cards are simply not known yet.
        """

    def replay(self, events: list[Event], fitting: Fitting, keep_views: bool) -> tuple[Any, list, RequestError | None]:
        """The engine replaying ``events`` on the deal: the game, my views at my decisions, the first refusal."""

    def finish(self, game: Any, views: list[dict[str, Any]]) -> Rebuilt:
        """The rebuilt state, once the history fits: refused if the hand is over or the seat is not on turn."""

    def describe(self, event: Event) -> str:
        """An event in words, for messages."""


# ---------------------------------------------------------------------- reading the request


def game_facts(rules: Any) -> tuple[int, int, int, frozenset[int]]:
    """Players, scoring units, cards dealt to each and the deck, for Smear rules or Bohemian Schneider's."""
    if isinstance(rules, SchneiderRules):
        from smear_env.schneider import game as schneider

        return schneider.NUM_PLAYERS, schneider.NUM_PLAYERS, schneider.HAND_SIZE, frozenset(schneider.DECK)
    return rules.num_players, rules.num_teams, rules.hand_size, frozenset(rules.deck)


_CARD_IDS = {format_card(c): c for c in range(NUM_CARDS)}  # the canonical names, read without parsing


def parse_card_in(deck: frozenset[int], text: Any, where: str) -> int:
    """A card of this deck from its name; 422 at ``where`` otherwise."""
    card = _CARD_IDS.get(text) if isinstance(text, str) else None
    if card is None:
        if not isinstance(text, str):
            raise RequestError(f"{where}: {text!r} is not a card name (e.g. 'TH', 'AS', 'JK')", where)
        try:
            card = parse_card(text)
        except ValueError as err:
            raise RequestError(f"{where}: {err}", where) from None
    if card not in deck:
        raise RequestError(f"{where}: {format_card(card)} is not in this deck ({len(deck)} cards)", where)
    return card


def parse_request(data: dict[str, Any], rules: Any) -> SeatRequest:
    """The seat-level fields checked against the rules (the events are read by the game's :class:`History`)."""
    n, units, hand_size, deck = game_facts(rules)
    seat, dealer = data["seat"], data["dealer"]
    for name, value in (("seat", seat), ("dealer", dealer)):
        if not 0 <= value < n:
            raise RequestError(f"{name} {value} is not a seat: expected 0..{n - 1} ({n} players)", name)
    scores = _scores(rules, data.get("scores"), units)
    hands_played = data.get("hands_played", 0)
    if hands_played < 0:
        raise RequestError(f"hands_played {hands_played} cannot be negative", "hands_played")
    hand = [parse_card_in(deck, c, f"hand[{i}]") for i, c in enumerate(data["hand"])]
    if len(set(hand)) != len(hand):
        twice = next(c for c in hand if hand.count(c) > 1)
        raise RequestError(f"hand lists {format_card(twice)} twice", "hand")
    if len(hand) != hand_size:
        raise RequestError(
            f"hand has {len(hand)} cards: expected the {hand_size} dealt to seat {seat} this hand", "hand"
        )
    return SeatRequest(rules, seat, dealer, scores, hands_played, hand, list(data["events"]))


def _scores(rules: Any, scores: list[int] | None, units: int) -> list[int]:
    """Match scores before this hand (default all 0): one per team of ``rules.team_seats``, the engine's check
    (:func:`smear_env.game.check_scores`); Bohemian Schneider: one per seat."""
    if scores is None:
        return [0] * units
    if isinstance(rules, SchneiderRules):
        if len(scores) != units:
            raise RequestError(f"scores has {len(scores)} entries: expected one per player ({units})", "scores")
        return list(scores)
    try:
        return check_scores(rules, scores)
    except ValueError as err:
        raise RequestError(str(err), "scores") from None


def read_events(req: SeatRequest, read_one: Callable[[int, Any], Event]) -> tuple[list[Event], RequestError | None]:
    """The events read one by one up to the first problem visible without a deal, and that problem (or None)."""
    events = []
    for i, raw in enumerate(req.events):
        try:
            events.append(read_one(i, raw))
        except RequestError as err:
            return events, err
    return events, None


class Ledger:
    """Where the seat knows each card to be, so that a card seen in two places is refused with both named."""

    def __init__(self, me: int, hand: list[int]) -> None:
        self.me = me
        self._where: dict[int, tuple[str, int, int] | None] = dict.fromkeys(hand)  # None: dealt to me

    def place(self, i: int, card: int, verb: str, seat: int) -> None:
        """``card`` was ``verb`` (taken, played, ...) by ``seat`` at ``events[i]``: 422 if already placed."""
        if card in self._where:
            raise history_error(i, f"{format_card(card)} appears twice: it {self._describe(card)}")
        self._where[card] = (verb, seat, i)

    def move(self, i: int, card: int, verb: str) -> None:
        """One of my own cards leaves my hand (I play it)."""
        self._where[card] = (verb, self.me, i)

    def _describe(self, card: int) -> str:
        where = self._where[card]
        if where is None:
            return "is in your hand"
        verb, seat, i = where
        return f"was {verb} by {'you' if seat == self.me else f'seat {seat}'} at events[{i}]"


def event_shape(i: int, raw: Any, n: int, keys: set[str]) -> int:
    """The seat of a raw event, after checking its shape: an object with a seat and exactly one of move or take."""
    if not isinstance(raw, dict):
        raise history_error(i, f"{raw!r} is not an event: expected an object with seat and move (or take)")
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise history_error(i, f"seat {seat!r} is not a seat: expected 0..{n - 1}", "seat")
    unknown = set(raw) - keys
    if unknown:
        raise history_error(i, f"unknown key {sorted(unknown)[0]!r}: an event has {', '.join(sorted(keys))}")
    if ("move" in raw) == ("take" in raw):
        raise history_error(i, "give either move (a move in notation) or take (cards taken), not both or neither")
    return seat


def hidden_take(i: int, seat: int, me: int, take: Any) -> Event:
    """Another seat's take as the requesting seat may know it: a count."""
    if isinstance(take, int) and not isinstance(take, bool) and take >= 0:
        return Event(i, seat, take=take)
    raise history_error(
        i,
        f"seat {seat}'s taken cards are hidden from seat {me}: give their number, "
        f'{{"seat": {seat}, "take": N}}, or leave the take out',
        "take",
    )


# ---------------------------------------------------------------------- replaying


def replay_moves(
    game: Any,
    events: list[Event],
    me: int,
    keep_views: bool,
    view_of: Callable[[Any, int], dict[str, Any]],
    action_of: Callable[[Any, Event], int | RequestError],
    refusal_of: Callable[[Any, Event], str],
    check: Callable[[Any, Event], RequestError | None] | None = None,
) -> tuple[list[dict[str, Any]], RequestError | None]:
    """Apply the move events to ``game`` in order; my views at my decisions (``keep_views``: with the index of the
    event I made there) and the first refusal.

    ``action_of`` turns an event into the action to apply (another seat's hidden discard
    needs a card from the deal); ``refusal_of`` explains another seat's illegal move without
    the engine's list of legal moves, which would show the hidden cards of the deal; ``check``
    compares what an event says beyond its move (a call's partner) with the engine after it.
    """
    views: list[dict[str, Any]] = []
    for ev in events:
        if not ev.is_move:
            continue
        if len(game.deals) > 1 or game.is_over:
            return views, history_error(
                ev.index,
                "the hand was over (scored or thrown in) before this event: send only the current hand's events",
            )
        if game.current_player != ev.seat:
            return views, history_error(
                ev.index, f"it is seat {game.current_player}'s turn, not seat {ev.seat}'s", "seat"
            )
        action = action_of(game, ev)
        if isinstance(action, RequestError):
            return views, action
        if keep_views and ev.seat == me:
            views.append((ev.index, view_of(game, me)))
        try:
            game.apply(action)
        except ValueError as err:
            return views, history_error(ev.index, str(err) if ev.seat == me else refusal_of(game, ev), "move")
        problem = check(game, ev) if check is not None else None
        if problem is not None:
            return views, problem
    return views, None


def finish_rebuild(
    game: Any, me: int, views: list[dict[str, Any]], view_of: Callable[[Any, int], dict[str, Any]]
) -> Rebuilt:
    """The rebuilt state once the history fits; refused when the hand is over or ``me`` is not on turn."""
    if len(game.deals) > 1 or game.is_over:
        raise RequestError(
            "after these events the hand is over (scored or thrown in): send the next hand's events "
            "with its dealt cards",
            "events",
            "invalid_history",
        )
    if game.current_player != me:
        raise RequestError(
            f"after these events it is seat {game.current_player}'s turn, not seat {me}'s", "seat", "not_your_turn"
        )
    return Rebuilt(game, view_of(game, me), views)


# ---------------------------------------------------------------------- errors


def index_of(err: RequestError) -> int:
    """The event an error is about (past the end for the request as a whole)."""
    name = err.field or ""
    return int(name[7 : name.index("]")]) if name.startswith("events[") else 1 << 30
