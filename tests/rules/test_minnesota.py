"""minnesota (source 001, Minnesota Smear; VARIANTS.md `minnesota`).

54 cards, 4 players in 2 teams, 9 dealt + a 4-card kitty that the bidder takes before naming
trump. Trump order A K Q J Jick Joker Joker 10..2 (jokers equal: first played wins). Everyone
discards to 6, non-trumps first, never a scoring trump (A, 2, J of trump), a non-scoring trump only
when holding more than 6 trumps. Any first lead; strict follow. Points (4): High = Ace played,
Low = 2 played, Jack captured, Game. Bids 2..4 or moon (must take every point awarded; success
wins the match from a positive score, else resets the score to 0; failure loses the match).
A hand of only 3s..9s may call a misdeal: the same dealer redeals. All pass: same dealer redeals.
Win at >= 21 (both: higher; tied: bidding team).

Seats 0..3 clockwise, team = seat % 2; dealer 0, so seat 1 bids first and seat 0 bids last.
"""

from __future__ import annotations

import pytest

from smear_env.game import BID, DISCARD, PLAY, TRUMP, Game
from tests.scripted import (
    discard_cards,
    hand_of,
    hand_sizes,
    legal_moves,
    new_game,
    play,
    play_hand,
    play_tricks,
    trick_winners,
)

PRESET = "minnesota"
HEARTS = 2

# The main deal: seat 1 bids, takes the kitty (JH 4S 5S 6S), names hearts; the Jick is the JD.
HANDS = [
    "AC JK2 AD 5H TD QS 2D 3C 8C",  # seat 0 (team 0)
    "9C AH KH 2H 3D 4C 5C 6C 7C",  # seat 1 (team 1): the bidder
    "KC QC JD 4D 5D 6D 7D 8D 9D",  # seat 2 (team 0)
    "JK TH 3H 7S 8S 9S 2S 3S 2C",  # seat 3 (team 1)
]
KITTY = "JH 4S 5S 6S"
DISCARDS = [
    "4C 5C 6C 7C 4S 5S 6S",  # seat 1 discards 7 of its 13
    "7D 8D 9D",  # seat 2
    "2S 3S 2C",  # seat 3
    "2D 3C 8C",  # seat 0
]
TRICKS = [
    "9C KC JK AC",  # seat 1 leads a club; seat 3, void, trumps with the joker and wins
    "TH JK2 2H JD",  # seat 3 leads TH; seat 2's Jick beats the joker and the ten
    "4D 7S AD 3D",  # seat 2 leads; seat 0's AD wins
    "5H AH 5D 3H",  # seat 0 leads; seat 1's AH wins
    "KH 6D 8S TD",  # seat 1 wins
    "JH QC 9S QS",  # seat 1 wins and captures its own Jack
]
WINNERS = [3, 2, 0, 1, 1, 1]

# Variant: seats 1 and 0 swap the 2H and the 5H, so seat 0 plays the 2H (Low) at trick 4.
HANDS_LOW_TO_0 = [
    "AC JK2 AD 2H TD QS 2D 3C 8C",
    "9C AH KH 5H 3D 4C 5C 6C 7C",
    HANDS[2],
    HANDS[3],
]
TRICKS_LOW_TO_0 = ["9C KC JK AC", "TH JK2 5H JD", "4D 7S AD 3D", "2H AH 5D 3H", "KH 6D 8S TD", "JH QC 9S QS"]

# Variant: the 2H is not dealt; seat 1 holds the 4H instead.
HANDS_NO_TWO = [HANDS[0], "9C AH KH 4H 3D 4C 5C 6C 7C", HANDS[2], HANDS[3]]
TRICKS_NO_TWO = ["9C KC JK AC", "TH JK2 4H JD", "4D 7S AD 3D", "5H AH 5D 3H", "KH 6D 8S TD", "JH QC 9S QS"]


def deal(hands: list[str] = HANDS, kitty: str = KITTY, **kwargs: object) -> Game:
    return new_game(PRESET, hands=hands, kitty=kitty, **kwargs)  # type: ignore[arg-type]


def full_hand(bids: str, hands: list[str] = HANDS, tricks: list[str] = TRICKS, **kwargs: object) -> Game:
    return play_hand(deal(hands, **kwargs), bids + ", trump H", tricks, discards=DISCARDS)


# ------------------------------------------------------------------ bidding, misdeal, all pass


