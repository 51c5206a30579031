"""What the web table asks of the server: ``POST /v1/replay`` (a record at any move, every hand face up) and the
display fields of a table state (teams, the hand grouped with trumps first, the categories a hand scores)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from agents.registry import make_agent  # noqa: E402
from smear_env import replay  # noqa: E402
from smear_env.cards import format_card, parse_cards  # noqa: E402
from smear_env.game import Game  # noqa: E402
from smear_env.observation import player_view  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from smear_env.schneider import game as schneider  # noqa: E402
from smear_env.schneider.observation import player_view as schneider_view  # noqa: E402
from smear_env.trump import trump_table  # noqa: E402
from smear_rl.server.app import create_app  # noqa: E402
from smear_rl.server.display import display_fields  # noqa: E402
from smear_rl.server.limits import Settings  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(search_workers=0, bot_workers=0))) as c:
        yield c


def bot_game(rules: Any, seed: int) -> Any:
    """A whole match among rule bots (Smear under ``rules``, or Bohemian Schneider)."""
    if isinstance(rules, schneider.SchneiderRules):
        game, view, preset = schneider.Game(rules, seed), schneider_view, schneider.GAME_NAME
    else:
        game, view, preset = Game(rules, seed), player_view, rules
    bots = [make_agent("rule", preset, seed=seat) for seat in range(game.num_players)]
    while not game.is_over:
        game.apply(bots[game.current_player].act(view(game, game.current_player)))
    return game


def replayed(client: TestClient, record: dict[str, Any], step: int) -> dict[str, Any]:
    response = client.post("/v1/replay", json={"record": record, "step": step})
    assert response.status_code == 200, response.json()
    return response.json()


def names(cards: list[int]) -> list[str]:
    return [format_card(card) for card in cards]


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def steps_to_check(count: int) -> list[int]:
    return sorted({0, 1, 2, count // 3, count // 2, count - 1, count})


def test_every_seat_at_every_checked_step_sees_what_the_engine_holds(client: TestClient) -> None:
    game = bot_game(get_rules("ten_point", target_score=11), seed=4)
    record = game.record()
    for step in steps_to_check(len(record["moves"])):
        answer = replayed(client, record, step)
        truth = replay(record | {"moves": record["moves"][:step]})
        assert (answer["step"], answer["steps"]) == (step, len(record["moves"]))
        for seat in range(4):
            seen = answer["seats"][seat]
            assert seen["view"] == as_json(player_view(truth, seat)), (step, seat)
            assert sorted(c for g in seen["hand_groups"] for c in g["cards"]) == sorted(seen["view"]["hand"])
        state = answer["state"]
        assert state["scores"] == list(truth.scores) and state["current_player"] == truth.current_player
        assert len(state["hand_results"]) == len(truth.hand_results)
        assert answer["undealt"] == {"kitty": names(truth.kitty), "stock": names(truth.stock)}
        assert len(state["log"]) == state["log_size"] and all("take" in e or "move" in e for e in state["log"])


def test_the_moves_list_names_who_made_each_move_and_in_which_deal(client: TestClient) -> None:
    game = bot_game(get_rules("minnesota", target_score=6), seed=2)
    record = game.record()
    moves = replayed(client, record, 0)["moves"]
    check = replay(record | {"moves": []})
    for index, entry in enumerate(moves):
        assert entry["move"] == record["moves"][index]
        assert entry["seat"] == check.current_player
        assert entry["hand"] == len(check.deals) - 1
        check.apply_move(entry["move"])
    assert moves[-1]["hand"] == len(game.deals) - 1 > 0


def test_the_end_of_a_record_shows_the_final_scores_results_and_last_trick(client: TestClient) -> None:
    game = bot_game(get_rules("pitch_smudge", target_score=5), seed=3)
    record = game.record()
    state = replayed(client, record, len(record["moves"]))["state"]
    assert state["match_over"] and state["scores"] == list(game.scores) and state["winners"] == sorted(game.winners)
    assert [r["bidder"] for r in state["hand_results"]] == [r.bidder for r in game.hand_results]
    assert [r["scores_after"] for r in state["hand_results"]][-1] == list(game.scores)
    leader, plays, winner = game.tricks[-1]
    expected = {"leader": leader, "cards": [[s, c] for s, c in as_json(player_view(game, 0)["tricks"][-1]["cards"])],
                "winner": winner}  # fmt: skip
    assert {k: state["last_trick"][k] for k in expected} == expected


def test_bohemian_schneider_records_replay_with_the_draw_pile_face_up(client: TestClient) -> None:
    game = bot_game(schneider.SchneiderRules(), seed=5)
    record = game.record()
    for step in steps_to_check(len(record["moves"])):
        answer = replayed(client, record, step)
        truth = schneider.replay(record | {"moves": record["moves"][:step]})
        for seat in range(2):
            assert answer["seats"][seat]["view"] == as_json(schneider_view(truth, seat))
        assert answer["undealt"] == {"pile": names(truth.pile)}
        assert answer["state"]["scores"] == list(truth.scores)
    assert answer["state"]["match_over"] and answer["state"]["teams"] == [[0], [1]]


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        (lambda r: {"record": r, "step": len(r["moves"]) + 1}, 422, "step"),
        (lambda r: {"record": r, "step": -1}, 422, "step"),
        (lambda r: {"record": r, "step": "3"}, 422, "step"),
        (lambda r: {"record": r | {"moves": r["moves"][:4] + ["play ZZ"]}, "step": 0}, 422, "record.moves[4]"),
        (
            lambda r: {"record": r | {"moves": ["bid 4", "bid 4", "bid 4", "bid 4", "bid 4"]}, "step": 0},
            422,
            "record.moves[1]",
        ),
        (lambda r: {"record": r | {"engine_version": 99}, "step": 0}, 422, "record"),
        (lambda r: {"record": {k: v for k, v in r.items() if k != "deals"}, "step": 0}, 422, "record"),
        (lambda r: {"record": [r], "step": 0}, 422, "record"),
        (lambda r: {"record": r, "step": 0, "extra": 1}, 422, "extra"),
    ],
)
def test_a_record_that_cannot_be_replayed_is_refused_naming_the_part(
    client: TestClient, change: Any, status: int, field: str
) -> None:
    record = bot_game(get_rules("ten_point", target_score=3), seed=1).record()
    response = client.post("/v1/replay", json=change(record))
    assert response.status_code == status
    assert response.json()["error"]["field"] == field, response.json()


def test_the_hand_is_grouped_trumps_first_with_the_jick_and_jokers_in_trick_order() -> None:
    rules = get_rules("ten_point")
    hand = ["2S", "JD", "AH", "JK", "5H", "9C", "JK2", "KD"]
    groups = display_fields(rules, {"hand": hand, "trump": "H"})["hand_groups"]
    order = trump_table(rules, 2).order  # hearts
    trumps = [c for c in order if c in parse_cards("AH JD JK 5H JK2")]
    assert groups[0] == {"suit": "H", "trump": True, "cards": names(trumps)}
    assert "JD" not in [c for g in groups[1:] for c in g["cards"]] and "KD" in groups[-1]["cards"] + groups[-2]["cards"]
    before_trump = display_fields(rules, {"hand": hand, "trump": None})["hand_groups"]
    assert before_trump[-1] == {"suit": None, "trump": False, "cards": ["JK", "JK2"]}
    assert display_fields(rules, {"trump": "H"})["hand_groups"] == []  # a spectator holds no cards


def spectator_state(client: TestClient, rules: Any) -> dict[str, Any]:
    count = 2 if rules == "bohemian_schneider" else get_rules(**rules).num_players
    body = {"rules": rules, "seats": ["remote"] * count, "seed": 1, "bot_delay_ms": 0}
    created = client.post("/v1/tables", json=body)
    assert created.status_code == 201, created.json()
    return created.json()["state"]


def test_teams_and_categories_follow_the_rules_not_the_seat_numbers(client: TestClient) -> None:
    six = {"preset": "ten_point_6p", "teams": [[0, 1, 2], [3, 4, 5]]}
    state = spectator_state(client, six)
    assert state["teams"] == [[0, 1, 2], [3, 4, 5]] and len(state["scores"]) == 2
    alone = spectator_state(client, {"preset": "ten_point_midwest", "partnerships": False})
    assert alone["teams"] == [[0], [1], [2], [3]] and len(alone["scores"]) == 4
    assert spectator_state(client, "bohemian_schneider")["teams"] == [[0], [1]]
    rules = get_rules(**six)
    labels = {c["key"]: (c["label"], c["points"]) for c in state["categories"]}
    assert labels["trey"] == ("Trey", rules.trey_points) and labels["jick"] == ("Jick", rules.jick_points)
    pitch = display_fields(get_rules("pitch_smudge"), {"hand": []})["categories"]
    assert [c["key"] for c in pitch] == ["high", "low", "jack", "game"]  # no Jick, jokers or Trey in pitch
    assert display_fields(schneider.SchneiderRules(), {"hand": []})["categories"] == []


def test_a_live_table_state_carries_the_display_fields(client: TestClient) -> None:
    body = {"rules": "ten_point", "seats": ["remote", "rule", "rule", "rule"], "seed": 9, "bot_delay_ms": 0}
    table = client.post("/v1/tables", json=body).json()
    token = table["seats"][0]["token"]
    state = client.get(f"/v1/tables/{table['id']}", params={"seat": 0}, headers={"Authorization": f"Bearer {token}"})
    mine = state.json()
    assert mine["teams"] == [[0, 2], [1, 3]]
    assert sorted(c for g in mine["hand_groups"] for c in g["cards"]) == sorted(mine["view"]["hand"])
    assert [c["key"] for c in mine["categories"]][:3] == ["high", "low", "jack"]
    assert table["state"]["hand_groups"] == []  # the spectator's state in the answer
