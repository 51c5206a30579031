"""smear (source 000, Smear; VARIANTS.md `smear`).

54 cards (52 + 2 jokers), 4 players in 2 teams across (team = seat % 2), 9 dealt and 18 unused.
Bids 2..4, one round; all pass -> the same dealer redeals. The bidder names trump; everyone
discards exactly 3 to 6, no trump unless holding more than 6 trumps. Follow-or-trump: holding the
led suit you must play it or a trump; void -> anything. Trump order A K Q J Joker Joker 10 .. 2
(no Jick; the first of two jokers played to a trick wins). Points (4): High = Ace of trump
played, Low = 2 of trump played, Jack captured, Game (jokers count 0; a tie: nobody). Make or
set (scores may go negative). The match ends after 10 hands; the highest total wins [choice:
equal totals are a draw].

Dealer 0 unless said, so seat 1 bids first; hearts are trump (the JD is an ordinary diamond).
"""

from __future__ import annotations

import pytest

from smear_env.game import BID, DISCARD, OVER, PLAY, Deal, Game
from smear_env.rules import get_rules
from tests.scripted import discard_cards, hand_of, legal_moves, new_game, play, play_hand, trick_winners

PRESET = "smear"


# The main deal (the jokers, KH and others are among the 18 unused cards). Seat 1 bids; its team
# (1, 3) takes High and Low, team 0 takes Jack and Game: 2 points each.
HANDS = [
    "4H 3S QH AC TD 6D 7S 8S 9S",  # seat 0 (team 0), the dealer
    "AH KS 6H 2C AD KD 4C 5C 6C",  # seat 1 (team 1), the bidder
    "3H AS JH 3C 2D 4D 7C 8C 9C",  # seat 2 (team 0)
    "2H 2S 5H TC 3D 5D 4S 5S 6S",  # seat 3 (team 1)
]
DISCARDS = ["4C 5C 6C", "7C 8C 9C", "4S 5S 6S", "7S 8S 9S"]  # seats 1, 2, 3, then the dealer
TRICKS = [
    "AH 3H 2H 4H",  # seat 1's AH (High); seat 3 plays the 2H (Low)
    "KS AS 2S 3S",  # seat 2
    "JH 5H QH 6H",  # seat 0's QH captures the Jack
    "AC 2C 3C TC",  # seat 0
    "TD AD 2D 3D",  # seat 1
    "KD 4D 5D 6D",  # seat 1
]
WINNERS = [1, 2, 0, 0, 1, 1]


def main_hand(bid: int, hands: list[str] = HANDS, tricks: list[str] = TRICKS, **kwargs: object) -> Game:
    game = new_game(PRESET, hands=hands, **kwargs)  # type: ignore[arg-type]
    return play_hand(game, f"bid {bid}, pass, pass, pass, trump H", tricks, discards=DISCARDS)


def test_bids_run_from_2_to_4_and_must_rise() -> None:
    game = new_game(PRESET, hands=HANDS)
    assert legal_moves(game) == {"pass", "bid 2", "bid 3", "bid 4"}
    play(game, "bid 3")
    assert legal_moves(game) == {"pass", "bid 4"}


def test_all_pass_the_same_dealer_redeals() -> None:
    game = new_game(PRESET, hands=HANDS, dealer=1)
    play(game, "pass, pass, pass, pass")
    assert game.phase == BID
    assert game.dealer == 1
    assert game.current_player == 2
    assert game.redeals == 1
    assert game.results() == ()


def test_everyone_discards_exactly_three_and_no_trump() -> None:
    game = new_game(PRESET, hands=HANDS)
    play(game, "bid 2, pass, pass, pass, trump H")
    assert game.phase == DISCARD and game.current_player == 1  # discards start left of the dealer
    # seat 1 holds AH and 6H: only its seven non-trumps may go, and there is no stopping early
    assert legal_moves(game) == {f"discard {c}" for c in "KS 2C AD KD 4C 5C 6C".split()}
    play(game, "discard 4C, discard 5C")
    assert game.current_player == 1
    play(game, "discard 6C")
    assert game.current_player == 2
    assert hand_of(game, 1) == {"AH", "KS", "6H", "2C", "AD", "KD"}
    discard_cards(game, DISCARDS[1:])
    assert game.phase == PLAY
    assert game.discard_counts == [3, 3, 3, 3]
    assert game.drawn_counts == [0, 0, 0, 0]


