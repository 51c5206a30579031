"""Bad input gets a clear ValueError naming what was wrong and what was expected, and changes nothing.

Each env case snapshots everything a caller can see (the engine's record and RNG, the
env's RNG, every agent's observation, the AEC bookkeeping) before the bad call and
compares it after. Engine, record, notation and bot cases check the message.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import smear_env
from agents.registry import agent_names, agent_options, make_agent
from agents.rule_bot import RuleAgent
from agents.search_bot import SearchAgent
from smear_env import actions as A
from smear_env.game import Deal, Game
from smear_env.rules import Rules, get_rules, rules_from_dict
from smear_env.schneider import Deal as SchneiderDeal
from smear_env.schneider import Game as SchneiderGame
from smear_env.schneider import SchneiderRules
from smear_env.schneider import format_action as schneider_format_action

SCHNEIDER = "bohemian_schneider"


# ---------------------------------------------------------------------- the snapshot
def snapshot(env: Any) -> dict[str, Any]:
    """Everything a refused call must leave as it was (observations as lists, so == compares them)."""
    raw = env.unwrapped
    game = raw.game
    observations = {a: {k: v.tolist() for k, v in raw.observe(a).items()} for a in raw.possible_agents}
    return {
        "game": id(game),
        "record": game.record(),
        "engine_rng": game._rng.getstate(),
        "phase": game.phase,
        "current_player": game.current_player,
        "np_random": copy.deepcopy(raw.np_random.bit_generator.state),
        "observations": observations,
        "agents": list(raw.agents),
        "agent_selection": raw.agent_selection,
        "rewards": dict(raw.rewards),
        "cumulative_rewards": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": copy.deepcopy(raw.infos),
    }


def env_mid_game(preset: str, seed: int = 3, moves: int = 5, **kwargs: Any) -> Any:
    """An env a few moves into a game, so a refused call has real state to leave alone."""
    env = smear_env.env(preset=preset, **kwargs)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        env.step(rng.choice(env.unwrapped.game.legal_actions()))
    return env


def assert_refused_unchanged(env: Any, call: Callable[[], Any], message: str) -> None:
    before = snapshot(env)
    with pytest.raises(ValueError, match=message):
        call()
    assert snapshot(env) == before


def good_deal(preset: str, seed: int = 1) -> dict[str, Any]:
    """A deal that fits ``preset``, in dict form (the first deal of a seeded game)."""
    if preset == SCHNEIDER:
        return SchneiderGame(seed=seed).deals[0].to_dict()
    return Game(preset, seed=seed).deals[0].to_dict()


def with_hand(deal: dict[str, Any], seat: int, hand: Any) -> dict[str, Any]:
    changed = copy.deepcopy(deal)
    changed["hands"][seat] = hand
    return changed


# ---------------------------------------------------------------------- reset
TEN = good_deal("ten_point")
SHORT_HAND = with_hand(TEN, 2, " ".join(TEN["hands"][2].split()[:-1]))  # nine cards where ten are dealt
BAD_RESETS = [
    ({"deals": [TEN, SHORT_HAND]}, r"deal 2 of 2 has hands of sizes \[10, 10, 9, 10\]: expected 4 hands of 10"),
    ({"deal": TEN, "deals": [TEN, TEN, SHORT_HAND]}, r"deal 4 of 4 has hands of sizes"),
    ({"deal": with_hand(TEN, 1, "AS XX")}, r"deal hand 1: 'XX' is not a card: expected rank"),
    ({"deal": with_hand(TEN, 1, 7)}, r"deal hand 1: 7 is not a list of cards"),
    ({"deal": with_hand(TEN, 1, ["AS", 5])}, r"deal hand 1: 5 is not a card name"),
    ({"deal": {"kitty": "", "stock": ""}}, r"deal has no 'hands': expected a dict with 'hands'"),
    ({"deal": {**TEN, "kity": ""}}, r"deal has unknown key 'kity'"),
    ({"deal": {**TEN, "hands": "AS KS"}}, r"deal hands 'AS KS' is not a list: expected one card list per seat"),
    ({"deal": "AS KS QS"}, r"deal 'AS KS QS' is not a dict"),
    ({"deals": TEN}, r"reset option deals .* is not a list: expected a list of deals"),
    ({"deal": with_hand(TEN, 3, TEN["hands"][0])}, r"deal places .* twice: expected each card once"),
    ({"deal": Deal([[0] * 10] * 4)}, r"deal places 2C twice"),
    ({"deal": Deal([["AS"] * 10] * 4)}, r"deal: hand 0 holds 'AS': expected card ids"),
    ({"deal": Deal("AS KS")}, r"deal: hands 'AS KS' is not a list"),
    ({"dealer": 1.5}, r"reset option dealer 1.5 is not an integer: expected an integer in 0..3"),
    ({"dealer": "2"}, r"reset option dealer '2' is not an integer"),
    ({"dealer": True}, r"reset option dealer True is a bool, not an integer"),
    ({"dealer": 4}, r"reset option dealer 4 is out of range: expected an integer in 0..3"),
    ({"dealer": -1}, r"reset option dealer -1 is out of range"),
    ({"dael": 1}, r"unknown reset option 'dael' \(did you mean 'deal'\?\): expected one of 'deal', 'deals', 'dealer'"),
    ({"Deal": TEN}, r"unknown reset option 'Deal'"),
]


@pytest.mark.parametrize(("options", "message"), BAD_RESETS)
def test_a_bad_reset_option_is_refused_and_changes_nothing(options: dict[str, Any], message: str) -> None:
    env = env_mid_game("ten_point")
    assert_refused_unchanged(env, lambda: env.reset(options=options), message)
    assert_refused_unchanged(env, lambda: env.reset(seed=9, options=options), message)


def test_a_deal_not_in_the_deck_is_refused() -> None:
    env = env_mid_game("four_point")  # A..7: no 2 of clubs
    deal = good_deal("four_point")
    deal["hands"][0] = deal["hands"][0].replace(deal["hands"][0].split()[0], "2C")
    assert_refused_unchanged(env, lambda: env.reset(options={"deal": deal}), r"holds 2C, not in this 32-card deck")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("deal", r"reset options 'deal' are not a dict: expected keys among deal, deals, dealer, scores"),
        ([("dealer", 1)], r"reset options .* are not a dict"),
    ],
)
def test_reset_options_must_be_a_dict(options: Any, message: str) -> None:
    env = env_mid_game("ten_point")
    assert_refused_unchanged(env, lambda: env.reset(options=options), message)


@pytest.mark.parametrize(("seed", "message"), [(1.5, "seed 1.5 is not an integer"), ("3", "seed '3' is not"),
                                               (-1, "seed -1 is out of range: expected an integer >= 0"),
                                               (True, "seed True is a bool")])  # fmt: skip
def test_a_bad_seed_is_refused_and_changes_nothing(seed: Any, message: str) -> None:
    env = env_mid_game("minnesota")
    assert_refused_unchanged(env, lambda: env.reset(seed=seed), message)


def test_a_later_bad_deal_fails_at_reset_not_after_the_first_hand() -> None:
    """Issue 16: before, hand 1 was played and scored and the env then stuck with an empty mask."""
    env = smear_env.env(preset="ten_point")
    with pytest.raises(ValueError, match="deal 2 of 2"):
        env.reset(seed=1, options={"deals": [TEN, SHORT_HAND]})
    assert env.unwrapped.game is None and env.agents == []  # never started: still waiting for a good reset
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(0)


def test_numpy_integers_are_seeds_dealers_and_actions() -> None:
    env = smear_env.env(preset="ten_point")
    env.reset(seed=np.int64(4), options={"dealer": np.int32(2)})
    assert env.unwrapped.game.dealer == 2 and type(env.unwrapped.game.first_dealer) is int
    env.step(np.int64(A.PASS))
    assert env.unwrapped.game.history == [A.PASS]
    json.dumps(env.unwrapped.record())  # plain ints throughout


def test_the_env_rng_moves_on_only_after_a_good_reset() -> None:
    """A refused reset(seed=None) must not consume the env's RNG: the next good reset deals what it would have."""
    a, b = smear_env.env(preset="ten_point"), smear_env.env(preset="ten_point")
    a.reset(seed=5)
    b.reset(seed=5)
    with pytest.raises(ValueError):
        a.reset(options={"deals": [TEN, SHORT_HAND]})
    a.reset()
    b.reset()
    assert a.unwrapped.record() == b.unwrapped.record()


