"""ten_point_midwest (source 002, 10-point Smear with Trey; VARIANTS.md `ten_point_midwest`).

54 cards, 4 players in 2 teams (default), 10 dealt, bids 2..10. The bidder names trump; everyone
discards to 6, any cards. Trump order A K Q J Jick Joker Joker 10..2. The bidder must lead a
trump to the first trick. Follow-or-trump; trump led must be followed. Points (10): High = Ace
of trump captured; Low = lowest trump played, to the side that captures it; Jack, Jick, each
Joker captured; Trey (3 of trump) captured = 3; Game (a tie goes to the side holding Low).
Match to 21; if both sides reach it on one hand the bidding side wins if it made its bid, else
the other side.

Seats 0..3 clockwise, team = seat % 2; dealer 0, so seat 1 bids first and seat 0 bids last.
"""

from __future__ import annotations

import pytest

from smear_env.cards import JOKER1, JOKER2, format_cards
from smear_env.game import BID, DISCARD, PLAY, Game
from smear_env.rules import get_rules
from smear_env.trump import trick_winner, trump_table
from tests.scripted import discard_cards, hand_sizes, legal_moves, new_game, play, play_hand, play_tricks, trick_winners

PRESET = "ten_point_midwest"
HEARTS = 2

# The main deal: seat 1 bids, names hearts (the Jick is the JD); everyone discards 4.
HANDS = [
    "JK 3H 4C AS KD 6C 6S 7S 5C 7C",  # seat 0 (team 0)
    "2H AH AC 9S 9D KC 5D 6D 7D 8D",  # seat 1 (team 1): the bidder
    "JD 5H QC 8S 2D KS 2S 3S 4S 5S",  # seat 2 (team 0)
    "4H JH JK2 TS 3D JS 7H 8H 2C 3C",  # seat 3 (team 1)
]
DISCARDS = [
    "5D 6D 7D 8D",  # seat 1
    "2S 3S 4S 5S",  # seat 2
    "7H 8H 2C 3C",  # seat 3 throws two trumps while holding plain cards
    "6S 7S 5C 7C",  # seat 0
]
TRICKS = [
    "2H JD 4H JK",  # seat 1 must lead trump; seat 2's Jick beats the joker and takes the 2H (Low)
    "5H JH 3H AH",  # seat 2 leads; seat 1's AH takes the Jack and the Trey
    "AC QC JK2 4C",  # seat 3, void in clubs, trumps with the second joker
    "TS AS 9S 8S",  # seat 0 wins
    "KD 9D 2D 3D",  # seat 0 wins
    "6C KC KS JS",  # seat 1 wins
]
WINNERS = [2, 1, 3, 0, 0, 1]


def deal(hands: list[str] = HANDS, **kwargs: object) -> Game:
    return new_game(PRESET, hands=hands, **kwargs)  # type: ignore[arg-type]


def main_hand(bid: int = 6, scores: list[int] | None = None, **kwargs: object) -> Game:
    game = deal(scores=scores, **kwargs)
    return play_hand(game, f"bid {bid}, pass, pass, pass, trump H", TRICKS, discards=DISCARDS)


# ------------------------------------------------------------------ bidding


def test_bids_run_from_two_to_ten():
    game = deal(single_hand=True)
    assert legal_moves(game) == {"pass"} | {f"bid {n}" for n in range(2, 11)}


def test_all_pass_same_dealer_redeals():
    game = deal()
    play(game, "pass, pass, pass, pass")
    assert game.redeals == 1
    assert game.dealer == 0
    assert game.phase == BID and game.current_player == 1


# ------------------------------------------------------------------ discards


def test_everyone_discards_to_six_with_free_choice():
    game = deal(single_hand=True)
    play(game, "bid 6, pass, pass, pass, trump H")
    assert game.phase == DISCARD and game.current_player == 1
    # any of the ten cards, scoring trumps included
    assert legal_moves(game) == {f"discard {c}" for c in HANDS[1].split()}
    discard_cards(game, DISCARDS[:2])
    assert game.current_player == 3
    assert {"discard 7H", "discard 8H", "discard JH", "discard JK2"} <= legal_moves(game)
    discard_cards(game, DISCARDS[2:])
    assert game.phase == PLAY and game.current_player == 1
    assert hand_sizes(game) == [6, 6, 6, 6]


# ------------------------------------------------------------------ first lead and following


