"""ten_point_5p (source 000, Ten Point Smear for five; VARIANTS.md `ten_point_5p`).

54 cards, 5 players with individual scores, 10 dealt and 4 left unused (nobody takes them).
Bids 4..10; all pass -> the same dealer redeals [choice]. The bidder names trump, then calls one
trump card not in their own hand and not the 3 of trump; its holder is the bidder's partner for
the hand and must play it to the first trick; if nobody holds it the bidder plays alone.
Everyone discards 4 (no trump while holding a non-trump). The bidder leads a trump to trick 1.
Points go to sides: the bidder's partnership, and each other player alone; Game to the side
with strictly most card points. Both partners score or are set [choice]. Otherwise as
`ten_point`: match to 52, both reaching -> the higher, tied -> the bidding side.

Dealer 0 throughout, so seat 1 bids first and is the bidder; hearts are trump (Jick = JD).
A side is named by a seat number: the bidder's seat for the bidder and partner.
"""

from __future__ import annotations

import pytest

from smear_env.cards import format_card
from smear_env.game import BID, CALL, DISCARD, OVER, PLAY, Game
from tests.scripted import (
    deal_keeping,
    discard_down,
    hand_sizes,
    legal_moves,
    new_game,
    play,
    play_hand,
    play_tricks,
    trick_winners,
)

PRESET = "ten_point_5p"
PASSES = "pass, pass, pass, pass"  # the four seats after seat 1


def deal(keeps: list[str], dealer: int = 0, **kwargs: object) -> Game:
    """A game whose seats keep ``keeps[seat]`` plus four filler cards each; the 4 unused are not dealt."""
    return deal_keeping(PRESET, keeps, dealer, rest_as_stock=False, **kwargs)  # type: ignore[arg-type]


def undealt(game: Game) -> set[str]:
    dealt = 0
    for mask in game.dealt:
        dealt |= mask
    return {format_card(c) for c in game.rules.deck if not dealt >> c & 1}


# The main deal: seat 1 calls the KH, held by seat 3, who becomes its partner (side 1).
KEEPS = [
    "5H AH JH 4C 6C 2D",  # seat 0, the dealer
    "JD 6H 8H 5C 7C 3D",  # seat 1, the bidder
    "3H 7H QH TH AC AD",  # seat 2
    "KH JK 9H 2C KC TD",  # seat 3, holds the called KH
    "4H 2H JK2 3C TC KD",  # seat 4
]
TRICKS = [
    "JD 3H KH 4H 5H",  # seat 1 leads the Jick; partner seat 3 must play the KH, and wins Jick and Trey
    "JK 2H AH 6H 7H",  # seat 0's AH (High) captures the JK; seat 4 plays the 2H (Low)
    "JH 8H QH 9H JK2",  # seat 2's QH captures the Jack and the JK2
    "TH 2C 3C 4C 5C",  # seat 2
    "AC KC TC 6C 7C",  # seat 2
    "AD TD KD 2D 3D",  # seat 2
]
WINNERS = [3, 0, 2, 2, 2, 2]


def main_hand(bid: int, **kwargs: object) -> Game:
    return play_hand(deal(KEEPS, **kwargs), f"bid {bid}, {PASSES}, trump H, call KH", TRICKS, keeps=KEEPS)


def test_bids_run_from_4_to_10_and_must_rise() -> None:
    game = deal(KEEPS)
    assert legal_moves(game) == {"pass"} | {f"bid {n}" for n in range(4, 11)}
    play(game, "bid 9")
    assert legal_moves(game) == {"pass", "bid 10"}


def test_all_pass_the_same_dealer_redeals() -> None:
    game = deal(KEEPS, dealer=4)
    play(game, f"pass, {PASSES}")
    assert game.phase == BID
    assert game.dealer == 4
    assert game.current_player == 0
    assert game.redeals == 1
    assert game.results() == ()


def test_the_bidder_may_call_any_trump_but_its_own_and_the_trey() -> None:
    game = deal(KEEPS)
    play(game, f"bid 5, {PASSES}, trump H")
    assert game.phase == CALL and game.current_player == 1
    # seat 1 holds JD 6H 8H: every other trump but the 3H may be called, jokers included
    assert legal_moves(game) == {f"call {c}" for c in "AH KH QH JH JK JK2 TH 9H 7H 5H 4H 2H".split()}
    for card in ("JD", "6H", "3H", "AS"):
        with pytest.raises(ValueError):
            play(game, f"call {card}")


def test_everyone_discards_4_and_nobody_takes_the_unused_4() -> None:
    game = deal(KEEPS)
    assert len(undealt(game)) == 4
    play(game, f"bid 5, {PASSES}, trump H, call KH")
    assert game.contract().partner == 3
    assert game.phase == DISCARD and game.current_player == 1
    discard_down(game, KEEPS)
    assert game.phase == PLAY
    assert game.drawn_counts == [0] * 5
    assert game.discard_counts == [4] * 5
    assert hand_sizes(game) == [6] * 5