SCHNEIDER_DEAL = good_deal(SCHNEIDER)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deals": [SCHNEIDER_DEAL, with_hand(SCHNEIDER_DEAL, 0, "7S 8S")]}, r"deal 2 of 2 has hands of sizes \[2, 6"),
        ({"deal": with_hand(SCHNEIDER_DEAL, 1, "7S 8S 9S TS JS 2S")}, r"deal must place each of the 32 cards"),
        ({"deal": {**SCHNEIDER_DEAL, "kitty": ""}}, r"deal has unknown key 'kitty': expected a dict .*'pile'"),
        ({"deal": {"pile": ""}}, r"deal has no 'hands'"),
        ({"deal": SchneiderDeal([[1.5] * 6] * 2)}, r"deal: hand 0 holds 1.5"),
        ({"dealer": 2}, r"reset option dealer 2 is out of range: expected an integer in 0..1"),
        ({"dealer": 0.0}, r"reset option dealer 0.0 is not an integer"),
        ({"scores": [3, 0]}, r"reset option scores \[3, 0\]: bohemian_schneider matches always start from 0-0"),
        ({"pile": ""}, r"unknown reset option 'pile'"),
    ],
)
def test_schneider_bad_reset_options_are_refused_and_change_nothing(options: dict[str, Any], message: str) -> None:
    env = smear_env.env(preset=SCHNEIDER)
    env.reset(seed=2)
    env.step(env.unwrapped.game.legal_actions()[0])
    assert_refused_unchanged(env, lambda: env.reset(options=options), message)


