"""The HTTP application: ``create_app(settings)`` builds it, ``smear-rl serve`` runs it under uvicorn.

Routes (all JSON; errors are one shape, ``{"error": {"code", "message", "field"}}``):

* ``POST /v1/suggest``: one seat's history in, its move out (stateless);
* ``POST /v1/tables``, ``GET /v1/tables/{id}``, ``POST /v1/tables/{id}/moves``,
  ``GET /v1/tables/{id}/record``, ``GET /v1/tables/{id}/events`` (server-sent events),
  ``DELETE /v1/tables/{id}``: stateful tables where bots move on their own;
* ``GET /v1/presets``, ``GET /v1/bots``, ``GET /v1/health``;
* ``POST /v1/replay``: a game record replayed to a move, every hand face up (:mod:`smear_rl.server.replay`);
* the API reference at ``/docs`` (:mod:`smear_rl.server.apidocs`, no CDN); the folder
  ``smear_rl/web/`` at ``/`` when it holds ``index.html``.

The event loop only routes: request bodies are parsed and bots run in worker processes
(:mod:`smear_rl.server.pools`), each client in its turn; what a route does here is look up
a table and send bytes built once per change. The protocol, with examples, is
``docs/protocol.md``; who may see and do what, ``docs/service-security.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from smear_rl.server.apidocs import api_page
from smear_rl.server.bots import Bots
from smear_rl.server.catalog import presets
from smear_rl.server.errors import ApiError
from smear_rl.server.guards import BodyLimit, ClientLimit, QueryToken, client_of
from smear_rl.server.limits import Settings
from smear_rl.server.models import ErrorBody, MoveBody, SuggestAnswer, SuggestBody, TableBody, refusal
from smear_rl.server.pools import Pools
from smear_rl.server.replay import ReplayBody
from smear_rl.server.tables import MatchStart, Table, TableStore

log = logging.getLogger("smear_rl.server")
API_VERSION = "1"

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in (
        (403, "wrong or missing token"),
        (404, "no such table"),
        (409, "not that seat's turn"),
        (413, "body too large"),
        (422, "the request does not fit the rules"),
        (429, "a limit per client is reached: wait for your own calls, or close a table or stream"),
        (503, "a limit of this server is reached: retry later"),
    )
}
#: the API reference page may load nothing: its style is inline and it has no script
DOCS_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
BEARER = "Authorization: Bearer <token>"


def _body_doc(model: Any) -> dict[str, Any]:
    """The OpenAPI request body of a route that reads its raw bytes (parsed in a worker, not here)."""
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


def create_app(settings: Settings | None = None, exported: dict[str, str] | None = None) -> FastAPI:
    """The service with these settings; ``exported`` adds exported agents by name (``{"mine": "runs/x.npz"}``)."""
    settings = settings or Settings()
    bots = Bots(settings, exported)
    services: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pools = Pools(settings, bots)
        services["pools"] = pools
        services["tables"] = TableStore(settings, bots, pools)
        await pools.start()
        # what starting made (modules, the app, the catalog) is never garbage: keep it out of full collections, which
        # would otherwise walk it every time and hold up every request for tens of milliseconds
        gc.freeze()
        reaper = asyncio.create_task(_reap(services["tables"]))
        try:
            yield
        finally:
            reaper.cancel()
            for table in list(services["tables"].tables.values()):
                services["tables"].close(table)
            pools.close()

    app = FastAPI(
        title="smear-rl bot service",
        version=API_VERSION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        description="Every smear-rl bot one HTTP call away: stateless suggest and stateful tables. "
        "The protocol page: docs/protocol.md.",
    )
    app.state.settings, app.state.bots, app.state.services = settings, bots, services
    _install_errors(app)

    def store() -> TableStore:
        return services["tables"]

    def pools() -> Pools:
        return services["pools"]

    @app.post("/v1/suggest", responses=ERRORS, tags=["suggest"], summary="the move a bot makes for one seat",
              response_model=SuggestAnswer, openapi_extra=_body_doc(SuggestBody))  # fmt: skip
    async def suggest(request: Request) -> Response:
        raw, client = await request.body(), client_of(request.scope)
        answer = await pools().suggest(raw, client)
        if answer is None:  # a sound call of a search bot: it queues for the search pool
            answer = await _unless_client_leaves(request, pools().search_answer(raw, client))
            if answer is None:
                return Response(status_code=499)  # nobody is left to read it
        return _json(*answer)

    @app.get("/v1/presets", tags=["catalog"], summary="every preset and its options")
    async def list_presets_route() -> JSONResponse:
        return JSONResponse(presets())

    @app.get("/v1/bots", responses=ERRORS, tags=["catalog"], summary="the bots usable on some rules")
    async def list_bots(
        request: Request,
        rules: Annotated[str, Query(description="a preset name, or rules as JSON")] = "ten_point",
    ) -> Response:
        return _json(*await pools().describe_bots(rules, client_of(request.scope)))

    @app.get("/v1/health", tags=["catalog"], summary="is the service up, and how busy")
    async def health() -> JSONResponse:
        workers = pools().health()
        healthy = all(pool["healthy"] for pool in workers.values())
        return JSONResponse(
            {
                "status": "ok" if healthy else "degraded",
                "api_version": API_VERSION,
                "tables": len(store().tables),
                "streams": store().streams,
                "search_waiting": pools().search_waiting,
                "workers": workers,
            }
        )

    @app.post("/v1/tables", status_code=201, responses=ERRORS, tags=["tables"], summary="open a table")
    async def create_table(body: TableBody, request: Request) -> JSONResponse:
        start = MatchStart(body.dealer, body.scores, body.hands_played)
        owner = client_of(request.scope)
        table = store().create(body.rules, body.seats, body.seed, body.bot_delay_ms, start, owner)
        seats = [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot.spec if s.bot else None, "token": s.token}
            for s in table.seats
        ]
        created = {
            "id": table.id,
            "seed": table.seed,
            "admin_token": table.admin_token,
            "seats": seats,
            "state": table.state(None, admin=True),
        }
        return JSONResponse(created, status_code=201, headers={"Location": f"/v1/tables/{table.id}"})

    @app.get("/v1/tables/{table_id}", responses=ERRORS, tags=["tables"], summary="what one seat may see")
    async def get_table(
        table_id: str,
        request: Request,
        seat: Annotated[int | None, Query(ge=0, le=63, description="leave out for a spectator")] = None,
        after: Annotated[int | None, Query(ge=-1, description="long poll: wait until version passes this")] = None,
        wait: Annotated[float, Query(ge=0, le=3600, description="long poll: seconds to wait at most")] = 0,
        log_from: Annotated[int, Query(ge=0, description="first log entry to return")] = 0,
    ) -> Response:
        table = store().get(table_id)
        token = _token(request)
        store().check_seat(table, seat, token)
        if after is not None and wait > 0:
            await store().wait(table, after, min(wait, settings.max_wait_seconds))
        admin = store().is_admin(table, token)
        if log_from:
            return JSONResponse(table.state(seat, log_from, admin))
        return _json(200, table.encoded(seat, admin))

    @app.post("/v1/tables/{table_id}/moves", responses=ERRORS, tags=["tables"], summary="a remote seat moves")
    async def move(table_id: str, body: MoveBody, request: Request) -> Response:
        table = store().get(table_id)
        store().check_seat(table, body.seat, _token(request), moving=True)
        await store().move(table, body.seat, body.move)
        return _json(200, table.encoded(body.seat))

    @app.get("/v1/tables/{table_id}/record", responses=ERRORS, tags=["tables"], summary="the engine's record")
    async def record(table_id: str, request: Request) -> JSONResponse:
        table = store().get(table_id)
        if not table.game.is_over and not store().is_admin(table, _token(request)):
            raise ApiError(
                403,
                "record_hidden",
                "the record shows every hand's cards: it opens when the match is over, or to the admin_token",
                "token",
            )
        return JSONResponse(table.game.record())

    @app.delete("/v1/tables/{table_id}", status_code=204, responses=ERRORS, tags=["tables"], summary="close")
    async def close(table_id: str, request: Request) -> Response:
        table = store().get(table_id)
        if not store().is_admin(table, _token(request)):
            raise ApiError(403, "bad_token", f"closing a table takes its admin_token ({BEARER})", "token")
        store().close(table)
        return Response(status_code=204)

    @app.get(
        "/v1/tables/{table_id}/events",
        responses=ERRORS,
        tags=["tables"],
        summary="server-sent events: the seat's state after every change",
    )
    async def events(
        table_id: str,
        request: Request,
        seat: Annotated[int | None, Query(ge=0, le=63)] = None,
        token: Annotated[
            str | None,
            Query(
                description="for browsers' EventSource only, which cannot send headers: the server takes it out "
                "of the URL before anything logs it; every other client sends " + BEARER
            ),
        ] = None,  # fmt: skip
    ) -> StreamingResponse:
        table = store().get(table_id)
        given = _token(request)
        store().check_seat(table, seat, given)
        release = store().open_stream(table, client_of(request.scope))
        return WatchedStream(
            _stream(store(), table, seat, store().is_admin(table, given), settings),
            release,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.post("/v1/replay", responses=ERRORS, tags=["replay"], openapi_extra=_body_doc(ReplayBody),
              summary="a record replayed to a move, every hand face up")  # fmt: skip
    async def replay(request: Request) -> Response:
        return _json(*await pools().replay(await request.body(), client_of(request.scope)))

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(_docs_page(app), headers={"Content-Security-Policy": DOCS_POLICY})

    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["*"], allow_headers=["*"]
        )
    app.add_middleware(BodyLimit, large=settings.max_body_bytes, small=settings.max_small_body_bytes)
    app.add_middleware(ClientLimit, limit=settings.max_requests_per_client)
    app.add_middleware(QueryToken)  # the outermost: nothing after it sees a token in a URL
    if settings.web_dir is not None and (settings.web_dir / "index.html").is_file():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    return app


def _docs_page(app: FastAPI) -> str:
    """The reference page, rendered once per application (the schema does not change while it runs)."""
    page = getattr(app.state, "docs_page", None)
    if page is None:
        page = app.state.docs_page = api_page(app.openapi())
    return page


def _json(status: int, payload: bytes) -> Response:
    return Response(payload, status_code=status, media_type="application/json")


class WatchedStream(StreamingResponse):
    """An event stream that gives back its slot (``release``) however it ends, even before its first byte."""

    def __init__(self, content: Any, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


async def _unless_client_leaves(request: Request, work: Any) -> Any:
    """``work``'s result, or None if the client disconnects first: a queued search call is then dropped, so
    abandoned calls (a client that timed out) do not fill the search queue."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if task.done():
        return task.result()
    task.cancel()
    return None


