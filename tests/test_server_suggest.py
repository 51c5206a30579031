"""POST /v1/suggest: whole matches played by clients of the service move exactly as the same bots in process.

Seeding as the protocol defines it: a client sends one seed per hand and seat, and an
in-process bot ``reset`` with that seed at the start of each hand makes the same moves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from agents.registry import make_agent  # noqa: E402
from smear_env.game import Game  # noqa: E402
from smear_env.observation import player_view  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from smear_env.schneider.game import Game as SchneiderGame  # noqa: E402
from smear_env.schneider.observation import player_view as schneider_view  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.history import Tracker, suggest_body  # noqa: E402
from smear_rl.server.limits import Settings  # noqa: E402

SEARCH = "search:samples=4,bid_samples=2,time_budget=30"  # the sample count binds, not the clock: reproducible
UNHURRIED = 30.0  # the service's cap on a search's time, raised to SEARCH's so a loaded machine cannot cut it short


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(search_workers=0, search_time_cap=UNHURRIED, max_body_bytes=64 * 1024))) as c:
        yield c


def as_json(data: Any) -> Any:
    """What ``data`` looks like after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


def hand_seed(hand: int, seat: int) -> int:
    return 1000 * hand + seat


def play_through_the_service(
    client: TestClient, preset: str, specs: list[str], seed: int, max_hands: int = 99
) -> tuple[Any, int]:
    """A match where every move comes from /v1/suggest, checked against in-process bots; the game and requests."""
    schneider = preset == "bohemian_schneider"
    rules = None if schneider else get_rules(preset)
    game = SchneiderGame(seed=seed) if schneider else Game(rules, seed=seed)
    view_of = schneider_view if schneider else player_view
    tracker = Tracker(game)
    bots = [make_agent(spec, preset if schneider else rules, 0) for spec in specs]
    deals, requests = 0, 0
    while not game.is_over and len(game.deals) <= max_hands:
        if len(game.deals) != deals:
            deals = len(game.deals)
            for seat, bot in enumerate(bots):
                bot.reset(hand_seed(deals, seat))
        seat = game.current_player
        view = view_of(game, seat)
        want = bots[seat].decide(view)
        body = suggest_body(tracker, seat, specs[seat], preset, seed=hand_seed(deals, seat)) | {"include_view": True}
        response = client.post("/v1/suggest", json=body)
        assert response.status_code == 200, response.json()
        got = response.json()
        requests += 1
        assert got["view"] == as_json(view)
        assert (
            got["action"] == want.action
            and got["move"] == view_of(game, seat)["legal_moves"][view["legal_actions"].index(want.action)]
        )
        if want.scores is None:
            assert got["preference"] is None
        else:
            assert got["preference"]["kind"] == want.kind
            assert {m["action"]: m["score"] for m in got["preference"]["moves"]} == pytest.approx(want.scores)
        assert got["ms"] >= got["bot_ms"] >= 0
        tracker.apply(got["action"])
    return game, requests


def test_a_whole_minnesota_match_through_suggest_moves_as_the_bots_in_process(client: TestClient) -> None:
    game, requests = play_through_the_service(client, "minnesota", ["rule", "neural", "random", SEARCH], seed=3)
    assert game.is_over and requests == len(game.history) > 40


def test_search_keeps_its_bid_plan_through_suggest_on_ten_point(client: TestClient) -> None:
    """Search bids by rollouts on ten_point and names the trump it planned: the service replays its bid for it."""
    game, _ = play_through_the_service(
        client, "ten_point", [SEARCH, "rule", "neural:greedy=false", "rule"], seed=5, max_hands=2
    )
    assert len(game.hand_results) >= 1


def test_a_whole_schneider_match_through_suggest(client: TestClient) -> None:
    game, requests = play_through_the_service(client, "bohemian_schneider", ["rule", "random"], seed=2)
    assert game.is_over and requests == 64


def test_called_partner_redraw_and_blinds_through_suggest(client: TestClient) -> None:
    for preset, specs in (
        ("ten_point_5p", ["rule", "random", "rule", "random", "rule"]),
        ("schmier", ["rule", "random"] * 3),
        ("six_point", ["rule", "random"] * 2),
    ):
        game, _ = play_through_the_service(client, preset, specs, seed=7, max_hands=2)
        assert game.hand_results


