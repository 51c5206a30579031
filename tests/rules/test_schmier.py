"""schmier (source 000, Schmier; VARIANTS.md `schmier`).

53 cards (52 + 1 joker), 6 players in 2 teams of 3 in alternating seats (team = seat % 2), 6 dealt
and 17 in the stock. Bids 3..6, one round; all pass -> the same dealer redeals. The bidder names
trump. Then, from the dealer's left, each non-dealer may discard 0-3 non-trump cards and is dealt
as many from the stock; the dealer takes the rest of the stock and discards to 6: no trump unless
holding more than 6 trumps, and never the Joker, either Bauer, the 2 or the Ace of trump.
Trump order A K Q J (Right Bauer) J-of-same-colour (Left Bauer) 10 .. 2 Joker (lowest).
Strict follow: follow the led (effective) suit if able; void -> anything.
Points (6): High = Ace of trump played; Low = 2 of trump played; Right Bauer, Left Bauer and Joker
captured; Game (card points with the Joker worth 1; a tie: nobody). Make or set (scores may go
negative). Win at >= 21; both -> the higher; tied -> the bidding team.

Dealer 0, so seat 1 bids first; hearts are trump (the Left Bauer is the JD).
"""

from __future__ import annotations

import pytest

from smear_env.actions import DISCARD_BASE, DONE
from smear_env.cards import format_card, parse_cards
from smear_env.game import BID, DISCARD, OVER, PLAY, Game
from tests.scripted import deal_with_rest_as_stock, hand_of, hand_sizes, legal_moves, play, play_tricks, trick_winners

PRESET = "schmier"
PASSES = "pass, pass, pass, pass, pass"  # the five seats after seat 1


def deal(hands: list[str], dealer: int = 0, **kwargs: object) -> Game:
    """A game dealt ``hands``; the other 17 cards are the stock, top first in deck order."""
    return deal_with_rest_as_stock(PRESET, hands, dealer=dealer, **kwargs)  # type: ignore[arg-type]


def keep_dealt_hands(game: Game, hands: list[str]) -> None:
    """No non-dealer exchanges a card; the dealer takes the whole stock and discards it again."""
    keep = [set(parse_cards(h)) for h in hands]
    while game.phase == DISCARD:
        seat = game.current_player
        choices = [a for a in game.legal_actions() if DISCARD_BASE <= a < DONE and a - DISCARD_BASE not in keep[seat]]
        game.apply(choices[0] if seat == game.dealer else DONE)


# The main deal: all 15 trumps are dealt, so the 17-card stock holds no trump. Seat 1 bids 3.
# Team 1 (seats 1, 3, 5) takes High, the Left Bauer and Game; team 0 takes Low, the Right Bauer
# and the Joker: 3 points each.
HANDS = [
    "7H 4H QS 3C 2D 6H",  # seat 0 (team 0), the dealer
    "AH 3H JS TC 3D 5H",  # seat 1 (team 1), the bidder
    "2H JH TS 4C 4D 2S",  # seat 2 (team 0)
    "JD TH 9S 5C TD 3S",  # seat 3 (team 1)
    "9H QH AS 2C 5D 4S",  # seat 4 (team 0)
    "8H JK KS AC AD KH",  # seat 5 (team 1)
]
TRICKS = [
    "AH 2H JD 9H 8H 7H",  # seat 1: AH (High) takes the Left Bauer; seat 2 plays the 2H (Low)
    "3H JH TH QH JK 4H",  # seat 4's QH takes the Right Bauer and the Joker
    "AS KS QS JS TS 9S",  # seat 4
    "2C AC 3C TC 4C 5C",  # seat 5
    "AD 2D 3D 4D TD 5D",  # seat 5
    "KH 6H 5H 2S 3S 4S",  # seat 5; seats 2, 3, 4 hold no trump
]
WINNERS = [1, 4, 4, 5, 5, 5]


def main_hand(bid: int, hands: list[str] = HANDS, tricks: list[str] = TRICKS, **kwargs: object) -> Game:
    game = deal(hands, **kwargs)
    play(game, f"bid {bid}, {PASSES}, trump H")
    keep_dealt_hands(game, hands)
    play_tricks(game, tricks)
    return game


def test_bids_run_from_3_to_6_and_must_rise() -> None:
    game = deal(HANDS)
    assert legal_moves(game) == {"pass", "bid 3", "bid 4", "bid 5", "bid 6"}
    play(game, "bid 4")
    assert legal_moves(game) == {"pass", "bid 5", "bid 6"}


def test_all_pass_the_same_dealer_redeals() -> None:
    game = deal(HANDS, dealer=5)
    play(game, f"pass, {PASSES}")
    assert game.phase == BID
    assert game.dealer == 5
    assert game.current_player == 0
    assert game.redeals == 1
    assert game.results() == ()