def test_pettingzoo_api_test_probe_option_is_accepted() -> None:
    """PettingZoo's api_test calls reset(options={"options": 1}); that one key is ignored, not refused."""
    env = smear_env.env(preset="ten_point")
    env.reset(seed=0, options={"options": 1})
    assert env.agents


# ---------------------------------------------------------------------- step
@pytest.mark.parametrize("preset", ["ten_point", SCHNEIDER])
@pytest.mark.parametrize("action", [False, True, 1.0, 0.0, "3", None, np.float64(2), np.bool_(True), [0]])
def test_an_action_that_is_not_an_int_is_refused_and_changes_nothing(preset: str, action: Any) -> None:
    env = env_mid_game(preset, moves=3)
    assert_refused_unchanged(env, lambda: env.step(action), r"is not an action id: expected an int in 0\.\.")


def test_a_non_int_action_is_penalized_not_played_in_penalize_mode() -> None:
    """step(False) used to play 'pass': now it is an illegal action like any other."""
    env = smear_env.env(preset="ten_point", illegal_action="penalize")
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(False)
    assert env.unwrapped.game.history == []  # nothing was played
    assert env.unwrapped._cumulative_rewards[offender] == -1.0 and env.infos[offender]["illegal_move"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"illegal_penalty": "x"}, r"illegal_penalty 'x' is not a number: expected a finite number"),
        ({"illegal_penalty": True}, r"illegal_penalty True is not a number"),
        ({"illegal_penalty": math.nan}, r"illegal_penalty nan is not finite"),
        ({"illegal_penalty": -math.inf}, r"illegal_penalty -inf is not finite"),
        ({"illegal_action": "ignore"}, r"illegal_action 'ignore' is not supported: expected one of 'raise'"),
        ({"illegal_action": True}, r"illegal_action True is not supported"),
        ({"reward": "points"}, r"reward 'points' is not supported: expected one of 'match'"),
        ({"render_mode": "rgb_array"}, r"render_mode 'rgb_array' is not supported"),
    ],
)
@pytest.mark.parametrize("preset", ["ten_point", SCHNEIDER])
def test_bad_env_arguments_fail_at_construction(preset: str, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        smear_env.env(preset=preset, **kwargs)


def test_an_integer_penalty_is_a_real_number() -> None:
    env = smear_env.env(preset="ten_point", illegal_action="penalize", illegal_penalty=-3)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(A.parse_action("play AS"))
    assert env.unwrapped._cumulative_rewards[offender] == -3.0


# ---------------------------------------------------------------------- rules and presets of an env
def test_the_schneider_env_refuses_smear_rules_at_construction() -> None:
    with pytest.raises(ValueError, match="are not Bohemian Schneider rules: expected a SchneiderRules"):
        smear_env.env(preset=SCHNEIDER, rules=get_rules("ten_point"))
    with pytest.raises(ValueError, match="are not Bohemian Schneider rules"):
        SchneiderGame(get_rules("ten_point"))  # type: ignore[arg-type]


def test_the_smear_env_refuses_rules_that_are_not_smear_rules() -> None:
    with pytest.raises(ValueError, match="are not Smear rules: expected a smear_env.Rules"):
        smear_env.env(preset="ten_point", rules=SchneiderRules())
    with pytest.raises(ValueError, match="are not Smear rules"):
        smear_env.raw_env(rules="minnesota")


def test_rules_and_a_different_preset_are_refused_the_same_preset_is_fine() -> None:
    house = get_rules("minnesota", target_score=21)
    with pytest.raises(ValueError, match="preset 'ten_point' and rules of preset 'minnesota' disagree"):
        smear_env.env(preset="ten_point", rules=house)
    assert smear_env.env(preset="minnesota", rules=house).unwrapped.rules == house
    assert smear_env.env(rules=house).unwrapped.rules == house  # the rules name their own preset
    assert smear_env.env(rules=house, target_score=11).unwrapped.rules.target_score == 11
    assert smear_env.env(rules=SchneiderRules(num_rounds=4)).unwrapped.rules.num_rounds == 4
    with pytest.raises(ValueError, match="preset 5 is not a name"):
        smear_env.env(preset=5)


# ---------------------------------------------------------------------- calls out of order
@pytest.mark.parametrize("preset", ["ten_point", SCHNEIDER])
def test_agent_iter_before_reset_fails_clearly(preset: str) -> None:
    with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
        smear_env.env(preset=preset).agent_iter()


@pytest.mark.parametrize("preset", ["ten_point", SCHNEIDER])
def test_step_and_last_after_the_last_dead_step_fail_clearly(preset: str) -> None:
    env = smear_env.env(preset=preset, reward="round" if preset == SCHNEIDER else "hand")
    env.reset(seed=3)
    rng = random.Random(3)
    for _agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else rng.choice(env.unwrapped.game.legal_actions()))
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match=r"the episode is over: .* call reset\(\) to start another"):
            call()
    assert list(env.agent_iter()) == []  # iterating a finished episode yields nothing, as in PettingZoo


