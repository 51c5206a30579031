"""Stateless suggest: one seat's history in, that seat's move out, with the bot's preference and the time taken.

:func:`answer` is the whole call, synchronous: it runs in worker processes (search in
its own), never on the event loop (:class:`Pools`). The worker side is
:func:`answer_raw` and :func:`decide_in_worker`, with the settings installed once
per process by :func:`init_worker`.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from agents.base import Agent, Decision
from smear_rl.server.bots import Bots, decide_with_memory, parse_rules
from smear_rl.server.errors import ApiError, RequestError
from smear_rl.server.history import format_move
from smear_rl.server.limits import Settings
from smear_rl.server.models import suggest_body
from smear_rl.server.rebuild import parse_request
from smear_rl.server.rebuild_seat import rebuild
from smear_rl.server.workers import WorkerPool


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


# ---------------------------------------------------------------------- worker processes (search)

_WORKER: tuple[Bots, Settings] | None = None  # the bots of this worker process, set once by init_worker


def init_worker(settings: Settings, exported: dict[str, str]) -> None:
    """Set up a worker: its bots, and the shipped agents' weights loaded before the first call needs them."""
    from agents.neural_agent import load_policy
    from agents.shipped import shipped_policy_path, shipped_presets

    global _WORKER
    _WORKER = (Bots(settings, exported), settings)
    for preset in shipped_presets():
        load_policy(shipped_policy_path(preset))


def answer_raw(raw: bytes) -> tuple[int, bytes]:
    """A suggest call from its JSON bytes to the answer's status and JSON bytes, in a worker (or thread).

    The body is checked here rather than in the server process, which only routes it:
    the work of a call, parsing included, stays off the process that serves HTTP.
    """
    if _WORKER is None:
        raise RuntimeError("init_worker was not run in this process")
    try:
        return 200, json.dumps(answer(suggest_body(raw), *_WORKER)).encode()
    except ApiError as err:
        return err.status, json.dumps(err.body()).encode()


def decide_in_worker(agent: Agent, view: dict[str, Any]) -> tuple[Decision, Agent]:
    """A table bot's decision in a worker process; the bot comes back too, with its RNG and plans moved on."""
    return agent.decide(view), agent


class ThreadRunner:
    """Threads of this process, with a :class:`~smear_rl.server.workers.WorkerPool`'s ``call`` and ``busy``."""

    def __init__(self, threads: int, name: str) -> None:
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self.busy = 0

    async def call(self, fn: Any, *args: Any) -> Any:
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
        finally:
            self.busy -= 1

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class Pools:
    """Where bots run, never on the event loop: worker processes for suggest calls (search apart), threads for
    the tables' cheap bots.

    Search calls beyond ``search_workers + search_queue`` running or waiting are refused
    (503) instead of piling up; cheap bots never wait behind search.
    """

    def __init__(self, settings: Settings, bots: Bots) -> None:
        self.settings, self.bots = settings, bots
        self.cheap = ThreadRunner(settings.bot_threads, "bot")
        init_worker(settings, bots.exported)  # for the threads: tables' bots, and suggest without worker processes
        self.search = self._pool(settings.search_workers, "search")
        self.suggest_pool = self._pool(settings.bot_workers, "suggest") if settings.bot_workers else self.cheap

    def _pool(self, count: int, name: str) -> WorkerPool | ThreadRunner:
        if not count:
            return ThreadRunner(1, name)
        return WorkerPool(count, init_worker, (self.settings, self.bots.exported))

    @property
    def search_waiting(self) -> int:
        return self.search.busy

    async def suggest(self, raw: bytes, search: bool) -> tuple[int, bytes]:
        """A suggest call's status and JSON answer, from its JSON body, in the pool its bot belongs to."""
        if search:
            return await self._on_search(answer_raw, raw)
        return await self.suggest_pool.call(answer_raw, raw)

    async def decide(self, agent: Agent, view: dict[str, Any], search: bool) -> tuple[Decision, Agent]:
        """A table bot's decision (and the bot as it is after it), off the event loop."""
        if not search:
            return await self.cheap.call(decide_in_worker, agent, view)
        return await self._on_search(decide_in_worker, agent, view)

    async def _on_search(self, fn: Any, *args: Any) -> Any:
        s = self.settings
        if self.search.busy >= max(s.search_workers, 1) + s.search_queue:
            message = (
                f"{self.search.busy} search calls are already running or waiting (this server's limit): "
                "retry shortly, or ask a cheaper bot"
            )
            raise ApiError(503, "search_busy", message)
        return await self.search.call(fn, *args)

    async def warm_up(self) -> None:
        """Wait until every worker process has started and loaded the shipped agents."""
        for pool, count in (
            (self.search, self.settings.search_workers),
            (self.suggest_pool, self.settings.bot_workers),
        ):
            if isinstance(pool, WorkerPool):
                await asyncio.gather(*(pool.call(_ready) for _ in range(count)))

    def close(self) -> None:
        for pool in {self.cheap, self.search, self.suggest_pool}:
            pool.close()


def _ready() -> bool:
    return True
