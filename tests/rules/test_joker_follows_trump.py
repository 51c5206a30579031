"""``joker_follows_trump``: with jokers that are not trumps, a trump lead is answered with a trump or a joker.

A public Smear site plays ``joker_rank = "not_trump"`` with one more duty: when trump is led, a player holding
a trump or a joker must play one of them. Everything else about its jokers stays: a joker beats every plain card
and loses to every trump, it may be played to any trick, and a joker lead obliges nobody.

``ten_point_midwest`` with six cards dealt (no discards), any first lead, hearts trump; seats 0.. clockwise,
dealer 0, so seat 1 bids first and, as bidder, leads the first trick.
"""

from __future__ import annotations

import pytest

from smear_env.game import Game
from smear_env.rules import get_rules
from tests.scripted import hand_of, legal_moves, new_game, play, play_tricks, trick_winners

HOUSE = {"joker_rank": "not_trump", "joker_follows_trump": True, "hand_size": 6, "first_lead": "any"}
HANDS = [
    "TC 9C 8C 7C 2S 3S",  # seat 0: neither a trump nor a joker
    "AC AH KH 6C 7D 8D",  # seat 1: the bidder, leads
    "JK 2H 2C 3C 9S TS",  # seat 2: a joker and a trump
    "JK2 KC QC JC 2D 3D",  # seat 3: a joker and no trump
]


def house_game(hands: list[str] = HANDS, **options: object) -> Game:
    game = new_game("ten_point_midwest", hands=hands, single_hand=True, **{**HOUSE, **options})
    play(game, "bid 2, pass, pass, pass, trump H")
    return game


def plays_of(game: Game, seat: int) -> set[str]:
    return {f"play {card}" for card in hand_of(game, seat)}


def test_on_a_trump_lead_a_joker_with_no_trump_is_the_only_legal_card() -> None:
    game = house_game()
    play_tricks(game, ["AC 3C KC 7C"])  # seat 1 takes the clubs and leads trump
    play(game, "play AH, play 2H")
    assert legal_moves(game) == {"play JK2"}  # seat 3: no trump, so its joker
    play(game, "play JK2")
    assert legal_moves(game) == plays_of(game, 0)  # seat 0 holds neither: anything
    play(game, "play 2S")
    assert trick_winners(game) == [1, 1]  # the trump beats the joker that answered it


def test_the_same_hand_without_the_house_rule_may_play_anything_to_a_trump_lead() -> None:
    game = house_game(joker_follows_trump=False)
    play_tricks(game, ["AC 3C KC 7C"])
    play(game, "play AH, play 2H")
    assert legal_moves(game) == plays_of(game, 3)


def test_on_a_trump_lead_a_joker_and_trumps_are_all_legal_and_nothing_else() -> None:
    game = house_game()
    play_tricks(game, ["AC 3C KC 7C"])
    play(game, "play AH")
    assert legal_moves(game) == {"play JK", "play 2H"}  # seat 2: its trump or its joker, either
    play(game, "play JK, play JK2, play 2S")  # seat 3 still answers with its joker
    play(game, "play KH")
    assert legal_moves(game) == {"play 2H"}  # the joker is gone: the trump
    play(game, "play 2H")
    assert legal_moves(game) == plays_of(game, 3)  # seat 3 holds neither now
    assert trick_winners(game) == [1, 1]


@pytest.mark.parametrize("house_rule", [True, False])
def test_a_plain_lead_is_followed_as_without_the_house_rule(house_rule: bool) -> None:
    game = house_game(joker_follows_trump=house_rule)
    play(game, "play AC")
    assert legal_moves(game) == {"play 2C", "play 3C", "play JK", "play 2H"}  # clubs, or trump in, or the joker
    play(game, "play JK")
    assert legal_moves(game) == {"play KC", "play QC", "play JC", "play JK2"}  # clubs or the joker: no trump held
    play(game, "play KC")
    assert legal_moves(game) == {"play TC", "play 9C", "play 8C", "play 7C"}
    play(game, "play 7C")
    assert trick_winners(game) == [2]  # the joker beats every plain card


def test_a_joker_lead_obliges_nobody_even_once_a_trump_is_played_to_it() -> None:
    hands = ["TC 9C 8C 7C 2S 3S", "JK AC 5C 6C 7D 8D", "2H 2C 3C 9S TS JS", "JK2 KC QC JC 2D 3D"]
    game = house_game(hands)
    play(game, "play JK")
    assert legal_moves(game) == plays_of(game, 2)
    play(game, "play 2H")  # a trump to a joker lead sets no suit to follow
    assert legal_moves(game) == plays_of(game, 3)  # seat 3's joker is not called for
    play(game, "play 2D")
    assert legal_moves(game) == plays_of(game, 0)
    play(game, "play 2S")
    assert trick_winners(game) == [2]  # the trump takes the joker


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, r"joker_follows_trump is impossible: needs joker_rank='not_trump'"),
        ({"joker_rank": "lowest"}, r"joker_follows_trump is impossible: needs joker_rank='not_trump'"),
        ({"joker_rank": "not_trump", "jokers": 0}, r"joker_follows_trump is impossible: needs jokers in the deck"),
        ({"joker_rank": "not_trump", "joker_follows_trump": 1}, r"joker_follows_trump=1 is invalid: expected true"),
    ],
)
def test_the_house_rule_is_refused_where_jokers_are_trumps_or_absent(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules("ten_point", **{"joker_follows_trump": True, **options})
