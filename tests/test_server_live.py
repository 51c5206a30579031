"""The service in a real uvicorn on a free port: search cannot starve cheap bots, event streams, the command."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from agents.registry import make_agent  # noqa: E402
from smear_env.game import PLAY, Game  # noqa: E402
from smear_env.observation import player_view  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.history import Tracker, suggest_body  # noqa: E402
from smear_rl.server.limits import Settings  # noqa: E402
from tests.ports import free_port  # noqa: E402

SETTINGS = Settings(search_workers=1, search_queue=4, search_time_cap=0.3, keepalive_seconds=0.5)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(SETTINGS), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


def first_card_position() -> tuple[dict[str, Any], dict[str, Any]]:
    """A ten_point position at the first card play: suggest bodies for search and for the rule bot."""
    game = Game("ten_point", seed=2)
    tracker = Tracker(game)
    bot = make_agent("rule", "ten_point", 0)
    while not (game.phase == PLAY and len(game.legal_actions()) > 1):
        tracker.apply(bot.act(player_view(game, game.current_player)))
    seat = game.current_player
    search = suggest_body(tracker, seat, "search:samples=200", "ten_point")
    return search, suggest_body(tracker, seat, "rule", "ten_point")


def test_a_burst_of_search_calls_does_not_starve_a_rule_call(base_url: str) -> None:
    search, rule = first_card_position()
    burst_size = Settings().search_queue_per_client  # as many as one client may queue

    async def burst() -> tuple[list[int], float, float]:
        async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
            calls = [asyncio.create_task(client.post("/v1/suggest", json=search | {"seed": k}))
                     for k in range(burst_size)]  # fmt: skip
            await asyncio.sleep(0.3)  # the search worker is busy and calls are queued
            waiting = (await client.get("/v1/health")).json()["search_waiting"]
            answer = await client.post("/v1/suggest", json=rule)
            assert answer.status_code == 200 and answer.json()["bot"] == "rule"
            searches_done = sum(call.done() for call in calls)
            statuses = [(await call).status_code for call in calls]
            return statuses, searches_done, waiting

    statuses, searches_done, waiting = asyncio.run(burst())
    assert statuses == [200] * burst_size
    assert waiting >= 3, "the search calls should still be queued when the rule call is made"
    # an order, not a time: the rule call overtook the queue (it would come last behind it)
    assert searches_done < burst_size, "the rule call was answered only after every queued search call"


def client_at(base_url: str, address: str, timeout: float = 60) -> httpx.AsyncClient:
    """A client connecting from ``address`` (any of 127.0.0.0/8 reaches the loopback server): the server counts
    each address as a client of its own."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)


def test_search_calls_beyond_the_queue_are_refused_with_503(base_url: str) -> None:
    search, _ = first_card_position()

    async def flood() -> list[int]:
        clients = [client_at(base_url, f"127.0.0.{k}") for k in (11, 12, 13)]  # 3 calls each: within their quota
        calls = [c.post("/v1/suggest", json=search | {"seed": 10 * n + k}) for n, c in enumerate(clients)
                 for k in range(3)]  # fmt: skip
        statuses = [r.status_code for r in await asyncio.gather(*calls)]
        for c in clients:
            await c.aclose()
        return statuses

    statuses = flood_statuses = asyncio.run(flood())
    assert statuses.count(503) >= 1 and statuses.count(200) >= 5, flood_statuses
    assert httpx.get(f"{base_url}/v1/health").json()["status"] == "ok"


def test_one_clients_search_calls_beyond_its_quota_are_refused_with_429(base_url: str) -> None:
    search, _ = first_card_position()

    async def flood() -> list[int]:
        async with client_at(base_url, "127.0.0.21") as client:
            calls = [client.post("/v1/suggest", json=search | {"seed": k}) for k in range(8)]
            return [r.status_code for r in await asyncio.gather(*calls)]

    statuses = asyncio.run(flood())
    per_client = Settings().search_queue_per_client
    assert statuses.count(429) >= 1 and statuses.count(503) == 0 and statuses.count(200) >= per_client, statuses


