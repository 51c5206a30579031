"""House rules from real tables, each a rule option (issue 16), pinned with scripted deals.

* ``lowest_rank``: a deck from any lowest rank, e.g. 9 to Ace plus two jokers for four players.
  A point whose card the deck never holds (the Trey below 3, the 2's Low or Deuce, Jack and Jick
  below J) is refused rather than silently never scored.
* ``joker_rank = "not_trump"``: a joker beats every plain card and loses to every trump, the
  first of two played wins, a joker may be played at any time (it never breaks a duty to
  follow), and a joker lead obliges nobody for the whole trick. Jokers are never High or Low;
  captured, they score ``joker_points``.
* ``non_bidder_cap``: a side that did not bid scores up to the cap at most (20 with a target of
  21: only a bidder goes out); a score already above it is not lowered.
* ``teams``: any seating of teams, e.g. three teams of two among six players, or four players
  each alone. ``rules.team_of(seat)`` and ``rules.num_teams`` follow it everywhere.

Seats are numbered 0.. clockwise; dealer 0, so seat 1 bids first.
"""

from __future__ import annotations

import pytest

from agents.registry import make_agent
from smear_env.cards import format_card, format_cards
from smear_env.game import Game
from smear_env.observation import Observer, layout, player_view
from smear_env.render import render_text
from smear_env.rules import get_rules
from tests.scripted import deal_with_blinds, hand_of, legal_moves, new_game, play, play_tricks, trick_winners

HEARTS = 2

# ------------------------------------------------------------------ a deck from the nines

NINES = {"lowest_rank": "9", "trey_points": 0, "max_bid": 7, "hand_size": 6, "stock_use": "none"}


def test_a_deck_of_nine_to_ace_plus_two_jokers_holds_26_cards() -> None:
    rules = get_rules("ten_point", **NINES)
    assert len(rules.deck) == 26
    assert format_cards(c for c in rules.deck if c < 13) == "9C TC JC QC KC AC"
    assert rules.max_hand_points == 7  # High, Low, Jack, Jick, two jokers, Game: no Trey without a 3


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"lowest_rank": "9"}, r"trey_points is impossible: the deck has no 3 \(lowest_rank='9'\): set it to 0"),
        ({"lowest_rank": "3", "deuce_points": 2}, "deuce_points is impossible: the deck has no 2"),
        ({"lowest_rank": "7", "trey_points": 0, "low": "two_played"}, "low is impossible: the deck has no 2"),
        ({"lowest_rank": "Q", "trey_points": 0}, "jack_points is impossible: the deck has no Jacks"),
        ({"lowest_rank": "Q", "trey_points": 0, "jack_points": 0}, "jick is impossible: the deck has no Jacks"),
    ],
)
def test_points_whose_card_is_not_in_the_deck_are_refused(options: dict[str, object], message: str) -> None:
    small_deal = {"hand_size": 3, "play_hand_size": 3, "stock_use": "none"}
    with pytest.raises(ValueError, match=message):
        get_rules("ten_point", **small_deal, **options)


def test_low_is_the_lowest_trump_of_the_short_deck() -> None:
    hands = [
        "JK AS KS QS JS TS",  # seat 0
        "AH KH 9H 9C TC JC",  # seat 1: the bidder
        "QH JH 9S QC KC AC",  # seat 2
        "TH JD JK2 9D TD QD",  # seat 3
    ]
    game = new_game("ten_point", hands=hands, single_hand=True, **NINES)
    play(game, "bid 4, pass, pass, pass, trump H")
    play_tricks(game, ["9H QH TH JK", "JH JD AS AH", "KH 9S JK2 KS", "9C KC 9D QS", "QC TD JS TC", "AC QD TS JC"])
    result = game.results()[-1]
    low = next(a for a in result.breakdown if a.category == "low")
    assert (format_card(low.card), low.seat) == ("9H", 1)  # the 9 is the lowest trump in this deck


def test_a_misdeal_hand_in_a_short_deck_is_one_of_only_sevens_to_nines() -> None:
    hands = ["7C 8C 9C 7D 8D 9D", "AH KH QH JH TH 9H", "7S 8S 9S TS JS QS", "AC KC QC JC TC AD"]
    game = new_game("four_point", hands=hands, misdeal_call=True, stock="KD QD JD TD 7H 8H AS KS")
    assert "misdeal" not in legal_moves(game)  # seat 1 holds honours
    play(game, "pass, pass, pass")
    assert "misdeal" in legal_moves(game)  # seat 0, the dealer, holds only 7s to 9s


# ------------------------------------------------------------------ jokers that are not trumps

