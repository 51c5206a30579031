"""six_point (source 000, Six Point Smear; VARIANTS.md `six_point`).

As four_point (32 cards A..7, 2 blinds counting for the bidder in Game, first lead sets trump,
follow-or-trump) plus two jokers that are the lowest trumps (equal: the first played wins). The
first lead may not be a joker. Points (6): High = Ace played; Low = lowest non-joker trump played;
Jack captured; each Joker captured; Game. Bids 2..6; the match is won at >= 21 (both: higher,
tied: bidding team).

Seats 0..3 clockwise, team = seat % 2; dealer 0, so seat 1 bids first and seat 0 bids last.
"""

from __future__ import annotations

import pytest

from smear_env.game import BID, PLAY, Game
from smear_env.rules import get_rules
from tests.scripted import deal_with_blinds, hand_sizes, legal_moves, play, play_hand, play_tricks, trick_winners

PRESET = "six_point"
HEARTS = 2

# The main deal. Seat 1 bids 2, takes the blinds 7D 8D and discards them; it leads the AH.
HANDS = [
    "TH JH 7H QH AS KS",  # seat 0 (team 0)
    "AH KH JK 8C 9C TC",  # seat 1 (team 1): the bidder, holding the first joker
    "8H QC 8S 9S TS JS",  # seat 2 (team 0)
    "JK2 9H 7S 7C AC KC",  # seat 3 (team 1), holding the second joker
]
BLINDS = "7D 8D"
DISCARDS = "discard 7D, discard 8D"
TRICKS = [
    "AH 8H JK2 7H",  # seat 1 wins; its side captures the second joker
    "KH 8S 9H QH",  # seat 1 wins
    "JK 9S 7S JH",  # seat 1 leads the joker; seat 0's JH beats it and captures it
    "TH 8C TS 7C",  # seat 0 wins
    "AS 9C JS KC",  # seat 0 wins
    "KS TC QC AC",  # seat 0 wins (no trump in the trick)
]
WINNERS = [1, 1, 0, 0, 0, 0]


def deal(hands: list[str] = HANDS, blinds: str = BLINDS, **kwargs: object) -> Game:
    """A game of ``hands``; the stock is the blinds on top, then the rest of the deck."""
    return deal_with_blinds(PRESET, hands, blinds, **kwargs)  # type: ignore[arg-type]


def main_hand(bid: int = 2, **kwargs: object) -> Game:
    kwargs.setdefault("single_hand", True)
    return play_hand(deal(**kwargs), f"bid {bid}, pass, pass, pass, " + DISCARDS, TRICKS)


# ------------------------------------------------------------------ bidding


def test_bids_run_from_two_to_six():
    game = deal(single_hand=True)
    assert legal_moves(game) == {"pass", "bid 2", "bid 3", "bid 4", "bid 5", "bid 6"}


def test_all_pass_same_dealer_redeals():
    game = deal()
    play(game, "pass, pass, pass, pass")
    assert game.redeals == 1
    assert game.dealer == 0
    assert game.phase == BID
    assert game.current_player == 1
    assert game.match_scores() == (0, 0)


def test_bidder_takes_and_discards_two_blinds():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass")
    assert len(game.hand(1)) == 8
    assert {"discard 7D", "discard 8D"} <= legal_moves(game)
    play(game, DISCARDS)
    assert game.phase == PLAY and game.current_player == 1
    assert hand_sizes(game) == [6, 6, 6, 6]


# ------------------------------------------------------------------ trump and the first lead


def test_first_lead_sets_trump_and_may_not_be_a_joker():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    assert game.contract().trump is None
    assert legal_moves(game) == {"play AH", "play KH", "play 8C", "play 9C", "play TC"}
    with pytest.raises(ValueError):
        game.apply_move("play JK")
    play(game, "play AH")
    assert game.contract().trump == HEARTS


@pytest.mark.parametrize("cards", [1, 2])
def test_hands_too_small_to_hold_a_plain_card_beside_both_jokers_are_refused(cards: int) -> None:
    # with one or two cards a bidder could keep only jokers, and no joker can set trump
    with pytest.raises(ValueError, match="play_hand_size is impossible: .* could hold only jokers"):
        get_rules(PRESET, hand_size=cards, play_hand_size=cards)


def test_a_bidder_keeping_both_jokers_of_three_cards_leads_its_plain_card() -> None:
    hands = ["7H 8H 9H", "JK JK2 7C", "7S 8S 9S", "TH JH QH"]
    game = deal(hands, blinds="8C 9C", hand_size=3, play_hand_size=3, single_hand=True)
    play(game, "bid 2, pass, pass, pass, discard 7C, discard 8C")  # keeps JK JK2 9C
    assert legal_moves(game) == {"play 9C"}
    play(game, "play 9C")
    assert game.contract().trump == 0  # clubs


