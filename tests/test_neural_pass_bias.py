"""The neural agent's ``pass_bias``: a number added to the pass logit wherever passing is legal.

A positive bias makes the agent bid only the hands it prefers to passing by that margin, and leaves
every other decision (trump, discards, card play) as the network plays it. (Tried against search, it
did not help: docs/results.md, "Passing more against search"; the option is for a tighter bidder.)
"""

from __future__ import annotations

import dataclasses

import pytest

from agents.neural_agent import NeuralAgent, load_policy
from agents.registry import make_agent
from agents.shipped import shipped_policy_path
from smear_env.actions import PASS
from tests.test_neural_match_moon import HANDS, RULES, bid_turn
from training.evaluate.run import weights_of


def agent(pass_bias: float | None = None) -> NeuralAgent:
    return NeuralAgent(shipped_policy_path("minnesota"), RULES, seed=1, match_moon=False, pass_bias=pass_bias)


def test_a_larger_bias_passes_more_and_a_huge_one_always_passes():
    view, observation = bid_turn(HANDS, [0, 0], "bid 3")
    chances = [agent(bias).decide(view, observation).scores[PASS] for bias in (-2.0, 0.0, 2.0)]
    assert chances[0] < chances[1] < chances[2]
    assert agent(100.0).act(view, observation) == PASS
    assert agent(-100.0).act(view, observation) != PASS
    assert sum(agent(2.0).decide(view, observation).scores.values()) == pytest.approx(1.0)


def test_it_leaves_moves_where_passing_is_not_legal_alone():
    view, observation = bid_turn(HANDS, [0, 0], "bid 3")
    view = dict(view, legal_actions=[a for a in view["legal_actions"] if a != PASS])
    mask = observation["action_mask"].copy()
    mask[PASS] = 0
    observation = dict(observation, action_mask=mask)
    assert agent(100.0).decide(view, observation) == agent(0.0).decide(view, observation)


def test_the_default_is_the_files_and_an_option_overrides_it(tmp_path):
    policy = load_policy(shipped_policy_path("minnesota"))
    assert agent().pass_bias == 0.0
    biased = dataclasses.replace(policy, layout=policy.layout | {"pass_bias": 1.25})
    assert NeuralAgent(biased, RULES).pass_bias == 1.25
    assert NeuralAgent(biased, RULES, pass_bias=0).pass_bias == 0.0
    path = biased.save(tmp_path / "biased.npz")
    assert make_agent(str(path), "minnesota").pass_bias == 1.25
    assert make_agent(f"{path}:pass_bias=0.5", "minnesota").pass_bias == 0.5
    assert make_agent("neural:pass_bias=2", "minnesota").pass_bias == 2.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, "1"])
def test_a_bias_that_is_not_a_finite_number_is_refused(bad):
    with pytest.raises(ValueError, match="pass_bias .* is not a finite number"):
        agent(bad)


def test_a_file_whose_layout_holds_a_bad_bias_is_refused_naming_the_file():
    policy = load_policy(shipped_policy_path("minnesota"))
    broken = dataclasses.replace(policy, layout=policy.layout | {"pass_bias": "high"})
    with pytest.raises(ValueError, match="its layout's pass_bias 'high' is not a finite number"):
        NeuralAgent(broken, RULES)


def test_the_eval_record_names_it():
    fingerprint = load_policy(shipped_policy_path("minnesota")).fingerprint
    assert weights_of(agent(0.0)) == f"{fingerprint} greedy"
    assert weights_of(agent(1.5)) == f"{fingerprint} greedy pass_bias=1.5"