def test_a_player_with_more_than_six_trumps_may_discard_trump_at_once() -> None:
    # 000 (Smear): "A player may never discard cards of the trump suit, unless he has more than six cards
    # from this trump suit in his hand": holding eight, a trump may go before the club.
    hands = [
        "2D 3D 4D 5D 6D 7D 8D 9D TD",
        "AH KH QH JH TH 9H JK JK2 2C",  # eight trumps (the jokers are trumps) and a club
        "2S 3S 4S 5S 6S 7S 8S 9S TS",
        "3C 4C 5C 6C 7C 8C 9C TC JC",
    ]
    game = new_game(PRESET, hands=hands)
    play(game, "bid 4, pass, pass, pass, trump H")
    every_card = {f"discard {c}" for c in "AH KH QH JH TH 9H JK JK2 2C".split()}
    assert legal_moves(game) == every_card
    play(game, "discard 9H")
    assert legal_moves(game) == every_card - {"discard 9H"}  # still seven trumps
    play(game, "discard TH")  # six trumps left: only the club may go
    assert legal_moves(game) == {"discard 2C"}
    play(game, "discard 2C")
    assert game.current_player == 2
    assert hand_of(game, 1) == {"AH", "KH", "QH", "JH", "JK", "JK2"}


def test_a_player_with_six_trumps_discards_only_non_trumps() -> None:
    hands = [
        "2D 3D 4D 5D 6D 7D 8D 9D TD",
        "AH KH QH JH JK JK2 2C 3C QS",  # six trumps and three others
        "2S 3S 4S 5S 6S 7S 8S 9S TS",
        "4C 5C 6C 7C 8C 9C TC JC KC",
    ]
    game = new_game(PRESET, hands=hands)
    play(game, "bid 4, pass, pass, pass, trump H")
    assert legal_moves(game) == {"discard 2C", "discard 3C", "discard QS"}


def test_follow_or_trump() -> None:
    game = new_game(PRESET, hands=HANDS)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, DISCARDS)
    play(game, "play AH")
    assert legal_moves(game) == {"play 3H", "play JH"}  # trump led: trump must be followed
    play(game, "play 3H, play 2H, play 4H, play KS")
    # spade led: seat 2 plays a spade or a trump, never its clubs or diamonds
    assert legal_moves(game) == {"play AS", "play JH"}
    play(game, "play AS")
    assert legal_moves(game) == {"play 2S", "play 5H"}
    play(game, "play 2S")
    assert legal_moves(game) == {"play 3S", "play QH"}


@pytest.mark.parametrize("first, second", [("JK", "JK2"), ("JK2", "JK")])
def test_jokers_rank_above_the_ten_the_first_played_wins_and_there_is_no_jick(first: str, second: str) -> None:
    hands = [
        "9H 2H TS 9S 8S 7S AC 4D 5D",  # seat 0
        "TH 3D AS KS QS JS 2S 3S 4S",  # seat 1, the bidder
        f"{first} 2D 2C 3C 4C 5C 5S 6S TC",  # seat 2
        f"{second} JD 6C 7C 8C 9C JC QC KC",  # seat 3
    ]
    game = new_game(PRESET, hands=hands)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, ["2S 3S 4S", "5S 6S TC", "JC QC KC", "AC 4D 5D"])
    play(game, "play TH")
    assert legal_moves(game) == {f"play {first}"}  # a joker is a trump and must follow the trump lead
    play(game, f"play {first}")
    assert legal_moves(game) == {f"play {second}"}  # the JD is not a trump
    play(game, f"play {second}, play 9H")
    assert trick_winners(game) == [2]  # the first joker played beats the second, and the ten
    play(game, "play 2D")
    assert legal_moves(game) == {"play JD"}  # the JD is a diamond: it must follow
    play(game, "play JD")
    assert legal_moves(game) == {"play 2H", "play TS", "play 9S", "play 8S", "play 7S"}  # void: anything
    play(game, "play 2H, play 3D")
    assert trick_winners(game) == [2, 0]  # the 2H trumps the JD


def test_the_jack_beats_a_joker() -> None:
    hands = [
        "2H 2C 3C 4C 5C 6C 7C 8C 9C",
        "JK 2D 3D 4D 5D 6D 7D 8D 9D",
        "TH 2S 3S 4S 5S 6S 7S 8S 9S",
        "JH TC JC QC KC AC TD JD QD",
    ]
    game = new_game(PRESET, hands=hands)
    play(game, "bid 2, pass, pass, pass, trump H")
    discard_cards(game, ["7D 8D 9D", "7S 8S 9S", "JC QC KC", "7C 8C 9C"])
    play(game, "play JK")
    assert legal_moves(game) == {"play TH"}
    play(game, "play TH, play JH, play 2H")
    assert trick_winners(game) == [3]