def test_the_same_request_gives_the_same_answer_and_seeds_vary_it(client: TestClient) -> None:
    game = Game("ten_point", seed=1)
    body = suggest_body(Tracker(game), game.current_player, "random", "ten_point", seed=1)
    answers = {client.post("/v1/suggest", json=body | {"seed": seed}).json()["action"] for seed in range(12)}
    assert client.post("/v1/suggest", json=body).json() == client.post("/v1/suggest", json=body).json() | {
        "ms": pytest.approx(0, abs=1e9),
        "bot_ms": pytest.approx(0, abs=1e9),
    }
    assert len(answers) > 1


def test_house_rules_are_rules_objects(client: TestClient) -> None:
    rules = get_rules("minnesota", target_score=11, jick_points=1)
    game = Game(rules, seed=4)
    spec = {"preset": "minnesota", "target_score": 11, "jick_points": 1}
    body = suggest_body(Tracker(game), game.current_player, "rule", spec)
    got = client.post("/v1/suggest", json=body | {"include_view": True}).json()
    assert got["view"] == as_json(player_view(game, game.current_player))
    played = client.post("/v1/suggest", json=body | {"bot": "neural"})  # no specialist: the universal agent
    universal = make_agent("neural", rules, game.current_player).act(player_view(game, game.current_player))
    assert played.status_code == 200 and played.json()["action"] == universal


# ---------------------------------------------------------------------- bad requests


def valid_body() -> dict[str, Any]:
    game = Game("ten_point", seed=8)
    tracker = Tracker(game)
    for _ in range(6):
        tracker.apply(game.legal_actions()[0])
    return suggest_body(tracker, game.current_player, "rule", "ten_point")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"rules": "tenpoint"}, "rules", "unknown preset 'tenpoint' (did you mean 'ten_point'?)"),
        ({"rules": {"preset": "ten_point", "targt_score": 3}}, "rules", "did you mean 'target_score'"),
        ({"rules": {"preset": "ten_point", "target_score": "high"}}, "rules", "target_score='high' is invalid"),
        ({"rules": 7}, "rules", ""),
        ({"bot": "alphago"}, "bot", "expected one of bold, random, rule, search, searchbid, neural"),
        ({"bot": "rule:depth=3"}, "bot", "unknown option 'depth'"),
        ({"bot": "neural"}, None, None),
        ({"seat": 4}, "seat", "not a seat"),
        ({"seat": "2"}, "seat", "integer"),
        ({"seat": True}, "seat", "integer"),
        ({"dealer": 9}, "dealer", "not a seat"),
        ({"hand": ["AS"] * 10}, "hand", "twice"),
        ({"hand": ["ZZ"]}, "hand[0]", "not a card"),
        ({"scores": [1]}, "scores", "one per team"),
        ({"hands_played": -1}, "hands_played", "greater than or equal to 0"),
        ({"seed": -5}, "seed", "greater than or equal to 0"),
        ({"events": "bid 4"}, "events", "valid array"),
        ({"events": [{"seat": 1}]}, "events[0]", "either move"),
        ({"events": [{"seat": 1, "move": "bid four"}]}, "events[0].move", "is not a move"),
        ({"events": [{"seat": 7, "move": "pass"}]}, "events[0].seat", "not a seat"),
        ({"events": [{"seat": 1, "move": "pass", "colour": "red"}]}, "events[0]", "unknown key 'colour'"),
        ({"unexpected": 1}, "unexpected", "Extra inputs"),
    ],
)
def test_bad_requests_get_422_naming_the_field(
    client: TestClient, change: dict, field: str | None, words: str | None
) -> None:
    response = client.post("/v1/suggest", json=valid_body() | change)
    if field is None:
        assert response.status_code == 200
        return
    assert response.status_code == 422, response.json()
    error = response.json()["error"]
    assert set(error) == {"code", "message", "field"}
    assert error["field"] == field and words in error["message"]


