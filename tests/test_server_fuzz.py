"""Fuzzing the API: generated requests from its own OpenAPI schema and hand-made bad bodies never get a 5xx.

Bounded for CI: a few hundred generated requests in all. Afterwards the server still
answers a normal request (the last test of the module).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from smear_env.game import Game  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.history import Tracker, suggest_body  # noqa: E402
from smear_rl.server.limits import Settings  # noqa: E402

APP = create_app(Settings(search_workers=0, search_time_cap=0.05, max_tables=50, max_body_bytes=64 * 1024))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)


def assert_well_formed(status: int, body: bytes, where: str) -> None:
    assert status < 500, f"{where}: {status} {body[:300]!r}"
    if status >= 400:
        error = json.loads(body)["error"]
        assert set(error) == {"code", "message", "field"} and error["message"], where


@SCHEMA.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_requests_never_get_a_server_error(case: Any) -> None:
    response = case.call()
    assert_well_formed(response.status_code, response.content, f"{case.method} {case.formatted_path}")


def suggest() -> dict[str, Any]:
    game = Game("minnesota", seed=2)
    return suggest_body(Tracker(game), game.current_player, "rule", "minnesota")


BAD_BODIES: list[Any] = [
    b"",
    b"\x00\xff\xfe",
    b"[" * 5000 + b"]" * 5000,
    b'{"rules": "minnesota"',
    "null",
    "[]",
    json.dumps({"rules": {"preset": {"preset": "minnesota"}}}),
    suggest() | {"rules": {"preset": "minnesota", "num_players": 1000}},
    suggest() | {"rules": {"preset": "minnesota", "hand_size": 30}},
    suggest() | {"rules": {"preset": "minnesota", "protected_discards": ["everything"]}},
    suggest() | {"rules": {"preset": "bohemian_schneider", "num_rounds": 3}},
    suggest() | {"rules": {"preset": "minnesota", "bust_out": 1e300}},
    suggest() | {"seed": 10**30},
    suggest() | {"bot": "search:samples=100000000,time_budget=1e9,bid_samples=100000"},
    suggest() | {"bot": "search:time_budget=nan"},
    suggest() | {"bot": ":::"},
    suggest() | {"bot": "../../etc/passwd"},
    suggest() | {"bot": "agents/shipped/ten_point.npz"},
    suggest() | {"hand": ["JK", "JK", "JK"]},
    suggest() | {"hand": ["🂡"] * 9},
    suggest() | {"events": [{"seat": 0, "move": {"nested": [1, 2]}}]},
    suggest() | {"events": [{"seat": 0, "take": [[["AS"]]]}]},
    suggest() | {"events": [{"seat": 1, "move": "call AH", "partner": "everyone"}]},
    suggest() | {"events": [{"seat": 1, "move": 10**20}]},
    suggest() | {"events": [{"seat": 1, "move": -1}]},
    suggest() | {"events": [{"seat": 1, "move": "play JK2"}] * 3},
    suggest() | {"events": [{"seat": 1, "take": -4}]},
    suggest() | {"scores": [10**40, -(10**40)]},
    suggest() | {"hands_played": 10**9},
    suggest() | {"seat": -1},
]


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(APP) as c:
        yield c


@pytest.mark.parametrize("body", BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_hand_made_bad_suggest_bodies_get_clean_refusals(client: TestClient, body: Any) -> None:
    raw = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else json.dumps(body).encode()
    response = client.post("/v1/suggest", content=raw, headers={"content-type": "application/json"})
    assert_well_formed(response.status_code, response.content, repr(body)[:80])


@pytest.mark.parametrize(
    "body",
    [
        {"rules": "minnesota", "seats": ["remote"] * 4, "bot_delay_ms": -1},
        {"rules": "minnesota", "seats": ["search:time_budget=1e9"] * 4, "bot_delay_ms": 5000},
        {"rules": {"preset": "minnesota", "num_players": 40}, "seats": ["remote"] * 40},
        {"rules": "minnesota", "seats": [None, 1, [], {}]},
    ],
)
def test_hand_made_bad_tables_get_clean_refusals(client: TestClient, body: Any) -> None:
    response = client.post("/v1/tables", json=body)
    assert_well_formed(response.status_code, response.content, repr(body))
    if response.status_code == 201:
        created = response.json()
        closed = client.delete(f"/v1/tables/{created['id']}", headers={"Authorization": "Bearer "
                                                                       + created["admin_token"]})  # fmt: skip
        assert closed.status_code == 204


def test_zz_the_server_still_answers_after_the_fuzzing(client: TestClient) -> None:
    assert client.get("/v1/health").json()["status"] == "ok"
    response = client.post("/v1/suggest", json=suggest())
    assert response.status_code == 200 and response.json()["move"] in response.json()["legal_moves"]
