"""``POST /v1/replay``: a game record replayed to any move, every hand face up, for the web table's replay viewer.

The page holds a record (a JSON file, or a finished table's ``GET /v1/tables/{id}/record``)
and asks for the table after its first ``step`` moves; it never runs rules itself. The
answer is built by the same code as a live table's state (:class:`~smear_rl.server.tables.Table`
driving a :class:`~smear_rl.server.history.Tracker`), so the replay viewer draws it with
the table's own renderer: the last trick, the hand results and the scores come out
exactly as they did at the table. Both engines' records are accepted (Smear of any
preset or house rules, Bohemian Schneider).

A replay is a pure function of its request: the record is replayed from its first move
on every call, and all of it every time, so a broken record is refused (422, naming the
move) whichever step is asked. It runs in a worker process, like a suggest call, and a
record of more than ``--max-replay-moves`` moves is refused before any is replayed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

import smear_env
from smear_env.cards import format_card
from smear_rl.server.errors import RequestError
from smear_rl.server.history import format_move, is_schneider, parse_move
from smear_rl.server.models import check_elements, refusal
from smear_rl.server.tables import Seat, Table, Tracker

#: ``seats[k].kind`` in a replay: a record does not say who played
PLAYER = "player"


class ReplayBody(BaseModel):
    """A record and how many of its moves to replay."""

    model_config = ConfigDict(extra="forbid")
    record: dict[str, Any] = Field(description="a game record, as GET /v1/tables/{id}/record or Game.record() give")
    step: StrictInt = Field(0, ge=0, description="moves to replay: 0 is the first deal, len(record.moves) the end")


def replay_body(raw: bytes, max_moves: int) -> ReplayBody:
    """A replay request from its JSON bytes, checked; :class:`RequestError` naming the first problem. A record holds
    a little more than one element per move (its deals, its options): two per move is room enough."""
    check_elements(raw, 2 * max_moves + 1024, "record.moves")
    try:
        return ReplayBody.model_validate_json(raw)
    except ValidationError as err:
        raise refusal(err.errors()) from None


def replay_at(record: dict[str, Any], step: int, max_moves: int | None = None) -> dict[str, Any]:
    """The table after the first ``step`` moves of ``record``, with every seat's view; ``RequestError`` (422) naming
    what is wrong with a record that cannot be replayed, one of more than ``max_moves`` moves, or a step outside it."""
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RequestError("record.moves: expected a list of moves in notation", "record.moves", "invalid_history")
    if max_moves is not None and len(moves) > max_moves:
        message = f"record.moves: {len(moves)} moves exceed this server's limit of {max_moves} for a replay"
        raise RequestError(message, "record.moves", "too_many_events")
    table = _empty_table(record)
    if not 0 <= step <= len(moves):
        raise RequestError(f"step {step}: expected 0..{len(moves)} (the record holds {len(moves)} moves)", "step")
    game, listed, snapshot = table.game, [], None
    for index, text in enumerate(moves):
        if index == step:
            snapshot = _snapshot(table)
        seat, hand = game.current_player, len(table.tracker.hands) - 1
        try:
            table.apply(parse_move(table.rules, text))
        except ValueError as err:
            message = f"record move {index + 1} of {len(moves)} ({text!r}): {err}"
            raise RequestError(message, f"record.moves[{index}]", "invalid_history") from None
        listed.append({"seat": seat, "move": format_move(game, game.history[-1]), "hand": hand})
    return {"step": step, "steps": len(moves), "moves": listed, **(snapshot or _snapshot(table))}


def _empty_table(record: dict[str, Any]) -> Table:
    """A table holding the record's game before its first move (the record's fields checked by the engine)."""
    try:
        game = smear_env.replay({**record, "moves": []})
    except ValueError as err:
        raise RequestError(f"record: {err}", "record", "invalid_history") from None
    seats = [Seat(seat, PLAYER) for seat in range(game.num_players)]
    seed = record.get("seed")
    return Table("replay", game.rules, seed if isinstance(seed, int) else 0, 0, seats, Tracker(game), "")


def _snapshot(table: Table) -> dict[str, Any]:
    """Everything at this point: a spectator's state with the full log, each seat's view, the undealt cards."""
    game = table.game
    full_log = [{"hand": h, **event} for h, events in enumerate(table.tracker.hands) for event in events]
    state = table.state(None) | {"log": full_log, "log_size": len(full_log)}
    state["hand_results"] = list(state["hand_results"])  # the table's own list, which the moves after this extend
    seats = []
    for seat in range(game.num_players):
        seen = table.state(seat, log_from=len(full_log))
        seats.append({"seat": seat, "view": seen["view"], "hand_groups": seen["hand_groups"]})
    if is_schneider(game):
        undealt = {"pile": _names(game.pile)}
    else:
        undealt = {"kitty": _names(game.kitty), "stock": _names(game.stock)}
    return {"state": state, "seats": seats, "undealt": undealt}


def _names(cards: list[int]) -> list[str]:
    return [format_card(card) for card in cards]