def test_every_category_scored_and_the_bid_made() -> None:
    game = main_hand(2, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.awards == {"high": 1, "low": 1, "jack": 0, "game": 0}
    assert result.card_points == {0: 24, 1: 21}
    assert result.points == {0: 2, 1: 2}
    assert result.made
    assert game.match_scores() == (2, 2)
    assert game.phase == OVER


def test_set_subtracts_the_bid_and_opponents_add_their_points() -> None:
    game = main_hand(3, single_hand=True)
    result = game.results()[-1]
    assert not result.made
    assert result.deltas == {0: 2, 1: -3}
    assert game.match_scores() == (2, -3)


def test_high_needs_the_ace_in_play() -> None:
    # the AH is unused; seat 1 holds the KH, the highest trump played, which is not High
    hands = [HANDS[0], HANDS[1].replace("AH", "KH"), HANDS[2], HANDS[3]]
    tricks = ["KH 3H 2H 4H"] + TRICKS[1:]
    game = main_hand(2, hands=hands, tricks=tricks, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.awards == {"low": 1, "jack": 0, "game": 0}
    assert result.card_points == {0: 24, 1: 20}
    assert result.points == {0: 2, 1: 1}
    assert not result.made
    assert game.match_scores() == (2, -2)


def test_low_needs_the_two_in_play() -> None:
    # the 2H is unused; seat 3 holds the 7H instead, and the 3H (lowest trump played) is not Low
    hands = [HANDS[0], HANDS[1], HANDS[2], HANDS[3].replace("2H", "7H")]
    tricks = ["AH 3H 7H 4H"] + TRICKS[1:]
    game = main_hand(2, hands=hands, tricks=tricks, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.awards == {"high": 1, "jack": 0, "game": 0}
    assert result.card_points == {0: 24, 1: 21}
    assert result.points == {0: 2, 1: 1}
    assert not result.made
    assert game.match_scores() == (2, -2)


def test_game_tie_goes_to_nobody_and_jokers_score_nothing() -> None:
    # seat 0 holds the KH instead of the 4H, seat 1 a joker instead of the 6H
    hands = [HANDS[0].replace("4H", "KH"), HANDS[1].replace("6H", "JK"), HANDS[2], HANDS[3]]
    tricks = ["AH 3H 2H KH", TRICKS[1], "JH 5H QH JK"] + TRICKS[3:]
    game = main_hand(2, hands=hands, tricks=tricks, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.card_points == {0: 24, 1: 24}
    assert result.awards == {"high": 1, "low": 1, "jack": 0}
    assert result.points == {0: 1, 1: 2}
    assert result.made
    assert game.match_scores() == (1, 2)


def rotated(dealer: int) -> list[str]:
    """The main deal turned so that the seat left of ``dealer`` holds seat 1's cards, and so on."""
    hands = [""] * 4
    for j in range(4):
        hands[(dealer + j) % 4] = HANDS[j]
    return hands


def ten_hand_match(scores: list[int] | None = None) -> Game:
    """A match whose 10 deals are the main deal turned with the dealer: each hand scores +2 to both teams."""
    deals = [Deal.parse(rotated(k % 4)) for k in range(10)]
    return Game(get_rules(PRESET), seed=0, dealer=0, deals=deals, scores=scores)


def play_main_hand(game: Game) -> None:
    play_hand(game, "bid 2, pass, pass, pass, trump H", TRICKS, discards=DISCARDS)


def test_the_match_lasts_ten_hands_and_equal_totals_are_a_draw() -> None:
    game = ten_hand_match()
    for k in range(9):
        assert game.dealer == k % 4
        play_main_hand(game)
        assert not game.is_over
    assert game.match_scores() == (18, 18)
    play_main_hand(game)
    assert game.is_over
    assert len(game.results()) == 10
    assert game.match_scores() == (20, 20)
    assert game.winners in (frozenset(), frozenset({0, 1}))  # a draw: nobody wins alone
    assert game.rewards() == [0.0, 0.0, 0.0, 0.0]


def test_the_highest_total_after_ten_hands_wins_and_no_target_ends_it_early() -> None:
    game = ten_hand_match(scores=[30, 0])
    play_main_hand(game)
    assert game.match_scores() == (32, 2)
    assert not game.is_over  # 21 or 52 mean nothing here
    for _ in range(9):
        play_main_hand(game)
    assert game.is_over
    assert game.match_scores() == (50, 20)
    assert game.winners == frozenset({0})