def test_bidder_must_lead_trump_to_the_first_trick():
    game = deal(single_hand=True)
    play(game, "bid 6, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    assert legal_moves(game) == {"play 2H", "play AH"}


def test_bidder_without_trump_may_lead_anything():
    game = deal(single_hand=True)
    play(game, "bid 6, pass, pass, pass, trump H")
    discard_cards(game, ["2H AH 5D 6D", *DISCARDS[1:]])
    assert legal_moves(game) == {f"play {c}" for c in "AC 9S 9D KC 7D 8D".split()}


def test_trump_led_must_be_followed_and_the_jick_is_trump():
    game = deal(single_hand=True)
    play(game, "bid 6, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play(game, "play 2H")
    assert legal_moves(game) == {"play JD", "play 5H"}  # seat 2 holds QC 8S 2D KS too
    play(game, "play JD")
    assert legal_moves(game) == {"play 4H", "play JH", "play JK2"}


FOLLOW_HANDS = [
    "5H 6S 7S 8S AS 2S QD KD AD 3S",
    "AH AC KC QC JC TC 4C 5C 6C 7C",
    "2H 3H 2C 3D 4D 5D 8C 9C 3C 2D",
    "4H 9S TS JS QS KS 6D 7D 8D 9D",
]
FOLLOW_DISCARDS = ["4C 5C 6C 7C", "8C 9C 3C 2D", "6D 7D 8D 9D", "QD KD AD 3S"]


def test_follow_or_trump_when_a_plain_suit_is_led():
    game = deal(FOLLOW_HANDS, single_hand=True)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, FOLLOW_DISCARDS)
    play_tricks(game, ["AH 2H 4H 5H"])
    play(game, "play AC")
    # seat 2 holds 2C, the 3H (trump) and diamonds: it may follow clubs or trump, not throw a diamond
    assert legal_moves(game) == {"play 2C", "play 3H"}


# ------------------------------------------------------------------ trump order and scoring


def test_trick_winners_jick_above_jokers():
    game = main_hand(single_hand=True)
    assert trick_winners(game) == WINNERS


def test_scoring_all_ten_point_categories_and_game_tie_to_low_side():
    game = main_hand(single_hand=True)
    result = game.results()[-1]
    # High: AH captured by seat 1. Low: the 2H, played by seat 1, captured by seat 2 -> team 0.
    # Jack: seat 1. Jick: seat 2. Joker 1: captured by seat 2. Joker 2: seat 3.
    # Trey: the 3H, played by seat 0, captured by seat 1 -> team 1 (3 points).
    # Game: 18 card points each -> the side holding Low, team 0.
    assert result.card_points == {0: 18, 1: 18}
    assert result.awards == {
        "high": 1,
        "low": 0,
        "jack": 1,
        "jick": 0,
        "joker": 0,
        "joker2": 1,
        "trey": 1,
        "game": 0,
    }
    assert result.points == {0: 4, 1: 6}
    assert result.made is True
    assert game.match_scores() == (4, 6)


def test_bidder_set_loses_the_bid():
    game = main_hand(bid=7, single_hand=True)
    result = game.results()[-1]
    assert result.made is False
    assert result.deltas == {0: 4, 1: -7}
    assert game.match_scores() == (4, -7)


def test_high_is_the_ace_and_not_awarded_when_the_ace_is_discarded():
    # Seat 1 also holds the KH; it discards the AH (free discards) and wins trick 2 with the KH.
    hands = [HANDS[0], "2H AH KH AC 9S 9D KC 5D 6D 7D", HANDS[2], HANDS[3]]
    game = deal(hands, single_hand=True)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, ["AH 5D 6D 7D", *DISCARDS[1:]])
    play_tricks(game, ["2H JD 4H JK", "5H JH 3H KH", *TRICKS[2:]])
    result = game.results()[-1]
    # no High; Game is now team 0's outright, 18 to 17
    assert result.card_points == {0: 18, 1: 17}
    assert result.awards == {"low": 0, "jack": 1, "jick": 0, "joker": 0, "joker2": 1, "trey": 1, "game": 0}
    assert game.match_scores() == (4, 5)


# ------------------------------------------------------------------ match end


def test_below_21_play_goes_on():
    game = main_hand(scores=[10, 14])
    assert game.match_scores() == (14, 20)
    assert not game.is_over
    assert game.phase == BID and game.dealer == 1


def test_other_side_reaching_21_alone_wins():
    game = main_hand(scores=[18, 0])
    assert game.match_scores() == (22, 6)
    assert game.is_over and game.winners == frozenset({0})


def test_bidding_side_reaching_21_alone_wins():
    game = main_hand(scores=[0, 15])
    assert game.match_scores() == (4, 21)
    assert game.is_over and game.winners == frozenset({1})


def test_both_reach_21_bidding_side_made_its_bid_wins_even_when_lower():
    game = main_hand(scores=[20, 15])
    assert game.match_scores() == (24, 21)
    assert game.is_over and game.winners == frozenset({1})


def test_both_reach_21_bidding_side_set_the_other_side_wins_even_when_lower():
    game = main_hand(bid=7, scores=[17, 30])
    assert game.match_scores() == (21, 23)
    assert game.is_over and game.winners == frozenset({0})


