"""Match-aware moon calls (agents.match_odds) and the fit behind them (training.fit_moon_odds)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.match_odds import (
    NETWORK_MOON_AHEAD,
    NETWORK_MOON_DANGER,
    NETWORK_MOON_THRESHOLD,
    NETWORK_MOON_WEIGHTS,
    match_odds,
    moon_chance,
    moon_wins_more,
    network_moon_call,
)
from agents.rule_bot import RuleAgent, best_trump
from agents.search_bot import SearchAgent
from smear_env import actions as A
from smear_env.cards import mask_of, parse_cards
from smear_env.observation import player_view
from smear_env.rules import get_rules
from tests.scripted import new_game
from training.fit_moon_odds import fit_logistic, fit_network, forced_bid_rows, forced_moon_rows

MINNESOTA = get_rules("minnesota")
STRONG = "AH KH QH JH 2H 3H JD AS TC"  # High, Low and Jack of hearts, and the top trumps
WEAK = "4H 5H 6C 7C 8S 9S 3D 4D 5D"
FILLER = ["4S 5S 6S 7S 9C TS JS QS KS", "2C 3C 4C 8C 9D TD QD KD AD", "2S 3S 2D 6D 7D 8D QC KC AC"]


def hand(cards: str) -> tuple[int, int, float]:
    mask = mask_of(parse_cards(cards))
    return (mask, *best_trump(mask, MINNESOTA, bidder=True))


def test_match_odds_are_even_when_level_and_follow_the_scores() -> None:
    assert match_odds(0, 0, 21) == pytest.approx(0.5)
    assert match_odds(17, 17, 21) == pytest.approx(0.5)
    for mine, theirs in ((5, 17), (19, 10), (-8, 3)):
        assert match_odds(mine, theirs, 21) + match_odds(theirs, mine, 21) == pytest.approx(1.0)
    odds = [match_odds(score, 10, 21) for score in range(-10, 21)]
    assert odds == sorted(odds) and odds[0] < 0.2 and odds[-1] > 0.9


def test_a_strong_hand_moons_from_behind_but_not_from_ahead() -> None:
    strong = hand(STRONG)
    assert moon_chance(strong[0], MINNESOTA, strong[1], strong[2]) > 0.7
    assert moon_wins_more(strong[0], MINNESOTA, strong[1], strong[2], 5, 19)
    assert not moon_wins_more(strong[0], MINNESOTA, strong[1], strong[2], 19, 5)


def test_no_moon_from_a_score_of_zero_or_less() -> None:
    """A made moon from zero or less only resets the score to zero; a failed one still loses."""
    strong = hand(STRONG)
    for mine in (0, -4):
        assert not moon_wins_more(strong[0], MINNESOTA, strong[1], strong[2], mine, 20)


def test_a_weak_hand_moons_only_when_the_match_is_all_but_lost() -> None:
    weak = hand(WEAK)
    assert moon_chance(weak[0], MINNESOTA, weak[1], weak[2]) < 0.25
    assert moon_wins_more(weak[0], MINNESOTA, weak[1], weak[2], 5, 19)
    assert not moon_wins_more(weak[0], MINNESOTA, weak[1], weak[2], 10, 12)


@pytest.mark.parametrize(("scores", "moons"), [([5, 19], True), ([19, 5], False)])
def test_the_rule_bot_with_match_moon_calls_it_by_the_score(scores: list[int], moons: bool) -> None:
    """Seat 1 (first to bid) holds the strong hand; team 0 is seats 0 and 2, team 1 seats 1 and 3."""
    hands = [FILLER[0], STRONG, FILLER[1], FILLER[2]]
    game = new_game("minnesota", hands=hands, kitty="9H 8H 7H 6H", scores=scores[::-1])  # seat 1 is on team 1
    view = player_view(game, 1)
    plain = RuleAgent(MINNESOTA).act(view)
    aware = RuleAgent(MINNESOTA, match_moon=True).act(view)
    assert plain == A.MOON  # the rule bot moons on the hand alone (estimate 4.25)
    assert (aware == A.MOON) == moons
    assert aware in game.legal_actions()


def test_search_calls_the_moon_by_the_score_on_minnesota_only() -> None:
    assert SearchAgent(MINNESOTA, seed=0).match_moon
    assert not SearchAgent(MINNESOTA, seed=0, match_moon=False).match_moon
    assert not SearchAgent(MINNESOTA, seed=0, bid_by="rollouts").match_moon
    assert not SearchAgent("ten_point", seed=0).match_moon
    with pytest.raises(ValueError, match="match_moon applies where search bids by rule"):
        SearchAgent(MINNESOTA, seed=0, bid_by="rollouts", match_moon=True)
    with pytest.raises(ValueError, match="match_moon is fitted for minnesota only, not 'ten_point'"):
        RuleAgent("ten_point", match_moon=True)


def test_logistic_fit_recovers_known_weights() -> None:
    rng = np.random.default_rng(0)
    x = np.c_[rng.normal(size=(20_000, 2)), np.ones(20_000)]
    truth = np.array([1.5, -0.7, 0.3])
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    assert fit_logistic(x, y) == pytest.approx(truth, abs=0.08)


def test_forced_bid_rows_depend_on_the_deal_numbers_alone() -> None:
    rows = forced_bid_rows(range(10, 16))
    assert rows == forced_bid_rows(range(10, 16))
    assert rows[2:] == forced_bid_rows(range(12, 16))
    for hand_mask, mine, theirs in rows:
        assert hand_mask.bit_count() == MINNESOTA.hand_size
        assert 0 <= mine + theirs <= MINNESOTA.max_hand_points


def test_forced_moon_rows_are_the_shipped_networks_moons_and_depend_on_the_deal_numbers_alone() -> None:
    rows = forced_moon_rows(range(20, 26))
    assert rows == forced_moon_rows(range(20, 26))
    assert rows[3:] == forced_moon_rows(range(23, 26))
    assert all(mask.bit_count() == MINNESOTA.hand_size and isinstance(made, bool) for mask, made in rows)


def test_the_network_moon_fit_prints_its_weights_beside_the_rule_fit() -> None:
    fitted = fit_network(40, workers=1)
    assert len(fitted["NETWORK_MOON_WEIGHTS"]) == len(NETWORK_MOON_WEIGHTS)
    assert fitted["rows"] == 40 and 0 < fitted["moons made"] < 1


@pytest.mark.parametrize(("scores", "chance", "moons"), [
    ([5, 9], 0.56, True),  # above the threshold, behind
    ([5, 5], 0.56, True),  # ... or level
    ([5, 9], 0.5, False),  # below it
    ([9, 5], 0.6, False),  # ahead: a higher threshold ...
    ([9, 5], 0.66, True),  # ... but the network's call does not wait to fall behind
    ([5, 17], 0.35, True),  # the other side four points from the target: the lower threshold
    ([5, 16], 0.35, False),
    ([0, 17], 0.99, False),  # never from zero or less
    ([-3, 5], 0.99, False),
])  # fmt: skip
def test_the_network_moon_call_by_chance_and_score(scores: list[int], chance: float, moons: bool) -> None:
    thresholds = (NETWORK_MOON_THRESHOLD, NETWORK_MOON_AHEAD, NETWORK_MOON_DANGER)
    assert network_moon_call(chance, MINNESOTA, scores, 0, thresholds) == moons