def test_a_joker_may_be_led_once_trump_is_set():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS[:2])
    assert "play JK" in legal_moves(game)
    play(game, "play JK")
    # the joker led is a trump lead: seat 2 (no trump left) may play anything, seat 0 must trump
    assert legal_moves(game) == {f"play {c}" for c in "QC 9S TS JS".split()}
    play(game, "play 9S, play 7S")
    assert legal_moves(game) == {"play TH", "play JH"}


def test_jokers_are_trumps_that_rank_below_the_seven():
    # Seat 2's and seat 3's only trumps are the jokers; a heart lead forces them out, and the 7H,
    # the lowest plain trump, beats both.
    hands = ["AC AD KD QD JD TD", "7H 8C 9C TC JC QC", "JK2 AS KS QS JS TS", "JK 7S 8S 9S 7D 8D"]
    game = deal(hands, blinds="7C 9D", single_hand=True)
    play(game, "bid 2, pass, pass, pass, discard 7C, discard 9D, play 7H")
    assert game.contract().trump == HEARTS
    assert legal_moves(game) == {"play JK2"}  # trump led must be followed: the joker is a trump
    play(game, "play JK2")
    assert legal_moves(game) == {"play JK"}
    play(game, "play JK, play AC")
    assert trick_winners(game) == [1]


def test_of_two_jokers_the_first_played_wins():
    hands = ["TH KC AD KD QD JD", "AH 8C 9C TC JC QC", "8H JK2 AS KS QS JS", "9H JK 7S 8S 9S TS"]
    game = deal(hands, single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, ["AH 8H 9H TH"])
    # seat 1 leads a club: seats 2 and 3 are void and trump with the jokers, the second joker first
    play_tricks(game, ["8C JK2 JK KC"])
    assert trick_winners(game) == [1, 2]


def test_follow_or_trump_when_a_plain_suit_is_led():
    game = deal(single_hand=True)
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS[:1])
    play(game, "play 8C, play QC")
    # seat 3 holds 9H (trump), 7C AC KC and 7S: it must follow clubs or trump, not throw the spade
    assert legal_moves(game) == {"play 9H", "play 7C", "play AC", "play KC"}


# ------------------------------------------------------------------ scoring


def test_trick_winners_with_jokers_lowest():
    game = main_hand()
    assert trick_winners(game) == WINNERS


def test_scoring_low_ignores_jokers_and_jokers_score_when_captured():
    game = main_hand()
    result = game.results()[-1]
    # High: AH played by seat 1. Low: the 7H (seat 0); the jokers, though lower trumps, do not count.
    # Jack: JH captured by seat 0. Joker 1: led by seat 1, captured by seat 0. Joker 2: played by
    # seat 3, captured by seat 1. Game: team 0, 48 to 9.
    assert result.awards == {"high": 1, "low": 0, "jack": 0, "joker": 0, "joker2": 1, "game": 0}
    assert result.points == {0: 4, 1: 2}
    assert result.card_points == {0: 48, 1: 9}  # jokers are worth no card points
    assert result.made is True
    assert game.match_scores() == (4, 2)


def test_bidder_set_loses_the_bid():
    game = main_hand(bid=3)
    result = game.results()[-1]
    assert result.made is False
    assert result.deltas == {0: 4, 1: -3}
    assert game.match_scores() == (4, -3)


def test_a_discarded_joker_is_not_in_play_and_not_awarded():
    # The bidder takes the second joker as a blind and discards it.
    hands = ["TH JH 7H QH AS KS", "AH KH JK 8C 9C TC", "8H QC 8S 9S TS JS", "7D 9H 7S 7C AC KC"]
    game = deal(hands, blinds="JK2 8D", single_hand=True)
    play(game, "bid 2, pass, pass, pass, discard JK2, discard 8D")
    play_tricks(game, ["AH 8H 9H 7H", "KH 8S 7D QH", "JK 9S 7S JH", "TH 8C TS 7C", "AS 9C JS KC", "KS TC QC AC"])
    result = game.results()[-1]
    assert result.awards == {"high": 1, "low": 0, "jack": 0, "joker": 0, "game": 0}
    assert result.points == {0: 4, 1: 1}
    assert game.match_scores() == (4, -2)


# ------------------------------------------------------------------ match end


def test_reaching_21_wins():
    game = main_hand(single_hand=False)
    assert not game.is_over and game.phase == BID and game.dealer == 1
    game = deal(scores=[17, 0])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (21, 2)
    assert game.is_over
    assert game.winners == frozenset({0})


def test_not_over_below_21():
    game = deal(scores=[16, 18])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (20, 20)
    assert not game.is_over


def test_both_reach_21_higher_score_wins():
    game = deal(scores=[20, 20])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (24, 22)
    assert game.winners == frozenset({0})


def test_both_reach_21_tied_bidding_team_wins():
    game = deal(scores=[18, 20])
    play(game, "bid 2, pass, pass, pass, " + DISCARDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (22, 22)
    assert game.winners == frozenset({1})
