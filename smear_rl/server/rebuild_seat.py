"""Rebuild one seat's state: the entry point of :mod:`smear_rl.server.rebuild`'s design.

Picks the game's reader of the history (:mod:`~smear_rl.server.rebuild_smear` or
:mod:`~smear_rl.server.rebuild_schneider`), finds a deal that fits and replays it, or
finds the first event at which the history stops fitting (the module docstring of
:mod:`smear_rl.server.rebuild` tells how). It lives apart from those shared pieces
because it imports both game readers, and they import the shared pieces: one module holding
both would import itself in a circle.
"""

from __future__ import annotations

from smear_env.schneider.game import SchneiderRules
from smear_rl.server.errors import RequestError, history_error
from smear_rl.server.rebuild import Event, History, Rebuilt, SeatRequest, index_of
from smear_rl.server.rebuild_schneider import SchneiderHistory
from smear_rl.server.rebuild_smear import SmearHistory


def rebuild(req: SeatRequest, keep_views: bool = False) -> Rebuilt:
    """The engine state ``req.seat`` is in; :class:`RequestError` naming the first problem of the history."""
    history = history_for(req)
    events, static_problem = history.read()
    whole = history.attempt(events, complete=static_problem is None)
    if isinstance(whole, tuple):
        game, views, problem = history.replay(events, whole, keep_views)
        if problem is None and static_problem is None:
            return history.finish(game, views)
    located = _locate(history, events)
    problem = first_problem(located, static_problem)
    if problem is None:  # every event fits; only the whole history's completeness check failed
        problem = whole if isinstance(whole, RequestError) else _whole(str(whole))
    raise problem


def history_for(req: SeatRequest) -> History:
    return SchneiderHistory(req) if isinstance(req.rules, SchneiderRules) else SmearHistory(req)


def first_problem(*problems: RequestError | None) -> RequestError | None:
    found = [p for p in problems if p is not None]
    return min(found, key=index_of) if found else None


def _whole(failure: RequestError | str) -> RequestError:
    if isinstance(failure, RequestError):
        return failure
    return RequestError(f"the history does not fit: {failure}", "events", "invalid_history")


def _locate(history: History, events: list[Event]) -> RequestError | None:
    """The first event at which the history stops fitting (None if every prefix fits); see the module docstring."""

    def fits(k: int) -> bool:
        fitting = history.attempt(events[:k], complete=False)
        return isinstance(fitting, tuple) and history.replay(events[:k], fitting, False)[2] is None

    if fits(len(events)):
        return None
    lo, hi = 0, len(events)  # events[:lo] fits, events[:hi] does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    culprit = events[hi - 1]
    before = history.attempt(events[:lo], complete=False)
    problem = history.replay(events[:hi], before, False)[2] if isinstance(before, tuple) else None
    if (
        problem is not None
        and index_of(problem) == culprit.index
        and ((problem.field or "").endswith(".seat") or culprit.seat == history.req.seat)
    ):
        return problem  # turn order, or my own move: the engine's own words
    reason = history.attempt(events[:hi], complete=False)
    if isinstance(reason, RequestError):
        return reason
    what = history.describe(culprit)
    if isinstance(reason, str):
        return history_error(culprit.index, f"{what} does not fit the history: {reason}")
    problem = history.replay(events[:hi], reason, False)[2]
    if problem is None or index_of(problem) == culprit.index:
        return problem or history_error(culprit.index, f"{what} does not fit the history")
    earlier = next(ev for ev in events if ev.index == index_of(problem))
    return history_error(
        culprit.index,
        f"{what} does not fit the history: it contradicts events[{earlier.index}] ({history.describe(earlier)})",
    )