async def _disconnect(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _token(request: Request) -> str | None:
    """The bearer token of the request (the event stream's ``?token=`` is moved here by :class:`QueryToken`)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


async def _stream(
    store: TableStore, table: Table, seat: int | None, admin: bool, settings: Settings
) -> AsyncIterator[bytes]:
    """One ``state`` event now and after every change (the same bytes for every stream of that viewer), at most one
    each ``stream_interval_ms`` (changes closer together are sent as the newest state); a comment line while nothing
    happens."""
    version, sent = -1, 0.0
    interval = settings.stream_interval_ms / 1000
    loop = asyncio.get_running_loop()
    while table.id in store.tables:
        if table.version != version:
            if loop.time() - sent < interval:
                await asyncio.sleep(interval - (loop.time() - sent))
                continue
            version, sent = table.version, loop.time()
            yield table.event(seat, admin)
            if table.is_over():
                break
        await store.wait(table, version, settings.keepalive_seconds)
        if table.version == version:
            table.touch()
            yield b": keep-alive\n\n"
    if table.id not in store.tables:
        yield b"event: closed\ndata: {}\n\n"


async def _reap(store: TableStore) -> None:
    while True:
        await asyncio.sleep(min(60.0, store.settings.table_idle_seconds / 4))
        gone = store.expire()
        if gone:
            log.info("expired %d idle tables", gone)


def _install_errors(app: FastAPI) -> None:
    """Every error in the one shape: ours, FastAPI's validation errors, HTTP errors, and anything unexpected."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, err: ApiError) -> JSONResponse:
        return JSONResponse(err.body(), status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse(refusal(list(err.errors())).body(), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, err: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        return JSONResponse(ApiError(err.status_code, code, str(err.detail)).body(), status_code=err.status_code)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, err: Exception) -> JSONResponse:
        log.exception("unexpected error")
        return JSONResponse(ApiError(500, "internal", f"internal error ({type(err).__name__})").body(), status_code=500)
