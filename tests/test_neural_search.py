"""``neural_search``: the network ``neural`` plays (a specialist or the universal agent) bids, names trump, calls and
discards; search plays the cards."""

from __future__ import annotations

import pytest

from agents.guided import NeuralSearchAgent
from agents.knowledge import knowledge_from_view
from agents.neural_agent import NeuralAgent
from agents.registry import agent_options, make_agent
from agents.search_bot import SearchAgent
from agents.shipped import neural_policy_path
from smear_env.game import Game
from smear_env.observation import Observer, action_mask, player_view
from smear_env.rules import get_rules
from training.evaluate.run import weights_of


def quick(rules, seed: int) -> NeuralSearchAgent:
    return NeuralSearchAgent(neural_policy_path(rules), rules, seed, samples=3, time_budget=0.05)


@pytest.mark.parametrize("preset", ["ten_point", "four_point", "schmier"])
def test_each_decision_is_the_networks_or_searchs_as_search_would_play_it(preset: str) -> None:
    """Card play with a choice under a known trump is search's; every other move (four_point's first lead,
    which names trump, included) is the network's, made from the same view and seed."""
    rules = get_rules(preset)
    game = Game(rules, seed=3)
    observer = Observer(rules.num_players)
    seats = [quick(rules, 10 + s) for s in range(rules.num_players)]
    network = NeuralAgent(neural_policy_path(rules), rules, 0)  # greedy: its move is the view's alone
    by_search = by_network = trump_leads = 0
    while not game.is_over and game.hands_played < 2:
        seat = game.current_player
        view = player_view(game, seat)
        observation = {"observation": observer.vector(game, seat), "action_mask": action_mask(game.legal_mask())}
        agent = seats[seat]
        decision = agent.decide(view, observation)
        known = knowledge_from_view(view, rules)
        trump_leads += known.phase == "play" and known.trump < 0
        if SearchAgent._searches_play(known):
            by_search += 1
            assert decision.kind == "value"  # search's mean points per card, not a policy's probabilities
        else:
            by_network += 1
            assert decision == network.decide(view, observation)
        assert decision.action in game.legal_actions()
        game.apply(decision.action)
    assert by_search > 0 and by_network > 0
    assert trump_leads > 0 if preset == "four_point" else trump_leads == 0


def test_it_is_a_registry_name_with_searchs_budget_options() -> None:
    agent = make_agent("neural_search:samples=5,time_budget=0.1", "minnesota", 1)
    assert isinstance(agent, NeuralSearchAgent)
    assert (agent.search.samples, agent.search.time_budget) == (5, 0.1)
    assert agent.match_moon is True  # the network's moon calls, as the shipped agent makes them
    assert list(agent_options("neural_search")) == ["samples", "time_budget"]
    with pytest.raises(ValueError, match="samples"):
        make_agent("neural_search:samples=0", "minnesota", 1)


def test_its_evaluation_record_is_not_pooled_with_the_network_alone() -> None:
    network = make_agent("neural", "ten_point", 1)
    assert weights_of(make_agent("neural_search", "ten_point", 1)) == weights_of(network) + " neural_search"


def test_a_house_variant_is_searched_with_the_universal_network_and_more_seats_than_it_reads_are_refused() -> None:
    house = make_agent("neural_search", get_rules("ten_point", target_score=21), 1)
    assert isinstance(house, NeuralSearchAgent) and weights_of(house).startswith(
        weights_of(make_agent("neural", get_rules("ten_point", target_score=21), 1))
    )
    seven = get_rules("ten_point_midwest", num_players=7, hand_size=7, partnerships=False)
    with pytest.raises(ValueError, match="trained for other rules"):
        make_agent("neural_search", seven, 1)


def test_the_service_caps_its_search_as_it_caps_searchs() -> None:
    from smear_rl.server.bots import Bots
    from smear_rl.server.limits import Settings

    rules = get_rules("minnesota")
    bots = Bots(Settings(search_workers=0, search_time_cap=0.05, max_search_samples=4))
    info = bots.info("neural_search:samples=100,time_budget=5", rules)
    agent = bots.make(info, rules, seed=1)
    assert info.search and not info.pure
    assert isinstance(agent, NeuralSearchAgent) and (agent.search.samples, agent.search.time_budget) == (4, 0.05)