def test_bidder_leads_trump_and_the_partner_must_play_the_called_card() -> None:
    game = deal(KEEPS)
    play(game, f"bid 5, {PASSES}, trump H, call KH")
    discard_down(game, KEEPS)
    assert legal_moves(game) == {"play JD", "play 6H", "play 8H"}
    play(game, "play JD, play 3H")
    assert game.current_player == 3
    assert legal_moves(game) == {"play KH"}  # not the JK or the 9H, though they are trumps too
    with pytest.raises(ValueError):
        play(game, "play JK")
    play(game, "play KH")
    assert legal_moves(game) == {"play 4H", "play 2H", "play JK2"}


def test_the_partner_may_not_discard_the_called_card() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC",  # seat 0
        "AH 2D 3D 4D 5D 6D 7D 8D 9D TD",  # seat 1, the bidder
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS",  # seat 2
        "KH QH JH JD JK JK2 TH 9H QC KC",  # seat 3: eight trumps, the called KH among them
        "8H 7H 6H 5H 4H 3H 2H AC QD KD",  # seat 4
    ]
    game = new_game(PRESET, hands=hands, single_hand=True)
    play(game, f"bid 4, {PASSES}, trump H, call KH")
    assert game.contract().partner == 3
    play(game, "discard 2D, discard 3D, discard 4D, discard 5D, discard 2S, discard 3S, discard 4S, discard 5S")
    assert game.current_player == 3
    assert legal_moves(game) == {"discard QC", "discard KC"}
    play(game, "discard QC, discard KC")
    # forced to discard trumps: any but the called KH, which must reach the first trick
    assert legal_moves(game) == {f"discard {c}" for c in "QH JH JD JK JK2 TH 9H".split()}


def test_partners_share_a_side_and_are_set_together() -> None:
    game = main_hand(5, single_hand=True)
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.side_of_seat == [0, 1, 2, 1, 4]
    assert result.awards == {
        "high": 0,  # AH played by seat 0
        "low": 4,  # 2H played by seat 4
        "jack": 2,
        "jick": 1,  # captured by the partner, seat 3
        "joker": 0,
        "joker2": 2,
        "trey": 1,
        "game": 2,  # 47 card points, strictly the most
    }
    assert result.card_points == {0: 4, 1: 4, 2: 47, 4: 0}
    assert result.points == {0: 2, 1: 4, 2: 3, 4: 1}
    assert not result.made  # 4 taken, 5 bid
    assert game.match_scores() == (2, -5, 3, -5, 1)  # the partner is set with the bidder
    assert game.phase == OVER


def test_partners_both_score_when_the_bid_is_made() -> None:
    game = main_hand(4, single_hand=True)
    result = game.results()[-1]
    assert result.made
    assert game.match_scores() == (2, 4, 3, 4, 1)


# Variant: the 9H is one of the 4 unused cards (seat 3 holds the 8C instead) and seat 1 calls it.
ALONE_KEEPS = [KEEPS[0], KEEPS[1], KEEPS[2], "KH JK 8C 2C KC TD", KEEPS[4]]
ALONE_TRICKS = [
    "JD 3H KH 4H 5H",  # seat 3 plays the KH by choice and wins for itself
    "JK 2H AH 6H 7H",
    "JH 8H QH 8C JK2",  # seat 3 holds no trump now
    "TH 2C 3C 4C 5C",
    "AC KC TC 6C 7C",
    "AD TD KD 2D 3D",
]


def test_a_called_card_nobody_holds_leaves_the_bidder_alone() -> None:
    game = deal(ALONE_KEEPS, single_hand=True)
    assert "9H" in undealt(game)
    play(game, f"bid 4, {PASSES}, trump H, call 9H")
    assert game.contract().partner is None
    discard_down(game, ALONE_KEEPS)
    play(game, "play JD, play 3H")
    assert legal_moves(game) == {"play KH", "play JK"}  # no called card to force
    play_tricks(game, ["KH 4H 5H"] + ALONE_TRICKS[1:])
    assert trick_winners(game) == WINNERS
    result = game.results()[-1]
    assert result.side_of_seat == [0, 1, 2, 3, 4]
    assert result.awards == {
        "high": 0,
        "low": 4,
        "jack": 2,
        "jick": 3,
        "joker": 0,
        "joker2": 2,
        "trey": 3,
        "game": 2,
    }
    assert result.card_points == {0: 4, 1: 0, 2: 47, 3: 4, 4: 0}
    assert result.points == {0: 2, 1: 0, 2: 3, 3: 4, 4: 1}
    assert not result.made
    assert game.match_scores() == (2, -4, 3, 4, 1)


