"""pitch_smudge (source 003, Pitch-style Smear; VARIANTS.md `pitch_smudge`).

52 cards, 4 players in 2 teams, 6 dealt, no discards. Bids 2, 3, 4 and smudge (5). The dealer
bids last and may steal by equalling the highest bid; if the first three pass the dealer must bid
at least 2. The pitcher's first lead sets trump. Follow-or-trump. Points (4): High = highest trump
in play (its holder's side); Low = lowest trump in play, to the side that captures it; Jack
captured; Game. Smudge needs all 6 tricks and all 4 points, scores 5, fails -> set 5. A bid of 4
scores at most 4. A side wins with >= 21 only at the end of a hand in which it bid and made.

Seats 0..3 clockwise, team = seat % 2; dealer 0, so seat 1 bids first and seat 0 bids last.
"""

from __future__ import annotations

import pytest

from smear_env.game import BID, PLAY, Game
from tests.scripted import legal_moves, new_game, play, play_hand, play_tricks, trick_winners

PRESET = "pitch_smudge"
HEARTS = 2

# The main deal: the AH and the 2H are not dealt, so the KH is High and the 3H is Low.
HANDS = [
    "5H KC TD 4D QC JC",  # seat 0 (team 0), the dealer
    "KH 9C 8C 7C 4H 6C",  # seat 1 (team 1)
    "3H AC AD KD TC 5S",  # seat 2 (team 0)
    "JH 2C 2D 3D 3C 4C",  # seat 3 (team 1)
]
TRICKS = [
    "KH 3H JH 5H",  # seat 1 leads KH: hearts are trump; it captures the 3H (Low) and the JH (Jack)
    "9C AC 2C KC",  # seat 2 wins
    "AD 2D TD 8C",  # seat 2 wins; seat 1, void, need not trump
    "KD 3D 4D 4H",  # seat 1 trumps and wins
    "7C TC 3C QC",  # seat 0 wins
    "JC 6C 5S 4C",  # seat 0 wins
]
WINNERS = [1, 2, 2, 1, 0, 0]

# Seat 1 takes every trick: AH KH QH JH 2H and the AS.
SWEEP_HANDS = [
    "5H 2D 3D 4D 5D 6D",
    "AH KH QH JH 2H AS",
    "3H 4S 5S 6S 7S 8S",
    "4H 2C 3C 4C 5C 6C",
]
SWEEP_TRICKS = ["AH 3H 4H 5H", "KH 4S 2C 2D", "QH 5S 3C 3D", "JH 6S 4C 4D", "2H 7S 5C 5D", "AS 8S 6C 6D"]


def deal(hands: list[str] = HANDS, **kwargs: object) -> Game:
    return new_game(PRESET, hands=hands, **kwargs)  # type: ignore[arg-type]


def full_hand(bid: int, hands: list[str] = HANDS, tricks: list[str] = TRICKS, **kwargs: object) -> Game:
    return play_hand(deal(hands, **kwargs), f"bid {bid}, pass, pass, pass", tricks)


# ------------------------------------------------------------------ bidding


def test_bids_are_two_three_four_and_smudge():
    game = deal(single_hand=True)
    assert legal_moves(game) == {"pass", "bid 2", "bid 3", "bid 4", "bid 5"}


def test_a_non_dealer_must_bid_higher():
    game = deal(single_hand=True)
    play(game, "bid 3")
    assert legal_moves(game) == {"pass", "bid 4", "bid 5"}
    with pytest.raises(ValueError):
        game.apply_move("bid 3")


def test_dealer_may_steal_by_equalling_the_high_bid():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass")
    assert game.current_player == 0
    assert legal_moves(game) == {"pass", "bid 3", "bid 4", "bid 5"}
    play(game, "bid 3")
    assert game.contract().bidder == 0
    assert game.contract().bid == 3
    assert game.phase == PLAY and game.current_player == 0  # the dealer is pitcher and leads


def test_dealer_is_forced_to_bid_when_the_first_three_pass():
    game = deal()
    play(game, "pass, pass, pass")
    assert legal_moves(game) == {"bid 2", "bid 3", "bid 4", "bid 5"}
    with pytest.raises(ValueError):
        game.apply_move("pass")
    assert game.redeals == 0
    play(game, "bid 2")
    assert game.contract().bidder == 0
    assert game.phase == PLAY and game.current_player == 0


# ------------------------------------------------------------------ play


def test_no_discards_and_the_first_lead_sets_trump():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass")
    assert game.phase == PLAY and game.current_player == 1
    assert game.contract().trump is None
    assert legal_moves(game) == {f"play {c}" for c in HANDS[1].split()}
    play(game, "play KH")
    assert game.contract().trump == HEARTS


FOLLOW_HANDS = ["5H 6H KC TD 4D QC", "KH 9C 8C 7C 4H 6C", "3H AC AD KD TC 5S", "JH 2C 2D 3D 3C 4C"]


def test_trump_led_must_be_followed():
    game = deal(FOLLOW_HANDS, single_hand=True)
    play(game, "bid 2, pass, pass, pass, play KH, play 3H, play JH")
    assert legal_moves(game) == {"play 5H", "play 6H"}


def test_follow_or_trump_when_a_plain_suit_is_led():
    game = deal(FOLLOW_HANDS, single_hand=True)
    play(game, "bid 2, pass, pass, pass")
    play_tricks(game, ["KH 3H JH 5H", "9C AC 2C"])
    # seat 0 holds KC QC, the 6H (trump) and diamonds: clubs or trump, no diamond
    assert legal_moves(game) == {"play KC", "play QC", "play 6H"}


