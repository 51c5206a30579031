"""Worker processes fed over pipes, for bots: the event loop stays free, and two cores do two bots' work.

Why not ``concurrent.futures.ProcessPoolExecutor``: on a 2-core machine every call it
makes costs about a millisecond of the server's CPU (its queue thread, pickling twice,
wake-ups), as much as a cheap bot's whole answer (measured with
``benchmarks/bench_service.py``'s CPU column). Here each worker has one pipe; the
event loop writes a call (pickled function and arguments) and reads the answer when
the pipe is readable, with at most ``depth`` calls in flight per worker and the rest
waiting in order in the server. A worker that dies fails only its calls in flight
(503) and is started again.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from smear_rl.server.errors import ApiError

log = logging.getLogger("smear_rl.server")


def _serve(conn: Connection, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's life: set up once, then answer calls in order until the pipe closes."""
    initializer(*initargs)
    while True:
        try:
            call_id, fn, args = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            reply = (call_id, True, fn(*args))
        except Exception as err:  # the caller gets the error; the worker lives on
            reply = (call_id, False, f"{type(err).__name__}: {err}")
        conn.send_bytes(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))


@dataclass
class _Worker:
    process: Any
    conn: Connection
    inflight: dict[int, asyncio.Future] = field(default_factory=dict)


#: calls handed to one worker process at a time, so it never waits for the next between calls
WORKER_DEPTH = 2


class WorkerPool:
    """``count`` worker processes, each set up by ``initializer(*initargs)``; :meth:`call` runs ``fn(*args)`` in one."""

    def __init__(
        self, count: int, initializer: Callable[..., None], initargs: tuple[Any, ...], depth: int = WORKER_DEPTH
    ) -> None:
        self.initializer, self.initargs, self.depth = initializer, initargs, depth
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._workers = [self._start() for _ in range(count)]
        self._waiting: deque[tuple[int, bytes, asyncio.Future]] = deque()
        self._ids = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child, self.initializer, self.initargs), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    @property
    def busy(self) -> int:
        """Calls running or waiting (not those whose caller gave up while waiting)."""
        waiting = sum(1 for _, _, future in self._waiting if not future.done())
        return waiting + sum(len(w.inflight) for w in self._workers)

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            for worker in self._workers:
                loop.add_reader(worker.conn.fileno(), self._on_reply, worker)
        future = loop.create_future()
        call_id = next(self._ids)
        self._waiting.append((call_id, pickle.dumps((call_id, fn, args), protocol=pickle.HIGHEST_PROTOCOL), future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        while self._waiting:
            worker = min(self._workers, key=lambda w: len(w.inflight))
            if len(worker.inflight) >= self.depth:
                return
            call_id, payload, future = self._waiting.popleft()
            if future.done():  # the caller went away (cancelled)
                continue
            worker.inflight[call_id] = future
            worker.conn.send_bytes(payload)

    def _on_reply(self, worker: _Worker) -> None:
        try:
            call_id, ok, value = pickle.loads(worker.conn.recv_bytes())
        except (EOFError, OSError):
            self._replace(worker)
            return
        future = worker.inflight.pop(call_id, None)
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(RuntimeError(value))
        self._dispatch()

    def _replace(self, worker: _Worker) -> None:
        """A worker died: fail its calls in flight and start another in its place."""
        log.error("a bot worker process died (exit code %s); starting another", worker.process.exitcode)
        assert self._loop is not None
        self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        for future in worker.inflight.values():
            if not future.done():
                future.set_exception(ApiError(503, "worker_failed", "the worker running this call failed: retry"))
        index = self._workers.index(worker)
        self._workers[index] = fresh = self._start()
        self._loop.add_reader(fresh.conn.fileno(), self._on_reply, fresh)
        self._dispatch()

    def close(self) -> None:
        for worker in self._workers:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(worker.conn.fileno())
            worker.conn.close()
            worker.process.terminate()
        for worker in self._workers:
            worker.process.join(5)