def test_bids_are_two_to_four_or_moon():
    game = deal(single_hand=True)
    assert legal_moves(game) == {"pass", "bid 2", "bid 3", "bid 4", "bid moon"}


def test_nothing_outbids_a_moon():
    game = deal(single_hand=True)
    play(game, "bid moon")
    assert legal_moves(game) == {"pass"}


def test_all_pass_same_dealer_redeals():
    game = deal()
    play(game, "pass, pass, pass, pass")
    assert game.redeals == 1
    assert game.dealer == 0
    assert game.phase == BID and game.current_player == 1
    assert game.match_scores() == (0, 0)


MISDEAL_HANDS = [
    "3H 4H 5H 6H 7H 8H 9H TH JH",
    "3C 4C 5C 6C 7C 8C 9C 3D 4D",  # seat 1: only 3s..9s
    "2C TC JC QC KC AC 2D 5D 6D",
    "7D 8D 9D TD JD QD KD AD 2H",
]


def test_hand_of_only_threes_to_nines_may_call_a_misdeal_and_the_same_dealer_redeals():
    game = deal(MISDEAL_HANDS, kitty="QH KH AH 2S")
    assert "misdeal" in legal_moves(game)
    play(game, "misdeal")
    assert game.redeals == 1
    assert game.dealer == 0
    assert game.phase == BID and game.current_player == 1
    assert len(game.deals) == 2
    assert game.results() == () and game.match_scores() == (0, 0)


def test_misdeal_is_not_allowed_with_a_scoring_card():
    game = deal(single_hand=True)
    assert "misdeal" not in legal_moves(game)  # seat 1 holds AH KH 2H
    with pytest.raises(ValueError):
        game.apply_move("misdeal")
    # seat 2 holds a king and a jack, seat 3 a joker and a ten, seat 0 aces
    play(game, "bid 2")
    assert "misdeal" not in legal_moves(game)
    play(game, "pass")
    assert "misdeal" not in legal_moves(game)


def test_misdeal_may_be_called_at_a_later_bidding_turn():
    hands = [MISDEAL_HANDS[2], MISDEAL_HANDS[0], MISDEAL_HANDS[3], MISDEAL_HANDS[1]]  # seat 3: 3s..9s
    game = deal(hands, kitty="QH KH AH 2S")
    play(game, "bid 2, pass")
    assert game.current_player == 3
    assert "misdeal" in legal_moves(game)
    play(game, "misdeal")
    assert game.redeals == 1 and game.dealer == 0 and game.phase == BID and game.current_player == 1


# ------------------------------------------------------------------ kitty and discards


def test_bidder_takes_the_kitty_then_names_trump():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass, pass")
    assert game.phase == TRUMP and game.current_player == 1
    assert hand_of(game, 1) == set("9C AH KH 2H 3D 4C 5C 6C 7C JH 4S 5S 6S".split())
    assert legal_moves(game) == {"trump C", "trump D", "trump H", "trump S"}
    play(game, "trump H")
    assert game.contract().trump == HEARTS
    assert game.phase == DISCARD and game.current_player == 1


def test_everyone_discards_to_six_non_trumps_first():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass, pass, trump H")
    # the bidder may only discard its nine non-trumps
    assert legal_moves(game) == {f"discard {c}" for c in "9C 3D 4C 5C 6C 7C 4S 5S 6S".split()}
    discard_cards(game, DISCARDS[:1])
    assert len(game.hand(1)) == 6
    assert game.current_player == 2
    # seat 2's Jick (JD) is a trump and may not be discarded
    assert legal_moves(game) == {f"discard {c}" for c in "KC QC 4D 5D 6D 7D 8D 9D".split()}
    discard_cards(game, DISCARDS[1:])
    assert game.phase == PLAY and game.current_player == 1
    assert hand_sizes(game) == [6, 6, 6, 6]