# midwest with 6 cards dealt (no discards) and any first lead; hearts trump
NOT_TRUMP = {"joker_rank": "not_trump", "hand_size": 6, "first_lead": "any"}
JOKER_HANDS = [
    "TC 9C 8C 7C 2S 3S",  # seat 0 (team 0)
    "JK 5C 6C AH 7D 8D",  # seat 1 (team 1): the bidder
    "2C 3C 4C 9S TS JS",  # seat 2 (team 0)
    "KC QC JC JK2 2D 3D",  # seat 3 (team 1)
]


def joker_game(**options: object) -> Game:
    game = new_game("ten_point_midwest", hands=JOKER_HANDS, single_hand=True, **{**NOT_TRUMP, **options})
    play(game, "bid 2, pass, pass, pass, trump H")
    return game


def test_a_joker_lead_obliges_nobody_for_the_whole_trick() -> None:
    game = joker_game()
    play(game, "play JK")
    assert legal_moves(game) == {f"play {c}" for c in hand_of(game, 2)}
    play(game, "play 9S")  # the spade does not set a suit to follow either
    assert legal_moves(game) == {f"play {c}" for c in hand_of(game, 3)}
    play(game, "play 2D")
    assert legal_moves(game) == {f"play {c}" for c in hand_of(game, 0)}
    play(game, "play 2S")
    assert trick_winners(game) == [1]  # no trump played: the joker wins


def test_a_joker_beats_every_plain_card_and_may_be_played_while_holding_the_led_suit() -> None:
    game = joker_game()
    play_tricks(game, ["JK 9S 2D 2S"])
    play(game, "play 5C, play 2C")
    assert legal_moves(game) == {"play KC", "play QC", "play JC", "play JK2"}  # clubs, or the joker
    play(game, "play JK2")
    assert legal_moves(game) == {"play TC", "play 9C", "play 8C", "play 7C"}
    play(game, "play TC")
    assert trick_winners(game) == [1, 3]


def test_a_joker_is_not_a_trump_to_lead_or_to_follow_trump() -> None:
    game = joker_game(first_lead="trump")
    assert legal_moves(game) == {"play AH"}  # the bidder must lead trump: the joker is none
    play(game, "play AH")
    assert legal_moves(game) == {f"play {c}" for c in hand_of(game, 2)}  # void in trump: anything


def test_every_trump_beats_a_joker_and_the_first_of_two_jokers_wins() -> None:
    hands = ["2H 3S 4S 5S 6S 7S", "JK KC QC JC TC 9C", "JK2 8C 7C 6C 5C 4C", "AH KH 2S 3C 2C 8S"]
    game = new_game("ten_point_midwest", hands=hands, single_hand=True, **NOT_TRUMP)
    play(game, "bid 2, pass, pass, pass, trump D")  # diamonds: nobody holds one
    play_tricks(game, ["KC JK2 2C 3S"])  # seat 2's joker beats the clubs
    play_tricks(game, ["8C 3C 2H JK"])  # seat 0's 2H: a heart, plain with diamonds trump
    assert trick_winners(game) == [2, 1]
    game = new_game("ten_point_midwest", hands=hands, single_hand=True, **NOT_TRUMP)
    play(game, "bid 2, pass, pass, pass, trump H")
    play_tricks(game, ["JK JK2 2C 2H"])  # the first joker beats the second; the 2H, a trump, beats both
    assert trick_winners(game) == [0]


def test_distinct_jokers_that_are_not_trumps_both_beat_plain_cards_and_the_big_one_beats_the_little() -> None:
    hands = ["2H 3S 4S 5S 6S 7S", "AH KC QC JC TC 9C", "JK2 8C 7C 6C 5C 4C", "JK KH 2S 3C 2C 8S"]
    game = new_game("ten_point_midwest", hands=hands, single_hand=True, distinct_jokers=True, **NOT_TRUMP)
    play(game, "bid 2, pass, pass, pass, trump D")  # diamonds: nobody holds one
    play_tricks(game, ["KC JK2 2C 3S"])  # the little joker beats the clubs led, as the big one would
    assert trick_winners(game) == [2]
    game = new_game("ten_point_midwest", hands=hands, single_hand=True, distinct_jokers=True, **NOT_TRUMP)
    play(game, "bid 2, pass, pass, pass, trump D")
    play_tricks(game, ["KC JK2 JK 2H"])  # the big joker beats the little one, though played after it
    assert trick_winners(game) == [3]


