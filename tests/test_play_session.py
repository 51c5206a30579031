"""The session and its plain data: events seen from one seat, hand breakdowns, hands grouped by suit.

Whole matches on every preset check that another seat's discards and draws never
carry cards, that every trick's winner is the engine's, and that the breakdowns
and the final event carry the engine's scores. Scripted deals check the
breakdown of a known hand, redeals, and the hand grouping with the Jick and jokers.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import smear_env
from agents.base import Agent
from agents.registry import make_agent
from smear_env.game import Game
from smear_env.scoring import HandResult
from smear_rl.play.breakdown import HandBreakdown, RoundBreakdown, categories_in_play, hand_breakdown
from smear_rl.play.events import (
    Bid,
    Discarded,
    HandDealt,
    HandScored,
    MatchOver,
    MisdealCalled,
    PickedUp,
    Played,
    TrickWon,
    TrumpNamed,
    event_to_dict,
)
from smear_rl.play.games import load_kind, replay_record
from smear_rl.play.hand import SuitGroup, hand_groups, sort_cards
from smear_rl.play.session import Session
from tests.rules import test_ten_point, test_ten_point_5p
from tests.scripted import new_game

ALL_PRESETS = smear_env.list_presets()


class FirstLegal(Agent):
    def act(self, view: dict[str, Any], observation: Any = None) -> int:
        return self.legal_actions(view)[0]


def play_through(session: Session, max_hands: int) -> list[Any]:
    """Play with the person's moves chosen by a rule bot from the person's view; every event, in order."""
    person = make_agent("rule", session.kind.agent_rules(), seed=11)
    events = session.start()
    while not session.over and session.hands_played < max_hands:
        step = session.play([person.act(session.view)]) if session.my_turn else session.bot_turn()
        _check_tricks(session, step)
        events += step
    return events


def _check_tricks(session: Session, step: list[Any]) -> None:
    """Each trick the step completed has the engine's winner (read back while the hand goes on)."""
    tricks = session.view["tricks"]
    for event in step:
        if isinstance(event, TrickWon) and not any(isinstance(e, (HandScored, MatchOver)) for e in step):
            engine = tricks[event.number - 1]
            assert (engine["winner"], [tuple(p) for p in engine["cards"]]) == (event.winner, list(event.plays))


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_events_of_other_seats_carry_no_cards_and_tricks_match_the_engine(preset: str) -> None:
    kind = load_kind(preset)
    seat = 1 % kind.num_players
    session = Session.create(kind, seat, ["rule"], seed=21)
    events = play_through(session, max_hands=3)
    for event in events:
        if isinstance(event, (Discarded, PickedUp)):
            assert event.count > 0
            if event.seat == seat:
                assert len(event.cards) == event.count
            else:
                assert event.cards == ()
    hands = [e for e in events if isinstance(e, HandScored)]
    assert len(hands) == session.hands_played >= 1
    plays = [e for e in events if isinstance(e, Played)]
    tricks = [e for e in events if isinstance(e, TrickWon)]
    assert len(plays) == len(tricks) * kind.num_players
    assert all(
        t.plays == tuple((p.seat, p.card) for p in plays[i * kind.num_players : (i + 1) * kind.num_players])
        for i, t in enumerate(tricks)
    )
    assert hands[-1].breakdown.scores == tuple(session.game.scores)
    json.dumps([event_to_dict(e) for e in events])  # plain data for the service and a web table
    if session.over:
        assert events[-1] == MatchOver(tuple(sorted(session.game.winners)), tuple(session.game.scores))


def test_pickups_name_their_source() -> None:
    sources = {}
    for preset in ("minnesota", "ten_point", "four_point", "schmier", "bohemian_schneider"):
        session = Session.create(load_kind(preset), 0, ["rule"], seed=4)
        sources[preset] = {e.source for e in play_through(session, max_hands=1) if isinstance(e, PickedUp)}
    assert sources == {
        "minnesota": {"kitty"},
        "ten_point": {"stock"},
        "four_point": {"blinds"},
        "schmier": {"stock"},
        "bohemian_schneider": {"pile"},
    }