# Seat 1 and partner seat 3 tie seat 0 on 11 card points; the Jick (JD) is one of the unused 4.
TIE_KEEPS = [
    "4H 8H JH 2S 6C 2D",  # seat 0
    "AH QH JK QS 2C 3D",  # seat 1, the bidder
    "2H 5H JK2 3S 3C 4D",  # seat 2
    "KH 6H 9H 4S 4C 5D",  # seat 3, holds the called KH
    "3H 7H TH 5S 5C 6D",  # seat 4
]
TIE_TRICKS = [
    "AH 2H KH 3H 4H",  # seat 1: High; the Trey; seat 2 plays the 2H (Low)
    "QH 5H 6H 7H 8H",  # seat 1
    "JK JK2 9H TH JH",  # seat 0's Jack beats both Jokers and takes the TH
    "2S QS 3S 4S 5S",  # seat 1
    "2C 3C 4C 5C 6C",  # seat 0
    "2D 3D 4D 5D 6D",  # seat 4
]


def test_game_tie_goes_to_nobody_and_an_unused_jick_scores_nothing() -> None:
    game = deal(TIE_KEEPS, single_hand=True)
    assert "JD" in undealt(game)
    play(game, f"bid 4, {PASSES}, trump H, call KH")
    discard_down(game, TIE_KEEPS)
    play_tricks(game, TIE_TRICKS)
    assert trick_winners(game) == [1, 1, 0, 1, 0, 4]
    result = game.results()[-1]
    assert result.card_points == {0: 11, 1: 11, 2: 0, 4: 0}
    assert result.awards == {"high": 1, "low": 2, "jack": 0, "joker": 0, "joker2": 0, "trey": 1}
    assert result.points == {0: 3, 1: 4, 2: 1, 4: 0}
    assert result.made
    assert game.match_scores() == (3, 4, 1, 4, 0)


@pytest.mark.parametrize(
    "before, after, winners",
    [
        # main hand, bid 4 made: seats 1 and 3 +4, seat 0 +2, seat 2 +3, seat 4 +1
        ([50, 48, 49, 48, 51], [52, 52, 52, 52, 52], {1, 3}),  # all tied on 52: the bidding side
        ([51, 48, 40, 48, 0], [53, 52, 43, 52, 1], {0}),  # the higher of those reaching 52
        ([0, 48, 0, 48, 0], [2, 52, 3, 52, 1], {1, 3}),  # partners reach it together
        ([0, 0, 49, 0, 0], [2, 4, 52, 4, 1], {2}),
    ],
)
def test_match_to_52_and_its_tie_breaks(before: list[int], after: list[int], winners: set[int]) -> None:
    game = deal(KEEPS, scores=list(before))
    play(game, f"bid 4, {PASSES}, trump H, call KH")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == tuple(after)
    assert game.is_over
    assert game.winners == frozenset(winners)


def test_match_goes_on_below_52_and_the_partnership_ends_with_the_hand() -> None:
    game = deal(KEEPS)
    play(game, f"bid 4, {PASSES}, trump H, call KH")
    discard_down(game, KEEPS)
    play_tricks(game, TRICKS)
    assert game.match_scores() == (2, 4, 3, 4, 1)
    assert not game.is_over
    assert game.phase == BID
    assert game.dealer == 1
    assert game.current_player == 2
    assert game.contract().partner is None
    assert hand_sizes(game) == [10] * 5  # a fresh deal


# A moon (house option moon_bid) with a called partner: seat 1 calls the 2H from seat 2 and takes every point.
MOON_KEEPS = [
    "4C 5C 6C 7C 8C 9C",
    "AH KH QH JH JD JK",  # seat 1, the bidder
    "JK2 TH 9H 3H 2H 8H",  # seat 2, holds the called 2H
    "4S 5S 6S 7S 8S 9S",
    "2C 3C 2S 3S 2D 3D",
]
MOON_TRICKS = [
    "AH 2H 4S 2C 4C",
    "KH 3H 5S 3C 5C",
    "QH TH 6S 2S 6C",
    "JH 9H 7S 3S 7C",
    "JD 8H 8S 2D 8C",
    "JK JK2 9S 3D 9C",
]


@pytest.mark.parametrize(
    ("before", "after", "winners"),
    [
        ([0, 30, 10, 0, 0], (0, 40, 20, 0, 0), {1, 2}),  # both partners above zero: both win
        ([0, 30, -5, 0, 0], (0, 40, 0, 0, 0), {1}),  # the bidder wins; only the partner's score resets
        ([0, -5, 30, 0, 0], (0, 0, 40, 0, 0), {2}),  # the partner wins; only the bidder's score resets
        ([0, -5, 0, 0, 0], (0, 0, 0, 0, 0), None),  # neither above zero: both reset, the match goes on
    ],
)
def test_a_made_moon_is_decided_by_each_partners_own_score(before: list[int], after: tuple, winners: set | None):
    game = deal(MOON_KEEPS, scores=before, moon_bid=True)
    play(game, f"bid moon, {PASSES}, trump H, call 2H")
    discard_down(game, MOON_KEEPS)
    play_tricks(game, MOON_TRICKS)
    result = game.results()[-1]
    assert result.made and result.points == {0: 0, 1: 10, 3: 0, 4: 0}
    assert game.match_scores() == after
    assert result.match_winners == (frozenset(winners) if winners else None)
