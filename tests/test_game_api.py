"""The engine's public API for front ends: starting scores, read-only accessors, the hand breakdown."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import smear_env
from smear_env import actions as A
from smear_env.cards import format_card, parse_cards
from smear_env.game import Contract, Deal, Game, Trick, replay
from smear_env.rules import list_presets as list_smear_presets
from tests.scripted import new_game, play, play_tricks

# minnesota's main deal (tests/rules/test_minnesota.py): seat 1 bids 3, takes the kitty, names hearts
HANDS = [
    "AC JK2 AD 5H TD QS 2D 3C 8C",
    "9C AH KH 2H 3D 4C 5C 6C 7C",
    "KC QC JD 4D 5D 6D 7D 8D 9D",
    "JK TH 3H 7S 8S 9S 2S 3S 2C",
]
KITTY = "JH 4S 5S 6S"
DISCARDS = "4C 5C 6C 7C 4S 5S 6S 7D 8D 9D 2S 3S 2C 2D 3C 8C"
TRICKS = ["9C KC JK AC", "TH JK2 2H JD", "4D 7S AD 3D", "5H AH 5D 3H", "KH 6D 8S TD", "JH QC 9S QS"]


def minnesota(**kwargs: object) -> Game:
    return new_game("minnesota", hands=HANDS, kitty=KITTY, **kwargs)  # type: ignore[arg-type]


def names(cards: tuple[int, ...]) -> str:
    return " ".join(format_card(c) for c in cards)


# ------------------------------------------------------------------ starting scores


def test_a_match_starts_from_the_scores_given_and_the_record_keeps_them() -> None:
    game = minnesota(scores=[17, -4], hands_played=3, dealer=0)
    assert game.match_scores() == (17, -4) and game.hands_played == 3
    play(game, "bid 3, pass, pass, pass, trump H, " + ", ".join(f"discard {c}" for c in DISCARDS.split()))
    play_tricks(game, TRICKS)
    assert game.match_scores() == (17, 0)  # team 1 took all four points
    assert game.results()[-1].scores_before == (17, -4)
    copy = replay(json.loads(json.dumps(game.record())))
    assert copy.match_scores() == game.match_scores() and copy.hands_played == 4 and copy.history == game.history


def test_records_of_fresh_matches_keep_their_form() -> None:
    assert "start_scores" not in Game("ten_point", seed=1).record()


@pytest.mark.parametrize(
    "scores",
    [[1], [1, 2, 3], [1.5, 2], [True, 0], ["1", 2], (None, 0), 7, "10 20"],
)
def test_starting_scores_must_be_one_integer_per_team(scores: object) -> None:
    with pytest.raises(ValueError, match=r"are not starting scores: expected a list of 2 integers, one per team"):
        Game("minnesota", seed=1, scores=scores)  # type: ignore[arg-type]


def test_numpy_integer_scores_are_integers() -> None:
    assert Game("minnesota", seed=1, scores=np.array([3, 4])).match_scores() == (3, 4)  # type: ignore[arg-type]


@pytest.mark.parametrize(("preset", "hands_played"), [("smear", 10), ("smear", -1), ("minnesota", 1.0)])
def test_hands_played_must_leave_a_hand_to_play(preset: str, hands_played: object) -> None:
    with pytest.raises(ValueError, match="hands_played"):
        Game(preset, seed=1, hands_played=hands_played)  # type: ignore[arg-type]


def test_the_env_resets_to_starting_scores_and_dealer() -> None:
    env = smear_env.raw_env(preset="minnesota")
    env.reset(seed=3, options={"scores": [20, 19], "dealer": 2})
    assert env.game.match_scores() == (20, 19) and env.game.dealer == 2
    assert env.view("player_3")["scores"] == [20, 19]
    start = {name: start for name, start, _ in smear_env.observation.layout(4)}["scores"]
    assert list(env.observe("player_0")["observation"][start : start + 2] * 21) == pytest.approx([20, 19])


def test_bad_starting_scores_leave_the_env_as_it_was() -> None:
    env = smear_env.raw_env(preset="ten_point")
    env.reset(seed=3)
    game, rng_state = env.game, env.np_random.bit_generator.state
    with pytest.raises(ValueError, match="one per team"):
        env.reset(seed=4, options={"scores": [1, 2, 3]})
    assert env.game is game and env.np_random.bit_generator.state == rng_state


def test_schneider_takes_no_starting_scores() -> None:
    env = smear_env.raw_env(preset="bohemian_schneider")
    with pytest.raises(ValueError, match="reset option scores .*: bohemian_schneider matches always start from 0-0"):
        env.reset(seed=1, options={"scores": [1, 2]})


# ------------------------------------------------------------------ read-only accessors


def test_accessors_follow_a_hand() -> None:
    game = minnesota(single_hand=True)
    assert names(game.hand(1)) == "4C 5C 6C 7C 9C 3D 2H KH AH"  # ascending card ids: clubs, diamonds, hearts
    assert game.contract() == Contract(None, None, None, None, None)
    play(game, "bid 2, bid 3")
    assert game.auction() == (None, 2, 3, None)
    assert game.contract() == Contract(bidder=2, bid=3, trump=None, called_card=None, partner=None)
    play(game, "pass, pass")
    assert game.contract().bidder == 2 and game.picked_up(2) == tuple(sorted(parse_cards(KITTY)))
    assert game.picked_up(1) == ()
    play(game, "trump H")
    assert game.contract().trump == 2
    play(game, "discard 6C, discard 4C, discard 5C")  # seat 1, left of the dealer, discards first
    assert names(game.discards(1)) == "4C 5C 6C" and game.discards(2) == ()
    assert game.completed_tricks() == () and game.current_trick() == ()


def test_tricks_unpack_as_leader_cards_winner() -> None:
    game = minnesota(single_hand=True)
    play(game, "bid 3, pass, pass, pass, trump H, " + ", ".join(f"discard {c}" for c in DISCARDS.split()))
    play(game, "play 9C, play KC")
    assert game.current_trick() == ((1, parse_cards("9C")[0]), (2, parse_cards("KC")[0]))
    play(game, "play JK, play AC")
    (trick,) = game.completed_tricks()
    leader, cards, winner = trick
    assert isinstance(trick, Trick) and (leader, winner) == (1, 3) and trick.cards == cards
    assert [(seat, format_card(card)) for seat, card in cards] == [(1, "9C"), (2, "KC"), (3, "JK"), (0, "AC")]


def test_accessors_return_copies_or_immutable_values() -> None:
    game = minnesota(single_hand=True)
    hand, scores = game.hand(1), game.match_scores()
    with pytest.raises(TypeError):
        hand[0] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        scores[0] = 5  # type: ignore[index]
    play(game, "bid 3, pass, pass, pass, trump H, " + ", ".join(f"discard {c}" for c in DISCARDS.split()))
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    result.awards.clear()
    result.deltas[1] = 99
    assert game.results()[-1].awards and game.results()[-1].deltas[1] == 4


@pytest.mark.parametrize("seat", [-1, 4, 1.0, True, "0"])
def test_a_seat_that_is_not_one_is_refused(seat: object) -> None:
    with pytest.raises(ValueError, match=r"is not a seat: expected an int in 0..3"):
        minnesota().hand(seat)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the hand's breakdown


def test_hand_result_to_dict_is_plain_json_with_every_category() -> None:
    game = minnesota(single_hand=True)
    play(game, "bid 3, pass, pass, pass, trump H, " + ", ".join(f"discard {c}" for c in DISCARDS.split()))
    play_tricks(game, TRICKS)
    data = game.results()[-1].to_dict()
    assert json.loads(json.dumps(data)) == data
    assert (data["bidder"], data["bid"], data["trump"], data["made"]) == (1, 3, "H", True)
    assert data["categories"] == [
        {"category": "high", "points": 1, "side": 1, "seat": 1, "card": "AH"},
        {"category": "low", "points": 1, "side": 1, "seat": 1, "card": "2H"},
        {"category": "jack", "points": 1, "side": 1, "seat": 1, "card": "JH"},
        {"category": "game", "points": 1, "side": 1, "seat": None, "card": None},
    ]
    assert data["sides"] == [
        {"side": 0, "seats": [0, 2], "points": 0, "card_points": 15, "score_change": 0},  # TH JD, AD
        {"side": 1, "seats": [1, 3], "points": 4, "card_points": 29, "score_change": 4},
    ]
    assert (data["scores_before"], data["scores_after"], data["match_winners"]) == ([0, 0], [0, 4], None)
    assert [t["winner"] for t in data["tricks"]] == [3, 2, 0, 1, 1, 1]
    assert data["tricks"][0] == {"leader": 1, "cards": [[1, "9C"], [2, "KC"], [3, "JK"], [0, "AC"]], "winner": 3}


def test_categories_nobody_took_are_listed_with_no_side() -> None:
    game = new_game(
        "minnesota",
        hands=[HANDS[0], "9C AH KH 4H 3D 4C 5C 6C 7C", HANDS[2], HANDS[3]],  # the 2H is not dealt
        kitty=KITTY,
        single_hand=True,
    )
    play(game, "bid 3, pass, pass, pass, trump H, " + ", ".join(f"discard {c}" for c in DISCARDS.split()))
    play_tricks(game, ["9C KC JK AC", "TH JK2 4H JD", "4D 7S AD 3D", "5H AH 5D 3H", "KH 6D 8S TD", "JH QC 9S QS"])
    result = game.results()[-1]
    assert result.unawarded == ("low",)
    assert {"category": "low", "points": 0, "side": None, "seat": None, "card": None} in result.to_dict()["categories"]


def test_a_moon_is_named_in_the_breakdown() -> None:
    game = minnesota(single_hand=True, scores=[0, 5])
    play(game, "bid moon, pass, pass, pass, trump H, " + ", ".join(f"discard {c}" for c in DISCARDS.split()))
    play_tricks(game, TRICKS)
    data = game.results()[-1].to_dict()
    assert data["bid"] == "moon" and data["made"] and data["match_winners"] == [1]
    assert game.results()[-1].bid == A.MOON_BID


@pytest.mark.parametrize("preset", list_smear_presets())
def test_a_deal_around_a_hand_keeps_it_and_places_every_other_card_once(preset: str) -> None:
    game = Game(preset, seed=3)
    seat = 1
    hand = list(game.deals[-1].hands[seat])
    deal = Deal.around(game.rules, hand, seat, random.Random(1))
    assert deal.hands[seat] == hand
    every = [c for h in deal.hands for c in h] + deal.kitty + deal.stock
    assert sorted(every) == sorted(game.rules.deck)
    assert [len(h) for h in deal.hands] == [game.rules.hand_size] * game.rules.num_players
    assert len(deal.kitty) == game.rules.kitty_size
    assert Deal.around(game.rules, hand, seat, random.Random(1)) == deal  # the seed decides it