def test_non_dealers_exchange_up_to_three_non_trumps_then_the_dealer_takes_the_rest() -> None:
    game = deal(HANDS)
    assert len(game.stock) == 17
    play(game, f"bid 3, {PASSES}, trump H")
    assert game.phase == DISCARD and game.current_player == 1
    # seat 1 may discard its non-trumps or stop; never a trump
    assert legal_moves(game) == {"discard JS", "discard TC", "discard 3D", "done"}
    play(game, "discard JS, discard TC, discard 3D")  # three is the most: it draws the top three
    assert game.current_player == 2
    assert hand_of(game, 1) == {"AH", "3H", "5H", "6C", "7C", "8C"}
    assert legal_moves(game) == {"discard TS", "discard 4C", "discard 4D", "discard 2S", "done"}
    play(game, "discard 2S, done")  # one exchanged, one drawn
    assert hand_of(game, 2) == {"2H", "JH", "TS", "4C", "4D", "9C"}
    # seat 3's Left Bauer (JD) is a trump: it may not be exchanged
    assert legal_moves(game) == {"discard 9S", "discard 5C", "discard TD", "discard 3S", "done"}
    play(game, "done, done")
    # seat 5's Joker is a trump too
    assert legal_moves(game) == {"discard KS", "discard AC", "discard AD", "done"}
    play(game, "done")
    # the dealer takes the 13 cards left and may discard only non-trumps
    assert game.current_player == 0
    assert game.stock == []
    assert len(hand_of(game, 0)) == 19
    assert legal_moves(game) == {f"discard {c}" for c in hand_of(game, 0) - {"7H", "4H", "6H"}}
    keep_dealt_hands(game, HANDS)
    assert game.phase == PLAY
    assert hand_sizes(game) == [6] * 6


def test_the_dealer_with_more_than_six_trumps_discards_trump_but_never_a_protected_one() -> None:
    # 000 (Schmier): "may never discard cards of the trump suit, unless his hand consists of more than six
    # such cards ..., and in any event he may never discard the Joker, the Bauers, the two ... or the Ace".
    hands = [
        "AH 2H JH JD JK KH",  # seat 0, the dealer: the stock brings the QH, TH and 9H
        "8H 2C 3C 4C 5C 6C",
        "7H 7C 8C 9C TC JC",
        "6H QC KC AC 2D 3D",
        "5H 4D 5D 6D 7D 8D",
        "4H 3H 9D TD QD KD",
    ]
    game = deal(hands)
    assert {format_card(c) for c in game.stock} >= {"QH", "TH", "9H"}
    play(game, f"bid 3, {PASSES}, trump H, done, done, done, done, done")
    assert game.current_player == 0
    assert len(hand_of(game, 0)) == 23  # 9 trumps and 14 non-trumps
    non_trumps = {c for c in hand_of(game, 0) if c[-1] in "SD" and c != "JD"}
    assert len(non_trumps) == 14
    # holding nine trumps, an unprotected trump may go at once, before the non-trumps
    unprotected = {"discard KH", "discard QH", "discard TH", "discard 9H"}
    assert legal_moves(game) == {f"discard {c}" for c in non_trumps} | unprotected
    play(game, "discard QH, discard TH")
    assert legal_moves(game) == {f"discard {c}" for c in non_trumps} | {"discard KH", "discard 9H"}
    play(game, "discard 9H")  # down to six trumps: no more trump may go
    assert legal_moves(game) == {f"discard {c}" for c in non_trumps}
    play(game, ", ".join(f"discard {c}" for c in sorted(non_trumps)))
    assert game.phase == PLAY
    assert hand_of(game, 0) == {"AH", "2H", "JH", "JD", "JK", "KH"}


def test_a_dealer_holding_six_trumps_discards_only_non_trumps() -> None:
    hands = [
        "AH 2H JH JD JK KH",  # seat 0, the dealer: six trumps, and the stock brings none
        "8H 2C 3C 4C 5C 9H",
        "7H 7C 8C 9C TH JC",
        "6H QC KC AC 2D 3D",
        "5H 4D 5D 6D QH 8D",
        "4H 3H 9D TD QD KD",
    ]
    game = deal(hands)
    play(game, f"bid 3, {PASSES}, trump H, done, done, done, done, done")
    assert game.current_player == 0
    trumps = {"AH", "2H", "JH", "JD", "JK", "KH"}
    assert len(hand_of(game, 0)) == 23 and hand_of(game, 0) >= trumps
    assert legal_moves(game) == {f"discard {c}" for c in hand_of(game, 0) - trumps}
    play(game, ", ".join(f"discard {c}" for c in sorted(hand_of(game, 0) - trumps)))
    assert game.phase == PLAY and hand_of(game, 0) == trumps


# All 15 trumps are dealt; seat 1 leads a spade, then seat 3 leads the TH.
ORDER_HANDS = [
    "4S 8H 4H 3H 4D 5D",  # seat 0
    "AS 7H 2C 3C 4C 5C",  # seat 1, the bidder
    "JK 6H 6C 7C 8C 9C",  # seat 2
    "2H TH TC JC QC KC",  # seat 3
    "2S JD 2D AH KH QH",  # seat 4
    "3S 9H 5H JH AC 3D",  # seat 5
]