def test_jokers_score_when_captured_and_are_never_high_or_low() -> None:
    game = joker_game()
    play_tricks(
        game,
        ["JK 9S 2D 2S", "5C 2C JK2 TC", "KC 9C 6C 3C", "3D 8C AH 4C", "7D TS QC 7C", "8D JS JC 3S"],
    )
    result = game.results()[-1]
    assert trick_winners(game) == [1, 3, 3, 1, 1, 1]
    assert {a.category: (format_card(a.card) if a.card is not None else None, a.seat) for a in result.breakdown} == {
        "high": ("AH", 1),  # the only trump played is High and Low
        "low": ("AH", 1),
        "joker": ("JK", 1),
        "joker2": ("JK2", 3),
        "game": (None, None),
    }
    assert result.points == {0: 0, 1: 5} and result.made


def test_not_trump_jokers_need_a_plain_first_lead_when_it_sets_trump() -> None:
    with pytest.raises(ValueError, match="first_lead_no_joker"):
        get_rules("six_point", joker_rank="not_trump", first_lead_no_joker=False)
    with pytest.raises(ValueError, match="protects trumps only"):
        get_rules("schmier", joker_rank="not_trump")  # schmier protects its joker from discards
    hands = ["7H 8H 9H TH JH QH", "JK JK2 7C 8C 9C TC", "7S 8S 9S TS JS QS", "7D 8D 9D TD JD QD"]
    game = deal_with_blinds("six_point", hands, "KH AH", joker_rank="not_trump", single_hand=True)
    play(game, "bid 2, pass, pass, pass, discard KH, discard AH")
    assert legal_moves(game) == {"play 7C", "play 8C", "play 9C", "play TC"}


# ------------------------------------------------------------------ a cap on the sides that did not bid

MINNESOTA_HANDS = [
    "AC JK2 AD 2H TD QS 2D 3C 8C",  # seat 0 (team 0): plays the 2H (Low) at trick 4
    "9C AH KH 5H 3D 4C 5C 6C 7C",  # seat 1 (team 1)
    "KC QC JD 4D 5D 6D 7D 8D 9D",  # seat 2 (team 0)
    "JK TH 3H 7S 8S 9S 2S 3S 2C",  # seat 3 (team 1)
]
MINNESOTA_DISCARDS = ["4C 5C 6C 7C 4S 5S 6S", "7D 8D 9D", "2S 3S 2C", "2D 3C 8C"]
MINNESOTA_TRICKS = ["9C KC JK AC", "TH JK2 5H JD", "4D 7S AD 3D", "2H AH 5D 3H", "KH 6D 8S TD", "JH QC 9S QS"]


def minnesota_hand(scores: list[int], cap: int | None = 20) -> Game:
    """Seat 1 bids 2; team 1 takes High, Jack and Game (3), team 0 takes Low (1)."""
    game = new_game("minnesota", hands=MINNESOTA_HANDS, kitty="JH 4S 5S 6S", scores=scores, non_bidder_cap=cap)
    play(game, "bid 2, pass, pass, pass, trump H")
    play(game, ", ".join(f"discard {c}" for cards in MINNESOTA_DISCARDS for c in cards.split()))
    play_tricks(game, MINNESOTA_TRICKS)
    return game


def test_a_side_that_did_not_bid_stops_at_the_cap_and_cannot_go_out() -> None:
    game = minnesota_hand([20, 5])
    result = game.results()[-1]
    assert result.points == {0: 1, 1: 3} and result.deltas == {0: 0, 1: 3}
    assert game.match_scores() == (20, 8) and not game.is_over
    game = minnesota_hand([20, 5], cap=None)
    assert game.match_scores() == (21, 8) and game.winners == frozenset({0})  # without the cap, team 0 goes out


def test_points_up_to_the_cap_still_count() -> None:
    game = minnesota_hand([19, 5])
    assert game.match_scores() == (20, 8)
    game = minnesota_hand([15, 5], cap=12)
    assert game.match_scores() == (15, 8)  # already above the cap: kept, not lowered


def test_the_bidding_side_goes_out_past_the_cap() -> None:
    game = minnesota_hand([5, 19])
    assert game.match_scores() == (6, 22) and game.winners == frozenset({1})


def test_a_cap_at_or_above_the_target_is_refused() -> None:
    with pytest.raises(ValueError, match="non_bidder_cap is impossible: a cap of 21 does not keep"):
        get_rules("minnesota", non_bidder_cap=21)


# ------------------------------------------------------------------ teams of any size and number