def test_search_calls_abandoned_by_their_clients_leave_the_queue(base_url: str) -> None:
    search, _ = first_card_position()
    calls_made = Settings().search_queue_per_client  # all within the client's quota

    async def give_up() -> int:
        async with client_at(base_url, "127.0.0.31", timeout=0.3) as client:
            calls = [client.post("/v1/suggest", json=search | {"seed": 100 + k}) for k in range(calls_made)]
            results = await asyncio.gather(*calls, return_exceptions=True)
            # a quick machine may answer the first call inside the client's 0.3 s; the rest are abandoned
            gave_up = [r for r in results if isinstance(r, httpx.TimeoutException)]
            answered = [r for r in results if isinstance(r, httpx.Response) and r.status_code == 200]
            assert len(gave_up) >= 2 and len(gave_up) + len(answered) == len(results), results
        await asyncio.sleep(0.5)  # the server notices the disconnections
        async with httpx.AsyncClient(base_url=base_url) as client:
            return (await client.get("/v1/health")).json()["search_waiting"]

    # at most the call a search worker is running (it takes one at a time); those still queued are dropped, not
    # run for nobody
    assert asyncio.run(give_up()) <= SETTINGS.search_workers


def test_an_event_stream_sends_the_state_after_every_change(base_url: str) -> None:
    body = {"rules": "ten_point", "seats": ["rule"] * 4, "seed": 3, "bot_delay_ms": 50}
    table = httpx.post(f"{base_url}/v1/tables", json=body).json()
    versions = []
    with httpx.stream("GET", f"{base_url}/v1/tables/{table['id']}/events", timeout=30) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                state = json.loads(line[6:])
                assert "hand" not in state["view"]  # a spectator's stream
                versions.append(state["version"])
                if len(versions) == 4:
                    break
    assert versions == sorted(versions) and len(set(versions)) == 4
    assert httpx.get(f"{base_url}/v1/health").json()["streams"] == 0
    closed = httpx.delete(f"{base_url}/v1/tables/{table['id']}", headers={"Authorization": f"Bearer "
                                                                         f"{table['admin_token']}"})  # fmt: skip
    assert closed.status_code == 204


def test_smear_rl_serve_binds_loopback_and_answers(tmp_path: Any) -> None:
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "smear_rl.cli", "serve", "--port", str(port), "--search-workers", "0"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        assert health.json()["status"] == "ok"
        assert httpx.get(f"http://127.0.0.1:{port}/docs").status_code == 200
        assert "<h1>Smear table</h1>" in httpx.get(f"http://127.0.0.1:{port}/").text  # the web table
        script = httpx.get(f"http://127.0.0.1:{port}/js/app.js")  # a module: browsers need a JavaScript MIME type
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    finally:
        server.terminate()
        server.wait(30)
    bad = subprocess.run([sys.executable, "-m", "smear_rl.cli", "serve", "--port", "0"], capture_output=True,
                         text=True)  # fmt: skip
    assert bad.returncode == 2 and "--port 0" in bad.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--agent", "mine"], "expected NAME=PATH"),
        (["--agent", "mine=missing.npz"], "no file 'missing.npz'"),
        (["--agent", "mine=README.md"], "not a readable smear-rl policy file"),
        # the built-in rule bot was silently replaced, and listed twice
        (["--agent", "rule=agents/shipped/universal.npz"], "the name 'rule' is a bot of the service's own"),
        (["--agent", "a=agents/shipped/universal.npz", "--agent", "a=README.md"], "the name 'a' is given twice"),
        (["--max-tables", "0"], "--max-tables 0"),
        (["--bot-workers", "-1"], "cannot be negative"),
    ],
)
def test_serve_refuses_bad_options_with_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture) -> None:
    from smear_rl.server.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2 and words in capsys.readouterr().err
