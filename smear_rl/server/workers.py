"""Where the service's work runs, never on the event loop: worker processes fed over framed pipes, or threads.

Why not ``concurrent.futures.ProcessPoolExecutor``: on a 2-core machine every call it
makes costs about a millisecond of the server's CPU (its queue thread, pickling twice,
wake-ups), as much as a cheap bot's whole answer (measured with
``benchmarks/bench_service.py``'s CPU column). Here each worker has one socket pair.

What keeps a pool answering whatever it is sent:

* **Framing.** Every message is a length (4 bytes, big-endian: ``multiprocessing``'s own
  framing, which the worker reads with ``Connection.recv_bytes``) and that many bytes.
  The event loop writes through an asyncio transport, which never blocks and never
  writes half a message: a body as large as the socket's buffer waits in the transport,
  not in a blocking ``send`` that fails part-way (the bug that once wedged a worker).
* **Limits.** A call larger than ``max_message`` is refused before it reaches a worker; a
  worker's answer larger than that is replaced by an error in the worker, and one the
  server reads anyway is a broken worker.
* **Timeouts.** The call a worker is running has a deadline; past it the worker is
  killed and started again, its caller gets a 503 (``worker_timeout``), and the calls
  queued behind it in that worker go back to the front of the queue.
* **Replacement.** A worker that dies fails only the call it was running (503,
  ``worker_failed``); the ones behind it are handed to another worker. :meth:`Pool.health`
  says which workers are starting, running or late, for ``GET /v1/health``.
* **Fairness.** Calls wait in a :class:`~smear_rl.server.fair.FairQueue` keyed by client,
  so one client's backlog never sits in front of another client's next call. A pool may keep
  some workers apart at a lower CPU priority (*bulk* workers): the calls of a client that
  used more than ``heavy_share`` of a worker lately run there, and only there, so its work
  neither holds the other workers nor, on a busy machine, takes CPU from them.

:class:`ThreadPool` has the same interface on threads of the server process, for tests and
``--search-workers 0``; a thread cannot be stopped, so a late call there fails its caller
(503) while the thread runs on, counted as ``late`` in the health report.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

from smear_rl.server.errors import ApiError
from smear_rl.server.fair import PRUNE_AT, FairQueue, Usage

log = logging.getLogger("smear_rl.server")

#: a message's length prefix, as ``multiprocessing.connection.Connection`` frames its messages
HEADER = struct.Struct("!i")
#: calls handed to one worker process at a time. One: a call waits in the server, where the fair queue chooses it
#: at the last moment and sends it to whichever worker frees first; handed to a busy worker early, it could sit
#: behind a long call (a whole-match replay) while another worker idles. The cost is the worker's idle moment
#: between its answer and its next call.
WORKER_DEPTH = 1
#: seconds a new worker may take to start (imports, shipped agents loaded) before it counts as failed
STARTUP_SECONDS = 120.0
#: call id of the message a worker sends once it is ready
HELLO = -1
#: how much lower a bulk worker's CPU priority is than its pool's other workers (Unix nice)
BULK_NICE = 10


class WorkerError(RuntimeError):
    """The function run for a call raised: its type and message, as the worker reported them."""


class Codec:
    """How calls and answers are turned into bytes: pickle, with hooks a subclass may use to send shared objects
    (a neural network's weights) by name instead of by value. Sent to each worker, so it must pickle itself."""

    def dumps(self, value: Any) -> bytes:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    def loads(self, data: bytes) -> Any:
        return pickle.loads(data)


class PersistentCodec(Codec):
    """A :class:`Codec` whose :meth:`reference` names objects that both sides hold already, and :meth:`resolve` finds
    them again by that name, so they never travel."""

    def reference(self, obj: Any) -> Any:
        return None

    def resolve(self, ref: Any) -> Any:
        raise pickle.UnpicklingError(f"unknown shared object {ref!r}")

    def dumps(self, value: Any) -> bytes:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = self.reference  # type: ignore[method-assign]
        pickler.dump(value)
        return buffer.getvalue()

    def loads(self, data: bytes) -> Any:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = self.resolve  # type: ignore[method-assign]
        return unpickler.load()


def _serve(
    conn: Connection, initializer: Callable[..., None], initargs: tuple[Any, ...], codec: Codec, limit: int, nice: int
) -> None:
    """A worker's life: set up once, say so, then answer calls in order until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C stops the server, which then stops its workers
    if nice:
        os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0) + nice)
    initializer(*initargs)
    gc.freeze()  # what setting up made (modules, networks) is never garbage: full collections skip it
    conn.send_bytes(codec.dumps((HELLO, True, os.getpid(), 0.0)))
    while True:
        try:
            call_id, fn, args = codec.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        ok, value, cpu = timed(fn, args)
        try:
            reply = codec.dumps((call_id, ok, value, cpu))
        except Exception as err:  # an answer that cannot be sent: the caller gets why
            reply = codec.dumps((call_id, False, f"the answer cannot be sent: {type(err).__name__}: {err}", cpu))
        if len(reply) > limit:
            reply = codec.dumps((call_id, False, f"the answer ({len(reply)} bytes) exceeds this server's {limit}", cpu))
        conn.send_bytes(reply)


def timed(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any, float]:
    """``fn(*args)``: whether it returned, its value (or its error, as text) and the CPU seconds this thread spent on
    it. A call is charged its CPU, not the time it took: on a busy machine the clock runs on while others have the
    CPU, and a client would be charged for their work."""
    started = time.thread_time()
    try:
        ok, value = True, fn(*args)
    except Exception as err:  # the caller gets the error; the worker lives on
        ok, value = False, f"{type(err).__name__}: {err}"
    return ok, value, time.thread_time() - started


@dataclass(eq=False)
class Job:
    """One call: what to run, for whom, and the future its caller awaits."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    client: str
    future: asyncio.Future
    timeout: float
    call_id: int = 0
    message: bytes = b""  # the framed call, for a worker process (kept: a call handed back is sent again)
    started: float = 0.0  # when it began to run (monotonic)
    timer: asyncio.TimerHandle | None = None
    late: bool = False  # its caller was answered 503 while it ran on (a thread cannot be stopped)


def late_error(job: Job) -> ApiError:
    return ApiError(
        503,
        "worker_timeout",
        f"the call ran past this server's limit of {job.timeout:g} s and was stopped: retry later, or ask less "
        "of it (a cheaper bot, fewer samples)",
    )


class Pool:
    """Calls queued fairly by client, run by the slots of a subclass (worker processes or threads)."""

    def __init__(self, name: str, slots: int, timeout: float, normal_slots: int | None = None) -> None:
        self.name, self.slots, self.timeout = name, slots, timeout
        self.normal_slots = slots if normal_slots is None else normal_slots  # the slots that are not bulk workers
        self.queue: FairQueue[Job] = FairQueue()
        self.usage = Usage()
        self.restarts = 0  # workers replaced after dying or running late
        self._ids = itertools.count()

    async def call(self, fn: Callable[..., Any], *args: Any, client: str = "", timeout: float | None = None) -> Any:
        """``fn(*args)`` run for ``client`` in a slot; ``WorkerError`` if it raised, ``ApiError`` (503) if its
        worker failed or it ran past ``timeout`` seconds (the pool's by default)."""
        loop = asyncio.get_running_loop()
        job = Job(fn, args, client, loop.create_future(), timeout or self.timeout, next(self._ids))
        self._prepare(job)
        self.queue.push(client, job)
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            self.queue.discard(client, job)  # still waiting: nobody will run it
            raise

    def pending(self, client: str) -> int:
        """Calls of ``client`` waiting or running."""
        return self.queue.pending(client)

    @property
    def busy(self) -> int:
        """Calls waiting or running."""
        return len(self.queue) + self.running

    @property
    def running(self) -> int:
        raise NotImplementedError

    def health(self) -> dict[str, Any]:
        """For ``GET /v1/health``: the slots ready and starting, calls running and waiting, workers replaced, calls
        past their deadline still running, and the longest call running."""
        raise NotImplementedError

    def _report(self, ready: int, starting: int, late: int, longest: float) -> dict[str, Any]:
        return {
            "workers": self.slots,
            "ready": ready,
            "starting": starting,
            "running": self.running,
            "waiting": len(self.queue),
            "restarts": self.restarts,
            "late": late,
            "longest_call_seconds": round(longest, 3),
            "healthy": ready == self.slots and not late,
        }

    def _prepare(self, job: Job) -> None:
        """Anything a call needs before it queues (a worker process needs its message)."""

    def _dispatch(self) -> None:
        raise NotImplementedError

    def _next(self, eligible: Callable[[str], bool] | None = None, bulk: bool = False) -> Job | None:
        """The next job to run (charged to its client), skipping those whose caller left; None when none waits.
        One client runs on all but one of the normal slots at most (on the one slot of a pool of one); on bulk
        slots, which only heavy clients use, the fair queue alone takes turns."""
        most = None if bulk else max(1, self.normal_slots - 1)
        while (popped := self.queue.pop(most, eligible)) is not None:
            client, job = popped
            if not job.future.done():
                return job
            self.queue.finish(client, 0.0)
        return None

    def _settle(self, job: Job, outcome: Callable[[asyncio.Future], None], cpu: float | None = None) -> None:
        """The job is over: charge its client (the ``cpu`` seconds it took, when known, else the time since it
        began), stop its clock, tell its caller (unless it left)."""
        if job.timer is not None:
            job.timer.cancel()
            job.timer = None
        seconds = cpu if cpu is not None else time.monotonic() - job.started if job.started else 0.0
        self.queue.finish(job.client, seconds)
        self.usage.add(job.client, seconds)
        if not job.future.done():
            outcome(job.future)

    async def start(self) -> None:
        """Start the slots and wait until each can take calls."""

    def close(self) -> None:
        raise NotImplementedError


def _fail(error: BaseException) -> Callable[[asyncio.Future], None]:
    return lambda future: future.set_exception(error)


def _succeed(value: Any) -> Callable[[asyncio.Future], None]:
    return lambda future: future.set_result(value)


@dataclass(eq=False)
class _Worker:
    """One worker process and what it has been handed, in order: the first is the call it is running."""

    index: int
    nice: int = 0  # how much lower its CPU priority is than the server's (bulk workers: above 0)
    state: str = "starting"  # starting, ready, down
    process: Any = None
    writer: asyncio.StreamWriter | None = None
    running: deque[Job] = field(default_factory=deque)
    fault: ApiError | None = None  # why the server stopped it (a late call), for the calls it held


class WorkerPool(Pool):
    """``count`` worker processes, each set up by ``initializer(*initargs)``, running calls for the event loop."""

    def __init__(
        self,
        name: str,
        count: int,
        initializer: Callable[..., None],
        initargs: tuple[Any, ...],
        *,
        timeout: float,
        max_message: int,
        depth: int = WORKER_DEPTH,
        codec: Codec | None = None,
        nice: int = 0,
        bulk: int = 0,
        heavy_share: float = 0.1,
    ) -> None:
        """``count`` workers at ``nice`` and ``bulk`` more, at ``nice + BULK_NICE``, for the calls of clients
        using more than ``heavy_share`` of a worker."""
        super().__init__(name, count + bulk, timeout, count)
        self.initializer, self.initargs, self.depth, self.max_message = initializer, initargs, depth, max_message
        self.codec, self.nice = codec or Codec(), nice
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self.heavy_share = heavy_share
        self._heavy: set[str] = set()  # clients found heavy, until they have nothing waiting or running
        self._workers = [_Worker(k, nice + (BULK_NICE if k >= count else 0)) for k in range(count + bulk)]
        self._keepers: list[asyncio.Task] = []
        self._closed = False

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._keepers = [loop.create_task(self._keep(worker)) for worker in self._workers]
        deadline = time.monotonic() + STARTUP_SECONDS
        while any(w.state != "ready" for w in self._workers):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {self.name} workers did not start within {STARTUP_SECONDS:g} s")
            await asyncio.sleep(0.05)

    @property
    def running(self) -> int:
        return sum(len(w.running) for w in self._workers)

    def _prepare(self, job: Job) -> None:
        body = self.codec.dumps((job.call_id, job.fn, job.args))
        if len(body) > self.max_message:
            raise ApiError(413, "body_too_large", f"the call ({len(body)} bytes) exceeds this server's limit")
        job.message = HEADER.pack(len(body)) + body

    def _dispatch(self) -> None:
        """Hand waiting calls to free workers: when the pool has bulk workers, the calls of heavy clients to them
        and the others' to the normal workers, each kind kept apart."""
        split = any(w.nice > self.nice for w in self._workers)

        def eligible(bulk: bool) -> Callable[[str], bool] | None:
            return (lambda client: self.is_heavy(client) == bulk) if split else None

        while True:
            free = [w for w in self._workers if w.state == "ready" and len(w.running) < self.depth]
            free.sort(key=lambda w: len(w.running))
            worker, job = None, None
            for candidate in free:
                bulk = candidate.nice > self.nice
                job = self._next(eligible(bulk), bulk)
                if job is not None:
                    worker = candidate
                    break
            if worker is None or job is None:
                return
            if not worker.running:
                self._begin(worker, job)
            worker.running.append(job)
            assert worker.writer is not None
            worker.writer.write(job.message)  # buffered by the transport: never blocks, never half-written

    def is_heavy(self, client: str) -> bool:
        """Whether ``client`` used more than ``heavy_share`` of a worker lately, or did and has calls waiting or
        running since: a heavy client's calls run on bulk workers, where, on a busy machine, they get less CPU and its
        measured use falls; without this it would be let back onto the normal workers while it still floods them."""
        if self.usage.rate(client) > self.heavy_share:
            if len(self._heavy) >= PRUNE_AT:  # forget the heavy clients that left
                self._heavy = {c for c in self._heavy if self.queue.pending(c)}
            self._heavy.add(client)
            return True
        if client in self._heavy and self.queue.pending(client):
            return True
        self._heavy.discard(client)
        return False

    def _begin(self, worker: _Worker, job: Job) -> None:
        """``job`` is now the call ``worker`` runs: start its clock."""
        job.started = time.monotonic()
        job.timer = asyncio.get_running_loop().call_later(job.timeout, self._late, worker, job)

    def _late(self, worker: _Worker, job: Job) -> None:
        """The running call is past its deadline: stop the worker (its keeper starts another)."""
        if worker.running and worker.running[0] is job and worker.state == "ready":
            log.error("a %s worker ran one call for over %g s: stopping it", self.name, job.timeout)
            worker.state, worker.fault = "down", late_error(job)
            worker.process.kill()

    async def _keep(self, worker: _Worker) -> None:
        """Keep one worker slot filled: start a process, answer its replies, and when it stops, start another."""
        failures = 0
        while not self._closed:
            started = time.monotonic()
            reason = "stopped"
            try:
                reader = await self._launch(worker)
                await self._read(worker, reader)
            except asyncio.CancelledError:
                self._down(worker, ApiError(503, "worker_failed", "the server is stopping"))
                raise
            except (asyncio.IncompleteReadError, ConnectionError, EOFError) as err:
                reason = f"its pipe closed ({type(err).__name__})"
            except Exception as err:  # a message it should not have sent, a start that failed: replace it all the same
                reason = f"{type(err).__name__}: {err}"
            self._down(worker, worker.fault or ApiError(503, "worker_failed", "the worker running this call failed"))
            await self._reap(worker)
            if self._closed:
                return
            self.restarts += 1
            failures = failures + 1 if time.monotonic() - started < 5 else 0
            log.error("a %s worker stopped (%s, exit code %s); starting another", self.name, reason,
                      worker.process.exitcode if worker.process else None)  # fmt: skip
            await asyncio.sleep(min(30.0, 0.1 * 2**failures) if failures else 0)

    async def _launch(self, worker: _Worker) -> asyncio.StreamReader:
        """A fresh process in ``worker``'s slot, ready for calls (it said hello)."""
        worker.state, worker.fault, worker.running = "starting", None, deque()
        parent, child = self._context.Pipe()
        args = (child, self.initializer, self.initargs, self.codec, self.max_message, worker.nice)
        process = self._context.Process(target=_serve, args=args, daemon=True, name=f"smear-{self.name}")
        process.start()
        child.close()
        sock = socket.socket(fileno=os.dup(parent.fileno()))
        parent.close()
        sock.setblocking(False)
        worker.process = process
        reader, worker.writer = await asyncio.open_connection(sock=sock, limit=1 << 16)
        call_id, *_ = self.codec.loads(await asyncio.wait_for(self._frame(reader), STARTUP_SECONDS))
        if call_id != HELLO:
            raise ValueError(f"a new worker's first message is not its hello ({call_id!r})")
        worker.state = "ready"
        self._dispatch()
        return reader

    async def _frame(self, reader: asyncio.StreamReader) -> bytes:
        (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
        if not 0 <= size <= self.max_message:
            raise ValueError(f"a worker sent a message of {size} bytes (the limit is {self.max_message})")
        return await reader.readexactly(size)

    async def _read(self, worker: _Worker, reader: asyncio.StreamReader) -> None:
        """Answer each call's caller as its reply comes, in order, until the worker stops."""
        while True:
            call_id, ok, value, cpu = self.codec.loads(await self._frame(reader))
            if not worker.running or worker.running[0].call_id != call_id:
                raise ValueError(f"a worker answered call {call_id}, which it was not running")
            job = worker.running.popleft()
            self._settle(job, _succeed(value) if ok else _fail(WorkerError(value)), cpu)
            if worker.running:
                self._begin(worker, worker.running[0])
            self._dispatch()

    def _down(self, worker: _Worker, error: ApiError) -> None:
        """The worker is gone: its running call fails with ``error``, the calls queued behind it go back first."""
        worker.state = "down"
        if worker.writer is not None:
            worker.writer.close()
            worker.writer = None
        jobs, worker.running = list(worker.running), deque()
        if jobs:
            self._settle(jobs[0], _fail(error))
            for job in reversed(jobs[1:]):
                self.queue.unpop(job.client, job)
        self._dispatch()

    async def _reap(self, worker: _Worker) -> None:
        process = worker.process
        if process is None:
            return
        if process.is_alive():
            process.kill()
        await asyncio.get_running_loop().run_in_executor(None, process.join, 5)

    def health(self) -> dict[str, Any]:
        now = time.monotonic()
        ages = [now - w.running[0].started for w in self._workers if w.running]
        states = [w.state for w in self._workers]
        late = sum(age > self.timeout for age in ages)
        return self._report(states.count("ready"), len(states) - states.count("ready"), late, max(ages, default=0.0))

    def close(self) -> None:
        self._closed = True
        for keeper in self._keepers:
            keeper.cancel()
        for worker in self._workers:
            if worker.writer is not None:
                with contextlib.suppress(RuntimeError):  # the loop may be closed already
                    worker.writer.close()
            if worker.process is not None and worker.process.is_alive():
                worker.process.terminate()
        for worker in self._workers:
            if worker.process is not None:
                worker.process.join(5)


class ThreadPool(Pool):
    """The :class:`Pool` interface on ``threads`` threads of this process (tests, ``--search-workers 0``)."""

    def __init__(self, name: str, threads: int, timeout: float) -> None:
        super().__init__(name, threads, timeout)
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self._running: set[Job] = set()
        self.late = 0  # threads still running a call whose caller was answered 503

    @property
    def running(self) -> int:
        return len(self._running)

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while len(self._running) < self.slots:
            job = self._next()
            if job is None:
                return
            self._running.add(job)
            job.started = time.monotonic()
            job.timer = loop.call_later(job.timeout, self._late, job)
            done = loop.run_in_executor(self.executor, timed, job.fn, job.args)
            done.add_done_callback(partial(self._done, job))

    def _late(self, job: Job) -> None:
        job.timer = None
        if not job.future.done():
            log.error("a %s thread ran one call for over %g s", self.name, job.timeout)
            job.late = True
            self.late += 1
            job.future.set_exception(late_error(job))

    def _done(self, job: Job, done: asyncio.Future) -> None:
        self._running.discard(job)
        if job.late:  # its caller was answered already: the thread is free again
            self.late -= 1
        if done.cancelled():
            self._settle(job, _fail(ApiError(503, "worker_failed", "the server is stopping")))
        else:
            ok, value, cpu = done.result()
            self._settle(job, _succeed(value) if ok else _fail(WorkerError(value)), cpu)
        self._dispatch()

    def health(self) -> dict[str, Any]:
        oldest = max((time.monotonic() - job.started for job in self._running), default=0.0)
        return self._report(self.slots - self.late, 0, self.late, oldest)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
