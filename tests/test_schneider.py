"""Bohemian Schneider: scripted deals for every rule, env conformance, properties and bots."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pettingzoo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

import smear_env
from agents.random_agent import RandomAgent
from agents.schneider_bots import SchneiderRuleAgent, evaluate, play_match
from smear_env.cards import cards_of, format_cards, mask_of, parse_card, parse_cards
from smear_env.schneider.aec import env as schneider_env
from smear_env.schneider.aec import raw_env
from smear_env.schneider.game import (
    DECK,
    DECK_MASK,
    OVER,
    PILE_SIZE,
    TRICKS_PER_ROUND,
    Deal,
    Game,
    SchneiderRules,
    card_above,
    format_action,
    multiplier,
    parse_action,
    points_of,
    replay,
)
from smear_env.schneider.observation import OBSERVATION_SIZE, layout, observation_vector, player_view

PRESET = "bohemian_schneider"


# ---------------------------------------------------------------------- helpers
def deal(hand0: str, hand1: str, pile_top: str = "") -> Deal:
    """Hands as given; the pile is ``pile_top`` then every other card in id order."""
    used = parse_cards(f"{hand0} {hand1} {pile_top}")
    pile = parse_cards(pile_top) + [c for c in DECK if c not in used]
    return Deal([parse_cards(hand0), parse_cards(hand1)], pile)


def suit_cards(suits: str) -> str:
    return " ".join(r + s for s in suits for r in "789TJQKA")


def separated_deal(leader_cards: str, other_cards: str, leader: int) -> Deal:
    """16 cards per seat; the pile interleaves them (leader's first) so that while the
    leader wins every trick each seat only ever draws its own cards."""
    lead, other = parse_cards(leader_cards), parse_cards(other_cards)
    hands = [other[:6], other[:6]]
    hands[leader] = lead[:6]
    return Deal(hands, [c for pair in zip(lead[6:], other[6:]) for c in pair])


def new_game(*deals: Deal, dealer: int = 0, single_round: bool = False, num_rounds: int = 2) -> Game:
    rules = SchneiderRules(num_rounds=num_rounds)
    return Game(rules, seed=0, dealer=dealer, single_round=single_round, deals=list(deals))


def play(game: Game, moves: str) -> None:
    """Apply comma-separated cards in play order, e.g. ``"8S, 9S"``."""
    for move in moves.split(","):
        game.apply_move(f"play {move.strip()}")


def play_round(game: Game, policy: Callable[[Game], int]) -> None:
    """Play until the current round is scored."""
    rounds = game.rounds_played
    while game.rounds_played == rounds:
        game.apply(policy(game))


def lowest(game: Game) -> int:
    return game.legal_actions()[0]


def snapshot(game: Game) -> dict[str, Any]:
    """Every piece of game state, for equality checks."""
    return {
        "hands": list(game.hands),
        "pile": list(game.pile),
        "drawn": list(game.drawn),
        "played": list(game.played),
        "won": list(game.won),
        "trick": list(game.trick),
        "tricks": [(leader, list(plays), winner) for leader, plays, winner in game.tricks],
        "leader": game.leader,
        "current_player": game.current_player,
        "phase": game.phase,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "rounds_played": game.rounds_played,
        "round_results": list(game.round_results),
        "history": list(game.history),
        "rng": game._rng.getstate(),
    }


# ---------------------------------------------------------------------- the trick rule
FOLLOW_HAND0 = "9S TS 7S 9H 7H 8H"
LEAD_HAND1 = "8S 7D 8D 9D TD JD"


@pytest.mark.parametrize(
    ("follow", "winner"),
    [("9S", 0), ("TS", 1), ("7S", 1), ("9H", 1), ("7H", 1)],
    ids=["one-higher-wins", "two-higher-loses", "lower-loses", "same-rank-other-suit-loses", "off-suit-loses"],
)
def test_only_the_card_one_rank_higher_wins(follow: str, winner: int) -> None:
    game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1))
    play(game, f"8S, {follow}")
    assert game.tricks[-1][2] == winner
    assert game.won[winner] == mask_of(parse_cards(f"8S {follow}"))
    assert game.won[1 - winner] == 0
    assert game.current_player == game.leader == winner


@pytest.mark.parametrize("follow", ["KS", "7S", "QS", "7H"])
def test_nothing_beats_a_led_ace(follow: str) -> None:
    game = new_game(deal("KS 7S QS 7H 8H 9H", "AS 7D 8D 9D TD JD"))
    play(game, f"AS, {follow}")
    assert game.tricks[-1][2] == 1
    assert card_above(parse_card("AS")) == -1


def test_follower_need_not_follow_suit() -> None:
    game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1))
    play(game, "8S")
    assert game.legal_actions() == sorted(parse_cards(FOLLOW_HAND0))  # spades held, any card allowed
    play(game, "7H")
    assert game.tricks[-1][2] == 1


def test_non_dealer_leads_first_and_any_card_may_be_led() -> None:
    for dealer in (0, 1):
        game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1), dealer=dealer)
        assert game.current_player == game.leader == 1 - dealer
        assert game.legal_actions() == sorted(parse_cards([FOLLOW_HAND0, LEAD_HAND1][1 - dealer]))


# ---------------------------------------------------------------------- drawing
@pytest.mark.parametrize(("follow", "winner"), [("9S", 0), ("7H", 1)])
def test_winner_draws_first(follow: str, winner: int) -> None:
    game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1, pile_top="AC KC QC JC"))
    play(game, f"8S, {follow}")
    assert game.drawn[winner] == mask_of([parse_card("AC")])
    assert game.drawn[1 - winner] == mask_of([parse_card("KC")])
    assert game.hands[winner] >> parse_card("AC") & 1 and game.hands[1 - winner] >> parse_card("KC") & 1
    assert game.pile[:2] == parse_cards("QC JC")


def test_pile_runs_out_after_ten_tricks_and_all_32_cards_are_played() -> None:
    game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1), single_round=True)
    for trick in range(1, TRICKS_PER_ROUND + 1):
        game.apply(lowest(game))
        game.apply(lowest(game))
        assert len(game.pile) == max(0, PILE_SIZE - 2 * trick)
        if trick < TRICKS_PER_ROUND:
            sizes = [h.bit_count() for h in game.hands]
            assert sizes == [6, 6] if trick <= 10 else sizes == [16 - trick] * 2
    assert game.is_over and len(game.tricks) == TRICKS_PER_ROUND
    assert game.played[0] | game.played[1] == DECK_MASK
    assert game.won[0] | game.won[1] == DECK_MASK


# ---------------------------------------------------------------------- scoring
@pytest.mark.parametrize(("points", "factor"), [(0, 1), (10, 1), (15, 1), (16, 2), (19, 2), (20, 3)])
def test_multiplier(points: int, factor: int) -> None:
    assert multiplier(points) == factor


def test_all_twenty_points_are_tripled() -> None:
    # seat 1 leads with only spades and hearts; seat 0 holds only clubs and diamonds, so never wins
    game = new_game(separated_deal(suit_cards("SH"), suit_cards("CD"), leader=1), single_round=True)
    play_round(game, lowest)
    result = game.round_results[-1]
    assert result.points == (0, 20) and result.scores == (0, 60)
    assert game.round_rewards() == [-60.0, 60.0]


def _keep_ah_for_kh(game: Game) -> int:
    """Seat 1 leads KH last; seat 0 keeps AH to win exactly that trick."""
    legal = game.legal_actions()
    kh, ah = parse_card("KH"), parse_card("AH")
    if game.trick:
        if game.trick[0][1] == kh and ah in legal:
            return ah
        return next((c for c in legal if c != ah), legal[0])
    return next((c for c in legal if c != kh), legal[0])


def test_sixteen_or_more_points_are_doubled() -> None:
    leader_cards = suit_cards("SH").replace("AH", "AC")
    other_cards = suit_cards("CD").replace("AC", "AH")
    game = new_game(separated_deal(leader_cards, other_cards, leader=1), single_round=True)
    play_round(game, _keep_ah_for_kh)
    assert [w for _, _, w in game.tricks] == [1] * 15 + [0]
    result = game.round_results[-1]
    assert result.points == (2, 18) and result.scores == (2, 36)
    assert sum(result.points) == 20
    assert game.round_rewards() == [-34.0, 34.0]


# ---------------------------------------------------------------------- rounds and the match
def test_dealer_alternates_and_the_non_dealer_leads_each_round() -> None:
    game = Game(SchneiderRules(num_rounds=4), seed=3, dealer=1)
    dealers, leaders = [], []
    while not game.is_over:
        dealers.append(game.dealer)
        leaders.append(game.current_player)
        play_round(game, lowest)
    assert dealers == [1, 0, 1, 0] and leaders == [0, 1, 0, 1]
    assert [r.dealer for r in game.round_results] == dealers
    assert game.scores == [sum(r.scores[s] for r in game.round_results) for s in (0, 1)]


def test_equal_totals_are_a_draw() -> None:
    round1 = separated_deal(suit_cards("SH"), suit_cards("CD"), leader=1)  # dealer 0: seat 1 leads, takes 60
    round2 = separated_deal(suit_cards("SH"), suit_cards("CD"), leader=0)  # dealer 1: seat 0 leads, takes 60
    game = new_game(round1, round2)
    play_round(game, lowest)
    assert not game.is_over and game.scores == [0, 60] and game.dealer == 1
    play_round(game, lowest)
    assert game.is_over and game.scores == [60, 60]
    assert game.rewards() == [0.0, 0.0] and game.winners == frozenset({0, 1})


def test_higher_total_wins_and_the_match_ends() -> None:
    round1 = separated_deal(suit_cards("SH"), suit_cards("CD"), leader=1)
    round2 = separated_deal(suit_cards("SH").replace("AH", "AC"), suit_cards("CD").replace("AC", "AH"), leader=0)
    game = new_game(round1, round2)
    play_round(game, lowest)
    play_round(game, _keep_ah_for_kh)  # round 2: seat 0 leads and takes 18 (doubled), seat 1 wins KH with AH
    assert game.phase == OVER and game.current_player == -1
    assert game.scores == [36, 62]
    assert game.rewards() == [-1.0, 1.0] and game.winners == frozenset({1})
    assert game.legal_mask() == 0
    with pytest.raises(ValueError, match="match is over"):
        game.apply(parse_card("7C"))


# ---------------------------------------------------------------------- errors, options and actions
@pytest.mark.parametrize("action", [parse_card("7C"), 99, -1, "x", None, 2.5])
def test_illegal_action_raises_and_leaves_state_unchanged(action: Any) -> None:
    game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1))
    before = snapshot(game)
    with pytest.raises(ValueError, match="legal moves: play 7D, play 8D"):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize("num_rounds", [1, 3, 5, 0, -2, 2.0, True])
def test_odd_or_invalid_num_rounds_is_rejected(num_rounds: Any) -> None:
    with pytest.raises(ValueError, match="even"):
        SchneiderRules(num_rounds=num_rounds)
    with pytest.raises(ValueError, match="num_rounds"):
        raw_env(num_rounds=num_rounds)


def test_rule_options_and_presets() -> None:
    assert SchneiderRules().num_rounds == 2
    assert SchneiderRules().replace(num_rounds=6).num_rounds == 6
    with pytest.raises(ValueError, match="unknown .* option 'rounds'"):
        SchneiderRules().replace(rounds=4)
    with pytest.raises(ValueError, match="preset"):
        raw_env(preset="smear")


def test_bad_deals_are_rejected() -> None:
    with pytest.raises(ValueError, match="hands of sizes"):
        new_game(Deal.parse(["7S 8S", "9S TS"], pile=""))
    short = deal(FOLLOW_HAND0, LEAD_HAND1)
    short.pile = short.pile[:-1]
    with pytest.raises(ValueError, match="missing: AS"):
        new_game(short)
    with pytest.raises(ValueError, match="dealer"):
        Game(dealer=2)


def test_action_labels_round_trip() -> None:
    assert parse_action("play 8S") == parse_card("8S") == parse_action("8s")
    assert parse_action("play 10h") == parse_card("TH")
    for card in DECK:
        assert parse_action(format_action(card)) == card
    with pytest.raises(ValueError, match="not a move"):
        parse_action("bid 4")
    with pytest.raises(ValueError, match="out of range"):
        format_action(54)


# ---------------------------------------------------------------------- records, replay, clone
def test_record_is_json_and_replays_to_the_same_state() -> None:
    game = Game(seed=11)
    rng = random.Random(5)
    for _ in range(40):  # into the second round
        game.apply(rng.choice(game.legal_actions()))
    record = json.loads(json.dumps(game.record()))
    assert snapshot(replay(record)) == snapshot(game)
    with pytest.raises(ValueError, match="not 'bohemian_schneider'"):
        replay({**record, "game": "smear"})


def test_clone_is_independent() -> None:
    game = Game(seed=2)
    copy = game.clone()
    copy.apply(copy.legal_actions()[0])
    assert game.history == [] and len(copy.history) == 1
    game.apply(game.legal_actions()[0])
    assert snapshot(game) == snapshot(copy)


# ---------------------------------------------------------------------- properties
def check_invariants(game: Game) -> None:
    hands, played = game.hands[0] | game.hands[1], game.played[0] | game.played[1]
    pile = mask_of(game.pile)
    assert len(game.pile) == pile.bit_count()
    assert hands & played == 0 and hands & pile == 0 and played & pile == 0
    assert hands | played | pile == DECK_MASK  # all 32 cards accounted for
    on_table = mask_of(c for _, c in game.trick)
    assert game.won[0] & game.won[1] == 0 and game.won[0] | game.won[1] == played & ~on_table
    drawn = game.drawn[0] | game.drawn[1]
    assert game.drawn[0] & game.drawn[1] == 0 and drawn.bit_count() == PILE_SIZE - len(game.pile)
    if not game.is_over:
        mask = game.legal_mask()
        assert mask and mask & ~game.hands[game.current_player] == 0  # never empty for the player on turn
        leader_ahead = 0 if not game.trick else 1 if game.trick[0][0] == 1 else -1  # the leader has played
        assert game.hands[0].bit_count() - game.hands[1].bit_count() == leader_ahead


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 1), num_rounds=st.sampled_from([2, 4]))
def test_random_play_properties(seed: int, dealer: int, num_rounds: int) -> None:
    game = Game(SchneiderRules(num_rounds=num_rounds), seed=seed, dealer=dealer)
    rng = random.Random(seed)
    check_invariants(game)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        check_invariants(game)
    assert len(game.round_results) == num_rounds
    for result in game.round_results:
        assert sum(result.points) == 20
        assert result.scores == tuple(p * multiplier(p) for p in result.points)
    assert len(game.history) == 32 * num_rounds
    assert snapshot(replay(json.loads(json.dumps(game.record())))) == snapshot(game)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 63))
def test_replay_mid_match_and_observation_properties(seed: int, steps: int) -> None:
    game = Game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
    assert snapshot(replay(game.record())) == snapshot(game)
    for seat in (0, 1):
        vec = observation_vector(game, seat)
        assert vec.shape == (OBSERVATION_SIZE,) and vec.dtype == np.float32
        assert vec.min() >= 0.0 and vec.max() <= 1.0
        assert block(vec, "hand") == cards_of(game.hands[seat])
        hidden = game.hands[1 - seat] | mask_of(game.pile)
        shown = np.flatnonzero(vec[: 7 * 54]) % 54
        assert not any(hidden >> int(c) & 1 for c in shown)  # neither the opponent's hand nor the pile shows


# ---------------------------------------------------------------------- observation and view
def block(vec: np.ndarray, name: str) -> list[int]:
    start, size = next((s, n) for b, s, n in layout() if b == name)
    return np.flatnonzero(vec[start : start + size]).tolist()


def test_observation_shows_own_draws_only() -> None:
    game = new_game(deal(FOLLOW_HAND0, LEAD_HAND1, pile_top="AC KC"))
    play(game, "8S")
    follower = observation_vector(game, 0)
    assert block(follower, "trick") == [parse_card("8S")]
    assert block(follower, "played_opp") == [parse_card("8S")] and block(follower, "leader") == [1]
    play(game, "7H")  # seat 1 wins and draws AC, seat 0 draws KC
    v0, v1 = observation_vector(game, 0), observation_vector(game, 1)
    assert block(v1, "my_draws") == [parse_card("AC")] and block(v0, "my_draws") == [parse_card("KC")]
    assert parse_card("AC") not in np.flatnonzero(v0).tolist()  # seat 0 never sees seat 1's draw
    assert block(v1, "won_mine") == block(v0, "won_opp") == sorted(parse_cards("8S 7H"))
    assert block(v1, "trick") == [] and block(v1, "leader") == [0] and block(v0, "dealer") == [0]
    assert v0[next(s for b, s, _ in layout() if b == "pile_size")] == pytest.approx(18 / 20)
    view = player_view(game, 0)
    assert view["my_draws"] == ["KC"] and "AC" not in json.dumps(view)
    assert view["legal_actions"] == [] and player_view(game, 1)["legal_moves"][0].startswith("play ")
    assert OBSERVATION_SIZE == 389 == layout()[-1][1] + layout()[-1][2]


# ---------------------------------------------------------------------- the environment
def test_env_is_registered() -> None:
    assert PRESET in smear_env.list_presets()
    for made in (smear_env.env(preset=PRESET), pettingzoo.make("aec", f"smear/{PRESET}-v1")):
        made.reset(seed=0)
        assert made.unwrapped.metadata["name"] == "bohemian_schneider_v1"
        assert made.action_space("player_0").n == 54


def test_pettingzoo_api() -> None:
    api_test(schneider_env(), num_cycles=200)
    api_test(schneider_env(reward="round"), num_cycles=100)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: schneider_env(), num_cycles=100)


def test_pettingzoo_render() -> None:
    render_test(lambda render_mode=None: schneider_env(render_mode=render_mode))


def run_env(e: Any, choose: Callable[[Any, str, dict[str, np.ndarray]], int]) -> dict[str, float]:
    """Play an episode; returns each agent's episode return (read as it terminates)."""
    returns = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            returns[agent] = reward
        e.step(None if term or trunc else choose(e, agent, obs))
    return dict(sorted(returns.items()))


def test_env_rewards_match_and_round() -> None:
    e = schneider_env()
    e.reset(seed=7)
    rewards = run_env(e, lambda env, agent, obs: int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert list(rewards.values()) == e.unwrapped.game.rewards()
    e = schneider_env(reward="round")
    e.reset(options={"deal": separated_deal(suit_cards("SH"), suit_cards("CD"), leader=1).to_dict()})
    assert e.agent_selection == "player_1"
    rewards = run_env(e, lambda env, agent, obs: int(np.flatnonzero(obs["action_mask"])[0]))
    assert rewards == {"player_0": -60.0, "player_1": 60.0}


def test_env_illegal_actions() -> None:
    e = schneider_env()
    e.reset(seed=1, options={"deal": deal(FOLLOW_HAND0, LEAD_HAND1), "dealer": 0})
    before = snapshot(e.unwrapped.game)
    with pytest.raises(ValueError, match="legal moves"):
        e.step(parse_card("9S"))  # seat 0's card; seat 1 is on turn
    assert snapshot(e.unwrapped.game) == before and e.agent_selection == "player_1"
    assert e.unwrapped.move_to_action("play 8S") == parse_card("8S")
    assert e.unwrapped.action_to_move(parse_card("8S")) == "play 8S"
    for bad in (parse_card("2C"), "x", None):
        e = schneider_env(illegal_action="penalize", illegal_penalty=-2.0)
        e.reset(seed=1)
        e.step(bad)
        assert e.unwrapped._cumulative_rewards == {"player_0": 0.0, "player_1": -2.0}
        assert all(e.unwrapped.terminations.values()) and e.unwrapped.infos["player_1"]["illegal_move"]


def test_env_render_and_record() -> None:
    e = schneider_env(render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert "bohemian_schneider" in text and "pile 20" in text
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert snapshot(replay(e.unwrapped.record())) == snapshot(e.unwrapped.game)


# ---------------------------------------------------------------------- bots
def bot_view(hand0: str, hand1: str, moves: str = "", seat: int = 1, pile_top: str = "") -> dict[str, Any]:
    game = new_game(deal(hand0, hand1, pile_top))
    if moves:
        play(game, moves)
    assert game.current_player == seat
    return player_view(game, seat)


def test_rule_bot_follower_wins_with_the_card_above() -> None:
    view = bot_view("KS 7S 9H 7H 8H 9D", "QS 7D 8D TD JD AD", moves="QS", seat=0)
    assert format_cards([SchneiderRuleAgent(0).act(view)]) == "KS"


def test_rule_bot_follower_throws_cheapest_non_counter() -> None:
    # 7H cannot be a safe lead (8H unseen) and cannot beat anything: the cheapest throw
    view = bot_view("AS KH 9C 7H TC QC", "8S 7D 8D 9D TD JD", moves="8S", seat=0)
    assert format_cards([SchneiderRuleAgent(0).act(view)]) == "7H"


def test_rule_bot_leads_safe_counters_first() -> None:
    # KS (AS in hand) and AS are safe counters; the lower goes first. 8S, 7H, 9D, JD are not safe
    view = bot_view("7C 8C 9C TC JC QC", "KS AS 7H 9D JD 8S")
    assert format_cards([SchneiderRuleAgent(0).act(view)]) == "KS"


def test_rule_bot_leads_low_non_counter_without_a_safe_lead() -> None:
    view = bot_view("7C 8C 9C TC JC QC", "9S TD 7H JS QH 8D")
    assert format_cards([SchneiderRuleAgent(0).act(view)]) == "7H"


@pytest.mark.parametrize("make", [SchneiderRuleAgent, RandomAgent])
def test_bots_play_legal_moves_and_are_reproducible(make: Callable[[int], Any]) -> None:
    def run(seed: int) -> dict[str, Any]:
        e = schneider_env()
        e.reset(seed=seed)
        bots = {"player_0": make(seed), "player_1": make(seed + 1)}

        def choose(env: Any, agent: str, obs: dict[str, np.ndarray]) -> int:
            view = env.unwrapped.view(agent)
            action = bots[agent].act(view, obs)
            assert action in view["legal_actions"] and obs["action_mask"][action] == 1
            return action

        run_env(e, choose)
        return e.unwrapped.record()

    for seed in (0, 1):
        assert run(seed) == run(seed)


def test_rule_bot_beats_random() -> None:
    result = evaluate(SchneiderRuleAgent, RandomAgent, matches=100, seed=0)
    assert result["win_rate"] >= 0.85 and result["mean_margin"] > 0
    game = play_match([SchneiderRuleAgent(1), SchneiderRuleAgent(2)], seed=3)
    assert game.is_over and sum(r.points[0] + r.points[1] for r in game.round_results) == 40
    assert points_of(DECK_MASK) == 20
