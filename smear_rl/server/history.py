"""A match as a list of events, and what one seat may see of it: the protocol's ``events``.

The engine records only decisions (action ids). Players see more and less than
that: a seat sees the cards it takes from the kitty or stock (the engine's forced
steps), and sees other seats' discards and takes only as moves without cards.
:class:`Tracker` drives a game and writes each step as full events; :func:`seat_view_of`
hides what a seat may not know. The table API's public move log and the ``events``
a client sends to ``POST /v1/suggest`` are both this projection, so a client that
keeps a table's log (or a Python user who keeps a game) has the body ready:
:func:`suggest_body`.

Event shapes (seats absolute):

* ``{"seat": s, "move": "bid 4"}``: a move in the engine's notation;
* ``{"seat": s, "move": "call AH", "partner": p}``: a partner call, with the seat holding
  the called card (``null`` when nobody holds it), which every seat learns at once;
* ``{"seat": s, "move": "discard"}``: another seat's discard, its card hidden;
* ``{"seat": s, "take": ["JH", "4S"]}``: my own cards taken from the kitty, stock or pile;
  ``{"seat": s, "take": 2}``: another seat's, as a count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from smear_env import actions as A
from smear_env.cards import cards_of, format_card, mask_of
from smear_env.schneider import game as schneider

SCHNEIDER = schneider.GAME_NAME


def is_schneider(game: Any) -> bool:
    return isinstance(game, schneider.Game)


def format_move(game: Any, action: int) -> str:
    """The notation of ``action`` in ``game``'s own move language."""
    return schneider.format_action(action) if is_schneider(game) else A.format_action(action)


def parse_move(rules: Any, text: str) -> int:
    """The action id of a move in the notation of ``rules``' game (Bohemian Schneider's, or Smear under those rules)."""
    return schneider.parse_action(text) if rules.name == SCHNEIDER else A.parse_action(text, rules)


def match_scores(game: Any) -> list[int]:
    """The match score of each team (Bohemian Schneider: of each seat)."""
    return list(game.scores) if is_schneider(game) else list(game.match_scores())


def _taken(game: Any) -> list[int]:
    """Each seat's cards taken so far this hand, as bit masks: Smear's from the kitty or stock
    (``Game.picked_up``); Bohemian Schneider's drawn cards reach the hand, which is read instead."""
    if is_schneider(game):
        return list(game.hands)
    return [mask_of(game.picked_up(seat)) for seat in range(game.num_players)]


@dataclass
class Tracker:
    """Drives a game (Smear or Bohemian Schneider) and keeps every step as full events, hand by hand.

    ``hands[k]`` holds the events of the k-th deal (redeals count: a thrown-in hand
    keeps its own list), each event with every card shown; project them per seat with
    :func:`seat_view_of`.
    """

    game: Any
    hands: list[list[dict[str, Any]]] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)  # dealer of each deal
    dealt: list[list[list[str]]] = field(default_factory=list)  # each deal's hands as dealt, per seat

    def __post_init__(self) -> None:
        self._new_deals()

    def _new_deals(self) -> None:
        """Open an event list for each deal the game made since the last look (a redeal, the next hand)."""
        while len(self.hands) < len(self.game.deals):
            deal = self.game.deals[len(self.hands)]
            self.hands.append([])
            self.dealers.append(self.game.dealer)
            self.dealt.append([[format_card(c) for c in sorted(hand)] for hand in deal.hands])

    def apply(self, action: int) -> list[dict[str, Any]]:
        """Apply ``action`` for the seat on turn (``ValueError`` if illegal, nothing changed); the new events."""
        game = self.game
        seat, before, deals = game.current_player, _taken(game), len(game.deals)
        game.apply(action)
        events: list[dict[str, Any]] = [{"seat": seat, "move": format_move(game, action)}]
        if not is_schneider(game) and A.CALL_BASE <= action < A.DISCARD_BASE:
            events[0]["partner"] = game.contract().partner
        if len(game.deals) == deals:  # takes happen inside a hand, never at its end
            events += self._takes(seat, before)
        self.hands[deals - 1].extend(events)
        self._new_deals()
        return events

    def _takes(self, mover: int, before: list[int]) -> list[dict[str, Any]]:
        """Cards that reached each seat's hand in the last step, in the order the engine dealt them out."""
        game = self.game
        n = game.num_players
        if is_schneider(game):
            winner = game.tricks[-1][2] if game.tricks else mover
            order = [winner, 1 - winner]  # after a trick the winner draws first
        else:
            order = [(game.dealer + k) % n for k in range(1, n + 1)]  # redraw: non-dealers in turn, the dealer last
        events = []
        after = _taken(game)
        for seat in order:
            new = after[seat] & ~before[seat]
            if new:
                events.append({"seat": seat, "take": [format_card(c) for c in cards_of(new)]})
        return events

    @property
    def current_events(self) -> list[dict[str, Any]]:
        """Full events of the deal in progress."""
        return self.hands[-1]


def seat_view_of(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` sees it (``None``: a spectator): other seats' discarded and taken cards withheld."""
    if event["seat"] == seat:
        return event
    if "take" in event:
        return {"seat": event["seat"], "take": len(event["take"])}
    if event["move"].startswith("discard") and " " in event["move"]:
        return {"seat": event["seat"], "move": "discard"}
    return event


def seat_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """A list of full events as ``seat`` sees them."""
    return [seat_view_of(event, seat) for event in events]


def suggest_body(tracker: Tracker, seat: int, bot: str, rules: Any, seed: int = 0) -> dict[str, Any]:
    """The ``POST /v1/suggest`` body asking ``bot`` for ``seat``'s move in the tracked game's current hand."""
    game = tracker.game
    body: dict[str, Any] = {
        "rules": rules,
        "bot": bot,
        "seed": seed,
        "seat": seat,
        "dealer": tracker.dealers[-1],
        "scores": match_scores(game),
        "hands_played": game.rounds_played if is_schneider(game) else game.hands_played,
        "hand": tracker.dealt[-1][seat],
        "events": seat_events(tracker.current_events, seat),
    }
    return body
