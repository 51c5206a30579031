"""The neural agent's match-aware moon calls (``match_moon``): the match odds' decision, not the network's.

On minnesota a made moon wins the match only from a positive score and a failed one loses it.
The trained networks shot the moon from a score of 0, where a made moon gains nothing; with
``match_moon`` (on by default there) the moon is called by the match odds, and the network chooses
among the other moves. ``moon_model="network"`` (the default) is the call fitted to the third-stage
network's own moons (:func:`agents.match_odds.network_moon_call`; the shipped agent since 2026-12-03 trained
with it); ``"rule"`` the rule bot's,
:func:`agents.rule_bot.moon_wins_match`.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.knowledge import knowledge_from_view
from agents.match_odds import NETWORK_MOON_AHEAD, NETWORK_MOON_DANGER, NETWORK_MOON_THRESHOLD, network_moon_chance
from agents.neural_agent import NeuralAgent, moon_features_of
from agents.registry import make_agent
from agents.rule_bot import moon_wins_match
from agents.shipped import shipped_policy_path
from smear_env import Game
from smear_env.actions import MOON
from smear_env.observation import Observer, action_mask, player_view
from smear_env.rules import get_rules
from tests.scripted import new_game, play
from training.evaluate.run import weights_of

RULES = get_rules("minnesota")

# seat 1 bids first (dealer 0); seat 2, after seat 1's bid of 3, holds the Aces of clubs and spades and the 2 of
# spades, and the shipped network (without match_moon) gives the moon there a probability of 0.43 at 0 to 0
# (the third stage, shipped before 2026-12-03, shot it with probability 1.0)
HANDS = [
    "6C 8C JC 4D TD JD 2H 5H JK2",
    "9C TC 7D KD 6H JH 3S 4S 9S",
    "KC AC 3D 9D 7H 2S 6S 8S AS",
    "2C 3C 6D 4H 9H TH QH JS KS",
]
KITTY = "8H AD 3H QS"
# the same hands, but seat 1 holds nine hearts and bids first
STRONG = ["6C 8C JC 4D TD JD 2D 5D JK2", "AH KH QH JH 2H 4H 5H 6H 9H", HANDS[2], "2C 3C 6D 4S 9S TH 7S JS KS"]
# the same hands, but seat 2 holds the 5 of spades for the 2: a middling moon (a chance of 0.41 by the network's fit)
MIDDLING = [HANDS[0], HANDS[1], "KC AC 3D 9D 7H 5S 6S 8S AS", HANDS[3]]


def bid_turn(hands: list[str], scores: list[int], bids: str = "") -> tuple[dict, dict]:
    game = new_game("minnesota", hands=hands, kitty=KITTY, scores=scores)
    play(game, bids)
    seat = game.current_player
    view = player_view(game, seat)
    observation = {"observation": Observer(4).vector(game, seat), "action_mask": action_mask(game.legal_mask())}
    assert MOON in view["legal_actions"]
    return view, observation


def test_it_is_on_for_minnesota_and_off_where_no_odds_were_fitted():
    assert make_agent("neural", "minnesota").match_moon is True
    assert make_agent("neural:match_moon=false", "minnesota").match_moon is False
    assert make_agent("neural", "ten_point").match_moon is False
    with pytest.raises(ValueError, match="match_moon is fitted for minnesota only, not 'ten_point'"):
        make_agent("neural:match_moon=true", "ten_point")


def test_the_network_alone_would_often_moon_from_zero_here():
    view, observation = bid_turn(HANDS, [0, 0], "bid 3")
    decision = NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1, match_moon=False).decide(view, observation)
    assert decision.scores is not None and decision.scores[MOON] > 0.3


@pytest.mark.parametrize("scores", [[0, 0], [0, 10], [-6, 3]])
def test_it_never_moons_from_a_score_of_zero_or_less(scores: list[int]):
    view, observation = bid_turn(HANDS, scores, "bid 3")  # seat 2, of team 0, to bid
    agent = NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1)
    decision = agent.decide(view, observation)
    assert decision.action != MOON
    assert MOON not in decision.scores
    assert sum(decision.scores.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("moon_model", ["network", "rule"])
def test_it_moons_when_the_match_odds_say_so_whatever_the_network_thinks(moon_model: str):
    view, observation = bid_turn(STRONG, [19, 1])  # seat 1's team (team 1) is far behind, with a hand that sweeps
    assert moon_wins_match(knowledge_from_view(view, RULES), RULES)
    for greedy in (True, False):
        agent = NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1, greedy=greedy, moon_model=moon_model)
        assert agent.act(view, observation) == MOON


def strong_hand_chance() -> float:
    return network_moon_chance(moon_features_of(knowledge_from_view(bid_turn(STRONG, [1, 1])[0], RULES).hand, RULES))


def test_the_network_call_moons_a_hand_above_its_threshold_from_ahead_too():
    """The rule bot's match odds never moon from far ahead; the network's call does when the hand is good enough
    (``moon_ahead``): in the network's own matches a side behind by a few points moons soon, so a lead is worth
    little."""
    chance = strong_hand_chance()
    assert NETWORK_MOON_AHEAD < chance < 0.99
    view, observation = bid_turn(STRONG, [1, 12])  # seat 1's team 1 is ahead, 12 to 1
    assert not moon_wins_match(knowledge_from_view(view, RULES), RULES)
    agent = NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1)
    assert agent.act(view, observation) == MOON
    assert NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1, moon_ahead=0.99).act(view) != MOON


def test_the_network_call_takes_its_lower_threshold_when_the_other_side_is_near_the_target():
    view, _ = bid_turn(MIDDLING, [10, 17], "bid 3")  # seat 2, team 0, at 10; team 1 four points from 21
    hand = knowledge_from_view(view, RULES).hand
    chance = network_moon_chance(moon_features_of(hand, RULES))
    assert NETWORK_MOON_DANGER < chance < NETWORK_MOON_THRESHOLD
    assert make_agent("neural", "minnesota").act(view) == MOON
    assert make_agent(f"neural:moon_danger={chance + 0.01:.4f}", "minnesota").act(view) != MOON
    calm, _ = bid_turn(MIDDLING, [10, 16], "bid 3")  # five points from it: the usual threshold, no moon
    assert make_agent("neural", "minnesota").act(calm) != MOON


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("neural:moon_model=hope", "moon_model 'hope' is not one of network, rule"),
        ("neural:moon_threshold=1.5", "moon_threshold 1.5 is not a chance from 0 to 1"),
        ("neural:moon_danger=-0.1", r"moon_danger -0.1 is not a chance from 0 to 1"),
        ("neural:match_moon=false,moon_model=rule", "expected match_moon on"),
        ("neural:moon_model=rule,moon_threshold=0.5", "moon_threshold is the network moon call's: expected moon"),
        ("neural:moon_ahead=yes", "moon_ahead 'yes' is not a chance from 0 to 1"),
    ],
)
def test_a_moon_call_option_out_of_range_is_refused_naming_it(spec: str, message: str):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "minnesota")


def test_otherwise_it_plays_the_network_with_the_moon_taken_out():
    view, observation = bid_turn(HANDS, [0, 0], "bid 3")
    on = NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1)
    off = NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1, match_moon=False)
    masked = dict(
        observation,
        action_mask=np.where(np.arange(len(observation["action_mask"])) == MOON, 0, observation["action_mask"]).astype(
            np.int8
        ),
    )
    view_masked = dict(view, legal_actions=[a for a in view["legal_actions"] if a != MOON])
    assert on.decide(view, observation) == off.decide(view_masked, masked)
    assert on.act(view) == on.act(view, observation)  # from the view alone, the same move


def test_a_checkpoint_path_takes_it_after_its_last_colon():
    path = str(shipped_policy_path("minnesota"))
    assert make_agent(path, "minnesota").match_moon is True
    assert make_agent(f"{path}:match_moon=false", "minnesota").match_moon is False
    sampled = make_agent(f"sample:{path}:match_moon=false", "minnesota")
    assert sampled.match_moon is False and sampled.greedy is False
    assert make_agent(f"{path}:moon_model=rule", "minnesota").moon_model == "rule"
    with pytest.raises(ValueError, match="unknown option 'greedy': expected one of match_moon"):
        make_agent(f"{path}:greedy=false", "minnesota")
    with pytest.raises(ValueError, match=r"checkpoint 'nowhere\.npz' does not exist"):
        make_agent("nowhere.npz:match_moon=false", "minnesota")
    ten_point = str(shipped_policy_path("ten_point"))
    with pytest.raises(ValueError, match="match_moon is fitted for minnesota only, not 'ten_point'"):
        make_agent(f"{ten_point}:match_moon=true", "ten_point")


def test_an_evaluation_records_the_moon_calls_beside_the_network():
    """The same network with each moon call plays another game: the JSON's weights entry tells them apart."""
    on, off = make_agent("neural", "minnesota"), make_agent("neural:match_moon=false", "minnesota")
    assert weights_of(on) == weights_of(off) + " match_moon=network" and weights_of(off).endswith(" greedy")
    assert weights_of(make_agent("neural:moon_model=rule", "minnesota")) == weights_of(off) + " match_moon"
    tuned = make_agent("neural:moon_threshold=0.6", "minnesota")
    assert (
        weights_of(tuned) == weights_of(off) + f" match_moon=network:0.6,{NETWORK_MOON_AHEAD:g},{NETWORK_MOON_DANGER:g}"
    )
    assert not weights_of(make_agent("neural", "ten_point")).endswith("match_moon")


#: minnesota without its jick: a trump suit of 13 cards where the network call weighs each of 14
NO_JICK = get_rules("minnesota", jick=False)


def test_a_table_whose_trumps_the_network_call_cannot_weigh_gets_the_rule_bots_call():
    """The neural agent on minnesota without the jick crashed at its first moon call (the fit's weights and the
    hand's trumps did not line up) in every entry point: a whole match is played now, the moons called by the
    rule bot's match odds, which read any hand."""
    agent = make_agent("neural", NO_JICK, 3)
    assert (agent.match_moon, agent.moon_model) == (True, "rule")
    assert make_agent("neural", "minnesota").moon_model == "network"
    game = Game(NO_JICK, seed=5)
    while not game.is_over:
        game.apply(agent.act(player_view(game, game.current_player)))


def test_the_network_call_asked_for_where_it_cannot_weigh_the_trumps_is_refused_saying_why():
    with pytest.raises(ValueError, match="weighs each of minnesota's 14 trumps .* these rules have 13: expected"):
        make_agent("neural:moon_model=network", NO_JICK, 3)
    with pytest.raises(ValueError, match="weighs each of minnesota's 14 trumps"):
        make_agent("neural:moon_threshold=0.5", NO_JICK, 3)
