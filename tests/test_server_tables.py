"""Tables: whole matches with remote seats played through the API, bots moving on their own, and every refusal."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from agents.registry import make_agent  # noqa: E402
from smear_env import replay  # noqa: E402
from smear_env.schneider import replay as schneider_replay  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.limits import Settings  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(search_workers=0, max_tables=6))) as c:
        yield c


def open_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/tables", json=body)
    assert response.status_code == 201, response.json()
    return response.json()


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_remote_seats(client: TestClient, table: dict[str, Any], preset: str, timeout: float = 120) -> dict[str, Any]:
    """Play every remote seat with a rule bot of our own, choosing from the view the API shows, to the end."""
    remote = {s["seat"]: s["token"] for s in table["seats"] if s["kind"] == "remote"}
    players = {seat: make_agent("rule", preset, seat) for seat in remote}
    state, deadline = table["state"], time.monotonic() + timeout
    while not state["match_over"]:
        assert time.monotonic() < deadline, "the match did not finish"
        assert state["error"] is None
        seat = state["current_player"]
        if seat in remote:
            mine = client.get(f"/v1/tables/{table['id']}", params={"seat": seat}, headers=auth(remote[seat])).json()
            assert mine["your_turn"] and mine["legal_moves"] == mine["view"]["legal_moves"]
            move = players[seat].act(mine["view"])
            response = client.post(f"/v1/tables/{table['id']}/moves", json={"seat": seat, "move": move},
                                   headers=auth(remote[seat]))  # fmt: skip
            assert response.status_code == 200, response.json()
            state = response.json()
        else:  # a bot is on turn: wait for the table to change
            params = {"after": state["version"], "wait": 10}
            state = client.get(f"/v1/tables/{table['id']}", params=params).json()
    return state


def test_a_match_with_two_remote_seats_is_played_to_the_end_and_its_record_replays(client: TestClient) -> None:
    table = open_table(client, rules="minnesota", seats=["remote", "rule", "remote", "neural"], seed=11)
    assert [s["token"] is not None for s in table["seats"]] == [True, False, True, False]
    final = play_remote_seats(client, table, "minnesota")
    assert final["match_over"] and final["winners"]
    record = client.get(f"/v1/tables/{table['id']}/record").json()  # open to anyone once the match is over
    game = replay(record)
    assert game.is_over and game.scores == final["scores"] and record["seed"] == 11
    engine_results = game.results()
    assert len(final["hand_results"]) == len(engine_results)
    for number, (result, engine) in enumerate(zip(final["hand_results"], engine_results)):
        assert result == {"hand": number, "dealer": result["dealer"], **engine.to_dict()}  # the engine's own form
        points = {side["side"]: side["points"] for side in result["sides"]}
        taken = [c for c in result["categories"] if c["side"] is not None]  # minnesota: a point each
        assert sum(points.values()) == len(taken)
        bidder = next(side for side in result["sides"] if result["bidder"] in side["seats"])
        if result["bid"] != "moon":
            assert bidder["score_change"] == (bidder["points"] if result["made"] else -result["bid"])
    dealers = [result["dealer"] for result in final["hand_results"]]
    assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:]))  # minnesota redeals a thrown-in hand itself
    assert final["hand_results"][-1]["scores_after"] == final["scores"]
    assert final["last_trick"] is not None and len(final["last_trick"]["cards"]) == 4
    spectator_log = client.get(f"/v1/tables/{table['id']}").json()["log"]
    assert not any(str(e.get("move", "")).startswith("discard ") for e in spectator_log)
    assert any(e.get("move") == "discard" for e in spectator_log)
    token0 = table["seats"][0]["token"]
    own_log = client.get(f"/v1/tables/{table['id']}", params={"seat": 0}, headers=auth(token0)).json()["log"]
    assert any(e["seat"] == 0 and str(e.get("move", "")).startswith("discard ") for e in own_log)
    assert len(own_log) == len(spectator_log) == final["log_size"]


def test_a_schneider_table_plays_to_the_end(client: TestClient) -> None:
    table = open_table(client, rules="bohemian_schneider", seats=["rule", "remote"], seed=4)
    final = play_remote_seats(client, table, "bohemian_schneider")
    record = client.get(f"/v1/tables/{table['id']}/record").json()
    assert schneider_replay(record).scores == final["scores"] and len(final["hand_results"]) == 2
    assert final["hand_results"][0]["round_scores"]


def test_seats_are_guarded_by_their_tokens(client: TestClient) -> None:
    table = open_table(client, rules="ten_point", seats=["remote", "rule", "remote", "rule"], seed=2)
    url = f"/v1/tables/{table['id']}"
    token0, token2 = table["seats"][0]["token"], table["seats"][2]["token"]
    assert client.get(url, params={"seat": 0}).status_code == 403
    assert client.get(url, params={"seat": 0}, headers=auth(token2)).json()["error"]["code"] == "bad_token"
    in_url = client.get(url, params={"seat": 0, "token": token0})  # a URL is logged: tokens travel in headers
    assert in_url.status_code == 422 and in_url.json()["error"]["code"] == "token_in_query"
    assert client.get(url, params={"seat": 0}, headers=auth(token0)).json()["view"]["hand"]
    assert client.get(url, params={"seat": 0}, headers=auth(table["admin_token"])).status_code == 200
    bot_seat = client.get(url, params={"seat": 1}, headers=auth(token0))
    assert bot_seat.status_code == 403 and "played by the bot 'rule'" in bot_seat.json()["error"]["message"]
    spectator = client.get(url).json()
    assert spectator["seat"] is None and "hand" not in spectator["view"] and spectator["legal_moves"] == []
    record = client.get(f"{url}/record")
    assert record.status_code == 403 and record.json()["error"]["code"] == "record_hidden"
    assert client.get(f"{url}/record", headers=auth(table["admin_token"])).json()["game"] == "smear"


def test_a_token_of_any_characters_is_refused_not_an_error(client: TestClient) -> None:
    table = open_table(client, rules="ten_point", seats=["remote"] * 4, seed=2)
    url = f"/v1/tables/{table['id']}"
    odd = {"Authorization": "Bearer \xe9t\xe9 \xff".encode("latin-1")}  # a header carries any byte
    for method, path, params in [("GET", url, {"seat": 0}), ("GET", f"{url}/record", {}), ("DELETE", url, {}),
                                 ("POST", f"{url}/moves", {})]:  # fmt: skip
        answer = client.request(method, path, params=params, headers=odd, json={"seat": 1, "move": "pass"})
        assert answer.status_code == 403, (path, answer.text)
    client.delete(url, headers=auth(table["admin_token"]))


def test_moves_out_of_turn_illegal_or_for_a_bot_are_refused_and_change_nothing(client: TestClient) -> None:
    table = open_table(client, rules="ten_point", seats=["remote", "remote", "rule", "rule"], seed=3)
    url = f"/v1/tables/{table['id']}"
    tokens = {s["seat"]: s["token"] for s in table["seats"] if s["token"]}
    state = table["state"]
    assert state["current_player"] == 1  # dealer 0: seat 1 bids first
    out_of_turn = client.post(f"{url}/moves", json={"seat": 0, "move": "pass"}, headers=auth(tokens[0]))
    assert out_of_turn.status_code == 409 and out_of_turn.json()["error"]["code"] == "not_your_turn"
    illegal = client.post(f"{url}/moves", json={"seat": 1, "move": "bid 2"}, headers=auth(tokens[1]))
    assert illegal.status_code == 422 and "legal moves" in illegal.json()["error"]["message"]
    garbage = client.post(f"{url}/moves", json={"seat": 1, "move": "bid lots"}, headers=auth(tokens[1]))
    assert garbage.status_code == 422 and garbage.json()["error"]["field"] == "move"
    bot = client.post(f"{url}/moves", json={"seat": 2, "move": "pass"}, headers=auth(tokens[1]))
    assert bot.status_code == 409 and bot.json()["error"]["code"] == "bot_seat"
    assert client.get(url).json()["version"] == state["version"]
    by_id = client.post(f"{url}/moves", json={"seat": 1, "move": 0}, headers=auth(tokens[1]))  # action 0: pass
    assert by_id.status_code == 200 and by_id.json()["version"] == state["version"] + 1


def test_bad_tables_and_unknown_ids(client: TestClient) -> None:
    for body, field in [
        ({"rules": "ten_point", "seats": ["remote", "rule"]}, "seats"),
        ({"rules": "ten_point", "seats": ["remote", "alphago", "rule", "rule"]}, "seats[1]"),
        ({"rules": "ten_point", "seats": ["remote"] * 4, "bot_delay_ms": 99999}, "bot_delay_ms"),
        ({"rules": "chess", "seats": ["remote"] * 4}, "rules"),
        ({"rules": "ten_point", "seats": ["remote"] * 4, "seed": -1}, "seed"),
    ]:
        response = client.post("/v1/tables", json=body)
        assert response.status_code == 422 and response.json()["error"]["field"] == field, response.json()
    missing = client.get("/v1/tables/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_table"
    assert client.post("/v1/tables/nope/moves", json={"seat": 0, "move": "pass"}).status_code == 404


def test_table_limit_expiry_and_closing() -> None:
    with TestClient(create_app(Settings(search_workers=0, max_tables=2, table_idle_seconds=0.2))) as client:
        body = {"rules": "ten_point", "seats": ["remote"] * 4}
        first, _ = open_table(client, **body), open_table(client, **body)
        full = client.post("/v1/tables", json=body)
        assert full.status_code == 503 and full.json()["error"]["code"] == "tables_full"
        time.sleep(0.3)
        assert client.get(f"/v1/tables/{first['id']}").status_code == 404  # expired while idle
        third = open_table(client, **body)  # creating expires idle tables first
        url = f"/v1/tables/{third['id']}"
        assert client.delete(url).status_code == 403
        assert client.delete(url, headers=auth(third["admin_token"])).status_code == 204
        assert client.get(url).status_code == 404


def test_bots_wait_the_tables_delay_between_moves(client: TestClient) -> None:
    table = open_table(client, rules="ten_point", seats=["rule"] * 4, seed=5, bot_delay_ms=150)
    url = f"/v1/tables/{table['id']}"
    started = time.monotonic()
    state = client.get(url, params={"after": 2, "wait": 10}).json()
    assert state["version"] >= 3 and time.monotonic() - started >= 0.3  # 3 moves, 150 ms before each
    client.delete(url, headers=auth(table["admin_token"]))


def test_long_poll_returns_at_once_when_the_version_has_moved(client: TestClient) -> None:
    table = open_table(client, rules="ten_point", seats=["remote"] * 4, seed=6)
    url = f"/v1/tables/{table['id']}"
    started = time.monotonic()
    assert client.get(url, params={"after": -1, "wait": 30}).json()["version"] == 0
    assert time.monotonic() - started < 5
    started = time.monotonic()
    assert client.get(url, params={"after": 0, "wait": 0.3}).json()["version"] == 0  # nothing moved: waits, times out
    assert time.monotonic() - started >= 0.3


def test_log_from_returns_the_log_from_that_entry_across_hands(client: TestClient) -> None:
    table = open_table(client, rules="ten_point", seats=["rule"] * 4, seed=7)
    url, state, deadline = f"/v1/tables/{table['id']}", table["state"], time.monotonic() + 120
    while not state["match_over"]:  # played to the end, so that the log holds still
        assert time.monotonic() < deadline
        state = client.get(url, params={"after": state["version"], "wait": 10}).json()
    full = client.get(url).json()
    assert full["log_size"] == len(full["log"]) > 100 and len({e["hand"] for e in full["log"]}) > 1
    for start in (0, 1, 57, full["log_size"] - 3, full["log_size"], full["log_size"] + 10):
        tail = client.get(url, params={"log_from": start}).json()
        assert tail["log"] == full["log"][start:] and tail["log_size"] == full["log_size"], start