def test_non_scoring_trumps_only_when_forced_and_never_ace_two_or_jack():
    # 001 lets a player holding more than six trumps discard non-scoring ones; VARIANTS reads it as non-trumps
    # first (discard_trump = "when_forced"), unlike smear and schmier, where such a trump may go at once
    hands = [
        "2S 3S 5S 6S 7S 8S 9S TS JS",
        "AH KH QH JH TH 9H 8H 2H 3C",  # seat 1: eight hearts
        "2C 4C 5C 6C 7C 8C 9C TC JC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD",
    ]
    game = deal(hands, kitty="JD JK 7H 4S", single_hand=True)
    play(game, "bid 2, pass, pass, pass, trump H")
    # 11 trumps (with the Jick and the joker) and two non-trumps: the non-trumps go first
    assert legal_moves(game) == {"discard 3C", "discard 4S"}
    play(game, "discard 3C, discard 4S")
    # now only non-scoring trumps; the AH, 2H and JH are protected
    assert legal_moves(game) == {f"discard {c}" for c in "KH QH TH 9H 8H 7H JD JK".split()}
    play(game, "discard QH, discard TH, discard 9H, discard 8H, discard 7H")
    assert hand_of(game, 1) == set("AH KH JH 2H JD JK".split())
    assert game.current_player == 2


# ------------------------------------------------------------------ trump order and play


def test_any_card_may_be_led_to_the_first_trick():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    assert legal_moves(game) == {f"play {c}" for c in "9C AH KH 2H JH 3D".split()}


def test_strict_follow_no_trumping_while_holding_the_led_suit():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play(game, "play 9C")
    # seat 2 holds KC QC and the Jick: it must follow clubs
    assert legal_moves(game) == {"play KC", "play QC"}
    play(game, "play KC")
    # seat 3 has no club: anything
    assert legal_moves(game) == {f"play {c}" for c in "JK TH 3H 7S 8S 9S".split()}


def test_trump_led_must_be_followed_by_jick_and_jokers():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS[:1])
    play(game, "play TH")
    assert legal_moves(game) == {"play JK2", "play 5H"}  # seat 0
    play(game, "play JK2, play 2H")
    assert legal_moves(game) == {"play JD"}  # seat 2: the Jick is its only trump


def test_trick_winners_jick_above_jokers_above_ten():
    game = full_hand("bid 3, pass, pass, pass", single_hand=True)
    assert trick_winners(game) == WINNERS


def test_jack_beats_jick_beats_ten_and_the_first_joker_played_wins():
    hands = [
        "KC QC JC TC 2C 3C 2S 3S 2D",
        "JH 9C AH 8C 3D 4C 5C 6C 7C",
        "JD JK2 KD QD 6D TD 7D 8D 9D",
        "TH JK TS JS QS KS 7S 8S 9S",
    ]
    game = deal(hands, kitty="2H 4S 5S 6S", single_hand=True)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, ["4C 5C 6C 7C 4S 5S 6S", "7D 8D 9D", "7S 8S 9S", "2S 3S 2D"])
    play_tricks(game, ["JH JD TH 2C"])
    assert trick_winners(game) == [1]
    # clubs led: seats 2 and 3 are void and trump with the second joker, then the first
    play_tricks(game, ["9C JK2 JK KC"])
    assert trick_winners(game) == [1, 2]


def test_a_joker_ranks_above_the_ten_of_trump():
    hands = [
        "KC QC JC TC 2C 3C 2S 3S 5D",
        "TH AH 9C 8C 3D 4C 5C 6C 7C",
        "JK KD QD 6D TD 7D 8D 9D 2D",
        "2H TS JS QS KS 9S 7S 8S AS",
    ]
    game = deal(hands, kitty="4D 4S 5S 6S", single_hand=True)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, ["4C 5C 6C 7C 4S 5S 6S", "8D 9D 2D", "7S 8S AS", "2S 3S 5D"])
    play(game, "play TH")
    assert legal_moves(game) == {"play JK"}  # seat 2's only trump
    play_tricks(game, ["JK 2H 2C"])
    assert trick_winners(game) == [2]


# ------------------------------------------------------------------ scoring


def test_scoring_high_low_played_jack_captured_game():
    game = full_hand("bid 3, pass, pass, pass", single_hand=True)
    result = game.results()[-1]
    # High: AH played by seat 1. Low: 2H played by seat 1 (captured by seat 2). Jack: captured by
    # seat 1. Game: team 1, 29 to 15 (discards count for nobody). The Jick and the jokers score nothing.
    assert result.awards == {"high": 1, "low": 1, "jack": 1, "game": 1}
    assert result.card_points == {0: 15, 1: 29}
    assert result.points == {0: 0, 1: 4}
    assert result.made is True
    assert game.match_scores() == (0, 4)


