"""Rebuilding a seat's information state from its events: exact on real games, refused when it cannot have happened.

Every decision of real games (every Smear preset, and Bohemian Schneider) is projected to the
seat on turn, rebuilt, and compared with the env's own view of that seat; mutated histories
must be refused with a 422 that names the first event at which they stop fitting.
"""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.registry import make_agent
from smear_env.cards import format_card, parse_card, parse_cards
from smear_env.game import Game
from smear_env.observation import player_view
from smear_env.rules import get_rules, list_presets
from smear_env.schneider.game import Game as SchneiderGame
from smear_env.schneider.game import SchneiderRules
from smear_env.schneider.observation import player_view as schneider_view
from smear_env.trump import trump_table
from smear_rl.server.assign import assign, group_cards
from smear_rl.server.errors import RequestError
from smear_rl.server.history import Tracker, suggest_body
from smear_rl.server.rebuild import index_of, parse_request, rebuild

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_and_rebuild(preset: str, seed: int, hands: int = 2, **house: object) -> list[dict]:
    """Play ``hands`` hands (rule bot, with a random move one time in five) rebuilding the seat on turn at every
    decision and checking its view; returns the suggest bodies of every decision."""
    rules = get_rules(preset, **house)
    game = Game(rules, seed=seed, dealer=seed % rules.num_players)
    tracker = Tracker(game)
    bot, rng, bodies = make_agent("rule", rules, 0), random.Random(seed), []
    while not game.is_over and len(game.deals) <= hands:
        seat = game.current_player
        body = suggest_body(tracker, seat, "rule", {"preset": preset, **house} if house else preset)
        rebuilt = rebuild(parse_request(body, rules))
        assert rebuilt.view == player_view(game, seat)
        bodies.append(body)
        view = player_view(game, seat)
        tracker.apply(bot.act(view) if rng.random() < 0.8 else rng.choice(view["legal_actions"]))
    return bodies


@pytest.mark.parametrize("preset", list_presets())
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_rebuilt_view_equals_the_env_view_at_every_decision(preset: str, seed: int) -> None:
    assert play_and_rebuild(preset, seed)


HOUSE_RULES = [
    ("ten_point", {"follow": "strict"}),
    ("ten_point", {"discard_trump": "free", "first_lead": "any"}),
    ("minnesota", {"protected_discards": ("ace", "jack"), "follow": "follow_or_trump"}),
    ("ten_point_midwest", {"kitty_size": 4, "hand_size": 9, "deuce_points": 2}),
    ("schmier", {"redraw_limit": 2}),
    ("smear", {"discard_trump": "free"}),
]