def test_strict_follow_and_the_joker_is_the_lowest_trump() -> None:
    game = deal(ORDER_HANDS)
    play(game, f"bid 3, {PASSES}, trump H")
    keep_dealt_hands(game, ORDER_HANDS)
    play(game, "play AS")
    assert len(legal_moves(game)) == 6  # seat 2 has no spade: anything
    play(game, "play JK, play 2H")
    assert legal_moves(game) == {"play 2S"}  # seat 4 holds a spade: it must follow, it may not trump
    play(game, "play 2S, play 3S, play 4S")
    assert trick_winners(game) == [3]  # the 2H beats the Joker
    play(game, "play TH")
    # a trump led: seat 4 must play a trump, and the Left Bauer is one; its diamond 2D is not
    assert legal_moves(game) == {"play JD", "play AH", "play KH", "play QH"}
    play(game, "play JD, play 9H, play 8H, play 7H, play 6H")
    assert trick_winners(game) == [3, 4]  # the Left Bauer beats the ten


def test_the_right_bauer_beats_the_left_and_the_left_is_no_diamond() -> None:
    hands = [
        "6D TH AH KH QH JK",  # seat 0
        "2D JH 2C 3C 4C 5C",  # seat 1, the bidder
        "JD 8C 9C TC JC QC",  # seat 2
        "3D 9H 6H 5H 2S 3S",  # seat 3
        "4D 8H 4H 3H 4S 5S",  # seat 4
        "5D 7H 2H 8S 9S TS",  # seat 5
    ]
    game = deal(hands)
    play(game, f"bid 3, {PASSES}, trump H")
    keep_dealt_hands(game, hands)
    play(game, "play 2D")
    assert len(legal_moves(game)) == 6  # seat 2's only "diamond" is the Left Bauer, a trump: it is void
    play(game, "play 8C, play 3D, play 4D, play 5D, play 6D")
    assert trick_winners(game) == [0]
    play(game, "play TH, play JH")
    assert legal_moves(game) == {"play JD"}  # trump led: the Left Bauer must follow
    play(game, "play JD, play 9H, play 8H, play 7H")
    assert trick_winners(game) == [0, 1]  # the Right Bauer beats the Left Bauer


def test_every_category_scored_and_the_bid_made() -> None:
    game = main_hand(3, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.awards == {
        "high": 1,  # AH played by seat 1
        "low": 0,  # 2H played by seat 2
        "jack": 0,  # Right Bauer captured by seat 4
        "jick": 1,  # Left Bauer captured by seat 1
        "joker": 0,  # captured by seat 4
        "game": 1,
    }
    assert result.card_points == {0: 34, 1: 36}  # the Joker counts 1
    assert result.points == {0: 3, 1: 3}
    assert result.made
    assert game.match_scores() == (3, 3)
    assert game.phase == OVER


def test_set_subtracts_the_bid_and_opponents_add_their_points() -> None:
    game = main_hand(4, single_hand=True)
    result = game.results()[-1]
    assert not result.made
    assert result.deltas == {0: 3, 1: -4}
    assert game.match_scores() == (3, -4)


def test_game_tie_goes_to_nobody_counting_the_joker_as_one() -> None:
    # seats 4 and 5 swap the QH and the KH: team 0 gains a card point at trick 2, team 1 loses one
    hands = HANDS[:4] + [HANDS[4].replace("QH", "KH"), HANDS[5].replace("KH", "QH")]
    tricks = [TRICKS[0], "3H JH TH KH JK 4H"] + TRICKS[2:5] + ["QH 6H 5H 2S 3S 4S"]
    game = main_hand(3, hands=hands, tricks=tricks, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.card_points == {0: 35, 1: 35}  # with the Joker worth 0, team 1 would have Game
    assert result.awards == {"high": 1, "low": 0, "jack": 0, "jick": 1, "joker": 0}
    assert result.points == {0: 3, 1: 2}
    assert not result.made
    assert game.match_scores() == (3, -3)


@pytest.mark.parametrize(
    "before, after, winners",
    [
        ([18, 18], [21, 21], {1}),  # both reach 21 tied: the bidding team wins
        ([19, 18], [22, 21], {0}),  # both reach it: the higher wins
        ([17, 18], [20, 21], {1}),
        ([18, 10], [21, 13], {0}),  # the non-bidding team reaching 21 alone wins
    ],
)
def test_match_to_21_and_its_tie_breaks(before: list[int], after: list[int], winners: set[int]) -> None:
    game = deal(HANDS, scores=list(before))
    play(game, f"bid 3, {PASSES}, trump H")
    keep_dealt_hands(game, HANDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == tuple(after)
    assert game.is_over
    assert game.winners == frozenset(winners)


def test_match_goes_on_below_21_with_the_deal_passing_left() -> None:
    game = deal(HANDS, scores=[10, 17])
    play(game, f"bid 4, {PASSES}, trump H")
    keep_dealt_hands(game, HANDS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (13, 13)
    assert not game.is_over
    assert game.phase == BID
    assert game.dealer == 1
    assert game.current_player == 2