def test_low_is_the_two_played_not_the_side_that_captures_it():
    game = full_hand("bid 2, pass, pass, pass", HANDS_LOW_TO_0, TRICKS_LOW_TO_0, single_hand=True)
    result = game.results()[-1]
    # the 2H is led by seat 0 and captured by seat 1's AH: Low goes to team 0
    assert result.awards == {"high": 1, "low": 0, "jack": 1, "game": 1}
    assert game.match_scores() == (1, 3)


def test_low_not_awarded_when_the_two_is_not_in_play():
    game = full_hand("bid 2, pass, pass, pass", HANDS_NO_TWO, TRICKS_NO_TWO, single_hand=True)
    result = game.results()[-1]
    assert result.awards == {"high": 1, "jack": 1, "game": 1}
    assert game.match_scores() == (0, 3)


def test_bidder_set_loses_the_bid():
    game = full_hand("bid 4, pass, pass, pass", HANDS_LOW_TO_0, TRICKS_LOW_TO_0, single_hand=True)
    result = game.results()[-1]
    assert result.points == {0: 1, 1: 3}
    assert result.made is False
    assert game.match_scores() == (1, -4)


# ------------------------------------------------------------------ shooting the moon


def test_moon_made_from_a_positive_score_wins_the_match():
    game = deal(scores=[3, 5])
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    assert game.results()[-1].made is True
    assert game.is_over
    assert game.winners == frozenset({1})


def test_moon_made_from_a_negative_score_resets_it_to_zero():
    game = deal(scores=[3, -7])
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    assert game.results()[-1].made is True
    assert not game.is_over
    assert game.match_scores() == (3, 0)


def test_moon_made_from_zero_resets_to_zero():
    game = deal()
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    assert not game.is_over
    assert game.match_scores() == (0, 0)


def test_moon_made_from_zero_scores_nothing_and_rewards_nothing():
    # The bidding team took all four points, but its score stays 0: the hand's result, and the reward
    # an agent learns from, say the score did not move (not +4).
    game = deal()
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    assert result.points == {0: 0, 1: 4}
    assert result.deltas == {0: 0, 1: 0}
    assert [result.hand_reward(seat) for seat in range(4)] == [0.0, 0.0, 0.0, 0.0]


def test_moon_made_from_a_negative_score_changes_it_by_what_it_was_below_zero():
    game = deal(scores=[3, -7])
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    assert result.deltas == {0: 0, 1: 7}  # -7 to 0
    assert result.hand_reward(1) == 7.0
    assert result.hand_reward(0) == -7.0


def test_moon_made_from_a_positive_score_keeps_its_points_in_the_result():
    game = deal(scores=[3, 5])
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    assert result.deltas == {0: 0, 1: 4}
    assert game.match_scores() == (3, 9)


def test_moon_failed_loses_the_match():
    game = deal(HANDS_LOW_TO_0, scores=[0, 15])
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS_LOW_TO_0)
    assert game.results()[-1].made is False  # team 0 took Low
    assert game.is_over
    assert game.winners == frozenset({0})


def test_moon_point_not_in_play_does_not_count_against_it():
    game = deal(HANDS_NO_TWO, scores=[0, 4])
    play(game, "bid moon, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS_NO_TWO)
    assert game.results()[-1].awards == {"high": 1, "jack": 1, "game": 1}
    assert game.results()[-1].made is True
    assert game.is_over
    assert game.winners == frozenset({1})


# ------------------------------------------------------------------ match end


def test_reaching_21_wins():
    game = deal(scores=[10, 18])
    play(game, "bid 3, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (10, 22)
    assert game.is_over and game.winners == frozenset({1})


def test_below_21_play_goes_on_with_the_next_dealer():
    game = full_hand("bid 3, pass, pass, pass")
    assert game.match_scores() == (0, 4)
    assert not game.is_over
    assert game.phase == BID and game.dealer == 1 and game.current_player == 2


def test_both_reach_21_higher_wins():
    game = deal(HANDS_LOW_TO_0, scores=[20, 20])
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS_LOW_TO_0)
    assert game.match_scores() == (21, 23)
    assert game.winners == frozenset({1})


def test_both_reach_21_tied_bidding_team_wins():
    game = deal(HANDS_LOW_TO_0, scores=[20, 18])
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play_tricks(game, TRICKS_LOW_TO_0)
    assert game.match_scores() == (21, 21)
    assert game.winners == frozenset({1})
