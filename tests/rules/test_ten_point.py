"""ten_point (source 000, Ten Point Smear; VARIANTS.md `ten_point`).

54 cards (52 + 2 jokers), 4 players in 2 teams across (team = seat % 2), 10 dealt and 14 in the
stock. Bids 4..10, one round; all pass -> the same dealer redeals [choice]. The bidder names trump,
takes the 14 stock cards and discards 18; the others discard 4; nobody discards a trump while
holding a non-trump. The bidder must lead a trump to the first trick (any card when holding none).
Follow-or-trump, and a trump lead must be followed with trump.
Trump order: A K Q J Jick Joker Joker 10 .. 2; the first of two jokers played to a trick wins.
Points (10): High = highest trump played, Low = lowest trump played, Jack, Jick, each Joker
captured, Trey (3 of trump) captured = 3, Game (jokers count 0; a tie gives it to nobody).
Match to 52 [choice]; both sides reaching it -> the higher wins; tied -> the bidding team.

Dealer 0 throughout, so seat 1 bids first; hearts are trump (the Jick is the JD).
"""

from __future__ import annotations

import pytest

from smear_env.cards import format_card
from smear_env.game import BID, DISCARD, OVER, PLAY, Game
from tests.scripted import (
    deal_keeping,
    discard_down,
    hand_of,
    hand_sizes,
    legal_moves,
    new_game,
    play,
    play_hand,
    play_tricks,
    rest_of_deck,
    trick_winners,
)

PRESET = "ten_point"


def deal(keeps: list[str], dealer: int = 0, **kwargs: object) -> Game:
    """A game whose seats keep ``keeps[seat]`` plus four filler cards each; the rest is the stock."""
    return deal_keeping(PRESET, keeps, dealer, **kwargs)  # type: ignore[arg-type]


# The main deal: seat 1 bids; its team (1, 3) takes High, Jick and the Trey; team 0 takes Low, Jack,
# both Jokers and Game: 5 points each.
KEEPS = [
    "4H 2H JH KH AS AC",  # seat 0 (team 0), the dealer
    "JD 5H 7H JK2 TS 2C",  # seat 1 (team 1), the bidder
    "3H 6H 8H 9H 2S TC",  # seat 2 (team 0)
    "QH AH JK TH 3S KC",  # seat 3 (team 1)
]
TRICKS = [
    "JD 3H QH 4H",  # seat 1 leads the Jick (a trump); seat 3's QH wins it and the Trey
    "AH 2H 5H 6H",  # seat 3: AH is High; seat 0's 2H is Low (played, captured by team 1)
    "JK JH 7H 8H",  # the Jack beats a Joker: seat 0 captures the JK and the Jack
    "KH JK2 9H TH",  # seat 0 captures the other joker and the TH
    "AS TS 2S 3S",  # seat 0
    "AC 2C TC KC",  # seat 0
]
WINNERS = [3, 3, 0, 0, 0, 0]


def main_hand(bid: int, **kwargs: object) -> Game:
    return play_hand(deal(KEEPS, **kwargs), f"bid {bid}, pass, pass, pass, trump H", TRICKS, keeps=KEEPS)


def test_bids_run_from_4_to_10_and_must_rise() -> None:
    game = deal(KEEPS)
    assert legal_moves(game) == {"pass"} | {f"bid {n}" for n in range(4, 11)}
    play(game, "bid 5")
    assert legal_moves(game) == {"pass"} | {f"bid {n}" for n in range(6, 11)}
    with pytest.raises(ValueError):
        play(game, "bid 5")


def test_all_pass_the_same_dealer_redeals() -> None:
    game = deal(KEEPS, dealer=2)
    play(game, "pass, pass, pass, pass")
    assert game.phase == BID
    assert game.dealer == 2
    assert game.current_player == 3
    assert game.redeals == 1
    assert len(game.deals) == 2
    assert game.results() == ()


def test_bidder_takes_the_14_stock_cards_and_discards_18_the_others_4() -> None:
    game = deal(KEEPS)
    play(game, "bid 5, pass, pass, pass, trump H")
    assert game.phase == DISCARD
    assert game.drawn_counts == [0, 14, 0, 0]
    assert hand_sizes(game) == [10, 24, 10, 10]
    assert game.current_player == 1  # discards start left of the dealer
    discard_down(game, KEEPS)
    assert game.phase == PLAY
    assert game.discard_counts == [4, 18, 4, 4]
    assert hand_sizes(game) == [6, 6, 6, 6]


