"""Rebuilding a seat's information state from its events: exact on real games, refused when it cannot have happened.

Every decision of real games (every Smear preset, and Bohemian Schneider) is projected to the
seat on turn, rebuilt, and compared with the env's own view of that seat; mutated histories
must be refused with a 422 that names the first event at which they stop fitting.
"""

from __future__ import annotations

import copy
import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.registry import make_agent
from smear_env.actions import DISCARD_BASE, parse_action
from smear_env.cards import cards_of, format_card, format_cards, mask_of, parse_card, parse_cards
from smear_env.game import DISCARD, Game
from smear_env.observation import IncrementalObserver, player_view, vector_from_view
from smear_env.rules import OPTION_NAMES, PROTECTABLE, Rules, get_rules, list_presets, option_specs
from smear_env.schneider.game import Game as SchneiderGame
from smear_env.schneider.game import SchneiderRules
from smear_env.schneider.observation import player_view as schneider_view
from smear_env.trump import trump_table
from smear_rl.server.assign import assign, group_cards
from smear_rl.server.errors import RequestError
from smear_rl.server.history import Tracker, suggest_body
from smear_rl.server.rebuild import index_of, parse_request
from smear_rl.server.rebuild_seat import rebuild
from smear_rl.server.rebuild_smear import discard_regimes
from tests.fuzz_rules import FIXED, draw_value, random_rules
from tests.scripted import new_game

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_and_rebuild(rules: Rules | str, seed: int, hands: int = 2, **house: object) -> list[dict]:
    """Play ``hands`` hands (rule bot, with a random move one time in five) rebuilding the seat on turn at every
    decision and checking its view; returns the suggest bodies of every decision."""
    rules = get_rules(rules, **house) if isinstance(rules, str) else rules
    game = Game(rules, seed=seed, dealer=seed % rules.num_players)
    return rebuild_every_decision(game, hands, random.Random(seed))


def rebuild_every_decision(game: Game, hands: int, rng: random.Random, moves: str = "") -> list[dict]:
    """From ``game`` (at the start of a hand), the ``moves`` given (labels, ``;`` apart), then the rule bot's (a
    random move one time in five) up to the end of ``hands`` hands: the seat on turn rebuilt at every decision
    from its suggest body and its view checked against the engine's; the bodies of every decision."""
    rules, tracker, observer = game.rules, Tracker(game), IncrementalObserver(game.num_players)
    bot, bodies = make_agent("rule", rules, 0), []
    scripted = [move.strip() for move in moves.split(";") if move.strip()]
    while not game.is_over and len(game.deals) <= hands:
        seat = game.current_player
        body = suggest_body(tracker, seat, "rule", rules_spec(rules))
        rebuilt = rebuild(parse_request(body, rules))
        view = player_view(game, seat)
        assert rebuilt.view == view, f"seat {seat} rebuilt wrong under {rules.to_dict()}"
        # what the neural agents see of it too: voids, cards out of play, sides (observation layout 2)
        assert np.array_equal(vector_from_view(rebuilt.view, rules), observer.vector(game, seat))
        bodies.append(body)
        if scripted:
            tracker.apply(parse_action(scripted.pop(0)))
        else:
            tracker.apply(bot.act(view) if rng.random() < 0.8 else rng.choice(view["legal_actions"]))
    return bodies


def rules_spec(rules: Rules) -> dict:
    """The ``rules`` field of a request for these rules: the preset and every option (tuples as lists)."""
    plain = json.loads(json.dumps(rules.to_dict()))
    return {"preset": plain.pop("name"), **plain}


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
    ("ten_point", {"discard_trump": "excess_trumps", "protected_discards": ("scoring",)}),
    ("smear", {"protected_discards": ("jack", "jick", "jokers")}),
    ("ten_point", {"joker_rank": "not_trump"}),
    ("minnesota", {"joker_rank": "not_trump", "follow": "strict"}),
    ("ten_point", {"lowest_rank": "7", "trey_points": 0, "hand_size": 7, "max_bid": 7}),
    ("ten_point", {"distinct_jokers": True, "big_joker_above_jick": True}),
    ("ten_point_6p", {"teams": ((0, 3), (1, 4), (2, 5))}),
    ("minnesota", {"teams": ((0,), (1, 3), (2,)), "non_bidder_cap": 15}),
    ("minnesota", {"dealer_steals": True}),
    ("ten_point_5p", {"stock_use": "redraw", "hand_size": 6}),
    ("schmier", {"called_partner": True, "partnerships": False}),
]


