"""Card and move notation."""

from __future__ import annotations

import random

import pytest

from smear_env import actions as A
from smear_env.cards import JOKER1, JOKER2, format_card, format_cards, parse_card, parse_cards, shuffle
from smear_env.game import Game
from smear_env.rules import get_rules


def test_cards_round_trip() -> None:
    for card in range(54):
        assert parse_card(format_card(card)) == card
    assert parse_card("10h") == parse_card("TH")
    assert parse_card("jk") == JOKER1 and parse_card("JK2") == JOKER2


def test_two_jokers_written_alike_are_both_jokers() -> None:
    assert parse_cards("JK AS JK") == [JOKER1, parse_card("AS"), JOKER2]


@pytest.mark.parametrize("bad", ["1H", "TX", "", "AAS", "K"])
def test_bad_card_names_fail_clearly(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(bad)


def test_repeated_card_is_an_error() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        parse_cards("AS AS")


def test_moves_round_trip_and_labels() -> None:
    assert [A.format_action(a) for a in (0, 4, 12, 13, 16, 126)] == ["pass", "bid 4", "bid moon", "misdeal",
                                                                      "trump H", "done"]  # fmt: skip
    assert A.parse_action("Play 10s") == A.PLAY_BASE + parse_card("TS")
    assert A.parse_action("discard JK2") == A.DISCARD_BASE + JOKER2
    assert A.parse_action("call AH") == A.CALL_BASE + parse_card("AH")
    assert A.parse_action("smudge") == A.parse_action("bid 5")
    assert format_cards(parse_cards("AS KS")) == "AS KS"


def test_smudge_is_the_top_bid_of_the_rules_played() -> None:
    """Under house rules with a smudge above bid 10, the word once made an ordinary bid of 5."""
    smudge_at_11 = get_rules("ten_point", smudge_bid=True)
    assert A.parse_action("smudge", smudge_at_11) == A.parse_action("bid smudge", smudge_at_11) == A.BID_BASE + 11
    assert A.parse_action("smudge", get_rules("pitch_smudge")) == A.parse_action("bid 5")
    with pytest.raises(ValueError, match="these rules have no smudge bid"):
        A.parse_action("smudge", get_rules("ten_point"))
    game = Game(smudge_at_11, seed=1)
    game.apply_move("smudge")  # seat 1 bids first: the smudge, not a 5
    assert game.high_bid == 11


@pytest.mark.parametrize("bad", ["bid 12", "trump X", "play", "hold AS", "bid"])
def test_bad_moves_fail_clearly(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a move"):
        A.parse_action(bad)


def test_a_seeded_deal_is_pinned() -> None:
    """Seeded deals (and every result reported from them) must not move with the code or Python."""
    from smear_env.game import Game

    deal = Game("ten_point", seed=0).deals[0]
    assert [format_cards(h) for h in deal.hands] == [
        "5H AC 3S 6S 9H 9C 7C AH 3C AS",
        "JH 2C 6C 5S 9D 3D JK2 7S TS 9S",
        "4S KC 5C 6D 4D QC TD 3H 4H KS",
        "QD QH 8S JC TH QS 8C 2S 7D TC",
    ]
    assert format_cards(deal.stock) == "JK 2D KH JD 6H 8D AD 7H 8H 5D 4C 2H JS KD"


@pytest.mark.parametrize("size", [1, 2, 24, 32, 33, 52, 54])
def test_shuffle_matches_random_shuffle(size: int) -> None:
    """The shuffle was CPython 3.11's ``random.shuffle``, draw for draw; this checks it where that still holds."""
    for seed in range(200):
        ours, theirs = list(range(size)), list(range(size))
        rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
        shuffle(ours, rng_ours)
        rng_theirs.shuffle(theirs)
        assert ours == theirs
        assert rng_ours.random() == rng_theirs.random()  # and the generator is left in the same place
