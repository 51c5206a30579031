"""ten_point_6p (source 000, Ten Point Smear for six; VARIANTS.md `ten_point_6p`).

54 cards, 6 players in 2 teams of 3 in alternating seats (team = seat % 2), 8 dealt and 6 in the
stock. The bidder names trump, takes the 6 stock cards and discards 8; the others discard 2;
nobody discards a trump while holding a non-trump. Otherwise as `ten_point`: bids 4..10, all pass
-> the same dealer redeals; the bidder leads a trump to the first trick; follow-or-trump;
A K Q J Jick Joker Joker 10 .. 2; High, Low (played), Jack, Jick, each Joker, Trey = 3, Game
(tie: nobody); make or set; match to 52, both reaching -> higher, tied -> bidding team.

Dealer 0 throughout, so seat 1 bids first; hearts are trump (the Jick is the JD).
"""

from __future__ import annotations

import pytest

from smear_env.game import BID, OVER, PLAY, Game
from tests.scripted import (
    deal_keeping,
    discard_down,
    hand_sizes,
    legal_moves,
    play,
    play_hand,
    play_tricks,
    trick_winners,
)

PRESET = "ten_point_6p"
PASSES = "pass, pass, pass, pass, pass"  # the five seats after seat 1


def deal(keeps: list[str], dealer: int = 0, **kwargs: object) -> Game:
    """A game whose seats keep ``keeps[seat]`` plus two filler cards each; the rest is the stock."""
    return deal_keeping(PRESET, keeps, dealer, **kwargs)  # type: ignore[arg-type]


# The main deal: seat 1 bids; team 1 (seats 1, 3, 5) takes High, Jick, a Joker and the Trey (6);
# team 0 (seats 0, 2, 4) takes Low, Jack, the other Joker and Game (4).
KEEPS = [
    "6H JK KH AS AC 2D",  # seat 0 (team 0), the dealer
    "JD 8H 2C KS TC AD",  # seat 1 (team 1), the bidder
    "3H 9H 3C QS 4C TD",  # seat 2 (team 0)
    "QH AH TH 2S 5C 3D",  # seat 3 (team 1)
    "4H 2H JH 3S 6C 4D",  # seat 4 (team 0)
    "5H 7H JK2 4S 7C 5D",  # seat 5 (team 1)
]
TRICKS = [
    "JD 3H QH 4H 5H 6H",  # seat 1 leads the Jick; seat 3's QH wins it and the Trey
    "AH 2H 7H JK 8H 9H",  # seat 3: High; seat 4 plays Low; seat 0's Joker is captured by team 1
    "TH JH JK2 KH 2C 3C",  # seat 0's KH takes the Jack and the other Joker; seats 1, 2 hold no trump
    "AS KS QS 2S 3S 4S",  # seat 0
    "AC TC 4C 5C 6C 7C",  # seat 0
    "2D AD TD 3D 4D 5D",  # seat 1
]
WINNERS = [3, 3, 0, 0, 0, 1]


def main_hand(bid: int, **kwargs: object) -> Game:
    return play_hand(deal(KEEPS, **kwargs), f"bid {bid}, {PASSES}, trump H", TRICKS, keeps=KEEPS)


def test_bids_run_from_4_to_10_and_must_rise() -> None:
    game = deal(KEEPS)
    assert legal_moves(game) == {"pass"} | {f"bid {n}" for n in range(4, 11)}
    play(game, "bid 7")
    assert legal_moves(game) == {"pass", "bid 8", "bid 9", "bid 10"}


def test_all_pass_the_same_dealer_redeals() -> None:
    game = deal(KEEPS, dealer=3)
    play(game, f"pass, {PASSES}")
    assert game.phase == BID
    assert game.dealer == 3
    assert game.current_player == 4
    assert game.redeals == 1
    assert game.results() == ()


def test_bidder_takes_the_6_stock_cards_and_discards_8_the_others_2() -> None:
    game = deal(KEEPS)
    assert hand_sizes(game) == [8] * 6
    play(game, f"bid 6, {PASSES}, trump H")
    assert game.drawn_counts == [0, 6, 0, 0, 0, 0]
    assert hand_sizes(game) == [8, 14, 8, 8, 8, 8]
    assert game.current_player == 1
    discard_down(game, KEEPS)
    assert game.phase == PLAY
    assert game.discard_counts == [2, 8, 2, 2, 2, 2]
    assert hand_sizes(game) == [6] * 6


