"""What a stranger may ask of the service, bounded: rule numbers, scores, search depths and a table's length.

Each case was once answered with a stall, a 500 or a worker held for a minute (found by review, 2026-12-06):
ten million players seated before the deck was counted, points of 10**400 overflowing a bot's floats,
Bohemian Schneider search's depth uncapped, a match to a billion points growing every state it sends,
and a schmier history with more hidden exchanges than a player may make.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from agents.schneider_search import SchneiderSearchAgent  # noqa: E402
from smear_env.schneider.game import SchneiderRules  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.bots import Bots  # noqa: E402
from smear_rl.server.limits import Settings  # noqa: E402

TABLE_MOVES = 60  # a short limit, so a test plays it out in a second


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(search_workers=0, bot_workers=0, max_table_moves=TABLE_MOVES))) as c:
        yield c


def suggest(rules: Any, **body: Any) -> dict[str, Any]:
    hand = ["TC", "JD", "KD", "2H", "TH", "JK", "3S", "4S", "5S", "6S"]
    return {"rules": rules, "bot": "rule", "seat": 1, "dealer": 0, "hand": hand} | body


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (suggest({"preset": "ten_point_5p", "num_players": 10**7}), "rules", "num_players=10000000 is out of range"),
        (suggest({"preset": "ten_point", "jack_points": 10**400}), "rules", "jack_points="),
        (suggest({"preset": "ten_point", "target_score": 10**400}), "rules", "target_score="),
        (suggest("ten_point", scores=[10**400, 0]), "scores", "less than or equal to 1000000"),
        (suggest("ten_point", bot="neural", scores=[0, -(10**30)]), "scores", "greater than or equal to -1000000"),
    ],
)
def test_numbers_past_any_table_are_refused_with_422_naming_them(
    client: TestClient, body: dict[str, Any], field: str, words: str
) -> None:
    answer = client.post("/v1/suggest", json=body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["field"].startswith(field) and words in error["message"]


def test_a_table_of_ten_million_players_is_refused_before_anyone_is_seated(client: TestClient) -> None:
    answer = client.post("/v1/tables", json={"rules": {"preset": "ten_point_5p", "num_players": 10**7}, "seats": []})
    assert answer.status_code == 422
    assert "num_players=10000000 is out of range: expected an integer 2..54" in answer.json()["error"]["message"]


def test_schneider_search_is_capped_like_smears_depth_and_exact_tricks_too() -> None:
    """Its first deal is solved whatever the clock says: depth 99 took 20 s a decision before the cap."""
    settings = Settings(search_workers=0, search_time_cap=0.2, max_search_samples=10)
    bots = Bots(settings, {})
    rules = SchneiderRules()
    spec = "search:time_budget=1e9,samples=1000000000,depth=99,exact_tricks=99"
    agent = bots.make(bots.info(spec, rules), rules, seed=0)
    assert isinstance(agent, SchneiderSearchAgent)
    assert (agent.time_budget, agent.samples) == (0.2, 10)
    assert (agent.depth, agent.exact_tricks) == (settings.max_schneider_depth, settings.max_schneider_exact_tricks)
    modest = bots.make(bots.info("search:depth=1,exact_tricks=2", rules), rules, seed=0)
    assert (modest.depth, modest.exact_tricks) == (1, 2)  # an option under the cap is the client's own


def test_a_match_stops_at_the_servers_move_limit_and_a_new_table_resumes_its_scores(client: TestClient) -> None:
    body = {"rules": {"preset": "ten_point", "target_score": 1000}, "seats": ["rule"] * 4, "seed": 3}
    table = client.post("/v1/tables", json=body).json()
    deadline = time.monotonic() + 60
    state = table["state"]
    while state["error"] is None:
        assert time.monotonic() < deadline, "the bots did not reach the limit"
        state = client.get(f"/v1/tables/{table['id']}", params={"after": state["version"], "wait": 5}).json()
    assert state["log_size"] == TABLE_MOVES and not state["match_over"]
    assert f"limit of {TABLE_MOVES} moves a table" in state["error"]
    scores, played = state["scores"], len(state["hand_results"])
    resumed = client.post("/v1/tables", json=body | {"scores": scores, "hands_played": played})
    assert resumed.status_code == 201 and resumed.json()["state"]["scores"] == scores


def test_a_schmier_history_with_more_exchanges_than_a_player_may_make_is_refused_with_422(client: TestClient) -> None:
    hand = ["TC", "JD", "KD", "2H", "TH", "JK"]
    for seat in (2, 3):
        events = [{"seat": seat, "move": "discard"}] * 7
        answer = client.post("/v1/suggest", json=suggest("schmier", hand=hand, events=events))
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "invalid_history"
