"""The HTTP application: ``create_app(settings)`` builds it, ``smear-rl serve`` runs it under uvicorn.

Routes (all JSON; errors are one shape, ``{"error": {"code", "message", "field"}}``):

* ``POST /v1/suggest``: one seat's history in, its move out (stateless);
* ``POST /v1/tables``, ``GET /v1/tables/{id}``, ``POST /v1/tables/{id}/moves``,
  ``GET /v1/tables/{id}/record``, ``GET /v1/tables/{id}/events`` (server-sent events),
  ``DELETE /v1/tables/{id}``: stateful tables where bots move on their own;
* ``GET /v1/presets``, ``GET /v1/bots``, ``GET /v1/health``;
* ``POST /v1/replay``: a game record replayed to a move, every hand face up (:mod:`smear_rl.server.replay`);
* OpenAPI docs at ``/docs``; the folder ``smear_rl/web/`` at ``/`` when it holds ``index.html``.

The protocol, with examples, is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from smear_rl.server.bots import Bots, parse_rules
from smear_rl.server.catalog import presets
from smear_rl.server.errors import ApiError, RequestError
from smear_rl.server.limits import Settings
from smear_rl.server.models import ErrorBody, MoveBody, SuggestAnswer, SuggestBody, TableBody, refusal
from smear_rl.server.replay import router as replay_router
from smear_rl.server.suggest import Pools
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
        (503, "a limit of this server is reached: retry later"),
    )
}


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) before the application reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(scope, send, self.limit)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await _too_large(scope, send, self.limit)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    error = ApiError(413, "body_too_large", f"the request body exceeds this server's limit of {limit} bytes")
    await JSONResponse(error.body(), status_code=413)(scope, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


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
        await pools.warm_up()
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
        description="Every smear-rl bot one HTTP call away: stateless suggest and stateful tables. "
        "The protocol page: docs/protocol.md.",
    )
    app.state.settings, app.state.bots, app.state.services = settings, bots, services
    _install_errors(app)

    def store() -> TableStore:
        return services["tables"]

    suggest_doc = {"requestBody": {"required": True, "content": {"application/json": {
        "schema": SuggestBody.model_json_schema()}}}}  # fmt: skip

    @app.post("/v1/suggest", responses=ERRORS, tags=["suggest"], summary="the move a bot makes for one seat",
              response_model=SuggestAnswer, openapi_extra=suggest_doc)  # fmt: skip
    async def suggest(request: Request) -> Response:
        raw = await request.body()
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as err:  # nesting deeper than Python's stack is refused too
            raise RequestError(f"the body is not valid JSON: {err}") from None
        search = isinstance(data, dict) and bots.is_search(data.get("bot"))
        call = services["pools"].suggest(raw, search)
        answer = await (_unless_client_leaves(request, call) if search else call)
        if answer is None:
            return Response(status_code=499)  # nobody is left to read it
        status, payload = answer
        return Response(payload, status_code=status, media_type="application/json")

    @app.get("/v1/presets", tags=["catalog"], summary="every preset and its options")
    async def list_presets_route() -> JSONResponse:
        return JSONResponse(presets())

    @app.get("/v1/bots", responses=ERRORS, tags=["catalog"], summary="the bots usable on some rules")
    async def list_bots(
        rules: Annotated[str, Query(description="a preset name, or rules as JSON")] = "ten_point",
    ) -> JSONResponse:
        spec: Any = rules
        if rules.lstrip().startswith("{"):
            try:
                spec = json.loads(rules)
            except json.JSONDecodeError as err:
                raise RequestError(f"rules is not valid JSON: {err}", "rules") from None
        return JSONResponse(bots.describe(parse_rules(spec)))

    @app.get("/v1/health", tags=["catalog"], summary="is the service up, and how busy")
    async def health() -> JSONResponse:
        pools: Pools = services["pools"]
        return JSONResponse(
            {
                "status": "ok",
                "api_version": API_VERSION,
                "tables": len(store().tables),
                "streams": store().streams,
                "search_waiting": pools.search_waiting,
            }
        )

    @app.post("/v1/tables", status_code=201, responses=ERRORS, tags=["tables"], summary="open a table")
    async def create_table(body: TableBody) -> JSONResponse:
        start = MatchStart(body.dealer, body.scores, body.hands_played)
        table = store().create(body.rules, body.seats, body.seed, body.bot_delay_ms, start)
        seats = [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot.spec if s.bot else None, "token": s.token}
            for s in table.seats
        ]
        created = {
            "id": table.id,
            "seed": table.seed,
            "admin_token": table.admin_token,
            "seats": seats,
            "state": table.state(None),
        }
        return JSONResponse(created, status_code=201, headers={"Location": f"/v1/tables/{table.id}"})

    @app.get("/v1/tables/{table_id}", responses=ERRORS, tags=["tables"], summary="what one seat may see")
    async def get_table(
        table_id: str,
        request: Request,
        seat: Annotated[int | None, Query(ge=0, le=63, description="leave out for a spectator")] = None,
        token: Annotated[str | None, Query(description="the seat's token (or an Authorization header)")] = None,
        after: Annotated[int | None, Query(ge=-1, description="long poll: wait until version passes this")] = None,
        wait: Annotated[float, Query(ge=0, le=3600, description="long poll: seconds to wait at most")] = 0,
        log_from: Annotated[int, Query(ge=0, description="first log entry to return")] = 0,
    ) -> JSONResponse:
        table = store().get(table_id)
        store().check_seat(table, seat, _token(request, token))
        if after is not None and wait > 0:
            await store().wait(table, after, min(wait, settings.max_wait_seconds))
        return JSONResponse(table.state(seat, log_from))

    @app.post("/v1/tables/{table_id}/moves", responses=ERRORS, tags=["tables"], summary="a remote seat moves")
    async def move(
        table_id: str, body: MoveBody, request: Request, token: Annotated[str | None, Query()] = None
    ) -> JSONResponse:
        table = store().get(table_id)
        store().check_seat(table, body.seat, _token(request, token), moving=True)
        await store().move(table, body.seat, body.move)
        return JSONResponse(table.state(body.seat))

    @app.get("/v1/tables/{table_id}/record", responses=ERRORS, tags=["tables"], summary="the engine's record")
    async def record(table_id: str, request: Request, token: Annotated[str | None, Query()] = None) -> JSONResponse:
        table = store().get(table_id)
        given = _token(request, token)
        if not table.game.is_over and given != table.admin_token:
            raise ApiError(
                403,
                "record_hidden",
                "the record shows every hand's cards: it opens when the match is over, or to the admin_token",
                "token",
            )
        return JSONResponse(table.game.record())

    @app.delete("/v1/tables/{table_id}", status_code=204, responses=ERRORS, tags=["tables"], summary="close")
    async def close(table_id: str, request: Request, token: Annotated[str | None, Query()] = None) -> Response:
        table = store().get(table_id)
        if _token(request, token) != table.admin_token:
            raise ApiError(403, "bad_token", "closing a table takes its admin_token", "token")
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
        token: Annotated[str | None, Query()] = None,
    ) -> StreamingResponse:
        table = store().get(table_id)
        store().check_seat(table, seat, _token(request, token))
        if store().streams >= settings.max_streams:
            raise ApiError(
                503,
                "too_many_streams",
                f"{settings.max_streams} event streams are open (this server's limit): poll with ?after=&wait= instead",
            )
        return StreamingResponse(
            _stream(store(), table, seat, settings),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    app.include_router(replay_router, responses=ERRORS)  # POST /v1/replay: the web table's replay viewer
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["*"], allow_headers=["*"]
        )
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    if settings.web_dir is not None and (settings.web_dir / "index.html").is_file():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    return app


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


def _token(request: Request, query_token: str | None) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return query_token


async def _stream(store: TableStore, table: Table, seat: int | None, settings: Settings) -> AsyncIterator[str]:
    """One ``state`` event now and after every change; a comment line while nothing happens."""
    store.streams += 1
    table.streams += 1
    try:
        version = -1
        while table.id in store.tables:
            if table.version != version:
                version = table.version
                yield f"id: {version}\nevent: state\ndata: {json.dumps(table.state(seat))}\n\n"
                if table.is_over():
                    break
            await store.wait(table, version, settings.keepalive_seconds)
            if table.version == version:
                table.touch()
                yield ": keep-alive\n\n"
        if table.id not in store.tables:
            yield "event: closed\ndata: {}\n\n"
    finally:
        store.streams -= 1
        table.streams -= 1


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
