"""What the worker processes run: every call a pool makes, each from a request's bytes to an answer's bytes.

The server process only routes: the JSON of a suggest, catalog or replay request is
parsed and checked here, in a worker, so a near-limit or malformed body costs its own
client's turn in the pool and nobody else's time on the event loop. Each entry point
returns ``(status, JSON bytes)`` for the client, never raises for anything a client
sent (an exception here is a bug, answered 500), and never returns a message that
names a server file (:func:`~smear_rl.server.errors.public_text`).

:func:`init_worker` sets up a process once (its bots, the shipped networks loaded);
pools of threads run the same functions after one call of it in the server process.
"""

from __future__ import annotations

import json
from typing import Any

from agents.base import Agent, Decision
from smear_rl.server.bots import Bots, parse_rules, rules_from_text
from smear_rl.server.errors import ApiError, RequestError
from smear_rl.server.limits import Settings
from smear_rl.server.models import suggest_body
from smear_rl.server.rebuild import parse_request
from smear_rl.server.rebuild_seat import rebuild
from smear_rl.server.replay import replay_at, replay_body
from smear_rl.server.suggest import answer, check_history_length

#: what :func:`triage` answers for a valid suggest call whose bot searches: run it in the search pool
SEARCH = "search"

_WORKER: tuple[Bots, Settings] | None = None  # the bots of this process, set once by init_worker


def init_worker(settings: Settings, exported: dict[str, str]) -> None:
    """Set up a worker: its bots, and the shipped agents' weights loaded before the first call needs them."""
    from agents.neural_agent import load_policy

    global _WORKER
    bots = Bots(settings, exported)
    _WORKER = (bots, settings)
    for path in bots.policy_paths():
        load_policy(path)


def _bots() -> tuple[Bots, Settings]:
    if _WORKER is None:
        raise RuntimeError("init_worker was not run in this process")
    return _WORKER


def _refused(err: ApiError) -> tuple[int, bytes]:
    return err.status, json.dumps(err.body()).encode()


def triage(raw: bytes) -> tuple[int, bytes] | str:
    """A suggest call answered here, or :data:`SEARCH` when its body is sound and its bot searches.

    Everything that can refuse a search call (the JSON, its shape, the rules, the bot and
    its options, the history) is checked here, in a few milliseconds, before it may queue
    for a search worker: only calls that will be answered wait there.
    """
    bots, settings = _bots()
    try:
        body = suggest_body(raw, settings.max_events)
        rules = parse_rules(body["rules"])
        info = bots.info(body["bot"], rules)
        if not info.search:
            return 200, json.dumps(answer(body, bots, settings)).encode()
        check_history_length(body, settings)
        rebuild(parse_request(body, rules))
        bots.make(info, rules, body["seed"])
        return SEARCH
    except ApiError as err:
        return _refused(err)


def answer_raw(raw: bytes) -> tuple[int, bytes]:
    """A suggest call from its JSON bytes to the answer's status and JSON bytes (a search worker's part)."""
    bots, settings = _bots()
    try:
        return 200, json.dumps(answer(suggest_body(raw, settings.max_events), bots, settings)).encode()
    except ApiError as err:
        return _refused(err)


def describe_bots(rules_text: str) -> tuple[int, bytes]:
    """``GET /v1/bots``: the bots usable on rules given as a preset name or as JSON."""
    bots, _ = _bots()
    try:
        spec: Any = rules_text
        if rules_text.lstrip().startswith("{"):
            try:
                spec = json.loads(rules_text)
            except (ValueError, RecursionError) as err:  # nesting deeper than Python's stack is refused too
                raise RequestError(f"rules is not valid JSON: {err}", "rules") from None
        return 200, json.dumps(bots.describe(parse_rules(spec))).encode()
    except ApiError as err:
        return _refused(err)


def replay_raw(raw: bytes) -> tuple[int, bytes]:
    """``POST /v1/replay`` from its JSON bytes."""
    _, settings = _bots()
    try:
        body = replay_body(raw, settings.max_replay_moves)
        return 200, json.dumps(replay_at(body.record, body.step, settings.max_replay_moves)).encode()
    except ApiError as err:
        return _refused(err)


def decide(agent: Agent, view: dict[str, Any]) -> tuple[Decision, Agent]:
    """A table bot's decision; the bot comes back too, with its RNG and plans moved on."""
    return agent.decide(view), agent


def decide_shared(spec: str, rules_text: str, view: dict[str, Any]) -> Decision:
    """A table bot's decision when the bot is pure (a function of the view): this process's own copy decides."""
    bots, _ = _bots()
    rules = rules_from_text(rules_text)
    return bots.make(bots.info(spec, rules), rules, 0).decide(view)


def ready() -> bool:
    return True