def test_first_lead_names_trump_in_pitch() -> None:
    session = Session.create(load_kind("pitch_smudge"), 0, ["rule"], seed=2)
    events = play_through(session, max_hands=1)
    named = [e for e in events if isinstance(e, TrumpNamed)]
    first = next(e for e in events if isinstance(e, Played))
    assert named == [TrumpNamed(first.seat, first.card[-1], True)]
    assert events.index(named[0]) == events.index(first) - 1


def test_all_pass_and_misdeal_redeal_with_their_reason() -> None:
    kind = load_kind("ten_point")
    session = Session(kind, 1, [FirstLegal(), None, FirstLegal(), FirstLegal()], seed=0)
    session.play([session.kind.parse_action("pass")])
    events = session.bot_turn() + session.bot_turn() + session.bot_turn()  # seats 2, 3 and the dealer pass
    assert events[-2:] == [Bid(0, "pass"), HandDealt(1, 0, events[-1].hand, "all passed")]
    assert set(events[-1].hand) == set(session.view["hand"])

    hands = [
        "2S 3S 4S 5S 6S 7S 8S 9S TS",
        "3C 4C 5C 6C 7C 8C 9C 3D 4D",
        "AH KH QH JH TH 9H 8H 7H 6H",
        "AD KD QD JD TD 9D 8D 7D 6D",
    ]
    game = new_game("minnesota", hands, kitty="AS KS QS JS")
    minnesota = Session(load_kind("minnesota"), 1, [FirstLegal(), None, FirstLegal(), FirstLegal()], 0, game=game)
    events = minnesota.play([minnesota.kind.parse_action("misdeal")])
    assert [type(e) for e in events] == [MisdealCalled, HandDealt] and events[1].redeal == "misdeal"
    assert events[1].dealer == 0 and events[1].number == 1


def test_the_record_names_the_players_and_replays() -> None:
    session = Session.create(load_kind("minnesota"), 2, ["rule", "random", "rule"], seed=7)
    play_through(session, max_hands=1)
    record = json.loads(json.dumps(session.record()))
    assert record["players"] == ["rule", "random", "human", "rule"]
    assert replay_record(record).history == session.game.history


def test_session_refuses_a_wrong_seating() -> None:
    kind = load_kind("ten_point")
    with pytest.raises(ValueError, match="seat 4 is not a seat of ten_point: expected 0..3"):
        Session.create(kind, 4, ["rule"], 0)
    with pytest.raises(ValueError, match="2 bots named for 3 other seats"):
        Session.create(kind, 0, ["rule", "rule"], 0)
    with pytest.raises(ValueError, match="None at the person's seat"):
        Session(kind, 0, [FirstLegal(), None, FirstLegal(), FirstLegal()], 0)


# ---------------------------------------------------------------------- breakdowns


def test_breakdown_of_ten_points_main_hand() -> None:
    game = test_ten_point.main_hand(5)
    b = hand_breakdown(game.hand_results[-1], game.rules, 1, game.scores)
    assert (b.bidder, b.bid, b.trump, b.made) == (1, "5", "H", True)
    taken = {c.key: c.side for c in b.categories}
    assert taken == {"high": 1, "low": 0, "jack": 0, "jick": 1, "joker": 0, "joker2": 0, "trey": 1, "game": 0}
    assert [c.label for c in b.categories] == ["High", "Low", "Jack", "Jick", "Joker 1", "Joker 2", "Trey", "Game"]
    assert [(s.seats, s.bidding, s.points, s.delta) for s in b.sides] == [((0, 2), False, 5, 5), ((1, 3), True, 5, 5)]
    assert b.scores == (5, 5) and b.team_seats == ((0, 2), (1, 3)) and b.match_winners is None
    assert json.loads(json.dumps(b.to_dict()))["kind"] == "hand"


def test_breakdown_with_a_called_partner_has_a_side_of_two() -> None:
    game = test_ten_point_5p.main_hand(4)
    b = hand_breakdown(game.hand_results[-1], game.rules, 1, game.scores)
    assert [(s.seats, s.bidding) for s in b.sides] == [((0,), False), ((1, 3), True), ((2,), False), ((4,), False)]
    assert b.team_seats == ((0,), (1,), (2,), (3,), (4,))
    assert b.scores == tuple(game.scores)


