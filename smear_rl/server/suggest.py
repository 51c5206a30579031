"""Stateless suggest: one seat's history in, that seat's move out, with the bot's preference and the time taken.

:func:`answer` is the whole call, synchronous: it runs in worker processes (search in
its own), never on the event loop (:mod:`smear_rl.server.work`, :mod:`smear_rl.server.pools`).
"""

from __future__ import annotations

import time
from typing import Any

from agents.base import Decision
from smear_rl.server.bots import Bots, decide_with_memory, parse_rules
from smear_rl.server.errors import RequestError
from smear_rl.server.history import format_move
from smear_rl.server.limits import Settings
from smear_rl.server.rebuild import parse_request
from smear_rl.server.rebuild_seat import rebuild


def answer(body: dict[str, Any], bots: Bots, settings: Settings) -> dict[str, Any]:
    """The move ``body["bot"]`` makes for ``body["seat"]`` after ``body["events"]``; :class:`RequestError` if not."""
    started = time.perf_counter()
    rules = parse_rules(body["rules"])
    info = bots.info(body["bot"], rules)
    check_history_length(body, settings)
    rebuilt = rebuild(parse_request(body, rules), keep_views=not info.pure)
    seed = body.get("seed", 0)
    thinking = time.perf_counter()
    try:
        decision = decide_with_memory(bots, info, rules, body, rebuilt.view, rebuilt.decision_views)
    except ValueError as err:  # a bot refusing the position (e.g. a neural agent shown other rules)
        if isinstance(err, RequestError):
            raise
        raise RequestError(f"bot {info.spec!r} cannot play here: {err}", "bot") from None
    done = time.perf_counter()
    out = {
        "seat": body["seat"],
        "bot": info.spec,
        "seed": seed,
        "move": format_move(rebuilt.game, decision.action),
        "action": decision.action,
        "legal_moves": rebuilt.view["legal_moves"],
        "legal_actions": rebuilt.view["legal_actions"],
        "preference": preference(rebuilt.game, decision),
        "ms": round((done - started) * 1e3, 3),
        "bot_ms": round((done - thinking) * 1e3, 3),
    }
    if body.get("include_view"):
        out["view"] = rebuilt.view
    return out


def preference(game: Any, decision: Decision) -> dict[str, Any] | None:
    """The bot's score of each legal move, as the protocol shows it (None when the bot has none)."""
    if decision.scores is None:
        return None
    moves = [{"move": format_move(game, a), "action": a, "score": float(v)} for a, v in sorted(decision.scores.items())]
    return {"kind": decision.kind, "moves": moves}


def check_history_length(body: dict[str, Any], settings: Settings) -> None:
    """422 when a history holds more events than this server takes."""
    if len(body["events"]) > settings.max_events:
        raise RequestError(
            f"events: {len(body['events'])} events exceed this server's limit of {settings.max_events}",
            "events",
            "too_many_events",
        )