THREE_TEAMS = {"num_players": 6, "hand_size": 6, "teams": [[0, 3], [1, 4], [2, 5]]}
SIX_HANDS = [
    "6H 5C 3D 7S 8S 9S",  # seat 0 (team 0)
    "AH KC 4D TS 2S 3S",  # seat 1 (team 1): the bidder
    "2H 2C 5D QS KS AS",  # seat 2 (team 2)
    "3H AC KD 4S 5S 6S",  # seat 3 (team 0)
    "4H 3C 2D JS 7C 8C",  # seat 4 (team 1)
    "5H JH 4C AD 9C TC",  # seat 5 (team 2)
]
SIX_TRICKS = [
    "AH 2H 3H 4H 5H 6H",  # seat 1 leads trump: High, Low (the 2H captured) and the Trey for team 1
    "KC 2C AC 3C 4C 5C",  # seat 3 (team 0)
    "KD 2D AD 3D 4D 5D",  # seat 5 (team 2)
    "JH 7S TS QS 4S JS",  # seat 5 captures its own Jack
    "9C 8S 2S KS 5S 7C",  # seat 5
    "TC 9S 3S AS 6S 8C",  # seat 5: team 2 has 38 card points, Game
]


def six_seat_hand(scores: list[int] | None = None, bid: int = 5) -> Game:
    game = new_game("ten_point_midwest", hands=SIX_HANDS, scores=scores, **THREE_TEAMS)
    play(game, f"bid {bid}, pass, pass, pass, pass, pass, trump H")
    play_tricks(game, SIX_TRICKS)
    return game


def test_three_teams_of_two_are_seated_as_listed() -> None:
    rules = get_rules("ten_point_midwest", **THREE_TEAMS)
    assert rules.num_teams == 3
    assert [rules.team_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert Game(rules, seed=1).match_scores() == (0, 0, 0)


def test_three_teams_score_a_hand_each_side_its_own() -> None:
    game = six_seat_hand()
    result = game.results()[-1]
    assert [trick.winner for trick in result.tricks] == [1, 3, 5, 5, 5, 5]
    assert result.awards == {"high": 1, "low": 1, "jack": 2, "trey": 1, "game": 2}
    assert result.points == {0: 0, 1: 5, 2: 2} and result.made
    assert game.match_scores() == (0, 5, 2)
    assert [result.hand_reward(seat) for seat in range(6)] == [-5.0, 3.0, -3.0, -5.0, 3.0, -3.0]
    # training's rival_weight: 0 leaves each side's own score change, 0.5 half the best rival's taken off it
    assert [result.hand_reward(seat, 0.0) for seat in range(3)] == [0.0, 5.0, 2.0]
    assert [result.hand_reward(seat, 0.5) for seat in range(3)] == [-2.5, 4.0, -0.5]


def test_with_three_teams_the_higher_of_two_teams_past_the_target_wins() -> None:
    game = six_seat_hand(scores=[10, 18, 20])
    assert game.match_scores() == (10, 23, 22)
    assert game.winners == frozenset({1})
    assert game.rewards() == [-1.0, 1.0, -1.0, -1.0, 1.0, -1.0]


def test_the_observation_scores_each_seat_by_its_own_team() -> None:
    game = new_game("ten_point_midwest", hands=SIX_HANDS, scores=[3, 6, 9], **THREE_TEAMS)
    start = {name: start for name, start, _ in layout(6)}["scores"]
    vector = Observer(6).vector(game, 1)  # relative seats 0..5 are seats 1, 2, 3, 4, 5, 0
    assert list(vector[start : start + 6] * 21) == pytest.approx([6, 9, 3, 6, 9, 3])
    assert player_view(game, 4)["team"] == 1
    assert "teams: 0 = seats 0 3  1 = seats 1 4  2 = seats 2 5" in render_text(game)


def test_four_players_each_alone() -> None:
    rules = get_rules("ten_point", teams=[[0], [1], [2], [3]])
    assert rules.num_teams == 4 and not rules.has_teammates
    game = Game(rules, seed=3)
    assert game.match_scores() == (0, 0, 0, 0)
    assert [game.side_of(seat) for seat in range(4)] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"teams": [[0, 1], [2]]}, r"must list every seat 0..3 exactly once"),
        ({"teams": [[0, 1], [2, 3, 3]]}, r"must list every seat 0..3 exactly once"),
        ({"teams": [[0, 1, 2, 3]]}, "at least two teams"),
        ({"teams": [[0, 1], [2, 3]], "partnerships": False, "called_partner": True}, "needs everyone playing alone"),
        ({"teams": [["0", 1], [2, 3]]}, "expected a list of teams, each a list of seats"),
        ({"num_players": 2, "partnerships": False, "called_partner": True}, "would leave nobody to play against"),
    ],
)
def test_impossible_seatings_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules("ten_point", **options)


def test_the_rule_bot_plays_three_teams_to_the_end_of_a_match() -> None:
    rules = get_rules("ten_point_midwest", num_players=6, teams=[[0, 3], [1, 4], [2, 5]])
    game = Game(rules, seed=7)
    bots = [make_agent("rule", rules, seed=seat) for seat in range(6)]
    while not game.is_over:
        game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
    assert game.winners and max(game.match_scores()) >= 21
    assert len(game.results()[-1].scores_after) == 3