@pytest.mark.parametrize("preset", ["ten_point", SCHNEIDER])
def test_unknown_agents_are_named(preset: str) -> None:
    env = env_mid_game(preset, moves=1)
    for agent in ("player_9", 0, ["player_0"]):
        with pytest.raises(ValueError, match=r"unknown agent .*: expected one of player_0, player_1"):
            env.observe(agent)
        with pytest.raises(ValueError, match=r"unknown agent"):
            env.unwrapped.view(agent)


# ---------------------------------------------------------------------- notation
@pytest.mark.parametrize("fmt", [A.format_action, schneider_format_action])
@pytest.mark.parametrize(
    ("action", "message"),
    [
        (1.5, r"action 1.5 is not an integer"),
        (True, r"action True is a bool, not an integer"),
        ("3", r"action '3' is not an integer"),
        (None, r"action None is not an integer"),
        (-1, r"action -1 is out of range: expected an integer in 0\.\."),
        (999, r"action 999 is out of range"),
    ],
)
def test_format_action_refuses_anything_but_an_action_id(fmt: Callable[[Any], str], action: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fmt(action)


def test_format_action_takes_numpy_integers_and_parse_action_refuses_non_text() -> None:
    assert A.format_action(np.int64(5)) == "bid 5" and schneider_format_action(np.int16(45)) == "play 8S"
    for parse in (A.parse_action, smear_env.schneider.parse_action):
        with pytest.raises(ValueError, match="is not text"):
            parse(5)
    with pytest.raises(ValueError, match="not a move"):
        A.parse_action("bid ²")
    with pytest.raises(ValueError, match="is not a card name"):
        smear_env.parse_card(5)


# ---------------------------------------------------------------------- the engine
def test_the_engine_checks_every_deal_at_construction() -> None:
    good = Deal.from_dict(TEN)
    with pytest.raises(ValueError, match="deal 3 of 3 has hands of sizes"):
        Game("ten_point", deals=[good, good, Deal.from_dict(SHORT_HAND)])
    with pytest.raises(ValueError, match="deals .* is not a list: expected a list of Deal"):
        Game("ten_point", deals=good)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deal 2 of 2 is a dict: expected a Deal"):
        Game("ten_point", deals=[good, TEN])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"deal 2 of 2 has hands of sizes \[0, 0\]: expected 2 hands of 6"):
        SchneiderGame(deals=[SchneiderDeal.from_dict(SCHNEIDER_DEAL), SchneiderDeal([[], []])])
    for dealer in (1.5, "1", True):
        with pytest.raises(ValueError, match="dealer"):
            Game("ten_point", dealer=dealer)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="dealer"):
            SchneiderGame(dealer=dealer)  # type: ignore[arg-type]


def test_a_given_deal_is_copied_so_changing_it_later_changes_no_game() -> None:
    deal = Deal.from_dict(TEN)
    game = Game("ten_point", deals=[deal])
    record = game.record()
    deal.hands[0][0] = deal.hands[1][0]
    assert game.record() == record


# ---------------------------------------------------------------------- records
def finished_record(preset: str) -> dict[str, Any]:
    if preset == SCHNEIDER:
        game: Any = SchneiderGame(seed=4, single_round=True)
    else:
        game = Game(preset, seed=4, single_hand=True)
    rng = random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return json.loads(json.dumps(game.record()))


def test_smear_env_replay_rebuilds_both_games() -> None:
    for preset, kind in (("minnesota", Game), (SCHNEIDER, SchneiderGame)):
        record = finished_record(preset)
        game = smear_env.replay(record)
        assert isinstance(game, kind) and json.loads(json.dumps(game.record())) == record