def test_malformed_json_oversized_bodies_and_long_histories_are_refused(client: TestClient) -> None:
    response = client.post("/v1/suggest", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and "error" in response.json()
    huge = valid_body() | {"events": [{"seat": 1, "move": "pass"}] * 5000}
    response = client.post("/v1/suggest", json=huge)
    assert response.status_code == 413 and response.json()["error"]["code"] == "body_too_large"
    long = valid_body() | {"events": [{"seat": 1, "move": "pass"}] * 1001}
    response = client.post("/v1/suggest", json=long)
    assert response.status_code == 422 and response.json()["error"]["code"] == "too_many_events"
    assert client.post("/v1/suggest", json=valid_body()).status_code == 200


def test_a_seat_not_on_turn_is_told_whose_turn_it_is(client: TestClient) -> None:
    body = valid_body()
    body["seat"] = (body["seat"] + 1) % 4
    game = Game("ten_point", seed=8)
    body["hand"] = [c for c in player_view(game, body["seat"])["hand"]]
    error = client.post("/v1/suggest", json=body).json()["error"]
    assert error["code"] == "not_your_turn" and "turn, not seat" in error["message"]


def test_presets_and_bots_catalog(client: TestClient) -> None:
    presets = {p["name"]: p for p in client.get("/v1/presets").json()}
    assert "bohemian_schneider" in presets and "minnesota" in presets
    target = next(o for o in presets["minnesota"]["options"] if o["name"] == "target_score")
    assert target["default"] == 21 and target["type"] == "integer" and "wins" in target["description"]
    follow = next(o for o in presets["minnesota"]["options"] if o["name"] == "follow")
    assert follow["choices"] == ["strict", "follow_or_trump"]
    bots = {b["name"]: b for b in client.get("/v1/bots", params={"rules": "minnesota"}).json()}
    assert "neural" in bots and "search" in bots
    assert bots["neural_search"]["search"] and bots["neural_search"]["kind"] == "neural"
    assert bots["neural_search"]["options"] == {"samples": 24, "time_budget": 0.2}
    house = client.get("/v1/bots", params={"rules": '{"preset": "minnesota", "target_score": 11}'}).json()
    assert {"neural", "neural_search"} <= {b["name"] for b in house}  # the universal agent plays house rules
    assert [b["name"] for b in client.get("/v1/bots", params={"rules": "bohemian_schneider"}).json()] == [
        "random",
        "rule",
        "search",
    ]
    assert client.get("/v1/bots", params={"rules": "bridge"}).status_code == 422


def test_a_client_asking_move_after_move_does_not_pay_for_earlier_decisions_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot that replays this seat's earlier decisions resumes from the state remembered after the last one, so
    a hand asked move by move costs one decision per request (not one per earlier decision too)."""
    from agents.random_agent import RandomAgent

    calls = []
    original = RandomAgent.decide
    monkeypatch.setattr(RandomAgent, "decide", lambda self, view, obs=None: calls.append(1) or original(self, view))
    game = Game("ten_point", seed=21)
    tracker = Tracker(game)
    requests = 0
    with TestClient(create_app(Settings(search_workers=0, bot_workers=0))) as local:  # bots in this process
        while len(game.deals) == 1 and not game.is_over:
            body = suggest_body(tracker, game.current_player, "random", "ten_point", seed=9)
            tracker.apply(local.post("/v1/suggest", json=body).json()["action"])
            requests += 1
    assert requests > 40 and len(calls) == requests


def test_an_exported_agent_given_at_startup_is_a_bot_on_its_rules_only() -> None:
    from agents.shipped import shipped_policy_path

    app = create_app(Settings(search_workers=0, bot_workers=0), {"mine": str(shipped_policy_path("ten_point"))})
    with TestClient(app) as local:
        assert "mine" in [b["name"] for b in local.get("/v1/bots", params={"rules": "ten_point"}).json()]
        assert "mine" not in [b["name"] for b in local.get("/v1/bots", params={"rules": "minnesota"}).json()]
        body = valid_body() | {"bot": "mine"}
        assert (
            local.post("/v1/suggest", json=body).json()["action"]
            == local.post("/v1/suggest", json=body | {"bot": "neural"}).json()["action"]
        )
        refused = local.post(
            "/v1/suggest", json=suggest_body(Tracker(Game("minnesota", seed=1)), 1, "mine", "minnesota")
        )
        assert refused.status_code == 422 and refused.json()["error"]["field"] == "bot"


def test_neural_suggests_moves_on_house_rules_through_the_universal_agent(client: TestClient) -> None:
    """A table's own rules (jokers that are not trumps, three teams of two, a target of 21): neural still plays,
    the same moves as the universal agent in process, through a first hand of suggestions."""
    house = {"teams": [[0, 3], [1, 4], [2, 5]], "joker_rank": "not_trump", "target_score": 21}
    rules = get_rules("ten_point_6p", **house)
    game = Game(rules, seed=3)
    tracker = Tracker(game)
    bot = make_agent("neural", rules, 0)
    assert bot.path.endswith("universal.npz")
    for _ in range(30):
        seat = game.current_player
        body = suggest_body(tracker, seat, "neural", {"preset": "ten_point_6p", **house})
        answer = client.post("/v1/suggest", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json()["action"] == bot.act(player_view(game, seat))
        tracker.apply(answer.json()["action"])
