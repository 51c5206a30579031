"""The service as a hostile client tries it: what leaks, what wedges it, what grows, who can crowd out whom.

Each case of issue 60 is a test here, against a real uvicorn (with uvloop, as ``smear-rl
serve`` runs) on a free loopback port with real worker processes. Clients connect from
their own loopback addresses (127.0.1.x), so the server counts them as different clients,
as it would different machines.

* no answer, stream or log line shows a spectator or a seat a card its player could not
  know, nor the seed, before the match is over; the admin token reads but moves nothing;
  tokens in URLs are refused, except the event stream's, which never reaches the log;
* bodies just under the size limit, of every shape, are refused cleanly and leave every
  worker answering (once, one of them left a worker's pipe half-written and calls hanging);
* one client cannot take every table, stream or search slot, nor make another wait behind
  its backlog (search tables, replays); streams share one serialization per change;
* caches stay bounded however many rule sets and bot options clients send;
* the catalog, the neural agent's refusals and the API page keep to their promises.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import smear_rl.server.work as work  # noqa: E402
from agents.demo import play_match  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from smear_env.game import PLAY, Game  # noqa: E402
from smear_env.observation import player_view  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.bots import _parse_rules  # noqa: E402
from smear_rl.server.history import Tracker, suggest_body  # noqa: E402
from smear_rl.server.limits import WEB_DIR, Settings  # noqa: E402
from smear_rl.server.tables import Table  # noqa: E402
from tests.ports import free_port  # noqa: E402

SETTINGS = Settings(
    bot_workers=1,
    search_workers=1,
    search_time_cap=0.05,
    max_search_samples=16,
    max_bid_samples=4,
    search_queue=4,
    max_tables_per_client=3,
    max_streams_per_client=3,
    max_requests_per_client=6,
    max_bot_moves_per_client=40,
    stream_interval_ms=300,
    keepalive_seconds=0.5,
)
#: a card as the protocol writes it, alone: not inside a longer word, nor a random table id ("i1Ht3AvW4_2S", whose
#: letters, digits, "_" and "-" the test once read as the card 2S)
CARD = re.compile(r"(?<![\w-])(?:JK2?|[2-9TJQKA][CDHS])(?![\w-])")


class Server:
    """A uvicorn server in a thread of this process: its app, its base URL, and the access log it wrote."""

    def __init__(self, settings: Settings) -> None:
        self.app: FastAPI = create_app(settings)
        self.access_log: list[str] = []
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_config=None, access_log=True,
                                log_level="info")  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> Server:
        handler = ListHandler(self.access_log)
        logging.getLogger("uvicorn.access").addHandler(handler)
        self.thread.start()
        deadline = time.monotonic() + 120
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def table(self, table_id: str) -> Table:
        return self.app.state.services["tables"].tables[table_id]


class ListHandler(logging.Handler):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.INFO)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    live = Server(SETTINGS).start()
    yield live
    live.stop()


def client(server: Server, address: str, timeout: float = 60) -> httpx.Client:
    """A client connecting from ``address`` (any of 127.0.0.0/8 reaches the server): a client of its own."""
    return httpx.Client(base_url=server.url, timeout=timeout, transport=httpx.HTTPTransport(local_address=address))


def async_client(server: Server, address: str, timeout: float = 60) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=server.url, timeout=timeout, transport=transport)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def first_card_bodies(preset: str = "ten_point") -> tuple[dict[str, Any], dict[str, Any]]:
    """Suggest bodies for search and for the rule bot at a first card play."""
    game = Game(preset, seed=2)
    tracker, bot = Tracker(game), make_agent("rule", preset, 0)
    while not (game.phase == PLAY and len(game.legal_actions()) > 1):
        tracker.apply(bot.act(player_view(game, game.current_player)))
    seat = game.current_player
    return suggest_body(tracker, seat, "search", preset), suggest_body(tracker, seat, "rule", preset)


# ---------------------------------------------------------------------- what each token sees


def cards_in(state: dict[str, Any]) -> set[str]:
    """Every card a state names, but those of partner calls offered (any card not in one's hand may be called)."""

    def uncalled(moves: list[str]) -> list[str]:
        return [move for move in moves if not move.startswith("call ")]

    view = state["view"] | {"legal_moves": uncalled(state["view"].get("legal_moves", []))}
    return set(CARD.findall(json.dumps(state | {"legal_moves": uncalled(state["legal_moves"]), "view": view})))


@pytest.mark.parametrize("preset", ["minnesota", "ten_point_5p"])
def test_no_state_shows_a_card_its_viewer_could_not_know_nor_the_seed(server: Server, preset: str) -> None:
    """A whole first hand played through the API, every move: the spectator's state (as answered and as streamed)
    holds no card but those played or called in the open, a seat's no card but those and its own; neither holds
    the seed, which would rebuild every hand. The admin's state holds the seed; the record is the admin's."""
    players = Game(preset).num_players
    with client(server, "127.0.1.1") as http:
        created = http.post("/v1/tables", json={"rules": preset, "seats": ["remote"] * players, "seed": 5}).json()
        url, tokens = f"/v1/tables/{created['id']}", [s["token"] for s in created["seats"]]
        assert created["seed"] == 5 and created["state"]["seed"] == 5  # the creator is the admin
        table = server.table(created["id"])
        bots = [make_agent("rule", preset, seat) for seat in range(players)]
        moves = 0
        while len(table.tracker.hands) == 1 and not table.game.is_over:
            events = table.tracker.hands[0]
            public = {c for e in events for c in CARD.findall(e.get("move", "")) if not e["move"].startswith("discard")}
            spectator = http.get(url).json()
            assert spectator["seed"] is None and cards_in(spectator) <= public, (moves, spectator)
            for seat in range(players):
                mine = http.get(url, params={"seat": seat}, headers=bearer(tokens[seat])).json()
                own = set(table.tracker.dealt[0][seat]) | {c for e in events if e["seat"] == seat
                                                          for c in e.get("take", [])}  # fmt: skip
                assert mine["seed"] is None and cards_in(mine) <= public | own, (moves, seat)
            seat = spectator["current_player"]
            mine = http.get(url, params={"seat": seat}, headers=bearer(tokens[seat])).json()
            move = bots[seat].act(mine["view"])
            assert http.post(f"{url}/moves", json={"seat": seat, "move": move},
                             headers=bearer(tokens[seat])).status_code == 200  # fmt: skip
            moves += 1
        assert moves > 20
        with http.stream("GET", f"{url}/events") as stream:  # the spectator's stream: the same state
            line = next(line for line in stream.iter_lines() if line.startswith("data: "))
        streamed = json.loads(line[6:])
        assert streamed["seed"] is None and streamed["version"] == moves
        assert http.get(url, headers=bearer(created["admin_token"])).json()["seed"] == 5
        assert http.get(f"{url}/record").status_code == 403
        assert http.get(f"{url}/record", headers=bearer(created["admin_token"])).json()["seed"] == 5
        assert http.delete(url, headers=bearer(created["admin_token"])).status_code == 204


def test_the_seed_opens_to_all_when_the_match_is_over(server: Server) -> None:
    with client(server, "127.0.1.2") as http:
        body = {"rules": {"preset": "ten_point", "target_score": 4}, "seats": ["rule"] * 4, "seed": 8}
        created = http.post("/v1/tables", json=body).json()
        url, state = f"/v1/tables/{created['id']}", created["state"]
        while not state["match_over"]:
            state = http.get(url, params={"after": state["version"], "wait": 10}).json()
        assert state["seed"] == 8 and http.get(f"{url}/record").json()["seed"] == 8


def test_the_admin_token_reads_every_seat_but_moves_for_none(server: Server) -> None:
    with client(server, "127.0.1.3") as http:
        created = http.post("/v1/tables", json={"rules": "ten_point", "seats": ["remote"] * 4, "seed": 3}).json()
        url, admin = f"/v1/tables/{created['id']}", bearer(created["admin_token"])
        assert http.get(url, params={"seat": 1}, headers=admin).json()["view"]["hand"]
        refused = http.post(f"{url}/moves", json={"seat": 1, "move": "pass"}, headers=admin)
        assert refused.status_code == 403 and "moves for none" in refused.json()["error"]["message"]
        assert http.get(url).json()["version"] == 0  # nothing moved
        own = http.post(f"{url}/moves", json={"seat": 1, "move": "pass"}, headers=bearer(created["seats"][1]["token"]))
        assert own.status_code == 200
        assert http.delete(url, headers=admin).status_code == 204


def test_tokens_travel_in_headers_and_the_streams_url_token_never_reaches_the_access_log(server: Server) -> None:
    with client(server, "127.0.1.4") as http:
        created = http.post("/v1/tables", json={"rules": "ten_point", "seats": ["remote"] * 4}).json()
        url, token, admin = f"/v1/tables/{created['id']}", created["seats"][0]["token"], created["admin_token"]
        for method, path, extra in [("GET", url, {"seat": 0}), ("GET", f"{url}/record", {}),
                                    ("POST", f"{url}/moves", {}), ("DELETE", url, {})]:  # fmt: skip
            given = admin if method == "DELETE" or path.endswith("record") else token
            answer = http.request(method, path, params={**extra, "token": given}, json={"seat": 0, "move": "pass"})
            assert answer.status_code == 422 and answer.json()["error"]["code"] == "token_in_query", path
        with http.stream("GET", f"{url}/events", params={"seat": 0, "token": token}) as stream:  # EventSource's way
            line = next(line for line in stream.iter_lines() if line.startswith("data: "))
        assert json.loads(line[6:])["view"]["hand"]  # the seat's own state: the token was taken
        http.delete(url, headers=bearer(admin))
    time.sleep(0.2)
    lines = "\n".join(server.access_log)
    assert f"{created['id']}/events" in lines  # the stream's request is logged ...
    assert token not in lines and admin not in lines  # ... without its token, nor any refused one


# ---------------------------------------------------------------------- bodies near the limit


def near_limit_bodies() -> list[tuple[str, bytes]]:
    """Suggest bodies of many shapes, each just under the 256 KB limit."""
    limit = SETTINGS.max_body_bytes
    search, rule = first_card_bodies()
    shapes: list[tuple[str, Any]] = []
    for name, base in (("rule", rule), ("search", search)):
        empties = (limit - len(json.dumps(base))) // 4
        shapes += [
            (f"{name}: empty events", base | {"events": [{}] * empties}),
            (f"{name}: long events", base | {"events": base["events"] + [{"seat": 0, "move": "x" * 1000}] * 200}),
            (f"{name}: long bot", base | {"bot": base["bot"] + ":" + "y" * (limit - 2000)}),
            (f"{name}: wide rules", base | {"rules": {"preset": "ten_point", **{f"o{k}": k for k in range(20000)}}}),
            (f"{name}: long hand", base | {"hand": ["AS" * 60000]}),
        ]
    out = []
    for name, body in shapes:
        raw = json.dumps(body).encode()
        raw = raw[: limit - 10] if len(raw) > limit else raw
        out.append((name, raw))
    out.append(("deep nesting", b"[" * 100_000 + b"]" * 100_000))
    return out


def test_near_limit_bodies_are_refused_cleanly_and_every_later_call_is_answered(server: Server) -> None:
    """Each body goes out four at a time (more than a socket's buffer in flight to the one bot worker), then
    rule, neural and random calls, concurrently: all answered, none hanging, the health report clean."""
    _, rule = first_card_bodies()

    async def go() -> tuple[list[tuple[str, int, int]], list[int]]:
        async with async_client(server, "127.0.1.5", timeout=30) as http:
            refused = []
            for name, raw in near_limit_bodies():
                headers = {"content-type": "application/json"}
                answers = await asyncio.gather(*(http.post("/v1/suggest", content=raw, headers=headers)
                                                 for _ in range(4)))  # fmt: skip
                refused += [(name, a.status_code, len(a.content)) for a in answers]
            later = await asyncio.gather(*(http.post("/v1/suggest", json=rule | {"bot": bot, "seed": k})
                                           for k in range(2) for bot in ("rule", "neural", "random")))  # fmt: skip
            return refused, [a.status_code for a in later]

    refused, later = asyncio.run(go())
    assert all(400 <= status < 500 and size < 2000 for _, status, size in refused), refused  # short refusals
    assert later == [200] * 6
    health = httpx.get(f"{server.url}/v1/health").json()
    assert health["status"] == "ok" and health["workers"]["bots"]["restarts"] == 0


def test_a_table_with_a_search_seat_keeps_moving_after_near_limit_search_bodies(server: Server) -> None:
    search_bodies = [raw for name, raw in near_limit_bodies() if name.startswith("search")]
    with client(server, "127.0.1.6") as http:
        for raw in search_bodies:
            answer = http.post("/v1/suggest", content=raw, headers={"content-type": "application/json"})
            assert 400 <= answer.status_code < 500
        created = http.post("/v1/tables", json={"rules": "ten_point", "seats": ["search", "rule", "search", "rule"],
                                                "seed": 4}).json()  # fmt: skip
        url = f"/v1/tables/{created['id']}"
        state = http.get(url, params={"after": 5, "wait": 30}).json()
        assert state["version"] > 5 and state["error"] is None
        http.delete(url, headers=bearer(created["admin_token"]))


def test_a_killed_worker_fails_no_later_call_and_the_health_report_says_so(server: Server) -> None:
    _, rule = first_card_bodies()
    pools = server.app.state.services["pools"]
    restarts = pools.cheap.health()["restarts"]
    pools.cheap._workers[0].process.kill()
    with client(server, "127.0.1.7") as http:
        statuses = [http.post("/v1/suggest", json=rule | {"seed": k}).status_code for k in range(5)]
        health = http.get("/v1/health").json()
    assert statuses.count(200) >= 4 and set(statuses) <= {200, 503}  # only a call caught in the dying worker fails
    assert health["workers"]["bots"]["restarts"] == restarts + 1


# ---------------------------------------------------------------------- one client among others


def test_one_client_cannot_take_every_table_or_stream_slot(server: Server) -> None:
    body = {"rules": "ten_point", "seats": ["remote"] * 4}
    with client(server, "127.0.1.8") as greedy, client(server, "127.0.1.9") as other:
        tables = [greedy.post("/v1/tables", json=body) for _ in range(SETTINGS.max_tables_per_client + 1)]
        assert [t.status_code for t in tables] == [201] * SETTINGS.max_tables_per_client + [429]
        assert tables[-1].json()["error"]["code"] == "table_quota"
        theirs = other.post("/v1/tables", json=body)
        assert theirs.status_code == 201
        url = f"/v1/tables/{theirs.json()['id']}/events"
        streams = [greedy.stream("GET", url) for _ in range(SETTINGS.max_streams_per_client + 1)]
        opened = [s.__enter__() for s in streams]
        assert [r.status_code for r in opened] == [200] * SETTINGS.max_streams_per_client + [429]
        with other.stream("GET", url) as mine:
            assert mine.status_code == 200
        for stream in streams:
            stream.__exit__(None, None, None)
        time.sleep(0.3)
        assert greedy.stream("GET", url).__enter__().status_code == 200  # the slots came back
        for created in [t.json() for t in tables[:-1]] + [theirs.json()]:
            greedy.delete(f"/v1/tables/{created['id']}", headers=bearer(created["admin_token"]))


def test_a_clients_requests_in_progress_are_bounded_and_others_are_not_kept_waiting(server: Server) -> None:
    async def go() -> tuple[list[int], int]:
        async with async_client(server, "127.0.1.10") as greedy, async_client(server, "127.0.1.11") as other:
            created = (await greedy.post("/v1/tables", json={"rules": "ten_point", "seats": ["remote"] * 4})).json()
            url = f"/v1/tables/{created['id']}"
            polls = [asyncio.ensure_future(greedy.get(url, params={"after": 0, "wait": 2})) for _ in range(10)]
            await asyncio.sleep(0.3)
            theirs = (await other.get(url)).status_code
            statuses = [r.status_code for r in await asyncio.gather(*polls)]
            await greedy.delete(url, headers=bearer(created["admin_token"]))
            return statuses, theirs

    statuses, theirs = asyncio.run(go())
    assert statuses.count(200) == SETTINGS.max_requests_per_client and statuses.count(429) == 4
    assert theirs == 200


def test_a_table_change_is_serialized_once_for_all_its_streams(server: Server, monkeypatch: Any) -> None:
    built: list[int | None] = []
    original = Table.state

    def counting(self: Table, seat: int | None, log_from: int = 0, admin: bool = False) -> dict[str, Any]:
        built.append(seat)
        return original(self, seat, log_from, admin)

    monkeypatch.setattr(Table, "state", counting)

    async def go() -> tuple[list[int], int]:
        watchers = [async_client(server, f"127.0.2.{k}") for k in range(1, 13)]
        owner = watchers[0]
        body = {"rules": "ten_point", "seats": ["rule"] * 4, "seed": 9, "bot_delay_ms": 100}
        created = (await owner.post("/v1/tables", json=body)).json()
        url = f"/v1/tables/{created['id']}/events"

        async def watch(http: httpx.AsyncClient) -> int:
            seen = 0
            async with http.stream("GET", url) as stream:
                async for line in stream.aiter_lines():
                    seen += line.startswith("data: ")
                    if seen == 6:
                        return seen
            return seen

        seen = await asyncio.gather(*(watch(w) for w in watchers))
        await owner.delete(f"/v1/tables/{created['id']}", headers=bearer(created["admin_token"]))
        version = server.table(created["id"]).version if created["id"] in server.app.state.services["tables"].tables \
            else 0  # fmt: skip
        for w in watchers:
            await w.aclose()
        return seen, version

    built.clear()
    seen, _ = asyncio.run(go())
    assert seen == [6] * 12
    spectator_builds = built.count(None)
    assert spectator_builds <= 12, spectator_builds  # about one per version shown, not one per stream and version


def test_a_clients_tables_together_make_at_most_their_bot_moves_a_second(server: Server) -> None:
    """Two tables of rule bots at full speed: their moves together keep to the client's rate (and a tenth of a
    second's burst); a bot move costs the event loop its view and its states, which no worker queue accounts for."""
    with client(server, "127.0.1.19") as http:
        body = {"rules": "ten_point", "seats": ["rule"] * 4, "bot_delay_ms": 0}
        tables = [http.post("/v1/tables", json=body | {"seed": k}).json() for k in range(2)]
        time.sleep(0.5)
        started, before = time.monotonic(), sum(server.table(t["id"]).version for t in tables)
        time.sleep(2.0)
        moved, elapsed = sum(server.table(t["id"]).version for t in tables) - before, time.monotonic() - started
        for t in tables:
            http.delete(f"/v1/tables/{t['id']}", headers=bearer(t["admin_token"]))
    rate = SETTINGS.max_bot_moves_per_client
    assert 0 < moved <= rate * (elapsed + 0.1) + 2, (moved, elapsed)


def test_an_event_stream_sends_the_newest_state_at_most_once_an_interval(server: Server) -> None:
    with client(server, "127.0.1.20") as http:
        created = http.post("/v1/tables", json={"rules": "ten_point", "seats": ["rule"] * 4, "seed": 3}).json()
        versions, started = [], time.monotonic()
        with http.stream("GET", f"/v1/tables/{created['id']}/events") as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    versions.append(json.loads(line[6:])["version"])
                if time.monotonic() - started > 1.5:
                    break
        elapsed = time.monotonic() - started
        http.delete(f"/v1/tables/{created['id']}", headers=bearer(created["admin_token"]))
    interval = SETTINGS.stream_interval_ms / 1000
    assert len(versions) <= 2 + elapsed / interval, versions
    assert versions == sorted(versions) and versions[-1] > len(versions)  # changes in between were not sent alone


def test_tables_search_seats_share_the_search_pool_with_stateless_calls(server: Server) -> None:
    """Three tables of one client seated with search bots keep the search worker busy; another client's stateless
    search call is answered (not 503), after at most a few of the tables' moves."""
    search, _ = first_card_bodies()

    async def go() -> tuple[int, int, int]:
        async with async_client(server, "127.0.1.12") as tables, async_client(server, "127.0.1.13") as caller:
            body = {"rules": "ten_point", "seats": ["search"] * 4, "bot_delay_ms": 0}
            created = [(await tables.post("/v1/tables", json=body | {"seed": k})).json() for k in range(3)]
            await asyncio.sleep(1.0)  # the tables' bots take turns in the search worker
            ids = [c["id"] for c in created]
            before = sum(server.table(i).version for i in ids)
            answer = await caller.post("/v1/suggest", json=search | {"bot": "search:samples=4,time_budget=5"})
            moved = sum(server.table(i).version for i in ids) - before
            own = await tables.post("/v1/suggest", json=search | {"bot": "search:samples=4"})  # its tables' calls
            for c in created:  # are not stateless calls: they do not count against its search quota
                await tables.delete(f"/v1/tables/{c['id']}", headers=bearer(c["admin_token"]))
            return answer.status_code, moved, own.status_code

    status, moved, own = asyncio.run(go())
    assert status == 200 and own == 200
    assert moved <= 6, moved  # a first-come queue would put it behind every table's pending search


def long_record() -> dict[str, Any]:
    """A whole ten_point_5p match of rule bots (1026 moves)."""
    return play_match("ten_point_5p", 3, [make_agent("rule", "ten_point_5p", seat) for seat in range(5)], 500, False)


def test_replays_run_off_the_event_loop_in_their_clients_turn(server: Server) -> None:
    """Six replays of a whole match at its end, then a rule call from another client once the first is done:
    answered before the replays are done (they once ran in the server's threads and held up everything)."""
    record = long_record()
    _, rule = first_card_bodies()

    async def go() -> tuple[list[int], int, int]:
        async with async_client(server, "127.0.1.14") as heavy, async_client(server, "127.0.1.15") as light:
            assert (await light.post("/v1/suggest", json=rule)).status_code == 200  # warm: the rule bot is built
            body = {"record": record, "step": len(record["moves"])}
            replays = [asyncio.ensure_future(heavy.post("/v1/replay", json=body)) for _ in range(6)]
            await asyncio.wait(replays, return_when=asyncio.FIRST_COMPLETED)  # the rest are queued or running
            answer = await light.post("/v1/suggest", json=rule)
            unfinished = sum(not r.done() for r in replays)
            return [r.status_code for r in await asyncio.gather(*replays)], answer.status_code, unfinished

    replays, answer, unfinished = asyncio.run(go())
    assert replays == [200] * 6 and answer == 200
    assert unfinished >= 3, f"the rule call waited for {5 - unfinished} of the 5 replays queued before it"


def test_a_record_longer_than_the_replay_limit_is_refused(server: Server) -> None:
    record = long_record()
    record["moves"] = record["moves"] * 8
    with client(server, "127.0.1.16") as http:
        answer = http.post("/v1/replay", json={"record": record, "step": 0})
    assert answer.status_code in (413, 422), answer.status_code  # the body limit or the move limit, not a 500


# ---------------------------------------------------------------------- the catalog, messages and the page


def test_the_bots_catalog_refuses_deep_nesting_with_422(server: Server) -> None:
    with client(server, "127.0.1.17") as http:
        for rules in ['{"preset":' + "[" * 3000 + "]" * 3000 + "}",
                      '{"preset":"ten_point","x":' + '{"a":' * 3000 + "1" + "}" * 3000 + "}"]:  # fmt: skip
            answer = http.get("/v1/bots", params={"rules": rules})
            assert answer.status_code == 422 and answer.json()["error"]["field"] == "rules"


def test_a_neural_agents_refusal_names_no_server_path(server: Server) -> None:
    """Seven seats: more than the universal agent reads, so the preset's specialist is tried and refuses."""
    rules = {"preset": "ten_point_midwest", "num_players": 7, "hand_size": 7, "partnerships": False}
    with client(server, "127.0.1.18") as http:
        seat = http.post("/v1/tables", json={"rules": rules, "seats": ["neural"] + ["remote"] * 6})
    refused = seat.json()["error"]["message"]
    assert seat.status_code == 422 and "trained for other rules" in refused and "ten_point_midwest.npz" in refused
    assert "/" not in refused.split("policy", 1)[1].split()[0], refused


def test_the_api_page_and_the_web_table_load_nothing_from_elsewhere(server: Server) -> None:
    page = httpx.get(f"{server.url}/docs")
    assert page.status_code == 200 and "default-src 'none'" in page.headers["content-security-policy"]
    html = page.text
    assert "<script" not in html and not re.search(r"""(src|href)\s*=\s*['"]?(https?:)?//""", html)
    for path in httpx.get(f"{server.url}/openapi.json").json()["paths"]:
        assert f"<code>{path}</code>" in html
    for file in WEB_DIR.rglob("*"):
        if file.suffix in {".html", ".js", ".css"}:
            text = file.read_text()
            assert not re.search(r"""(src|href|import|url\()\s*=?\s*['"(]?(https?:)?//""", text), file


# ---------------------------------------------------------------------- memory


def test_caches_stay_bounded_whatever_rule_sets_and_bot_options_clients_send() -> None:
    """Hundreds of calls with house rules and bot options never seen before: every cache keeps to its size, and
    memory allocated and still held stops growing once they are full."""
    settings = Settings(bot_workers=0, search_workers=0, bot_cache=8, remembered_bots=8)
    _, rule = first_card_bodies()

    def calls(http: TestClient, start: int, count: int) -> None:
        for k in range(start, start + count):
            house = {"preset": "ten_point", "target_score": 20 + k}
            for bot in (f"rule:bid_margin={k % 7 - 3}", "random"):
                assert http.post("/v1/suggest", json=rule | {"rules": house, "bot": bot, "seed": k}).status_code == 200

    with TestClient(create_app(settings)) as http:
        calls(http, 0, 300)  # past every cache's size (the rule sets' is 256)
        tracemalloc.start()
        first = tracemalloc.get_traced_memory()[0]
        calls(http, 300, 300)
        grown = tracemalloc.get_traced_memory()[0] - first
        tracemalloc.stop()
        bots, _ = work._WORKER  # type: ignore[misc]
    assert len(bots._shared) <= 8 and len(bots.memory) <= 8 and _parse_rules.cache_info().currsize <= 256
    assert grown < 2_000_000, f"{grown} bytes still held after 600 more calls"