# Seats 0 and 2 are dealt eight trumps and two clubs; the bidder (seat 1) is dealt no trump at all.
FORCED_HANDS = [
    "9H 8H 7H 6H 5H 4H 3H 2H 4C 5C",
    "AS KS QS JS TS 9S 8S 7S 6S 5S",
    "AH KH QH JH JD JK JK2 TH 2C 3C",
    "AD KD QD TD 9D 8D 7D 6D 5D 4D",
]


def forced_game() -> Game:
    hands = FORCED_HANDS
    game = new_game(PRESET, hands=hands, stock=rest_of_deck(PRESET, " ".join(hands)), single_hand=True)
    play(game, "bid 4, pass, pass, pass, trump H")
    return game


def test_no_trump_is_discarded_while_a_non_trump_is_held() -> None:
    game = forced_game()
    # the bidder holds no trump: any of its 24 cards may go
    assert len(legal_moves(game)) == 24
    discard_down(game, [None, "AS KS QS AC KC QC", None, None])
    # seat 2: the two clubs first, then (only trumps left) any trump, the Jick and a Joker included
    assert game.current_player == 2
    assert legal_moves(game) == {"discard 2C", "discard 3C"}
    play(game, "discard 2C, discard 3C")
    assert legal_moves(game) == {f"discard {c}" for c in "AH KH QH JH JD JK JK2 TH".split()}
    play(game, "discard TH, discard JK2")
    assert game.current_player == 3
    assert len(legal_moves(game)) == 10
    play(game, "discard 4D, discard 5D, discard 6D, discard 7D")
    assert game.current_player == 0
    assert legal_moves(game) == {"discard 4C", "discard 5C"}
    play(game, "discard 4C, discard 5C")
    assert len(legal_moves(game)) == 8
    play(game, "discard 2H, discard 3H")
    assert game.phase == PLAY
    assert hand_of(game, 2) == {"AH", "KH", "QH", "JH", "JD", "JK"}
    assert game.discard_counts == [4, 18, 4, 4]


def test_a_bidder_without_trump_may_lead_any_card() -> None:
    game = forced_game()
    discard_down(game, ["9H 8H 7H 6H 5H 4H", "AS KS QS AC KC QC", "AH KH QH JH JD JK", "AD KD QD TD 9D 8D"])
    assert game.phase == PLAY and game.current_player == 1
    assert legal_moves(game) == {f"play {c}" for c in "AS KS QS AC KC QC".split()}


def test_bidder_must_lead_trump_to_the_first_trick_only() -> None:
    game = deal(KEEPS)
    play(game, "bid 5, pass, pass, pass, trump H")
    discard_down(game, KEEPS)
    assert game.current_player == 1
    assert legal_moves(game) == {"play JD", "play 5H", "play 7H", "play JK2"}  # the Jick and a Joker are trumps
    with pytest.raises(ValueError):
        play(game, "play TS")
    play_tricks(game, TRICKS[:1])
    assert game.current_player == 3
    assert legal_moves(game) == {"play AH", "play JK", "play TH", "play 3S", "play KC"}  # later leads are free


FOLLOW_KEEPS = [
    "5H JK JK2 2H 3S 4S",  # seat 0
    "AH KH QH JH 2D AC",  # seat 1, the bidder
    "3H JD 3D AS 6H 7H",  # seat 2
    "4H 8H 9H TH 2C 2S",  # seat 3
]


def test_follow_or_trump_and_trump_led_must_be_followed() -> None:
    game = deal(FOLLOW_KEEPS)
    play(game, "bid 4, pass, pass, pass, trump H")
    discard_down(game, FOLLOW_KEEPS)
    play(game, "play AH")
    # trump led: a trump must be played; the Jick is a trump, the 3D and AS are not
    assert legal_moves(game) == {"play 3H", "play JD", "play 6H", "play 7H"}
    play(game, "play 3H")
    assert legal_moves(game) == {"play 4H", "play 8H", "play 9H", "play TH"}
    play(game, "play 4H")
    assert legal_moves(game) == {"play 5H", "play JK", "play JK2", "play 2H"}
    play(game, "play 5H")
    assert trick_winners(game) == [1]
    play(game, "play 2D")
    # a diamond led: seat 2 may follow with the 3D or play any trump, but not the AS
    assert legal_moves(game) == {"play 3D", "play JD", "play 6H", "play 7H"}
    play(game, "play JD")
    # seats 3 and 0 hold no diamond: anything goes
    assert legal_moves(game) == {"play 8H", "play 9H", "play TH", "play 2C", "play 2S"}
    play(game, "play 2S")
    assert legal_moves(game) == {"play JK", "play JK2", "play 2H", "play 3S", "play 4S"}
    play(game, "play 3S")
    assert trick_winners(game) == [1, 2]  # the Jick trumps the diamond lead


