"""Stopping a training run when asked: SIGTERM or Ctrl-C ends it after the update in flight, saved.

Why: a scheduler, a container runtime, ``timeout`` or ``kill`` sends SIGTERM before it kills,
and a run that died there lost up to ``checkpoint_every`` updates (a few minutes of work each
time a shared machine's job was stopped); Ctrl-C lost the same. Asked once, the trainer finishes
the update it is in, writes its checkpoint (between two updates, where every checkpoint is
taken, so the run resumes exactly as if it had not stopped) and raises :class:`StopRequested`.
Asked twice, it stops at once, as Python and the signal's default do, from the last checkpoint.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequested(KeyboardInterrupt):
    """The run stopped where it was asked to, its checkpoint written (a KeyboardInterrupt, so Ctrl-C's handlers
    apply)."""


class StopSignals:
    """While entered, the first SIGTERM or SIGINT sets :attr:`requested` instead of ending the process.

    Outside the main thread (where Python cannot take signals) it does nothing and never asks to stop;
    a signal the process ignores (a job started with ``nohup`` ignores SIGINT) is left ignored.
    """

    def __init__(self) -> None:
        self.requested = False
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():  # a signal the process ignores (nohup) stays so
            taken = [number for number in SIGNALS if signal.getsignal(number) is not signal.SIG_IGN]
            self._previous = {number: signal.signal(number, self._ask) for number in taken}
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None):
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous = {}

    def __call__(self) -> bool:
        return self.requested

    @contextmanager
    def suspended(self) -> Iterator[None]:
        """The signals act as before within (work that cannot stop at an update, such as a distill stage)."""
        mine = {number: signal.signal(number, handler) for number, handler in self._previous.items()}
        try:
            yield
        finally:
            for number, handler in mine.items():
                signal.signal(number, handler)

    def _ask(self, number: int, frame: FrameType | None) -> None:
        self.requested = True
        signal.signal(number, self._previous.get(number) or signal.SIG_DFL)  # asked again: the usual, at once
        name = signal.Signals(number).name
        print(f"\n{name}: stopping after this update, with a checkpoint ({name} again stops at once)", file=sys.stderr)
