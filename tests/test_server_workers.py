"""The service's worker pools: framed messages of any size, deadlines, dead and late workers replaced, fair turns.

Real worker processes (spawned, as the server spawns them) running plain library
functions: ``len`` of a body larger than a socket's buffer, ``bytes(n)`` for a large
answer, ``time.sleep`` for a call that runs late, ``os._exit`` for one that kills its worker.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest

from smear_rl.server.errors import ApiError
from smear_rl.server.fair import FairQueue, Usage
from smear_rl.server.workers import ThreadPool, WorkerError, WorkerPool

BIG = 400_000  # larger than a Unix socket's buffer (about 200 KB): the size that once left a pipe half-written


def nothing() -> None:
    """A worker set up with nothing."""


def pid_after(seconds: float) -> int:
    """The worker's process id, after ``seconds`` asleep (two such calls at once tell whether two workers ran them)."""
    time.sleep(seconds)
    return os.getpid()


def spin(seconds: float) -> None:
    """Work for ``seconds`` of CPU (a call is charged its CPU, not the time it sleeps)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def pool(count: int = 1, timeout: float = 5.0, max_message: int = 1 << 20, depth: int = 2, bulk: int = 0) -> WorkerPool:
    return WorkerPool("test", count, nothing, (), timeout=timeout, max_message=max_message, depth=depth, bulk=bulk,
                      heavy_share=0.1)  # fmt: skip


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


# ---------------------------------------------------------------------- the fair queue


def test_a_clients_backlog_does_not_queue_another_clients_next_call() -> None:
    queue: FairQueue[str] = FairQueue()
    for k in range(10):
        queue.push("flood", f"flood-{k}")
    first = queue.pop()
    queue.push("polite", "polite-0")
    assert first == ("flood", "flood-0")
    assert queue.pop() == ("polite", "polite-0")  # ahead of the nine still waiting
    assert queue.pending("flood") == 10 and queue.pending("polite") == 1  # 9 waiting and 1 running; 1 running


def test_clients_take_turns_in_proportion_to_the_work_they_had() -> None:
    queue: FairQueue[int] = FairQueue()
    for k in range(30):
        queue.push("heavy", k)
        queue.push("light", k)
    served = []
    for _ in range(30):
        client, _job = queue.pop()  # type: ignore[misc]
        served.append(client)
        queue.finish(client, 0.010 if client == "heavy" else 0.001)  # a heavy call costs ten light ones
    assert served.count("light") >= 4 * served.count("heavy")


def test_the_queue_forgets_clients_that_are_gone() -> None:
    queue: FairQueue[int] = FairQueue()
    for k in range(5000):
        queue.push(f"client-{k}", k)
        client, _job = queue.pop()  # type: ignore[misc]
        queue.finish(client, 0.001)
    assert queue.clients < 600 and len(queue) == 0


def test_a_job_given_back_goes_first_in_its_line_and_a_discarded_one_never_runs() -> None:
    queue: FairQueue[str] = FairQueue()
    for job in ("a1", "a2", "a3"):
        queue.push("a", job)
    client, job = queue.pop()  # type: ignore[misc]
    assert queue.discard("a", "a3") and not queue.discard("a", "a3")
    queue.unpop(client, job)
    assert [queue.pop()[1] for _ in range(2)] == ["a1", "a2"]  # type: ignore[index]
    assert queue.pop() is None


def test_a_clients_usage_is_its_recent_share_of_a_worker_and_fades() -> None:
    now = [0.0]
    usage = Usage(window=5.0, clock=lambda: now[0])
    for _ in range(10):
        usage.add("busy", 0.5)  # half a worker for ten seconds
        now[0] += 1.0
    assert 0.35 < usage.rate("busy") < 0.5 and usage.rate("never") == 0.0
    now[0] += 30.0  # six windows later
    assert usage.rate("busy") < 0.002
    for k in range(1000):
        usage.add(f"once-{k}", 0.0)
    assert len(usage) < 300  # forgotten once faded


# ---------------------------------------------------------------------- worker processes


def test_bodies_and_answers_larger_than_a_sockets_buffer_cross_whole_many_at_once() -> None:
    async def go() -> tuple[list[int], list[int]]:
        workers = pool(count=2)
        await workers.start()
        try:
            sent = await asyncio.gather(*(workers.call(len, b"x" * (BIG + k)) for k in range(8)))
            answers = await asyncio.gather(*(workers.call(bytes, BIG + k) for k in range(8)))
            return sent, [len(a) for a in answers]
        finally:
            workers.close()

    sent, answered = run(go())
    assert sent == [BIG + k for k in range(8)] and answered == sent


def test_a_call_past_its_deadline_stops_its_worker_and_the_calls_behind_it_still_run() -> None:
    async def go() -> tuple[Any, list[Any], dict[str, Any], float]:
        workers = pool(timeout=0.5)
        await workers.start()
        try:
            started = time.monotonic()
            late = asyncio.ensure_future(workers.call(time.sleep, 30))
            await asyncio.sleep(0.05)
            behind = [asyncio.ensure_future(workers.call(len, b"abc", client=f"c{k}")) for k in range(3)]
            results = await asyncio.gather(late, *behind, return_exceptions=True)
            elapsed = time.monotonic() - started
            return results[0], results[1:], workers.health(), elapsed
        finally:
            workers.close()

    late, behind, health, elapsed = run(go())
    assert isinstance(late, ApiError) and late.status == 503 and late.code == "worker_timeout"
    assert behind == [3, 3, 3]  # handed to the new worker, not failed with the late one
    assert health["restarts"] == 1 and health["healthy"] and elapsed < 20


def test_a_worker_that_dies_fails_only_the_call_it_was_running() -> None:
    async def go() -> tuple[Any, list[Any], dict[str, Any]]:
        workers = pool()
        await workers.start()
        try:
            dying = asyncio.ensure_future(workers.call(os._exit, 3))
            behind = [asyncio.ensure_future(workers.call(len, b"ab")) for _ in range(2)]
            results = await asyncio.gather(dying, *behind, return_exceptions=True)
            after = await workers.call(len, b"abcd")
            return results[0], [*results[1:], after], workers.health()
        finally:
            workers.close()

    dying, later, health = run(go())
    assert isinstance(dying, ApiError) and dying.code == "worker_failed"
    assert later == [2, 2, 4] and health["restarts"] == 1


def test_messages_over_the_limit_are_refused_on_either_side() -> None:
    async def go() -> tuple[Any, Any, int]:
        workers = pool(max_message=100_000)
        await workers.start()
        try:
            too_big_call = await asyncio.gather(workers.call(len, b"x" * 200_000), return_exceptions=True)
            too_big_answer = await asyncio.gather(workers.call(bytes, 200_000), return_exceptions=True)
            return too_big_call[0], too_big_answer[0], await workers.call(len, b"fine")
        finally:
            workers.close()

    call, answer, after = run(go())
    assert isinstance(call, ApiError) and call.status == 413  # never sent
    assert isinstance(answer, WorkerError) and "exceeds" in str(answer)  # replaced by an error in the worker
    assert after == 4


def test_an_exception_in_a_call_reaches_its_caller_and_the_worker_lives_on() -> None:
    async def go() -> tuple[Any, int]:
        workers = pool()
        await workers.start()
        try:
            failed = await asyncio.gather(workers.call(int, "not a number"), return_exceptions=True)
            return failed[0], await workers.call(len, b"ok")
        finally:
            workers.close()

    failed, after = run(go())
    assert isinstance(failed, WorkerError) and str(failed).startswith("ValueError")
    assert after == 2


def finishing_order(
    workers: WorkerPool, burst: tuple[str, int, float], after: tuple[str, float], before: Any = None
) -> tuple[list[str], Any]:
    """The clients in the order their calls finish: ``burst`` (client, calls, seconds each) sent at once, then,
    once it has been handed out, one call of ``after`` (client, seconds); and what ``await before(workers)``, run
    first, found."""

    async def go() -> tuple[list[str], Any]:
        await workers.start()
        order: list[str] = []

        async def call(client: str, seconds: float) -> None:
            await workers.call(time.sleep, seconds, client=client)
            order.append(client)

        try:
            found = await before(workers) if before else None
            client, calls, seconds = burst
            sent = [asyncio.ensure_future(call(client, seconds)) for _ in range(calls)]
            await asyncio.sleep(0.05)
            await asyncio.gather(call(*after), *sent)
            return order, found
        finally:
            workers.close()

    return run(go())


def test_a_waiting_client_is_served_before_a_flooding_clients_backlog() -> None:
    order, _ = finishing_order(pool(count=1), ("flood", 8, 0.1), ("polite", 0.0))
    assert order.index("polite") <= 1  # after the flood's call the worker was running, before the other seven


def test_one_client_cannot_hold_every_worker_when_another_calls() -> None:
    order, _ = finishing_order(pool(count=2), ("long", 4, 0.5), ("short", 0.0))
    assert order[0] == "short"  # both workers were free, but only one took a long call


def test_a_heavy_clients_calls_run_on_the_bulk_worker_at_a_lower_priority_and_others_keep_the_normal_one() -> None:
    """A client that kept a worker busy lately (0.8 s of CPU in a 5 s window: more than the 0.1 share) runs only
    on the bulk worker, niced; a client that did not gets the normal worker at once, even while the heavy client
    has calls waiting."""

    async def make_heavy(workers: WorkerPool) -> tuple[int, int]:
        for _ in range(4):
            await workers.call(spin, 0.2, client="heavy")
        heavy = await workers.call(os.getpriority, os.PRIO_PROCESS, 0, client="heavy")
        return heavy, await workers.call(os.getpriority, os.PRIO_PROCESS, 0, client="light")

    order, (heavy_nice, light_nice) = finishing_order(pool(count=1, bulk=1), ("heavy", 3, 0.3), ("light", 0.0),
                                                      make_heavy)  # fmt: skip
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert light_nice == ours and heavy_nice == min(ours + 10, 19) and order[0] == "light"


def test_a_heavy_client_alone_has_every_bulk_worker() -> None:
    async def go() -> set[int]:
        workers = pool(count=1, bulk=2)
        await workers.start()
        try:
            for _ in range(4):
                await workers.call(spin, 0.2, client="heavy")
            pids = await asyncio.gather(*(workers.call(pid_after, 0.3, client="heavy") for _ in range(2)))
            return set(pids)
        finally:
            workers.close()

    assert len(run(go())) == 2  # both bulk workers at once: the cap of one call running is the normal workers'


# ---------------------------------------------------------------------- threads (tests, --search-workers 0)


def test_a_late_thread_call_answers_503_and_the_thread_counts_as_late_until_it_returns() -> None:
    async def go() -> tuple[Any, dict[str, Any], dict[str, Any]]:
        threads = ThreadPool("test", 1, timeout=0.2)
        try:
            late = await asyncio.gather(threads.call(time.sleep, 0.6), return_exceptions=True)
            during = threads.health()
            await asyncio.sleep(0.6)
            return late[0], during, threads.health()
        finally:
            threads.close()

    late, during, after = run(go())
    assert isinstance(late, ApiError) and late.code == "worker_timeout"
    assert not during["healthy"] and after["healthy"]


@pytest.mark.parametrize("kind", ["threads", "processes"])
def test_a_caller_that_leaves_takes_its_waiting_call_out_of_the_queue(kind: str) -> None:
    """As the search pool does, one call at a time per worker: the next waits in the server, where it can be
    dropped (a call already handed to a worker runs to its end)."""

    async def go() -> tuple[int, int]:
        workers = ThreadPool("test", 1, timeout=5) if kind == "threads" else pool(depth=1)
        await workers.start()
        try:
            busy = asyncio.ensure_future(workers.call(time.sleep, 0.3, client="a"))
            await asyncio.sleep(0.05)
            waiting = asyncio.ensure_future(workers.call(time.sleep, 0.3, client="b"))
            await asyncio.sleep(0.05)
            queued = workers.pending("b")
            waiting.cancel()
            await asyncio.sleep(0)
            left = workers.pending("b")
            await busy
            return queued, left
        finally:
            workers.close()

    assert run(go()) == (1, 0)
