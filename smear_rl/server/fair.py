"""Calls waiting for a worker, served client by client: one client's backlog never queues another's next call.

A plain first-come queue lets the client that sends the most calls take the workers:
a hundred near-limit bodies or search calls sent at once put everyone else's next
call behind all of them. Here each client has its own line, and the next call comes
from the client that has had the least work so far (start-time fair queuing): each
client's *virtual time* grows by the CPU seconds its calls take in a worker, and a client
that arrives after a pause starts at the current virtual time, so it can neither bank
credit while idle nor be punished for past work once others have caught up. A call is
charged its client's running mean cost when it is handed out and corrected by its
true cost when it finishes, so a client cannot take every worker at once before its
first call has been charged. A pool also keeps any one client to fewer calls running than
it has workers (``most``), so that a client sending long calls (whole-match replays) cannot
hold every worker at the moment another client's short call arrives.

Turns in a queue are not all: a client whose calls keep two workers busy slows everyone's
calls on a machine with two cores, whatever the order. :class:`Usage` measures each client's
recent share of the workers, so that a pool can run the calls of a client that uses more than
its share (a *heavy* client) on workers of a lower CPU priority.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: the cost a client's first call is charged before anything of it has been measured (seconds)
FIRST_ESTIMATE = 0.002
#: weight of the newest call in a client's running mean cost
MEAN_WEIGHT = 0.25
#: idle clients remembered (their work ahead of the clock) before a sweep forgets those the clock has passed
PRUNE_AT = 256


class FairQueue(Generic[T]):
    """Jobs of many clients; :meth:`pop` gives the next job of the least-served client with one waiting."""

    def __init__(self) -> None:
        self._lines: dict[str, deque[T]] = {}  # clients with jobs waiting, each its jobs in order
        self._virtual: dict[str, float] = {}  # seconds of work each known client has had, on the shared clock
        self._estimate: dict[str, float] = {}  # each known client's running mean cost of a call
        self._running: dict[str, int] = {}  # jobs of each client handed out and not yet finished
        self._clock = 0.0  # virtual time of the last job handed out

    def __len__(self) -> int:
        return sum(len(line) for line in self._lines.values())

    def push(self, client: str, job: T, front: bool = False) -> None:
        """Queue ``job`` for ``client`` (``front``: ahead of the client's other jobs, for a job handed back)."""
        line = self._lines.get(client)
        if line is None:
            line = self._lines[client] = deque()
            if not self._running.get(client):  # back after a pause: start from now, no credit kept
                self._virtual[client] = max(self._virtual.get(client, 0.0), self._clock)
        if front:
            line.appendleft(job)
        else:
            line.append(job)

    def pop(self, most: int | None = None, eligible: Callable[[str], bool] | None = None) -> tuple[str, T] | None:
        """The next job and its client (charged its estimate), from a client with fewer than ``most`` jobs running
        (and ``eligible``, when given); None when no such job waits."""
        ready = [
            c
            for c in self._lines
            if (most is None or self._running.get(c, 0) < most) and (eligible is None or eligible(c))
        ]
        if not ready:
            return None
        client = min(ready, key=lambda c: self._virtual[c])
        line = self._lines[client]
        job = line.popleft()
        if not line:
            del self._lines[client]
        self._clock = max(self._clock, self._virtual[client])
        self._virtual[client] += self._estimate.setdefault(client, FIRST_ESTIMATE)
        self._running[client] = self._running.get(client, 0) + 1
        self._sweep()
        return client, job

    def _sweep(self) -> None:
        """Keep the memory of idle clients bounded: past :data:`PRUNE_AT` of them, forget those the clock has
        passed, and if that is not enough, all of them (each owes at most its last call's cost)."""
        active = len(self._lines) + len(self._running)
        if len(self._virtual) <= PRUNE_AT + 2 * active:
            return
        idle = [c for c in self._virtual if c not in self._lines and not self._running.get(c)]
        for client in idle:
            self._forget_if_idle(client)
        if len(self._virtual) > PRUNE_AT + 2 * active:
            for client in idle:
                self._virtual.pop(client, None)
                self._estimate.pop(client, None)

    def finish(self, client: str, seconds: float) -> None:
        """A job of ``client`` handed out by :meth:`pop` is done (or given up) after ``seconds`` of work."""
        estimate = self._estimate.get(client, FIRST_ESTIMATE)
        self._virtual[client] = self._virtual.get(client, self._clock) + seconds - estimate
        self._estimate[client] = (1 - MEAN_WEIGHT) * estimate + MEAN_WEIGHT * seconds
        running = self._running.get(client, 1) - 1
        if running:
            self._running[client] = running
        else:
            self._running.pop(client, None)
            self._forget_if_idle(client)

    def unpop(self, client: str, job: T) -> None:
        """Give back a job handed out but never run (its worker went away first): it goes first in its line."""
        self._virtual[client] = self._virtual.get(client, self._clock) - self._estimate.get(client, FIRST_ESTIMATE)
        running = self._running.get(client, 1) - 1
        if running:
            self._running[client] = running
        else:
            self._running.pop(client, None)
        self.push(client, job, front=True)

    def pending(self, client: str) -> int:
        """Jobs of ``client`` waiting or running."""
        line = self._lines.get(client)
        return (len(line) if line else 0) + self._running.get(client, 0)

    def discard(self, client: str, job: T) -> bool:
        """Take a waiting job out (its caller went away); whether it was waiting."""
        line = self._lines.get(client)
        if line is None or job not in line:
            return False
        line.remove(job)
        if not line:
            del self._lines[client]
            self._forget_if_idle(client)
        return True

    def _forget_if_idle(self, client: str) -> None:
        """A client with nothing waiting or running and no more work than the clock is forgotten: it would start
        from the clock on its next call anyway, so the queue's memory stays bounded by its active clients. When
        nobody waits or runs, there is nothing to be fair about: everything is forgotten."""
        if client in self._lines or self._running.get(client):
            return
        if not self._lines and not self._running:
            self._virtual.clear()
            self._estimate.clear()
            self._clock = 0.0
        elif self._virtual.get(client, 0.0) <= self._clock:
            self._virtual.pop(client, None)
            self._estimate.pop(client, None)

    @property
    def clients(self) -> int:
        """Clients the queue remembers (waiting, running, or ahead of the clock)."""
        return len(self._virtual)


class Usage:
    """Each client's recent use of a pool, in CPU seconds per second, averaged over about ``window`` seconds (an
    exponential decay); clients whose use has decayed to nothing are forgotten."""

    def __init__(self, window: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.window, self.clock = window, clock
        self._used: dict[str, tuple[float, float]] = {}  # client -> (decayed seconds of work, when)

    def add(self, client: str, seconds: float) -> None:
        now = self.clock()
        self._used[client] = (self._decayed(client, now) + seconds, now)
        if len(self._used) > PRUNE_AT:
            for other in [c for c in self._used if self._decayed(c, now) < 1e-4]:
                del self._used[other]

    def rate(self, client: str) -> float:
        """CPU seconds per second ``client`` used lately (1.0: one worker busy all the time)."""
        return self._decayed(client, self.clock()) / self.window

    def _decayed(self, client: str, now: float) -> float:
        used, when = self._used.get(client, (0.0, now))
        return used * math.exp((when - now) / self.window)

    def __len__(self) -> int:
        return len(self._used)
