"""What every request passes before a route sees it: who the client is, how much it may hold, how big its body is,
and where its token travels. Each guard is a plain ASGI middleware that answers in the service's error shape.

* :class:`QueryToken`: tokens travel in an ``Authorization: Bearer`` header. Only the event
  stream takes ``?token=`` (a browser's ``EventSource`` cannot set headers); the guard moves
  it into the header and out of the URL *in place*, before anything reads it, so the
  access log (uvicorn writes the same request's path and query) never holds a token. A
  token in any other URL is refused (422), since proxies and browsers log URLs too.
* :class:`ClientLimit`: at most ``--max-requests-per-client`` requests of one client in
  progress at once (429 beyond), so one client's flood waits on itself; event streams are
  counted apart (:meth:`~smear_rl.server.tables.TableStore.watching`).
* :class:`BodyLimit`: suggest and replay bodies up to ``--max-body-bytes``, every other
  body up to ``--max-small-body-bytes`` (413), refused before the application reads them.

A client is the address a request comes from (:func:`client_of`): behind a reverse proxy
on the same machine, uvicorn takes it from the proxy's ``X-Forwarded-For``
(``docs/service-security.md``).
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import parse_qsl, urlencode

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from smear_rl.server.errors import ApiError

#: the one route that takes its token in the URL
STREAM_PATH = re.compile(r"^/v1/tables/[^/]+/events$")
#: routes whose bodies may be large (a whole hand's history, a whole match's record)
LARGE_BODY_PATHS = frozenset({"/v1/suggest", "/v1/replay"})


def client_of(scope: Scope) -> str:
    """The client a request counts against: its address (after a trusted proxy's ``X-Forwarded-For``)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


async def refuse(scope: Scope, send: Send, error: ApiError) -> None:
    """Answer ``error`` without running the application."""
    await JSONResponse(error.body(), status_code=error.status)(scope, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


class QueryToken:
    """``?token=`` moved into the ``Authorization`` header on the event stream, and refused elsewhere."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("query_string"):
            pairs = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True, encoding="latin-1")
            tokens = [value for key, value in pairs if key == "token"]
            if tokens:  # out of the URL first: a refused request is logged too
                rest = [(key, value) for key, value in pairs if key != "token"]
                scope["query_string"] = urlencode(rest, encoding="latin-1").encode("latin-1")
                if not STREAM_PATH.match(scope["path"]):
                    error = ApiError(
                        422,
                        "token_in_query",
                        "send the token in a header, 'Authorization: Bearer <token>': a URL is written to logs "
                        "(only the event stream takes ?token=, for browsers' EventSource)",
                        "token",
                    )
                    await refuse(scope, send, error)
                    return
                headers = [(k, v) for k, v in scope["headers"] if k != b"authorization"]
                scope["headers"] = [*headers, (b"authorization", b"Bearer " + tokens[-1].encode("latin-1"))]
        await self.app(scope, receive, send)


class ClientLimit:
    """At most ``limit`` requests of one client in progress at once (event streams apart); 429 beyond."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit
        self.active: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or STREAM_PATH.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        if self.active[client] >= self.limit:
            message = f"{self.limit} of your requests are in progress (this server's limit per client): wait for them"
            await refuse(scope, send, ApiError(429, "request_quota", message))
            return
        self.active[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active[client] -= 1
            if not self.active[client]:
                del self.active[client]


class BodyLimit:
    """Refuse request bodies over the route's limit (413) before the application reads them."""

    def __init__(self, app: ASGIApp, large: int, small: int) -> None:
        self.app, self.large, self.small = app, large, small

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.large if scope["path"] in LARGE_BODY_PATHS else self.small
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await refuse(scope, send, _too_large(limit))
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(scope, send, _too_large(limit))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, sent = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _too_large(limit: int) -> ApiError:
    return ApiError(413, "body_too_large", f"the request body exceeds this route's limit of {limit} bytes")
