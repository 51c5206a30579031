"""four_point (source 000, Four Point Smear; VARIANTS.md `four_point`).

32 cards (A..7), 4 players in 2 teams, 6 dealt, bids 2..4. The bidder takes 2 blinds from the
stock and discards 2; those discards count for the bidder's side in Game. No trump is named: the
suit of the bidder's first lead is trump. Follow-or-trump. Points: High = Ace of trump played,
Low = lowest trump played, Jack captured, Game. The match ends after 10 hands.

Seats 0..3 clockwise, team = seat % 2; dealer 0, so seat 1 bids first and seat 0 bids last.
"""

from __future__ import annotations

import random

import pytest

from smear_env.cards import parse_cards
from smear_env.game import BID, DISCARD, PLAY, Game
from smear_env.rules import get_rules
from tests.scripted import deal_with_blinds, hand_of, hand_sizes, legal_moves, play, play_tricks, trick_winners

PRESET = "four_point"
HEARTS = 2

# The main deal. Seat 1 bids, takes the blinds TS QS and discards TS 7C; hearts become trump.
HANDS = [
    "TH AC KC QC JC TC",  # seat 0 (team 0)
    "AH KH 8H 7C 8C 9C",  # seat 1 (team 1): the bidder
    "QH 7H 8D 9D TD JD",  # seat 2 (team 0)
    "JH 9H 7S 8S 9S KS",  # seat 3 (team 1)
]
BLINDS = "TS QS"
DISCARDS = "discard TS, discard 7C"
# Cards in play order; each trick starts with its leader.
TRICKS = [
    "AH 7H 9H TH",  # seat 1 leads AH: hearts are trump; seat 1 wins
    "KH QH JH JC",  # seat 1 wins; its side captures the Jack
    "8C 8D 7S AC",  # seat 0 wins with the AC
    "KC 9C 9D 8S",  # seat 0 wins
    "QC QS TD 9S",  # seat 0 wins
    "TC 8H JD KS",  # seat 1 trumps with the 8H and wins
]
WINNERS = [1, 1, 0, 0, 0, 1]