@pytest.mark.parametrize(("preset", "house"), HOUSE_RULES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_rebuilt_view_is_exact_under_house_rules_too(preset: str, house: dict, seed: int) -> None:
    assert play_and_rebuild(preset, seed, **house)


def test_a_plain_card_on_a_trump_lead_keeps_the_jokers_from_that_seat_under_joker_follows_trump() -> None:
    """Every card dealt (30 to five seats), so an unseen joker is in some hand: never in one that answered a trump
    lead with a plain card, or the engine refuses the rebuilt deal (37% of these games did before the rebuild knew)."""
    rules = get_rules(
        "ten_point_midwest", lowest_rank="8", trey_points=0, hand_size=6, num_players=5, partnerships=False,
        max_bid=7, first_lead="any", joker_rank="not_trump", joker_follows_trump=True,
    )  # fmt: skip
    for seed in range(20):
        assert rebuild_every_decision(Game(rules, seed=seed), 1, random.Random(seed))


def test_a_match_resumed_part_way_is_rebuilt_with_its_scores() -> None:
    rules = get_rules("minnesota", teams=((0,), (1, 3), (2,)), non_bidder_cap=15, target_score=21)
    game = Game(rules, seed=3, dealer=2, scores=[14, -6, 20], hands_played=7)
    bodies = rebuild_every_decision(game, hands=2, rng=random.Random(3))
    assert bodies[0]["scores"] == [14, -6, 20] and bodies[0]["hands_played"] == 7


def rules_changing(option: str, seed: int) -> Rules:
    """A random rule set, drawn as the engine's fuzz test draws them (``tests/fuzz_rules.py``), in which ``option``
    differs from its preset's value."""
    rng = random.Random(seed)
    spec = next(spec for spec in option_specs() if spec.name == option)
    for _ in range(300):
        rules, _ = random_rules(rng)
        base = get_rules(rules.name)
        if getattr(rules, option) == getattr(base, option):
            try:
                rules = rules.replace(**{option: draw_value(spec, getattr(rules, option), rules.num_players, rng)})
            except ValueError:
                continue
        if getattr(rules, option) != getattr(base, option):
            return rules
    pytest.fail(f"no rule set the validator accepts changes {option} from its preset")


@pytest.mark.parametrize("option", [name for name in OPTION_NAMES if name not in FIXED])
def test_rebuilt_view_is_exact_under_random_rules_changing_each_option(option: str) -> None:
    """Every rule option, one that does not exist yet included: a random rule set changing it, two hands rebuilt
    at every decision. A new option the rebuild does not mirror fails here rather than in a user's request."""
    seed = sum(map(ord, option))
    assert play_and_rebuild(rules_changing(option, seed), seed)


@pytest.mark.parametrize("index", range(16))
def test_rebuilt_view_is_exact_under_random_rule_sets(index: int) -> None:
    rules, _ = random_rules(random.Random(4_000 + index))
    assert play_and_rebuild(rules, index)


@pytest.mark.parametrize("discard_trump", ["free", "when_forced", "excess_trumps"])
def test_the_discard_regimes_are_exactly_the_splits_the_engine_allows(discard_trump: str) -> None:
    """Every legal run of the bidder's discards, searched on the engine, against :func:`discard_regimes`."""
    rng, too_many_trumps = random.Random(discard_trump), 0
    for deal in range(12):
        protected = tuple(name for name in PROTECTABLE if rng.random() < 0.4)
        rules = get_rules(
            "ten_point", lowest_rank="T", hand_size=5, play_hand_size=3, trey_points=0, max_bid=7,
            discard_trump=discard_trump, protected_discards=protected,
        )  # fmt: skip
        game = Game(rules, seed=deal)
        game.apply_move("bid 4")  # seat 1, the first to bid, will take the two-card stock: seven cards, three kept
        for _ in range(3):
            game.apply_move("pass")
        named = {suit: game.clone() for suit in range(4)}
        for suit, state in named.items():
            state.apply_move(f"trump {'CDHS'[suit]}")  # and it takes the stock
        counts = {suit: (mask_of(state.hand(1)) & trump_table(rules, suit).trump_mask).bit_count() for suit, state in
                  named.items()}  # fmt: skip
        trump = max(counts, key=counts.get)  # the suit it holds most of: often more trumps than it may keep
        too_many_trumps += counts[trump] > rules.play_hand_size
        game, hand = named[trump], mask_of(named[trump].hand(1))
        legal = _discard_splits(game, 1)
        predicted = {
            kept
            for kept in _submasks(hand, rules.play_hand_size)
            if any(not kept & no_keep and not hand & ~kept & no_discard for no_keep, no_discard in
                   discard_regimes(rules, trump, exchanging=False))
        }  # fmt: skip
        assert legal == predicted, (protected, format_cards(cards_of(hand)))
    assert too_many_trumps >= 3


def _discard_splits(game: Game, seat: int) -> set[int]:
    """The hands ``seat`` can keep after discarding down, over every legal order of its discards."""
    kept, seen, frontier = set(), set(), [game]
    while frontier:
        state = frontier.pop()
        hand = mask_of(state.hand(seat))
        if state.current_player != seat or state.phase != DISCARD:
            kept.add(hand)
            continue
        for action in state.legal_actions():
            after = hand & ~(1 << (action - DISCARD_BASE))
            if after not in seen:
                seen.add(after)
                child = state.clone()
                child.apply(action)
                frontier.append(child)
    return kept


def _submasks(mask: int, size: int) -> list[int]:
    return [mask_of(cards) for cards in itertools.combinations(cards_of(mask), size)]


# ---------------------------------------------------------------------- a call that names nobody, or never comes

# ten_point_5p for three players on a 24-card deck (9 to Ace, no jokers): seven trumps can be called, and a
# bidder holding all of them has nobody to call, so the engine skips the call.
SHORT_CALL = {"num_players": 3, "lowest_rank": "9", "jokers": 0, "hand_size": 8, "trey_points": 0,
              "min_bid": 2, "max_bid": 5}  # fmt: skip
ALL_HEARTS = ["AH KH QH JH TH 9H JD AS", "9C TC JC QC KC AC 9S TS", "9D TD QD KD AD JS QS KS"]


def test_a_bidder_holding_every_trump_it_could_call_calls_nobody_and_is_rebuilt_so() -> None:
    """Seat 0 deals, bids and names hearts holding all seven callable trumps: the call is skipped, so seat 1 is on
    turn right after (the rebuild infers the bidder's hearts from that) and every view after fits."""
    game = new_game("ten_point_5p", [ALL_HEARTS[0], ALL_HEARTS[1], ALL_HEARTS[2]], **SHORT_CALL)
    bodies = rebuild_every_decision(game, 1, random.Random(1), "pass; pass; bid 2; trump H")
    assert bodies[4]["seat"] == 1 and [e["move"] for e in bodies[4]["events"]][-1] == "trump H"


def test_a_skipped_call_is_refused_when_a_callable_trump_is_seen_elsewhere() -> None:
    game = new_game("ten_point_5p", ALL_HEARTS, **SHORT_CALL)
    bodies = rebuild_every_decision(game, 1, random.Random(1), "pass; pass; bid 2; trump H; discard 9S")
    rules = get_rules("ten_point_5p", **SHORT_CALL)
    at_end = copy.deepcopy(bodies[4]) | {"hand": ["9H" if c == "9C" else c for c in bodies[4]["hand"]]}
    with pytest.raises(RequestError) as info:
        rebuild(parse_request(at_end, rules))
    assert info.value.code == "not_your_turn" and "seat 0's turn to call a partner" in info.value.message
    assert "you have seen 9H elsewhere" in info.value.message
    later = copy.deepcopy(bodies[5]) | {"hand": at_end["hand"]}  # after my discard of 9S
    with pytest.raises(RequestError) as info:
        rebuild(parse_request(later, rules))
    assert info.value.field == "events[4].seat" and "seat 0's turn" in info.value.message


# ten_point_5p with a redraw on a 34-card deck (7 to Ace and two jokers): 30 cards dealt, a stock of four.
REDRAW_CALL = {"stock_use": "redraw", "hand_size": 6, "lowest_rank": "7", "redraw_limit": 1, "trey_points": 0,
               "max_bid": 7}  # fmt: skip


def test_a_called_card_nobody_held_may_be_drawn_in_the_redraw_and_played() -> None:
    """Seat 1 calls the JH, which lies in the stock (nobody is partner); seat 2 exchanges the 7S and draws it,
    then follows the AH with it. Every seat's view fits at every decision, the JH's new holder owes nothing."""
    game = new_game(
        "ten_point_5p",
        ["7H 8H 9H TH JK JK2", "AH KH QH 7C 8C 9C", "7S 8S 9S TS QS KS", "7D 8D 9D TD QD KD", "TC JC QC KC AC AS"],
        stock="JH JD AD JS",
        **REDRAW_CALL,
    )
    moves = "bid 4; pass; pass; pass; pass; trump H; call JH; done; discard 7S; done; done; discard AD; discard JS"
    moves += "; discard 7H; play AH; play JH"  # the dealer took JD AD JS, the rest of the stock
    bodies = rebuild_every_decision(game, 1, random.Random(2), moves)
    call = next(e for e in bodies[-1]["events"] if e.get("move") == "call JH")
    assert call["partner"] is None and {"seat": 2, "move": "play JH"} in bodies[-1]["events"]


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