def test_trick_winners():
    game = full_hand(2, single_hand=True)
    assert trick_winners(game) == WINNERS


# ------------------------------------------------------------------ scoring


def test_scoring_high_in_play_low_captured_jack_game():
    game = full_hand(2, single_hand=True)
    result = game.results()[-1]
    # High: the KH, highest trump in play (no AH dealt), seat 1. Low: the 3H, lowest trump in play
    # (no 2H dealt), played by seat 2 but captured by seat 1. Jack: captured by seat 1.
    # Game: team 0, 34 to 7.
    assert result.card_points == {0: 34, 1: 7}
    assert result.awards == {"high": 1, "low": 1, "jack": 1, "game": 0}
    assert result.points == {0: 1, 1: 3}
    assert result.made is True
    assert game.match_scores() == (1, 3)


def test_jack_not_dealt_is_not_awarded():
    hands = [HANDS[0], HANDS[1], HANDS[2], "5C 2C 2D 3D 3C 4C"]
    tricks = ["KH 3H 5C 5H", *TRICKS[1:]]
    game = full_hand(2, hands, tricks, single_hand=True)
    result = game.results()[-1]
    assert result.awards == {"high": 1, "low": 1, "game": 0}
    assert game.match_scores() == (1, 2)


def test_bidder_set_loses_the_bid():
    game = full_hand(4, single_hand=True)
    result = game.results()[-1]
    assert result.made is False
    assert result.deltas == {0: 1, 1: -4}
    assert game.match_scores() == (1, -4)


# ------------------------------------------------------------------ smudge


def test_smudge_taking_all_six_tricks_and_all_four_points_scores_five():
    game = full_hand(5, SWEEP_HANDS, SWEEP_TRICKS, single_hand=True)
    result = game.results()[-1]
    assert trick_winners(game) == [1] * 6
    assert result.awards == {"high": 1, "low": 1, "jack": 1, "game": 1}
    assert result.made is True
    assert game.match_scores() == (0, 5)


def test_a_bid_of_four_taking_everything_scores_only_four():
    game = full_hand(4, SWEEP_HANDS, SWEEP_TRICKS, single_hand=True)
    assert game.results()[-1].made is True
    assert game.match_scores() == (0, 4)


def test_smudge_losing_a_trick_is_set_five_even_with_all_four_points():
    hands = [SWEEP_HANDS[0], "AH KH QH JH 2H 3S", SWEEP_HANDS[2], SWEEP_HANDS[3]]
    tricks = [*SWEEP_TRICKS[:5], "3S 8S 6C 6D"]
    game = full_hand(5, hands, tricks, single_hand=True)
    result = game.results()[-1]
    assert trick_winners(game) == [1, 1, 1, 1, 1, 2]
    assert result.points == {0: 0, 1: 4}
    assert result.made is False
    assert game.match_scores() == (0, -5)


def test_same_hand_bid_four_is_made():
    hands = [SWEEP_HANDS[0], "AH KH QH JH 2H 3S", SWEEP_HANDS[2], SWEEP_HANDS[3]]
    tricks = [*SWEEP_TRICKS[:5], "3S 8S 6C 6D"]
    game = full_hand(4, hands, tricks, single_hand=True)
    assert game.results()[-1].made is True
    assert game.match_scores() == (0, 4)


def test_smudge_fails_when_the_jack_is_not_dealt():
    hands = [SWEEP_HANDS[0], "AH KH QH TH 2H AS", SWEEP_HANDS[2], SWEEP_HANDS[3]]
    tricks = [*SWEEP_TRICKS[:3], "TH 6S 4C 4D", *SWEEP_TRICKS[4:]]
    game = full_hand(5, hands, tricks, single_hand=True)
    result = game.results()[-1]
    assert trick_winners(game) == [1] * 6
    assert result.awards == {"high": 1, "low": 1, "game": 1}
    assert result.made is False
    assert game.match_scores() == (0, -5)


# ------------------------------------------------------------------ match end


def test_side_reaching_21_against_the_bid_does_not_win():
    game = deal(scores=[20, 0])
    play(game, "bid 2, pass, pass, pass")
    play_tricks(game, TRICKS)
    assert game.match_scores() == (21, 3)
    assert not game.is_over
    assert game.phase == BID and game.dealer == 1


def test_bidding_side_that_makes_its_bid_wins_at_21():
    game = deal(scores=[0, 18])
    play(game, "bid 2, pass, pass, pass")
    play_tricks(game, TRICKS)
    assert game.match_scores() == (1, 21)
    assert game.is_over and game.winners == frozenset({1})


def test_winner_may_have_fewer_points_than_the_loser():
    # 003's example: we have 18, they have 24; we bid 3 and make it, they take 1: we win 21 to 25.
    game = deal(scores=[24, 18])
    play(game, "bid 3, pass, pass, pass")
    play_tricks(game, TRICKS)
    assert game.match_scores() == (25, 21)
    assert game.is_over and game.winners == frozenset({1})


def test_bidding_side_set_does_not_win_even_at_21():
    game = deal(scores=[0, 25])
    play(game, "bid 4, pass, pass, pass")
    play_tricks(game, TRICKS)
    assert game.match_scores() == (1, 21)
    assert not game.is_over