def deal(hands: list[str] = HANDS, blinds: str = BLINDS, **kwargs: object) -> Game:
    """A game of the main deal; the stock is the blinds on top, then the rest of the deck."""
    return deal_with_blinds(PRESET, hands, blinds, **kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------ bidding


def test_bids_run_from_two_to_four():
    game = deal(single_hand=True)
    assert legal_moves(game) == {"pass", "bid 2", "bid 3", "bid 4"}


def test_each_bid_must_be_higher_than_the_last():
    game = deal(single_hand=True)
    play(game, "bid 3")
    assert legal_moves(game) == {"pass", "bid 4"}
    with pytest.raises(ValueError):
        game.apply_move("bid 3")


def test_all_pass_same_dealer_redeals():
    game = deal()
    play(game, "pass, pass, pass, pass")
    assert game.redeals == 1
    assert game.dealer == 0
    assert game.phase == BID
    assert game.current_player == 1
    assert game.results() == ()
    assert game.match_scores() == (0, 0)


# ------------------------------------------------------------------ blinds


def test_bidder_takes_the_two_blinds_from_the_top_of_the_stock():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass")
    assert game.phase == DISCARD
    assert game.current_player == 1
    assert hand_of(game, 1) == set("AH KH 8H 7C 8C 9C TS QS".split())
    # the bidder may discard any two of the eight cards
    assert legal_moves(game) == {f"discard {c}" for c in "AH KH 8H 7C 8C 9C TS QS".split()}
    play(game, DISCARDS)
    assert game.phase == PLAY
    assert game.current_player == 1
    assert hand_of(game, 1) == set("AH KH 8H 8C 9C QS".split())
    assert set(game.discards(1)) == set(parse_cards("TS 7C"))
    # nobody else takes or discards anything
    assert hand_sizes(game) == [6, 6, 6, 6]
    assert game.discards(0) == game.discards(2) == game.discards(3) == ()


def test_blind_discards_count_for_the_bidders_side_in_game():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    # team 1 captured 14 + 7 + 14 = 35 card points and discarded the TS (10): 45.
    # team 0 captured 4 + 3 + 14 = 21. The 6 cards left in the stock (14 points) count for nobody.
    assert result.card_points == {0: 21, 1: 45}
    assert result.awards["game"] == 1


def test_blind_discards_decide_game_when_captures_alone_would_not():
    # The main deal, but seat 1 discards the TS and the 8H: with no trump left after trick 2,
    # seat 0 takes the last four tricks.
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, discard TS, discard 8H")
    play_tricks(game, ["AH 7H 9H TH", "KH QH JH JC", "8C 8D 7S AC", "KC 9C 9D 8S", "QC 7C TD 9S", "TC QS JD KS"])
    assert trick_winners(game) == [1, 1, 0, 0, 0, 0]
    result = game.results()[-1]
    # captured: team 1 14 + 7 = 21, team 0 4 + 3 + 14 + 14 = 35; team 1's discarded TS adds 10: 31 < 35
    assert result.card_points == {0: 35, 1: 31}
    assert result.awards["game"] == 0


# ------------------------------------------------------------------ trump and play


def test_no_trump_phase_the_first_lead_sets_trump():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    assert game.phase == PLAY
    assert game.contract().trump is None
    # any card may be led
    assert legal_moves(game) == {f"play {c}" for c in "AH KH 8H 8C 9C QS".split()}
    play(game, "play AH")
    assert game.contract().trump == HEARTS


def test_a_club_lead_makes_clubs_trump():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS + ", play 8C")
    assert game.contract().trump == 0
    # seat 2 holds no club: with clubs trump it may play anything
    assert legal_moves(game) == {f"play {c}" for c in "QH 7H 8D 9D TD JD".split()}


def test_trump_led_must_be_followed_and_there_is_no_jick():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS + ", play AH")
    # seat 2 holds QH 7H and the JD: the JD is a plain diamond, not a trump
    assert legal_moves(game) == {"play QH", "play 7H"}
    play(game, "play 7H, play 9H")
    # seat 0 holds only the TH in trump and must play it
    assert legal_moves(game) == {"play TH"}


def test_follow_or_trump_when_a_plain_suit_is_led():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS[:3])
    play(game, "play KC")
    # seat 1 holds 9C, 8H (trump) and QS: it must follow clubs or trump, not throw the spade
    assert legal_moves(game) == {"play 9C", "play 8H"}


def test_trump_ranks_ace_king_queen_jack_down_to_seven():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    # trick 2: KH beats QH and JH; trick 6: the 8H (trump) beats the TC led
    assert trick_winners(game) == WINNERS


# ------------------------------------------------------------------ scoring


def test_scoring_high_low_jack_game():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    # High: AH played by seat 1. Low: the 7H (lowest trump; the deck has no 2) was played by
    # seat 2 although seat 1 captured it. Jack: JH captured by seat 1. Game: team 1, 45 to 21.
    assert result.awards == {"high": 1, "low": 0, "jack": 1, "game": 1}
    assert result.points == {0: 1, 1: 3}
    assert result.made is True
    assert result.deltas == {0: 1, 1: 3}
    assert game.match_scores() == (1, 3)


