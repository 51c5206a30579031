"""Stateless suggest: one seat's history in, that seat's move out, with the bot's preference and the time taken.

:func:`answer` is the whole call, synchronous: it runs in a worker thread for cheap
bots and in a worker process for search (:class:`Pools`), never on the event loop.
The process side is :func:`answer_in_worker` and :func:`decide_in_worker`, with the
settings installed once per process by :func:`init_worker`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from agents.base import Agent, Decision
from smear_rl.server.bots import BotInfo, Bots, decide_with_memory, parse_rules
from smear_rl.server.errors import ApiError, RequestError
from smear_rl.server.history import format_move
from smear_rl.server.limits import Settings
from smear_rl.server.rebuild import parse_request, rebuild


def answer(body: dict[str, Any], bots: Bots, settings: Settings) -> dict[str, Any]:
    """The move ``body["bot"]`` makes for ``body["seat"]`` after ``body["events"]``; :class:`RequestError` if not."""
    started = time.perf_counter()
    rules = parse_rules(body["rules"])
    info = bots.info(body["bot"], rules)
    if len(body["events"]) > settings.max_events:
        raise RequestError(
            f"events: {len(body['events'])} events exceed this server's limit of {settings.max_events}",
            "events",
            "too_many_events",
        )
    rebuilt = rebuild(parse_request(body, rules), keep_views=not info.pure)
    seed = body.get("seed", 0)
    agent = bots.make(info, rules, seed)
    thinking = time.perf_counter()
    decision = _decide(agent, info, rebuilt.view, rebuilt.decision_views)
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


def _decide(agent: Agent, info: BotInfo, view: dict[str, Any], earlier: list[dict[str, Any]]) -> Decision:
    try:
        return decide_with_memory(agent, info, view, earlier)
    except ValueError as err:  # a bot refusing the position (e.g. a neural agent shown other rules)
        raise RequestError(f"bot {info.spec!r} cannot play here: {err}", "bot") from None


def preference(game: Any, decision: Decision) -> dict[str, Any] | None:
    """The bot's score of each legal move, as the protocol shows it (None when the bot has none)."""
    if decision.scores is None:
        return None
    moves = [{"move": format_move(game, a), "action": a, "score": float(v)} for a, v in sorted(decision.scores.items())]
    return {"kind": decision.kind, "moves": moves}


# ---------------------------------------------------------------------- worker processes (search)

_WORKER: tuple[Bots, Settings] | None = None  # the bots of this worker process, set once by init_worker


def init_worker(settings: Settings, exported: dict[str, str]) -> None:
    global _WORKER
    _WORKER = (Bots(settings, exported), settings)


def answer_in_worker(body: dict[str, Any]) -> tuple[Any, ...]:
    """:func:`answer` in a worker process; errors come back as data (exceptions with fields do not pickle back)."""
    assert _WORKER is not None, "init_worker was not run in this process"
    try:
        return ("ok", answer(body, *_WORKER))
    except ApiError as err:
        return ("error", err.status, err.code, err.message, err.field)


def decide_in_worker(agent: Agent, view: dict[str, Any]) -> tuple[Decision, Agent]:
    """A table bot's decision in a worker process; the bot comes back too, with its RNG and plans moved on."""
    return agent.decide(view), agent


class Pools:
    """Where bots run: a thread pool for the cheap ones, a bounded pool of processes for search.

    Search calls beyond ``search_workers + search_queue`` waiting at once are refused
    (503) instead of piling up; cheap bots never wait behind search.
    """

    def __init__(self, settings: Settings, bots: Bots) -> None:
        self.settings, self.bots = settings, bots
        self.cheap = ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="bot")
        self.search: Executor
        if settings.search_workers:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self.search = ProcessPoolExecutor(
                settings.search_workers, mp_context=context, initializer=init_worker, initargs=(settings, bots.exported)
            )
        else:
            init_worker(settings, bots.exported)
            self.search = ThreadPoolExecutor(1, thread_name_prefix="search")
        self.search_waiting = 0

    async def suggest(self, body: dict[str, Any], info: BotInfo) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        if not info.search:
            return await loop.run_in_executor(self.cheap, answer, body, self.bots, self.settings)
        result = await self._on_search(loop, answer_in_worker, body)
        if result[0] == "error":
            raise ApiError(*result[1:])
        return result[1]

    async def decide(self, agent: Agent, view: dict[str, Any], search: bool) -> tuple[Decision, Agent]:
        """A table bot's decision (and the bot as it is after it), off the event loop."""
        loop = asyncio.get_running_loop()
        if not search:
            return await loop.run_in_executor(self.cheap, decide_in_worker, agent, view)
        return await self._on_search(loop, decide_in_worker, agent, view)

    async def _on_search(self, loop: asyncio.AbstractEventLoop, fn: Any, *args: Any) -> Any:
        s = self.settings
        if self.search_waiting >= max(s.search_workers, 1) + s.search_queue:
            message = (
                f"{self.search_waiting} search calls are already running or waiting (this server's limit): "
                "retry shortly, or ask a cheaper bot"
            )
            raise ApiError(503, "search_busy", message)
        self.search_waiting += 1
        try:
            return await loop.run_in_executor(self.search, fn, *args)
        finally:
            self.search_waiting -= 1

    def warm_up(self) -> None:
        """Start the search processes now rather than on the first search call."""
        if isinstance(self.search, ProcessPoolExecutor):
            list(self.search.map(_ping, range(self.settings.search_workers)))

    def close(self) -> None:
        self.cheap.shutdown(wait=False, cancel_futures=True)
        self.search.shutdown(wait=False, cancel_futures=True)


def _ping(_: int) -> bool:
    return True
