"""The card head's features: what each card in my hand would do now, read off the observation vector.

A scripted `ten_point_midwest` hand, hearts trump: seat 1 bids, names hearts and leads; seat 0 wins the
first trick with the Ace, then leads the 4C. Teams are seats 0 and 2 against 1 and 3.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.card_features import CARD_FEATURES, card_features
from smear_env.cards import parse_cards
from smear_env.game import Game
from smear_env.observation import Observer
from tests.scripted import deal_keeping, discard_down, play, play_tricks

KEEPS = ["AH KH 4C 5C 6C 7C", "QH 2S 3S 4S 5S 6S", "2H 8C 9C TC JC QC", "3H AS KS QS JS TS"]
IN_HAND, TRUMP, BEATS, LED_SUIT, MY_SIDE_WINNING, I_LEAD, RANK, GAME_POINTS = 0, 1, 3, 4, 5, 6, 7, 8
HIGHEST_LEFT, TABLE_POINTS, RIVALS_AFTER, SURE_TO_TAKE, TRICK_SAFE = 10, 14, 15, 16, 17


def features(game: Game, seat: int) -> dict[str, np.ndarray]:
    """{card name: its features} for each card in ``seat``'s hand; every other card's row must be zeros."""
    out = card_features(Observer(4).vector(game, seat), game.rules)
    assert out.shape == (54, CARD_FEATURES)
    held = {card: name for name in KEEPS[seat].split() for card in parse_cards(name) if game.hands[seat] >> card & 1}
    assert not out[[c for c in range(54) if c not in held]].any()
    return {name: out[card] for card, name in held.items()}


def after_first_trick() -> Game:
    game = deal_keeping("ten_point_midwest", KEEPS, rest_as_stock=False)
    play(game, "bid 5, pass, pass, pass, trump H")
    discard_down(game, KEEPS)
    play_tricks(game, ["QH 2H 3H AH"])  # seat 1 leads; seat 0 wins with the Ace and leads next
    return game


def test_nothing_is_read_before_the_cards_are_played() -> None:
    game = deal_keeping("ten_point_midwest", KEEPS, rest_as_stock=False)
    assert not card_features(Observer(4).vector(game, 1), game.rules).any()


def test_on_lead_the_king_of_trumps_is_the_highest_left_once_the_ace_is_out() -> None:
    f = features(after_first_trick(), 0)
    assert set(f) == {"KH", "4C", "5C", "6C", "7C"}
    assert all(row[IN_HAND] == 1 and row[I_LEAD] == 1 and row[BEATS] == 0 for row in f.values())
    assert f["KH"][TRUMP] == 1 and f["KH"][HIGHEST_LEFT] == 1 and f["KH"][RANK] > 0  # the Ace (rank 0) is gone
    assert f["7C"][HIGHEST_LEFT] == 0 and f["7C"][TRUMP] == 0
    assert all(row[RIVALS_AFTER] == 2 / 3 for row in f.values())  # seats 1 and 3 play after my lead
    assert f["KH"][SURE_TO_TAKE] == 1  # no trump left above it
    assert f["7C"][SURE_TO_TAKE] == 0 and f["4C"][SURE_TO_TAKE] == 0  # higher clubs and trumps are out there


def test_my_partners_king_of_trumps_is_safe_once_the_ace_is_out() -> None:
    game = after_first_trick()
    play(game, "play KH")  # seat 0 leads the King
    f = features(game, 1)  # seat 1, of the other side, plays second: seat 2 is its one rival still to play
    assert all(row[MY_SIDE_WINNING] == 0 and row[TRICK_SAFE] == 0 and row[RIVALS_AFTER] == 1 / 3 for row in f.values())
    play(game, "play 2S")  # seat 1 has no trump
    f = features(game, 2)
    for row in f.values():
        assert row[MY_SIDE_WINNING] == 1 and row[RIVALS_AFTER] == 1 / 3  # seat 3 still plays
        assert row[TRICK_SAFE] == 1 and row[SURE_TO_TAKE] == 0  # nobody can take the King; no club of mine takes it


def test_following_my_partners_lead_every_club_beats_it() -> None:
    game = after_first_trick()
    play(game, "play 4C, play 2S")  # seat 0 leads the 4C; seat 1 shows no club
    f = features(game, 2)
    assert set(f) == {"8C", "9C", "TC", "JC", "QC"}
    for row in f.values():
        assert row[MY_SIDE_WINNING] == 1 and row[BEATS] == 1 and row[LED_SUIT] == 1 and row[I_LEAD] == 0
    assert f["TC"][GAME_POINTS] == 1.0 and f["QC"][GAME_POINTS] == 0.2  # the Ten is 10 game points, a Queen 2
    assert not f["QC"][SURE_TO_TAKE] and not f["QC"][TRICK_SAFE]  # the King and Ace of clubs, and trumps, are unseen


def test_against_the_other_sides_ten_no_spade_can_win_a_club_trick() -> None:
    game = after_first_trick()
    play(game, "play 4C, play 2S, play TC")
    f = features(game, 3)
    assert set(f) == {"AS", "KS", "QS", "JS", "TS"}
    for row in f.values():
        assert row[MY_SIDE_WINNING] == 0 and row[BEATS] == 0 and row[LED_SUIT] == 0
        assert row[TABLE_POINTS] == 1.0  # the TC's 10 game points are on the table
        assert row[HIGHEST_LEFT] == 1  # the five top spades are all mine: nobody else holds one above any
        assert row[RIVALS_AFTER] == 0 and row[TRICK_SAFE] == 0 and row[SURE_TO_TAKE] == 0  # I play last


def test_a_batch_is_its_vectors_one_by_one() -> None:
    game = after_first_trick()
    play(game, "play 4C")
    vectors = np.stack([Observer(4).vector(game, seat) for seat in range(4)])
    batch = card_features(vectors, game.rules)
    for seat in range(4):
        np.testing.assert_array_equal(batch[seat], card_features(vectors[seat], game.rules))


def test_the_first_15_features_are_those_of_heads_made_before_the_last_three() -> None:
    game = after_first_trick()
    vector = Observer(4).vector(game, 0)
    np.testing.assert_array_equal(card_features(vector, game.rules, 15), card_features(vector, game.rules)[:, :15])
    with pytest.raises(ValueError, match="16 of them is not one of the sets"):
        card_features(vector, game.rules, 16)