def test_low_is_the_lowest_trump_played_when_the_seven_is_not_in_play():
    # The 7H goes to the stock; seat 2 holds the 7S instead and plays it at trick 1 (void).
    hands = ["TH AC KC QC JC TC", "AH KH 8H 7C 8C 9C", "QH 7S 8D 9D TD JD", "JH 9H AS 8S 9S KS"]
    game = deal(hands, single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play(game, "play AH")
    assert legal_moves(game) == {"play QH"}  # seat 2 must follow trump
    play_tricks(game, ["QH 9H TH", "KH 7S JH JC", "8C 8D AS AC", "KC 9C 9D 8S", "QC QS TD 9S", "TC 8H JD KS"])
    result = game.results()[-1]
    # trumps played: AH QH 9H TH KH JH 8H; the lowest is the 8H, played by seat 1
    assert result.awards["low"] == 1
    assert result.awards["high"] == 1


def test_jack_not_in_play_is_not_awarded():
    # The JH goes to the stock; seat 3 holds the JS instead.
    hands = ["TH AC KC QC JC TC", "AH KH 8H 7C 8C 9C", "QH 7H 8D 9D TD JD", "JS 9H 7S 8S 9S KS"]
    game = deal(hands, single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, ["AH 7H 9H TH", "KH QH JS JC", "8C 8D 7S AC", "KC 9C 9D 8S", "QC QS TD 9S", "TC 8H JD KS"])
    result = game.results()[-1]
    assert "jack" not in result.awards
    assert result.awards == {"high": 1, "low": 0, "game": 1}
    assert game.match_scores() == (1, 2)


def test_ace_not_in_play_is_not_awarded():
    # The AH goes to the stock; seat 1 holds the AS and leads the KH.
    hands = ["TH AC KC QC JC TC", "AS KH 8H 7C 8C 9C", "QH 7H 8D 9D TD JD", "JH 9H 7S 8S 9S KS"]
    game = deal(hands, single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, ["KH 7H 9H TH", "AS 8D 7S JC", "8C 9D 8S AC", "KC 9C TD 9S", "QC QS JD KS", "TC 8H QH JH"])
    assert trick_winners(game) == [1, 1, 0, 0, 0, 2]
    result = game.results()[-1]
    # KH is the highest trump played, but High is the Ace of trump only; seat 2's QH captures the Jack
    assert "high" not in result.awards
    assert result.awards["jack"] == 0
    assert result.awards["low"] == 0  # 7H played by seat 2


def test_bidder_set_loses_the_bid():
    game = deal(single_hand=True)
    play(game, "bid 4, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    result = game.results()[-1]
    assert result.points == {0: 1, 1: 3}
    assert result.made is False
    assert result.deltas == {0: 1, 1: -4}
    assert game.match_scores() == (1, -4)


def test_bid_made_exactly_scores_the_points_taken():
    game = deal(single_hand=True)
    play(game, "bid 3, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.results()[-1].made is True
    assert game.match_scores() == (1, 3)


def test_any_seat_can_win_the_bid_and_take_the_blinds():
    game = deal(single_hand=True)
    play(game, "pass, bid 3, pass, pass")  # seat 2 bids: team 0
    assert game.phase == DISCARD and game.current_player == 2
    assert hand_of(game, 2) == set("QH 7H 8D 9D TD JD TS QS".split())


# ------------------------------------------------------------------ match end


def test_match_does_not_end_at_21_points():
    game = deal(scores=[20, 25])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (21, 28)
    assert not game.is_over
    assert game.phase == BID
    assert game.dealer == 1  # the deal rotates clockwise


def test_match_ends_after_the_tenth_hand_higher_total_wins():
    game = deal(hands_played=9, scores=[10, 3])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.hands_played == 10
    assert game.match_scores() == (11, 6)
    assert game.is_over
    assert game.winners == frozenset({0})


def test_match_not_over_after_the_ninth_hand():
    game = deal(hands_played=8)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.hands_played == 9
    assert not game.is_over


def test_equal_totals_after_ten_hands_are_a_draw():
    game = deal(hands_played=9, scores=[5, 3])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (6, 6)
    assert game.is_over
    assert game.rewards() == [0.0, 0.0, 0.0, 0.0]


def test_a_random_match_lasts_exactly_ten_scored_hands():
    game = Game(get_rules(PRESET), seed=3)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.hands_played == 10
    assert len(game.results()) == 10
    scores = game.match_scores()
    assert game.winners == frozenset(t for t in (0, 1) if scores[t] == max(scores))