def test_trump_order_jick_between_jack_and_jokers() -> None:
    keeps = [
        "2H 3H 4H 5H 6H AC",  # seat 0
        "JK KH QH JH 7H AS",  # seat 1, the bidder
        "JD 9H 8H KS QS JS",  # seat 2
        "TH JK2 AH KC QC JC",  # seat 3
    ]
    game = deal(keeps)
    play(game, "bid 4, pass, pass, pass, trump H")
    discard_down(game, keeps)
    play_tricks(game, ["JK JD TH 2H"])  # the Jick beats a Joker, which beats the ten
    assert trick_winners(game) == [2]
    play_tricks(game, ["9H JK2 3H JH"])  # the Jack beats a Joker
    assert trick_winners(game) == [2, 1]


def test_trump_order_jack_beats_jick() -> None:
    keeps = [
        "2H 3H 4H 5H 6H AC",  # seat 0
        "JD KH QH JK 7H AS",  # seat 1, the bidder
        "JH 9H 8H KS QS JS",  # seat 2
        "TH JK2 AH KC QC JC",  # seat 3
    ]
    game = deal(keeps)
    play(game, "bid 4, pass, pass, pass, trump H")
    discard_down(game, keeps)
    play_tricks(game, ["JD JH TH 2H"])
    assert trick_winners(game) == [2]


@pytest.mark.parametrize("first, second", [("JK", "JK2"), ("JK2", "JK")])
def test_two_jokers_the_first_played_wins(first: str, second: str) -> None:
    keeps = [
        f"{second} 2H 3H 4H 5H AC",  # seat 0
        "TH AH KH QH 9H AS",  # seat 1, the bidder
        f"{first} JH JD 6H 7H KS",  # seat 2
        "8H QS JS TS 9S 8S",  # seat 3
    ]
    game = deal(keeps)
    play(game, "bid 4, pass, pass, pass, trump H")
    discard_down(game, keeps)
    play_tricks(game, [f"TH {first} 8H {second}"])  # a Joker beats the ten; of two Jokers the first wins
    assert trick_winners(game) == [2]


