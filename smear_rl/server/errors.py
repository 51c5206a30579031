"""The service's one error shape: ``{"error": {"code": ..., "message": ..., "field": ...}}``.

Every refusal, from a malformed body to a history that does not fit the rules, is
an :class:`ApiError` with an HTTP status, a stable machine-readable ``code``, a
message saying what was wrong and what was expected, and the request ``field`` it
concerns (``events[12].move``; ``None`` when it is the request as a whole).
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal with its HTTP status; :meth:`body` is what the client receives."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}


class RequestError(ApiError, ValueError):
    """422: the request is well formed JSON but says something impossible (bad rules, a history that does not fit)."""

    def __init__(self, message: str, field: str | None = None, code: str = "invalid_request") -> None:
        super().__init__(422, code, message, field)


def history_error(index: int, message: str, part: str = "") -> RequestError:
    """422 about ``events[index]`` (``part``: the key within it, e.g. ``move``)."""
    where = f"events[{index}]" + (f".{part}" if part else "")
    return RequestError(f"{where}: {message}", where, "invalid_history")