def changed(record: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    if value is KeyError:
        del out[key]
    else:
        out[key] = value
    return out


SMEAR_RECORD = finished_record("ten_point")
BAD_RECORDS = [
    ([SMEAR_RECORD], r"record is a list, not a dict"),
    ("{}", r"record is a str, not a dict"),
    (changed(SMEAR_RECORD, "moves", KeyError), r"record has no 'moves': expected the fields game, engine_version"),
    (changed(SMEAR_RECORD, "rules", KeyError), r"record has no 'rules'"),
    (changed(SMEAR_RECORD, "engine_version", 0), r"record is from engine version 0, this is 1"),
    (changed(SMEAR_RECORD, "rules", ["ten_point"]), r"record rules is \['ten_point'\]: expected a dict of rule"),
    (changed(SMEAR_RECORD, "rules", {"targt_score": 3}), r"record rules: unknown rule option 'targt_score'"),
    (changed(SMEAR_RECORD, "single_hand", "yes"), r"record single_hand is 'yes': expected true or false"),
    (changed(SMEAR_RECORD, "seed", "x"), r"record seed is 'x': expected an integer or null"),
    (changed(SMEAR_RECORD, "first_dealer", 1.5), r"record first_dealer 1.5 is not an integer"),
    (changed(SMEAR_RECORD, "first_dealer", 7), r"dealer 7 is out of range: expected an integer in 0..3"),
    (changed(SMEAR_RECORD, "deals", "AS KS"), r"record deals is 'AS KS': expected a list of deals"),
    (changed(SMEAR_RECORD, "deals", [{"hands": 3}]), r"record deal 1 of 1: deal hands 3 is not a list"),
    (changed(SMEAR_RECORD, "moves", "pass"), r"record moves is 'pass': expected a list of move labels"),
    (changed(SMEAR_RECORD, "moves", [0, 4]), r"record moves is \[0, 4\]: expected a list of move labels"),
    (changed(SMEAR_RECORD, "moves", ["pass", "fold"]), r"record move 2 of 2 \('fold'\): 'fold' is not a move"),
    (changed(SMEAR_RECORD, "moves", [*SMEAR_RECORD["moves"], "pass"]), r"record move \d+ of \d+ \('pass'\): .*over"),
]


@pytest.mark.parametrize(("record", "message"), BAD_RECORDS)
def test_a_bad_record_gets_a_clear_error(record: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        smear_env.replay(record)
    if isinstance(record, dict) and "game" in record:
        with pytest.raises(ValueError, match=message):
            smear_env.game.replay(record)


def test_an_illegal_move_in_a_record_is_named() -> None:
    record = copy.deepcopy(SMEAR_RECORD)
    legal = Game(rules_from_dict(record["rules"]), record["seed"], deals=[Deal.from_dict(record["deals"][0])])
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal.legal_actions())
    record["moves"][0] = A.format_action(illegal)
    move = A.format_action(illegal)
    with pytest.raises(ValueError, match=rf"record move 1 of \d+ \('{move}'\): action '{move}' \(\d+\) is illegal"):
        smear_env.replay(record)


def test_records_of_unknown_games_and_schneider_record_errors() -> None:
    with pytest.raises(ValueError, match=r"unknown record game 'chess': expected one of 'smear', 'bohemian_schneider'"):
        smear_env.replay(changed(SMEAR_RECORD, "game", "chess"))
    with pytest.raises(ValueError, match=r"record has no 'game'"):
        smear_env.replay(changed(SMEAR_RECORD, "game", KeyError))
    with pytest.raises(ValueError, match=r"record is for game 'smear', not 'bohemian_schneider'"):
        smear_env.schneider.replay(SMEAR_RECORD)
    record = finished_record(SCHNEIDER)
    with pytest.raises(ValueError, match=r"record has no 'single_round'"):
        smear_env.replay(changed(record, "single_round", KeyError))
    with pytest.raises(ValueError, match=r"record rules: .*num_rounds=3 is not allowed"):
        smear_env.replay(changed(record, "rules", {"num_rounds": 3}))
    with pytest.raises(ValueError, match=r"record rules is 5: expected a dict"):
        smear_env.replay(changed(record, "rules", 5))


# ---------------------------------------------------------------------- bots
#: per numeric option of a registered bot: values its constructor must refuse (beside the ones
#: every numeric option refuses: NaN, infinity, a bool and a string)
OUT_OF_RANGE = {
    "samples": [0, -3, 2.5],
    "time_budget": [0, -0.5],
    "bid_samples": [0, 1.5],
    "bid_risk": [-0.1, 1, 1.5],
    "outbid_risk": [-0.01, 1],
    "bid_margin": [],
    "go_out_margin": [],
    "block_margin": [],
}
NUMERIC_OPTIONS = sorted(
    (name, option)
    for name in agent_names("ten_point")
    for option, default in agent_options(name).items()
    if option in OUT_OF_RANGE or (isinstance(default, int | float) and not isinstance(default, bool))
)


def test_every_numeric_bot_option_has_its_range_checked_here() -> None:
    assert {option for _, option in NUMERIC_OPTIONS} <= set(OUT_OF_RANGE)
    assert ("search", "samples") in NUMERIC_OPTIONS and ("rule", "bid_margin") in NUMERIC_OPTIONS


@pytest.mark.parametrize(("name", "option"), NUMERIC_OPTIONS)
def test_bot_options_out_of_range_are_refused_naming_the_range(name: str, option: str) -> None:
    factory = {"rule": RuleAgent, "search": SearchAgent}.get(name)
    for value in [*OUT_OF_RANGE[option], math.nan, math.inf, -math.inf, True, "many"]:
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            spec = f"{name}:{option}={value}"
            with pytest.raises(ValueError, match=rf"agent '{spec}'.*{option}.*(expected|is not an integer)"):
                make_agent(spec, "ten_point", 0)
        if factory is not None:
            with pytest.raises(ValueError, match=rf"{option} .*(expected|not true)"):
                factory("ten_point", 0, **{option: value})
    whole = isinstance(agent_options(name)[option], int)
    for text in ("nan", "inf", "-inf"):
        message = rf"{option}='{text}' is not an integer" if whole else rf"{option} .* is not finite: expected a finite"
        with pytest.raises(ValueError, match=message):
            make_agent(f"{name}:{option}={text}", "ten_point", 0)


def test_bot_options_in_range_are_accepted() -> None:
    bot = make_agent("search:samples=1,time_budget=0.01,bid_samples=1,bid_risk=0,outbid_risk=0.99", "ten_point", 0)
    assert (bot.samples, bot.time_budget, bot.bid_samples, bot.bid_risk, bot.outbid_risk) == (1, 0.01, 1, 0.0, 0.99)
    assert make_agent("rule:bid_margin=-1.5", "ten_point", 0).bid_margin == -1.5


def test_make_agent_refuses_what_it_cannot_build() -> None:
    with pytest.raises(ValueError, match=r"agent 'rule': seed 1.5 is not an integer"):
        make_agent("rule", "ten_point", 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"agent 3 is not a name"):
        make_agent(3, "ten_point")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"agent 'rule': \[1\] is not a preset"):
        make_agent("rule", [1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"checkpoint 'runs/none/agent.pt' does not exist"):
        make_agent("runs/none/agent.pt", "ten_point")
    with pytest.raises(ValueError, match=r"match_moon 'yes' is not true or false"):
        RuleAgent("minnesota", 0, match_moon="yes")  # type: ignore[arg-type]
    assert make_agent("rule", SchneiderRules(), 1).name == "schneider_rules"  # Schneider rules pick its bots


# ---------------------------------------------------------------------- a value of the wrong type, anywhere (issue 60)
#: values of the wrong type for almost every parameter: each entry point below refuses every one of them
#: with a ValueError, but for those it lists as accepted (None where it means "the default")
WRONG_TYPES = [None, True, False, 1.5, math.nan, np.float64(2.0), "x", b"x", [1], (1,), {"a": 1}, object()]


def game_state(game: Any) -> dict[str, Any]:
    """What a refused call on a game must leave as it was: its record, RNG, turn and legal moves."""
    return {"record": game.record(), "rng": game._rng.getstate(), "turn": game.current_player,
            "legal": game.legal_mask()}  # fmt: skip


def single_agent_state(env: Any) -> dict[str, Any]:
    return {"rng": copy.deepcopy(env.np_random.bit_generator.state), "aec": snapshot(env.aec)}


SMEAR_GAME = Game("ten_point", seed=3)
SCHNEIDER_GAME = SchneiderGame(seed=3)
TEN_RULES = get_rules("ten_point")
EMPTY: frozenset[int] = frozenset()


def entry_points() -> dict[str, tuple[Callable[[Any], Any], Callable[[], Any] | None, tuple[Any, ...]]]:
    """Name -> (call with the value, the state it must leave alone or None, the wrong-type values it accepts)."""
    from smear_env.observation import IncrementalObserver, Observer, player_view
    from smear_env.schneider import Deal as SDeal
    from smear_env.single_agent import SingleAgentEnv
    from training.config import TrainConfig, config_from_dict, load_config

    game, sgame = SMEAR_GAME, SCHNEIDER_GAME
    aec, saec = env_mid_game("ten_point", moves=3), env_mid_game(SCHNEIDER, moves=2)
    single = SingleAgentEnv("ten_point", illegal_action="raise")
    single.reset(seed=2)
    rng = random.Random(0)
    hand = list(game.hand(1))
    on_game = (lambda: game_state(game), lambda: game_state(sgame))
    return {
        # the Smear engine
        "Game(rules=)": (lambda v: Game(v), None, ()),
        "Game(seed=)": (lambda v: Game("ten_point", seed=v), None, (None,)),
        "Game(dealer=)": (lambda v: Game("ten_point", dealer=v), None, ()),
        "Game(single_hand=)": (lambda v: Game("ten_point", single_hand=v), None, (True, False)),
        "Game(scores=)": (lambda v: Game("ten_point", scores=v), None, (None,)),
        "Game(hands_played=)": (lambda v: Game("ten_point", hands_played=v), None, ()),
        "Game(deals=)": (lambda v: Game("ten_point", deals=v), None, (None,)),
        "Game.apply": (game.apply, on_game[0], ()),
        "Game.apply_move": (game.apply_move, on_game[0], ()),
        "Game.hand": (game.hand, on_game[0], ()),
        "Rules(jick=)": (lambda v: Rules(jick=v), None, (True, False)),
        "Rules(target_score=)": (lambda v: Rules(target_score=v), None, ()),
        "Rules(by position)": (lambda v: Rules(v), None, ()),
        "Rules(misspelt=)": (lambda v: Rules(jik=v), None, ()),
        "Rules.replace": (lambda v: TEN_RULES.replace(num_players=v), None, ()),
        "get_rules": (get_rules, None, ()),
        "load_rules": (smear_env.load_rules, None, ()),
        "rules_from_dict": (rules_from_dict, None, ()),
        "replay": (smear_env.replay, None, ()),
        "Deal.parse": (Deal.parse, None, ()),
        "Deal.from_dict": (Deal.from_dict, None, ()),
        "Deal.around(rules)": (lambda v: Deal.around(v, hand, 1, rng), None, ()),
        "Deal.around(hand)": (lambda v: Deal.around(TEN_RULES, v, 1, rng), None, ([1], (1,))),
        "Deal.around(seat)": (lambda v: Deal.around(TEN_RULES, hand, v, rng), None, ()),
        "Deal.around(rng)": (lambda v: Deal.around(TEN_RULES, hand, 1, v), None, ()),
        "parse_card": (smear_env.parse_card, None, ()),
        "parse_cards": (smear_env.parse_cards, None, ()),
        "format_card": (smear_env.format_card, None, ()),
        "format_cards": (smear_env.format_cards, None, ([1], (1,))),
        "format_action": (A.format_action, None, ()),
        "parse_action": (A.parse_action, None, ()),
        "player_view(seat)": (lambda v: player_view(game, v), None, ()),
        "player_view(game)": (lambda v: player_view(v, 0), None, ()),
        "Observer": (Observer, None, ()),
        "Observer.vector": (lambda v: Observer(4).vector(game, v), None, ()),
        "IncrementalObserver.vector": (lambda v: IncrementalObserver(4).vector(game, v), None, ()),
        # Bohemian Schneider
        "SchneiderGame(rules=)": (lambda v: SchneiderGame(v), None, (None,)),
        "SchneiderGame(seed=)": (lambda v: SchneiderGame(seed=v), None, (None,)),
        "SchneiderGame(dealer=)": (lambda v: SchneiderGame(dealer=v), None, ()),
        "SchneiderGame(single_round=)": (lambda v: SchneiderGame(single_round=v), None, (True, False)),
        "SchneiderGame(deals=)": (lambda v: SchneiderGame(deals=v), None, (None,)),
        "SchneiderGame.apply": (sgame.apply, on_game[1], ()),
        "SchneiderRules(num_rounds=)": (lambda v: SchneiderRules(num_rounds=v), None, ()),
        "SchneiderRules(by position)": (lambda v: SchneiderRules(v), None, ()),
        "SchneiderRules(misspelt=)": (lambda v: SchneiderRules(nmu_rounds=v), None, ()),
        "SchneiderDeal.parse": (SDeal.parse, None, ()),
        "SchneiderDeal.from_dict": (SDeal.from_dict, None, ()),
        # the environments
        "env(preset=)": (lambda v: smear_env.env(preset=v), None, (None,)),
        "env(rules=)": (lambda v: smear_env.env(rules=v), None, (None,)),
        "env(max_hands=)": (lambda v: smear_env.env(max_hands=v), None, (None,)),
        "env.reset(seed=)": (lambda v: aec.reset(seed=v, options={"dealer": 0}), lambda: snapshot(aec), (None,)),
        "env.reset(options=)": (lambda v: aec.reset(seed=1, options=v), lambda: snapshot(aec), (None,)),
        "env.step": (aec.step, lambda: snapshot(aec), ()),
        "env.observe": (aec.observe, lambda: snapshot(aec), ()),
        "schneider env.step": (saec.step, lambda: snapshot(saec), ()),
        "SingleAgentEnv(seat=)": (lambda v: SingleAgentEnv("ten_point", seat=v), None, ()),
        "SingleAgentEnv(illegal_penalty=)": (
            lambda v: SingleAgentEnv("ten_point", illegal_penalty=v),
            None,
            (None, 1.5, np.float64(2.0)),
        ),
        "SingleAgentEnv(illegal_action=)": (lambda v: SingleAgentEnv("ten_point", illegal_action=v), None, ()),
        "SingleAgentEnv.reset(seed=)": (
            lambda v: single.reset(seed=v, options={"dealer": 0}),
            lambda: single_agent_state(single),
            (None,),
        ),  # fmt: skip
        "SingleAgentEnv.reset(options=)": (
            lambda v: single.reset(options=v),
            lambda: single_agent_state(single),
            (None,),
        ),  # fmt: skip
        "SingleAgentEnv.step": (single.step, lambda: single_agent_state(single), ()),
        # training configs
        "TrainConfig(lr=)": (lambda v: TrainConfig(lr=v), None, (1.5, np.float64(2.0))),
        "TrainConfig(seed=)": (lambda v: TrainConfig(seed=v), None, ()),
        "TrainConfig(by position)": (lambda v: TrainConfig(v), None, ()),
        "TrainConfig(misspelt=)": (lambda v: TrainConfig(sed=v), None, ()),
        "config_from_dict": (config_from_dict, None, ()),
        "load_config": (load_config, None, ()),
        "load_config(overrides=)": (lambda v: load_config("ten_point", v), None, (None,)),
    }


ENTRY_POINTS = entry_points()


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_a_value_of_the_wrong_type_is_refused_with_a_value_error_and_changes_nothing(name: str) -> None:
    """Every public entry point of the engines, the envs and the training config, with every value of
    :data:`WRONG_TYPES` it does not accept: a ValueError (never a TypeError, AttributeError or a silent
    acceptance), its message at least a sentence, and the object it was called on as it was."""
    call, state, accepted = ENTRY_POINTS[name]
    wrong = []
    for value in WRONG_TYPES:
        if any(type(value) is type(ok) and value == ok for ok in accepted):
            continue
        before = state() if state else None
        try:
            call(value)
            wrong.append(f"{value!r}: accepted")
        except ValueError as err:
            if len(str(err)) < 20 or "\n" in str(err):
                wrong.append(f"{value!r}: the message {str(err)!r}")
        except Exception as err:  # noqa: BLE001  what this test is for: anything but a ValueError
            wrong.append(f"{value!r}: {type(err).__name__}: {err}")
        if state and state() != before:
            wrong.append(f"{value!r}: the state changed")
    assert not wrong, wrong


def test_the_examples_of_issue_60_each_say_what_was_wrong_and_what_was_expected(tmp_path: Path) -> None:
    from training.config import load_config

    examples = [
        (lambda: Game(None), r"rules None are not Smear rules: expected a preset name .* or a smear_env.Rules"),
        (lambda: Game(rules=5), r"rules 5 are not Smear rules: expected"),
        (lambda: Game("ten_point", seed=[3]), r"seed \[3\] is not an integer: expected an integer"),
        (lambda: SMEAR_GAME.apply(False), r"action False \(a bool, not an action id: action ids are ints 0\.\.\d+\)"),
        (lambda: smear_env.format_card(52.0), r"card id 52.0 is not an integer: expected an integer in 0\.\.53"),
        (lambda: Rules(target_scor=21), r"unknown rule option 'target_scor'; did you mean 'target_score'\?"),
        (lambda: Rules("ten_point"), r"Rules takes its options by name, not \('ten_point',\) by position: .*get_rules"),
    ]
    (tmp_path / "empty.toml").write_text("")
    examples.append((lambda: load_config(tmp_path / "empty.toml"), r"'.*empty.toml' names no preset: expected preset"))
    for call, message in examples:
        before = game_state(SMEAR_GAME)
        with pytest.raises(ValueError, match=message):
            call()
        assert game_state(SMEAR_GAME) == before


def test_values_of_the_right_type_still_pass_numpy_integers_included() -> None:
    game = Game("ten_point", seed=np.int64(5), single_hand=True)
    assert game.record()["seed"] == 5 and type(game.record()["seed"]) is int
    assert smear_env.format_card(np.int16(52)) == "JK"
    from smear_env.observation import player_view

    assert player_view(game, np.int64(1))["seat"] == 1