# ------------------------------------------------------------------ other table sizes


def test_three_and_five_players_score_alone_four_and_six_play_in_teams():
    assert get_rules(PRESET).num_players == 4
    assert get_rules(PRESET).partnerships is True
    assert get_rules(PRESET, num_players=3).partnerships is False
    assert get_rules(PRESET, num_players=5).partnerships is False
    six = get_rules(PRESET, num_players=6)
    assert six.partnerships is True
    assert six.hand_size == 8  # 8 cards dealt with 6 players
    assert get_rules(PRESET, num_players=3).hand_size == 10


def test_three_players_each_score_alone():
    hands = [
        "JH 4H JK 5C TS 5S 2C 3C 4C 6C",  # seat 0, the dealer
        "AH 2H KC QC 9S 8S 2D 3D 4D 5D",  # seat 1, the bidder
        "KH 3H AC 7C 7S 6S 6D 7D 8D 9D",  # seat 2
    ]
    game = new_game(PRESET, hands=hands, num_players=3, single_hand=True)
    play(game, "bid 4, pass, pass, trump H")
    discard_cards(game, ["2D 3D 4D 5D", "6D 7D 8D 9D", "2C 3C 4C 6C"])
    assert legal_moves(game) == {"play AH", "play 2H"}
    play_tricks(game, ["AH 3H 4H", "2H KH JH", "AC 5C KC", "7C JK QC", "TS 9S 7S", "5S 8S 6S"])
    assert trick_winners(game) == [1, 2, 2, 0, 0, 1]
    result = game.results()[-1]
    # High: seat 1. Trey: the 3H captured by seat 1 (3). Low: the 2H, captured by seat 2.
    # Jack: seat 2. Joker: seat 0. Game: seat 0 with 12 card points (seat 2 11, seat 1 4).
    assert result.card_points == {0: 12, 1: 4, 2: 11}
    assert result.awards == {"high": 1, "low": 2, "jack": 2, "joker": 0, "trey": 1, "game": 0}
    assert result.points == {0: 2, 1: 4, 2: 2}
    assert result.made is True
    assert game.match_scores() == (2, 4, 2)


# ------------------------------------------------------------------ 002's double-joker houses

SPADES = 3
# Spades trump (the Jick is the JC): seat 1 must lead its only trump, seats 2 and 3 must follow trump
JOKER_HANDS = ["QC 3C 4C 5C 6C 7C", "2S 3D 4D 5D 6D 7D", "JC 2H 3H 4H 5H 6H", "JK 7H 8H 9H TH 2C"]


@pytest.mark.parametrize(
    ("options", "winner"),
    [
        ({}, 2),  # the Jick is above both jokers
        ({"distinct_jokers": True}, 2),  # the jokers rank apart, both below the Jick
        ({"distinct_jokers": True, "big_joker_above_jick": True}, 3),  # "with the big ranking above the Jick"
    ],
)
def test_the_trick_2s_jc_jk_qc_with_spades_trump(options: dict[str, bool], winner: int) -> None:
    game = deal(JOKER_HANDS, hand_size=6, single_hand=True, **options)
    play(game, "bid 2, pass, pass, pass, trump S")
    play_tricks(game, ["2S JC JK QC"])
    assert trick_winners(game) == [winner]


@pytest.mark.parametrize(
    ("options", "order"),
    [
        ({}, "AS KS QS JS JC JK JK2 TS"),
        ({"distinct_jokers": True}, "AS KS QS JS JC JK JK2 TS"),
        ({"distinct_jokers": True, "big_joker_above_jick": True}, "AS KS QS JS JK JC JK2 TS"),
    ],
)
def test_trump_order_with_a_big_and_a_little_joker(options: dict[str, bool], order: str) -> None:
    assert format_cards(trump_table(get_rules(PRESET, **options), SPADES).order[:8]) == order


@pytest.mark.parametrize(("distinct", "first_wins"), [(False, True), (True, False)])
def test_equal_jokers_go_to_the_first_played_distinct_ones_to_the_big_joker(distinct: bool, first_wins: bool) -> None:
    table = trump_table(get_rules(PRESET, distinct_jokers=distinct), SPADES)
    assert trick_winner([(1, JOKER2), (2, JOKER1)], table)[0] == (1 if first_wins else 2)
    assert trick_winner([(1, JOKER1), (2, JOKER2)], table)[0] == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"big_joker_above_jick": True}, "needs distinct_jokers=true"),
        ({"distinct_jokers": True, "big_joker_above_jick": True, "jick": False, "jick_points": 0}, "needs jick=true"),
        ({"distinct_jokers": True, "jokers": 1, "max_bid": 9}, "distinct_jokers is impossible: ranks two jokers"),
    ],
)
def test_impossible_joker_orders_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules(PRESET, **options)