def test_every_category_scored_and_the_bid_made() -> None:
    game = main_hand(5, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.awards == {
        "high": 1,  # AH played by seat 3
        "low": 0,  # 2H played by seat 0 (captured by seat 3: Low goes to who played it)
        "jack": 0,
        "jick": 1,
        "joker": 0,  # the JK was played by seat 3 and captured by seat 0
        "joker2": 0,
        "trey": 1,  # 3H played by seat 2, captured by seat 3
        "game": 0,
    }
    assert result.card_points == {0: 45, 1: 7}  # jokers count 0
    assert result.points == {0: 5, 1: 5}
    assert result.made
    assert result.deltas == {0: 5, 1: 5}
    assert game.match_scores() == (5, 5)
    assert game.phase == OVER


def test_set_subtracts_the_bid_and_opponents_add_their_points() -> None:
    game = main_hand(6, single_hand=True)
    result = game.results()[-1]
    assert result.points == {0: 5, 1: 5}
    assert not result.made
    assert result.deltas == {0: 5, 1: -6}
    assert game.match_scores() == (5, -6)


# The bidder keeps six trumps and is forced to discard the JH, 3H and 2H it took from the stock.
OUT_KEEPS = [
    "6H 9H AD KD QD TD",  # seat 0
    "AH KH QH JD JK TH",  # seat 1, the bidder
    "4H 7H JK2 AS KS QS",  # seat 2
    "5H 8H AC KC QC JC",  # seat 3
]
OUT_TRICKS = [
    "AH 4H 5H 6H",
    "KH 7H 8H 9H",
    "QH JK2 AC AD",
    "JD AS KC KD",
    "JK KS QC QD",
    "TH QS JC TD",
]


def test_points_whose_card_is_not_in_play_are_not_awarded() -> None:
    game = deal(OUT_KEEPS, single_hand=True)
    play(game, "bid 5, pass, pass, pass, trump H")
    assert {"JH", "3H", "2H"} <= hand_of(game, 1)
    discard_down(game, OUT_KEEPS)
    assert {"JH", "3H", "2H"} <= {format_card(c) for c in game.discards(1)}
    play_tricks(game, OUT_TRICKS)
    assert trick_winners(game) == [1, 1, 1, 1, 1, 1]
    result = game.results()[-1]
    # no Jack, no Trey; Low is the lowest trump played (4H, seat 2), not the discarded 2H
    assert result.awards == {"high": 1, "low": 0, "jick": 1, "joker": 1, "joker2": 1, "game": 1}
    assert result.card_points == {0: 0, 1: 58}
    assert result.points == {0: 1, 1: 5}
    assert game.match_scores() == (1, 5)


def test_forced_trump_discards_are_free_to_include_scoring_trumps() -> None:
    game = deal(OUT_KEEPS, single_hand=True)
    play(game, "bid 5, pass, pass, pass, trump H")
    keeps_with_trumps = list(OUT_KEEPS)
    keeps_with_trumps[1] = "AH KH QH JD JK TH JH 3H 2H"
    discard_down(game, keeps_with_trumps)  # stops when the bidder holds only its nine trumps
    assert game.current_player == 1
    assert legal_moves(game) == {f"discard {c}" for c in "AH KH QH JH JD JK TH 3H 2H".split()}


def test_game_tie_goes_to_nobody() -> None:
    keeps = [
        "4H JH 7H JK2 AS 2C",  # seat 0
        "AH KH QH 8H 2S 3C",  # seat 1, the bidder
        "2H JK JD TH 3S 4C",  # seat 2
        "3H 5H 6H 9H 4S KC",  # seat 3
    ]
    tricks = [
        "AH 2H 3H 4H",  # seat 1; Trey captured by team 1
        "KH JK 5H JH",  # seat 1 captures a Joker and the Jack
        "QH JD 6H 7H",  # seat 1 captures the Jick
        "8H TH 9H JK2",  # JK2 beats the TH: seat 0
        "AS 2S 3S 4S",  # seat 0
        "2C 3C 4C KC",  # seat 3
    ]
    game = deal(keeps, single_hand=True)
    play(game, "bid 7, pass, pass, pass, trump H")
    discard_down(game, keeps)
    play_tricks(game, tricks)
    assert trick_winners(game) == [1, 1, 1, 0, 0, 3]
    result = game.results()[-1]
    assert result.card_points == {0: 14, 1: 14}
    assert "game" not in result.awards
    assert result.awards == {"high": 1, "low": 0, "jack": 1, "jick": 1, "joker": 1, "joker2": 0, "trey": 1}
    assert result.points == {0: 2, 1: 7}
    assert result.made  # exactly the 7 bid
    assert game.match_scores() == (2, 7)


@pytest.mark.parametrize(
    "before, after, winners",
    [
        ([47, 47], [52, 52], {1}),  # both reach 52 tied: the bidding team (seat 1's) wins
        ([48, 47], [53, 52], {0}),  # both reach it: the higher wins, though it did not bid
        ([40, 47], [45, 52], {1}),
        ([47, 40], [52, 45], {0}),  # the non-bidding team reaching 52 alone wins
    ],
)
def test_match_to_52_and_its_tie_breaks(before: list[int], after: list[int], winners: set[int]) -> None:
    game = deal(KEEPS, scores=list(before))
    play(game, "bid 5, pass, pass, pass, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == tuple(after)
    assert game.is_over
    assert game.winners == frozenset(winners)


def test_match_goes_on_below_52_with_the_deal_passing_left() -> None:
    game = deal(KEEPS, scores=[30, 40])  # 21 is not the target
    play(game, "bid 5, pass, pass, pass, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (35, 45)
    assert not game.is_over
    assert game.phase == BID
    assert game.dealer == 1
    assert game.current_player == 2


def test_a_set_can_drive_the_score_negative_and_opponents_still_win_on_52() -> None:
    game = deal(KEEPS, scores=[47, 2])
    play(game, "bid 8, pass, pass, pass, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (52, -6)
    assert game.winners == frozenset({0})