def test_no_trump_is_discarded_while_a_non_trump_is_held() -> None:
    game = deal(KEEPS)
    play(game, f"bid 6, {PASSES}, trump H")
    discard_down(game, [None, KEEPS[1], None, None, None, None])
    assert game.current_player == 2
    # seat 2 holds 3H 9H 3C QS 4C TD and two filler cards: only the non-trumps may go
    options = legal_moves(game)
    assert {"discard 3C", "discard QS", "discard 4C", "discard TD"} <= options
    assert len(options) == 6
    assert "discard 3H" not in options and "discard 9H" not in options


def test_bidder_must_lead_trump_to_the_first_trick() -> None:
    game = deal(KEEPS)
    play(game, f"bid 6, {PASSES}, trump H")
    discard_down(game, KEEPS)
    assert game.current_player == 1
    assert legal_moves(game) == {"play JD", "play 8H"}


def test_a_side_suit_led_must_be_followed_by_a_player_without_trump() -> None:
    game = deal(KEEPS)
    play(game, f"bid 6, {PASSES}, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS[:3])
    play(game, "play AS")
    # seat 1 holds KS TC AD and no trump: it must follow spades
    assert legal_moves(game) == {"play KS"}


def test_every_category_scored_and_the_bid_made() -> None:
    game = main_hand(6, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.awards == {
        "high": 1,
        "low": 0,
        "jack": 0,
        "jick": 1,
        "joker": 1,  # the JK, played by seat 0 and captured by seat 3
        "joker2": 0,  # the JK2, played by seat 5 and captured by seat 0
        "trey": 1,  # the 3H, played by seat 2 and captured by seat 3
        "game": 0,
    }
    assert result.card_points == {0: 37, 1: 21}
    assert result.points == {0: 4, 1: 6}
    assert result.made
    assert game.match_scores() == (4, 6)
    assert game.phase == OVER


def test_set_subtracts_the_bid_and_opponents_add_their_points() -> None:
    game = main_hand(7, single_hand=True)
    result = game.results()[-1]
    assert not result.made
    assert result.deltas == {0: 4, 1: -7}
    assert game.match_scores() == (4, -7)


def test_game_tie_goes_to_nobody() -> None:
    keeps = [
        "6H JH 9C KS 5C 6D",  # seat 0
        "AH KH QH 2S 6C 7D",  # seat 1, the bidder
        "2H 7H JK AS AC 2D",  # seat 2
        "3H 8H JK2 3S 2C 3D",  # seat 3
        "4H 9H JD TS 3C 4D",  # seat 4
        "5H TH 8C 4S 4C 5D",  # seat 5
    ]
    tricks = [
        "AH 2H 3H 4H 5H 6H",  # seat 1
        "KH 7H 8H 9H TH JH",  # seat 1 captures the TH and the Jack
        "QH JK JK2 JD 8C 9C",  # seat 1 captures both Jokers and the Jick
        "2S AS 3S TS 4S KS",  # seat 2
        "AC 2C 3C 4C 5C 6C",  # seat 2
        "2D 3D 4D 5D 6D 7D",  # seat 1
    ]
    game = deal(keeps, single_hand=True)
    play(game, f"bid 8, {PASSES}, trump H")
    discard_down(game, keeps)
    play_tricks(game, tricks)
    assert trick_winners(game) == [1, 1, 1, 2, 2, 1]
    result = game.results()[-1]
    assert result.card_points == {0: 21, 1: 21}
    assert result.awards == {"high": 1, "low": 0, "jack": 1, "jick": 1, "joker": 1, "joker2": 1, "trey": 1}
    assert result.points == {0: 1, 1: 8}
    assert result.made
    assert game.match_scores() == (1, 8)


@pytest.mark.parametrize(
    "before, after, winners",
    [
        ([48, 46], [52, 52], {1}),  # both reach 52 tied: the bidding team wins
        ([49, 46], [53, 52], {0}),  # both reach it: the higher wins
        ([40, 46], [44, 52], {1}),
        ([48, 40], [52, 46], {0}),  # the non-bidding team reaching 52 alone wins
    ],
)
def test_match_to_52_and_its_tie_breaks(before: list[int], after: list[int], winners: set[int]) -> None:
    game = deal(KEEPS, scores=list(before))
    play(game, f"bid 6, {PASSES}, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == tuple(after)
    assert game.is_over
    assert game.winners == frozenset(winners)


def test_match_goes_on_below_52_with_the_deal_passing_left() -> None:
    game = deal(KEEPS, scores=[20, 20])
    play(game, f"bid 6, {PASSES}, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (24, 26)
    assert not game.is_over
    assert game.phase == BID
    assert game.dealer == 1
    assert game.current_player == 2
