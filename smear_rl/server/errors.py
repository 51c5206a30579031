"""The service's one error shape: ``{"error": {"code": ..., "message": ..., "field": ...}}``.

Every refusal, from a malformed body to a history that does not fit the rules, is
an :class:`ApiError` with an HTTP status, a stable machine-readable ``code``, a
message saying what was wrong and what was expected, and the request ``field`` it
concerns (``events[12].move``; ``None`` when it is the request as a whole).

A message leaves the server through :func:`public_text`: a file path of the server's shows
as its file name alone (an agent refusing rules names its file), and a message quoting a
huge request is cut short, so an answer never echoes a near-limit body back.
"""

from __future__ import annotations

import re
from typing import Any

#: characters of a message at most; longer ones end in an ellipsis
MESSAGE_LIMIT = 600
#: an absolute path ending in a file name with an extension (/srv/app/agents/shipped/ten_point.npz)
_SERVER_PATH = re.compile(r"(?<![\w.~])/(?:[\w.\-]+/)+([\w\-]+\.\w+)")


def public_text(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as a client may read it: server paths reduced to their file name, at most ``limit`` characters
    (cut before the paths are looked for too, so a message quoting a whole body costs no more than a short one)."""
    text = _SERVER_PATH.sub(lambda match: match.group(1), text[: 4 * limit])
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class ApiError(Exception):
    """A refusal with its HTTP status; :meth:`body` is what the client receives."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        message = public_text(message)
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, public_text(field or "", 200) or None

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