@pytest.mark.parametrize(("preset", "house"), HOUSE_RULES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_rebuilt_view_is_exact_under_house_rules_too(preset: str, house: dict, seed: int) -> None:
    assert play_and_rebuild(preset, seed, **house)


@pytest.mark.parametrize("rounds", [2])
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_schneider_rebuilt_view_equals_the_env_view_at_every_decision(rounds: int, seed: int) -> None:
    rules = SchneiderRules(num_rounds=rounds)
    game = SchneiderGame(rules, seed=seed, dealer=seed % 2)
    tracker = Tracker(game)
    bot, rng = make_agent("random", "bohemian_schneider", seed), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        body = suggest_body(tracker, seat, "rule", "bohemian_schneider")
        assert rebuild(parse_request(body, rules)).view == schneider_view(game, seat)
        view = schneider_view(game, seat)
        tracker.apply(bot.act(view) if rng.random() < 0.5 else view["legal_actions"][0])


# ---------------------------------------------------------------------- mutated histories


def refusal(body: dict, preset: str) -> RequestError:
    with pytest.raises(RequestError) as info:
        rebuild(parse_request(body, get_rules(preset)))
    return info.value


def bodies_with(preset: str, seed: int, wanted) -> list[tuple[dict, int]]:  # noqa: ANN001
    """Decisions late in a hand and the index of an event passing ``wanted(body, event)``."""
    found = []
    for body in play_and_rebuild(preset, seed, hands=1)[-12:]:
        for i, event in enumerate(body["events"]):
            if wanted(body, event):
                found.append((body, i))
    return found


def is_other_play(body: dict, event: dict) -> bool:
    return event["seat"] != body["seat"] and str(event.get("move", "")).startswith("play ")


MUTATED = ["ten_point", "minnesota", "ten_point_5p", "schmier", "four_point"]


@pytest.mark.parametrize("preset", MUTATED)
def test_a_card_swapped_for_one_in_my_hand_is_named_twice(preset: str) -> None:
    for body, i in bodies_with(preset, 3, is_other_play)[:20]:
        mutated = copy.deepcopy(body)
        mine = next(c for c in body["hand"] if all(c not in str(e.get("move")) for e in body["events"]))
        mutated["events"][i]["move"] = f"play {mine}"
        err = refusal(mutated, preset)
        assert index_of(err) == i and "appears twice" in err.message and err.status == 422


@pytest.mark.parametrize("preset", MUTATED)
def test_a_card_played_twice_is_refused_at_the_second(preset: str) -> None:
    cases = bodies_with(preset, 4, is_other_play)
    assert cases
    for body, i in cases[:20]:
        earlier = [e for e in body["events"][:i] if str(e.get("move", "")).startswith("play ")]
        if not earlier:
            continue
        mutated = copy.deepcopy(body)
        mutated["events"][i]["move"] = earlier[0]["move"]
        err = refusal(mutated, preset)
        assert index_of(err) == i and "twice" in err.message


@pytest.mark.parametrize("preset", MUTATED)
def test_a_play_out_of_turn_is_refused_where_it_happens(preset: str) -> None:
    n = get_rules(preset).num_players
    for body, i in bodies_with(preset, 5, is_other_play)[:20]:
        mutated = copy.deepcopy(body)
        others = [s for s in range(n) if s not in (body["seat"], body["events"][i]["seat"])]
        mutated["events"][i]["seat"] = others[0]
        err = refusal(mutated, preset)
        assert index_of(err) == i, err.message


@pytest.mark.parametrize("preset", ["ten_point", "minnesota", "ten_point_5p"])
def test_a_revealed_hidden_discard_or_take_is_refused(preset: str) -> None:
    def hidden(body: dict, event: dict) -> bool:
        return event["seat"] != body["seat"] and event.get("move") == "discard"

    cases = bodies_with(preset, 6, hidden)
    assert cases
    body, i = cases[0]
    mutated = copy.deepcopy(body)
    mutated["events"][i]["move"] = "discard 2C"
    err = refusal(mutated, preset)
    assert index_of(err) == i and "reveals seat" in err.message and err.field == f"events[{i}].move"
    mutated = copy.deepcopy(body)
    mutated["events"].insert(i, {"seat": body["events"][i]["seat"], "take": ["2C"]})
    assert "hidden from seat" in refusal(mutated, preset).message


@pytest.mark.parametrize("preset", MUTATED)
def test_a_dropped_event_is_never_blamed_on_an_earlier_one(preset: str) -> None:
    """Dropping an event mostly breaks the turn order after it; some drops leave a history that could have
    happened (one of my own discards fewer: I am still discarding), which must be accepted."""
    bodies = play_and_rebuild(preset, 7, hands=1)
    rng = random.Random(7)
    refused = 0
    for body in rng.sample(bodies, 25):
        if not body["events"]:
            continue
        i = rng.randrange(len(body["events"]))
        mutated = copy.deepcopy(body)
        mutated["events"].pop(i)
        try:
            rebuild(parse_request(mutated, get_rules(preset)))
        except RequestError as err:
            refused += 1
            assert index_of(err) >= i
    assert refused >= 10


def test_my_take_must_be_reported_with_its_cards() -> None:
    bodies = play_and_rebuild("minnesota", 11, hands=1)
    body = next(b for b in bodies if any("take" in e and e["seat"] == b["seat"] for e in b["events"]))
    i = next(k for k, e in enumerate(body["events"]) if "take" in e and e["seat"] == body["seat"])
    missing = copy.deepcopy(body)
    del missing["events"][i]
    err = refusal(missing, "minnesota")
    assert "takes 4 cards after events" in err.message
    wrong = copy.deepcopy(body)
    wrong["events"][i]["take"] = wrong["events"][i]["take"][:3]
    assert "takes 4 cards here, not 3" in refusal(wrong, "minnesota").message


def test_a_void_contradicted_later_is_refused_at_the_contradiction() -> None:
    """A seat that neither followed nor trumped a lead plays that suit later: the later play is named."""
    rules = get_rules("ten_point")
    for seed in range(40):
        body = play_and_rebuild("ten_point", seed, hands=1)[-1]
        events = body["events"]
        trump = next(e["move"][-1] for e in events if str(e.get("move", "")).startswith("trump"))
        table = trump_table(rules, "CDHS".index(trump))
        plays = [
            (i, e["seat"], parse_card(e["move"][5:]))
            for i, e in enumerate(events)
            if str(e.get("move", "")).startswith("play ")
        ]
        seen = {card for _, _, card in plays} | set(parse_cards(body["hand"]))
        for t in range(0, len(plays) - 4, 4):
            led = table.effective_suit[plays[t][2]]
            for _, seat, card in plays[t + 1 : t + 4]:
                if seat == body["seat"] or table.effective_suit[card] in (led, table.trump):
                    continue
                later = [i for i, s, _ in plays[t + 4 :] if s == seat]
                unseen = [c for c in rules.deck if table.effective_suit[c] == led and c not in seen]
                if later and unseen:
                    mutated = copy.deepcopy(body)
                    mutated["events"][later[0]]["move"] = f"play {format_card(unseen[0])}"
                    err = refusal(mutated, "ten_point")
                    assert index_of(err) == later[0], err.message
                    return
    pytest.fail("no void shown in 40 hands")


def test_request_fields_are_checked_against_the_rules() -> None:
    body = play_and_rebuild("ten_point", 1, hands=1)[5]
    for change, field, text in [
        ({"seat": 4}, "seat", "not a seat"),
        ({"dealer": -1}, "dealer", "not a seat"),
        ({"scores": [0, 0, 0]}, "scores", "one per team"),
        ({"hand": body["hand"][:-1]}, "hand", "expected the 10 dealt"),
        ({"hand": [*body["hand"][:-1], "ZZ"]}, "hand[9]", "not a card"),
    ]:
        with pytest.raises(RequestError, match=text) as info:
            rebuild(parse_request(body | change, get_rules("ten_point")))
        assert info.value.field == field


# ---------------------------------------------------------------------- the placement solver


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_assign_finds_a_placement_exactly_when_one_exists(data: st.DataObject) -> None:
    cards = data.draw(st.integers(0, 7))
    slots = data.draw(st.integers(1, 4))
    forbidden = [data.draw(st.integers(0, (1 << cards) - 1)) for _ in range(slots)]
    capacities = data.draw(st.lists(st.integers(0, cards), min_size=slots, max_size=slots))
    allowed = {c: sum(1 << j for j in range(slots) if not forbidden[j] >> c & 1) for c in range(cards)}
    exists = any(
        all(allowed[c] >> s & 1 for c, s in enumerate(choice))
        and all(choice.count(s) == capacities[s] for s in range(slots))
        for choice in itertools.product(range(slots), repeat=cards)
    )
    groups = group_cards((1 << cards) - 1, forbidden)
    assert all(allowed[c] == mask for mask, members in groups.items() for c in range(cards) if members >> c & 1)
    placement = assign(groups, capacities)
    assert (placement is not None) == exists
    if placement is not None:
        assert [m.bit_count() for m in placement] == capacities
        assert all(not placement[j] & forbidden[j] for j in range(slots))
        assert sum(placement) == (1 << cards) - 1  # every card placed, once (the masks are disjoint)


def test_a_call_naming_the_wrong_partner_is_refused_where_the_card_shows() -> None:
    """ten_point_5p: every seat learns the partner at the call; a history naming another seat cannot hold."""
    for seed in range(30):
        body = play_and_rebuild("ten_point_5p", seed, hands=1)[-1]
        events = body["events"]
        call = next((i for i, e in enumerate(events) if str(e.get("move", "")).startswith("call ")), None)
        if call is None or events[call]["partner"] in (None, body["seat"]):
            continue
        card = events[call]["move"][5:]
        played = next((i for i, e in enumerate(events) if e.get("move") == f"play {card}"), None)
        if played is None:
            continue
        wrong = next(s for s in range(5) if s not in (body["seat"], events[call]["partner"], events[call]["seat"]))
        mutated = copy.deepcopy(body)
        mutated["events"][call]["partner"] = wrong
        err = refusal(mutated, "ten_point_5p")
        assert index_of(err) == played and f"held by seat {wrong}" in err.message
        mutated["events"][call].pop("partner")
        assert refusal(mutated, "ten_point_5p").field == f"events[{call}].partner"
        return
    pytest.fail("no call by another seat in 30 hands")