def test_breakdown_says_why_nobody_took_a_category() -> None:
    rules = smear_env.get_rules("ten_point")
    result = HandResult(
        2, 6, 3, [0, 1, 0, 1], {"high": 0, "jack": 1}, {0: 1, 1: 1}, {0: 20, 1: 20}, False, {0: 1, 1: -6}
    )
    b = hand_breakdown(result, rules, 3, [1, -6])
    notes = {c.key: (c.side, c.note) for c in b.categories}
    assert notes["low"] == (None, "not in play") and notes["game"] == (None, "tie") and notes["high"] == (0, "")
    assert (b.made, b.sides[1].delta, b.bid) == (False, -6, "6")


def test_categories_follow_the_rules() -> None:
    keys = {
        preset: [k for k, _, _ in categories_in_play(smear_env.get_rules(preset))]
        for preset in ("minnesota", "pitch_smudge", "schmier")
    }
    assert keys == {
        "minnesota": ["high", "low", "jack", "game"],
        "pitch_smudge": ["high", "low", "jack", "game"],
        "schmier": ["high", "low", "jack", "jick", "joker", "game"],
    }
    house = smear_env.get_rules("minnesota", jick_points=1, joker_points=1)
    assert [label for _, label, _ in categories_in_play(house)][3:6] == ["Jick", "Joker 1", "Joker 2"]
    distinct = smear_env.get_rules("ten_point", distinct_jokers=True)
    assert [label for key, label, _ in categories_in_play(distinct) if key.startswith("joker")] == [
        "Big joker",
        "Little joker",
    ]


def test_a_schneider_round_breakdown() -> None:
    session = Session.create(load_kind("bohemian_schneider"), 0, ["rule"], seed=3)
    events = play_through(session, max_hands=2)
    rounds = [e.breakdown for e in events if isinstance(e, HandScored)]
    assert all(isinstance(b, RoundBreakdown) for b in rounds) and len(rounds) == 2
    for b, result in zip(rounds, session.game.round_results):
        assert b.points == result.points and b.round_scores == result.scores
        assert all(score == p * m for score, p, m in zip(b.round_scores, b.points, b.multipliers))
    assert rounds[-1].scores == tuple(session.game.scores)
    assert not isinstance(rounds[0], HandBreakdown)


# ---------------------------------------------------------------------- hands


def test_hand_groups_put_trumps_first_with_the_jick_and_jokers() -> None:
    rules = smear_env.get_rules("ten_point")
    hand = "9D JD 2C KS 5H JK AH JH".split()
    assert hand_groups(hand, rules, "H") == [
        SuitGroup("H", True, ("AH", "JH", "JD", "JK", "5H")),
        SuitGroup("S", False, ("KS",)),
        SuitGroup("C", False, ("2C",)),
        SuitGroup("D", False, ("9D",)),
    ]
    assert hand_groups(hand, rules, None) == [
        SuitGroup("S", False, ("KS",)),
        SuitGroup("H", False, ("AH", "JH", "5H")),
        SuitGroup("C", False, ("2C",)),
        SuitGroup("D", False, ("JD", "9D")),
        SuitGroup(None, False, ("JK",)),
    ]


def test_the_joker_sorts_lowest_where_it_is_the_lowest_trump() -> None:
    rules = smear_env.get_rules("schmier")
    assert sort_cards("2H JK AH JD".split(), rules, "H") == ["AH", "JD", "2H", "JK"]
    assert sort_cards("7S AS TH".split()) == ["AS", "7S", "TH"]  # no rules (Schneider): by suit, Ace high


def test_a_game_given_to_the_session_is_the_one_played() -> None:
    game = Game("ten_point", seed=99)
    session = Session(load_kind("ten_point"), 0, [None, FirstLegal(), FirstLegal(), FirstLegal()], 0, game=game)
    assert session.game is game
