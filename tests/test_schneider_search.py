"""The Bohemian Schneider search bot: its solver, what it values, and how it plays.

Positions are built from card strings: a deal whose first tricks the leader wins
with cards that cannot be beaten, leaving the hands the test names for the end.
"""

from __future__ import annotations

import dataclasses
import math
import random
from itertools import pairwise
from typing import Any

import pytest

from agents.random_agent import RandomAgent
from agents.registry import agent_options, make_agent
from agents.schneider_bots import SchneiderRuleAgent
from agents.schneider_search import (
    ABOVE,
    COUNTER_THROW_ODDS,
    DECLINED_TAKE_ODDS,
    POINT,
    UNSAFE_LEAD_ODDS,
    DealSolver,
    MatchSituation,
    OpponentPlay,
    SchneiderSearchAgent,
    choose_card,
    estimate_future,
    eval_features,
    knowledge_from_view,
    load_eval_weights,
    smoothed_value,
)
from smear_env.cards import cards_of, format_card, mask_of, parse_card, parse_cards
from smear_env.schneider.game import DECK, Deal, Game, SchneiderRules, card_above
from smear_env.schneider.observation import player_view

PRESET = "bohemian_schneider"


# ---------------------------------------------------------------------- helpers
def late_game(leader_end: str, follower_end: str, *, leader: int = 1, moves: str = "") -> Game:
    """A single round in which seat ``leader`` wins every trick until each player holds the named cards.

    The other cards are filler: the leader leads them in order and the follower throws its own in
    order, never the card one above the lead; the pile interleaves both players' cards so that each
    draws only its own. ``moves`` are then played (comma separated) from that position.
    """
    ends = [parse_cards(leader_end), parse_cards(follower_end)]
    assert len(ends[0]) == len(ends[1]) <= 6
    filler = [c for c in DECK if c not in ends[0] + ends[1]]
    half = len(filler) // 2
    lead_fill, follow_fill = filler[:half], filler[half:]
    for i in range(half):  # the follower must not hold the card above the lead it meets
        if follow_fill[i] == card_above(lead_fill[i]):
            j = (i + 1) % half
            follow_fill[i], follow_fill[j] = follow_fill[j], follow_fill[i]
    assert all(f != card_above(c) for c, f in zip(lead_fill, follow_fill))
    sequences = [lead_fill + ends[0], follow_fill + ends[1]]
    hands = [[], []]
    hands[leader], hands[1 - leader] = sequences[0][:6], sequences[1][:6]
    pile = [c for pair in zip(sequences[0][6:], sequences[1][6:]) for c in pair]
    game = Game(SchneiderRules(), seed=0, dealer=1 - leader, single_round=True, deals=[Deal(hands, pile)])
    for led, followed in zip(lead_fill, follow_fill):
        game.apply(led)
        game.apply(followed)
    assert game.current_player == leader and not game.pile
    assert sorted(cards_of(game.hands[leader])) == sorted(ends[0])
    for move in filter(None, (m.strip() for m in moves.split(","))):
        game.apply(parse_card(move))
    return game


def minimax(lead: int, follow: int) -> int:
    """Counter points the leader captures with both hands known and the pile empty: plain minimax."""
    if not lead:
        return 0
    remaining = POINT_SUM(lead | follow)
    best = -1
    for c in cards_of(lead):
        worst = 99
        for d in cards_of(follow):
            rest_lead, rest_follow = lead & ~(1 << c), follow & ~(1 << d)
            if d == card_above(c):
                value = remaining - POINT[c] - POINT[d] - minimax(rest_follow, rest_lead)
            else:
                value = POINT[c] + POINT[d] + minimax(rest_lead, rest_follow)
            worst = min(worst, value)
        best = max(best, worst)
    return best


def POINT_SUM(mask: int) -> int:  # noqa: N802 - reads like the table it sums
    return sum(POINT[c] for c in cards_of(mask))


def fast(seed: int, **options: Any) -> SchneiderSearchAgent:
    """A cheap search bot for whole-game tests, bound by samples, not by the clock."""
    settings = {"samples": 3, "depth": 1, "time_budget": 1e6} | options
    return SchneiderSearchAgent(None, seed, **settings)


def play(agents: list[Any], seed: int, rules: SchneiderRules | None = None) -> Game:
    game = Game(rules, seed=seed)
    while not game.is_over:
        seat = game.current_player
        view = player_view(game, seat)
        action = agents[seat].act(view)
        assert action in view["legal_actions"], (action, view["legal_actions"])
        game.apply(action)
    return game


# ---------------------------------------------------------------------- the solver
def test_solver_matches_plain_minimax_on_random_endgames() -> None:
    rng = random.Random(7)
    for _ in range(60):
        deck = list(DECK)
        rng.shuffle(deck)
        n = rng.randint(1, 4)
        lead, follow = mask_of(deck[:n]), mask_of(deck[n : 2 * n])
        value = DealSolver([]).lead_value(lead, follow, 0, -math.inf, math.inf, 99)
        assert value == minimax(lead, follow)


def test_solver_draws_winner_first_and_counts_the_pile() -> None:
    # 8S led, 9S beats it: the follower wins, draws AS first and leads it for the last trick's AS+KS
    solver = DealSolver(parse_cards("AS KS"))
    lead, follow = mask_of(parse_cards("8S")), mask_of(parse_cards("9S"))
    assert solver.lead_value(lead, follow, 0, -math.inf, math.inf, 99) == 0  # the leader takes nothing
    # with 7H instead the leader keeps the trick, draws AS and leads it: both points are the leader's
    follow = mask_of(parse_cards("7H"))
    assert solver.lead_value(lead, follow, 0, -math.inf, math.inf, 99) == 2


def test_estimate_stays_within_the_points_left() -> None:
    rng = random.Random(3)
    for _ in range(200):
        deck = list(DECK)
        rng.shuffle(deck)
        lead, follow, pile = mask_of(deck[:6]), mask_of(deck[6:12]), mask_of(deck[12 : 12 + 2 * rng.randint(0, 10)])
        remaining = eval_features(lead, follow, pile)[1]
        assert 0 <= estimate_future(lead, follow, pile) <= remaining


def test_eval_weights_file_is_checked(tmp_path: Any) -> None:
    bad = tmp_path / "weights.json"
    bad.write_text('{"features": ["bias"], "weights": [[0.0]]}')
    with pytest.raises(ValueError, match="refit"):
        load_eval_weights(bad)


def test_safe_lead_bit_trick_matches_the_card_above() -> None:
    for card in DECK:
        follow = ABOVE[card]  # the follower holds exactly the card above, if there is one
        safe = eval_features(1 << card, follow, 0)[4]
        assert safe == (card_above(card) < 0)


# ---------------------------------------------------------------------- what outcomes are worth
def test_last_round_values_only_the_match_result() -> None:
    behind = MatchSituation(captured=0, opp_captured=0, lead=-10, rounds_after=0)
    # 12 points: 12 - 8 = +4, not enough to catch up 10; 14 points: 14 - 6 = +8 still short;
    # 16 points double: 32 - 4 = +28 wins the match
    assert behind.value(12) < 0 and behind.value(14) < 0 and behind.value(16) > 0
    assert abs(behind.value(12) - behind.value(14)) < 0.01  # a lost match is a lost match
    level = MatchSituation(captured=0, opp_captured=0, lead=0, rounds_after=0)
    assert abs(level.value(10)) < 0.01  # 10-10: a draw


def test_doubling_and_tripling_shape_earlier_rounds() -> None:
    first = MatchSituation(captured=0, opp_captured=0, lead=0, rounds_after=1)
    values = first.value_table()
    assert all(a < b for a, b in pairwise(values))  # more points are always better
    steps = [b - a for a, b in pairwise(values)]
    assert steps[15] > steps[14]  # the 16th point doubles the round score: a bigger step than the 15th


def test_smoothed_value_is_exact_without_spread() -> None:
    table = MatchSituation(0, 0, 0, 1).value_table()
    assert smoothed_value(table, 0, 20, 12.0, 0.0) == table[12]
    assert table[11] < smoothed_value(table, 0, 20, 12.0, 1.0) < table[13]


# ---------------------------------------------------------------------- the bot
def test_finds_the_winning_sacrifice_in_a_late_position() -> None:
    # I (seat 1) lead JH TS QS against QH 9S JS, everything else played: 5 points left.
    # The safe QS takes 1 and then both my cards are beaten. JH gives up QH+JH but the
    # opponent must then lead into my TS (beats 9S) or QS (beats JS): I end with 3.
    game = late_game("JH TS QS", "QH 9S JS")
    view = player_view(game, 1)
    decision = SchneiderSearchAgent(None, 0).decide(view)
    assert format_card(decision.action) == "JH"
    lead, follow = game.hands[1], game.hands[0]
    futures = {c: minimax_after_lead(lead, follow, c) for c in cards_of(lead)}
    assert futures == {parse_card("JH"): 3, parse_card("TS"): 0, parse_card("QS"): 1}
    assert decision.scores[parse_card("JH")] > max(v for c, v in decision.scores.items() if c != parse_card("JH"))


def minimax_after_lead(lead: int, follow: int, card: int) -> int:
    """The leader's points after leading ``card``, by plain minimax."""
    lead &= ~(1 << card)
    remaining = POINT_SUM(lead | follow) + POINT[card]
    worst = 99
    for d in cards_of(follow):
        rest = follow & ~(1 << d)
        if d == card_above(card):
            value = remaining - POINT[card] - POINT[d] - minimax(rest, lead)
        else:
            value = POINT[card] + POINT[d] + minimax(lead, rest)
        worst = min(worst, value)
    return worst


def test_follower_takes_the_trick_that_wins_the_endgame() -> None:
    # the opponent leads 9S into my TS: taking it wins TS+9S and the lead for my two Aces
    game = late_game("9S 7C 8C", "TS AH AD", leader=0, moves="9S")
    view = player_view(game, 1)
    assert format_card(SchneiderSearchAgent(None, 0).act(view)) == "TS"


def test_plays_only_legal_cards_across_seeded_matches() -> None:
    for seed in range(6):
        opponents = [RandomAgent(seed), SchneiderRuleAgent(seed)]
        for seat in (0, 1):
            agents = [fast(seed), opponents[seed % 2]]
            game = play(agents if seat == 0 else agents[::-1], seed)
            assert game.is_over and sum(r.points[0] + r.points[1] for r in game.round_results) == 40


def test_longer_matches_and_every_round_of_them() -> None:
    game = play([fast(1), fast(2)], seed=5, rules=SchneiderRules(num_rounds=4))
    assert game.rounds_played == 4 and game.is_over


def test_same_seed_same_match() -> None:
    def record(seed: int) -> list[int]:
        agents = [SchneiderSearchAgent(None, seed, samples=4, time_budget=1e6), SchneiderRuleAgent(seed)]
        return play(agents, seed=11).history

    assert record(3) == record(3)


def test_decide_chooses_what_act_plays_and_values_every_card() -> None:
    game = Game(SchneiderRules(), seed=4)
    rule = SchneiderRuleAgent(0)
    checked = 0
    while not game.is_over and checked < 12:
        seat = game.current_player
        view = player_view(game, seat)
        decision = fast(9, samples=4, depth=2).decide(view)
        assert decision.action == fast(9, samples=4, depth=2).act(view)
        assert decision.kind == "value" and set(decision.scores) == set(view["legal_actions"])
        assert all(-1.01 <= v <= 1.01 for v in decision.scores.values())
        checked += 1
        game.apply(rule.act(view))


def test_near_ties_go_to_the_plain_heuristic() -> None:
    # three cards within noise of each other: the preferred (lowest rank) one is played
    per_sample = {1: [0.50, 0.52], 2: [0.51, 0.52], 3: [0.30, 0.31]}
    assert choose_card(per_sample, {1: 0, 2: 1, 3: 2}, tiebreak=1.0) == 1
    assert choose_card(per_sample, {1: 0, 2: 1, 3: 2}, tiebreak=0.0) == 2  # plain best mean
    assert choose_card(per_sample, {3: 0, 1: 1, 2: 2}, tiebreak=1.0) == 1  # 3 is clearly worse


def test_knowledge_counts_the_opponents_cards() -> None:
    game = Game(SchneiderRules(), seed=2)
    game.apply(game.legal_actions()[0])
    k = knowledge_from_view(player_view(game, game.current_player))
    assert k.led >= 0 and k.opp_hand_size == 5 and k.pile_size == 20
    assert k.unseen.bit_count() == 25 and not k.unseen & k.hand


# ---------------------------------------------------------------------- reading the opponent
def opening(hand0: str, hand1: str, moves: str, dealer: int = 0) -> Game:
    """A match whose first deal gives seat 0 and seat 1 these hands, after ``moves`` (comma separated)."""
    used = parse_cards(f"{hand0} {hand1}")
    game = Game(
        SchneiderRules(),
        seed=0,
        dealer=dealer,
        deals=[Deal([parse_cards(hand0), parse_cards(hand1)], [c for c in DECK if c not in used])],
    )
    for move in moves.split(","):
        game.apply(parse_card(move.strip()))
    return game


def share_holding(game: Game, card: str, hints: bool, deals: int = 400) -> float:
    """How often the sampled opponent hand of the player on turn holds ``card``."""
    view = player_view(game, game.current_player)
    k = knowledge_from_view(view)
    if not hints:
        k = dataclasses.replace(k, hints=())
    agent = SchneiderSearchAgent(None, 0)
    unseen = cards_of(k.unseen)
    return sum(bool(agent.sample_opponent(k, unseen) >> parse_card(card) & 1) for _ in range(deals)) / deals


def test_an_opponent_who_let_a_trick_go_probably_lacked_the_card_above() -> None:
    # I (seat 1) led 8S; the opponent threw 7H instead of taking with 9S, then both drew
    game = opening("7H 7C 8C 9C 7D 8D", "8S AS KS QS JS TS", "8S, 7H")
    assert game.current_player == 1 and len(game.tricks) == 1
    assert share_holding(game, "9S", hints=True) < 0.5 * share_holding(game, "9S", hints=False)


def test_an_unsafe_lead_hints_that_the_leader_had_no_safe_one() -> None:
    # the opponent (seat 0) opened with 7C, which my 8C could beat: it likely held no Ace (always safe)
    game = opening("7C 9D TH JH QS 7S", "8C 9C TC JC QC KC", "7C", dealer=1)
    assert game.current_player == 1
    aces = ["AC", "AD", "AH", "AS"]
    with_hint = sum(share_holding(game, ace, hints=True) for ace in aces)
    without = sum(share_holding(game, ace, hints=False) for ace in aces)
    assert with_hint < 0.7 * without


def test_opponent_play_odds() -> None:
    led, above = parse_card("8S"), parse_card("9S")
    declined = OpponentPlay(parse_card("7H"), led, before=1 << led, drew_since=False)
    assert declined.likelihood(mask_of([above, parse_card("7C")])) == DECLINED_TAKE_ODDS
    assert declined.likelihood(mask_of(parse_cards("7C 8C"))) == 1.0
    thrown = OpponentPlay(parse_card("KH"), led, before=1 << led, drew_since=False)
    assert thrown.likelihood(mask_of(parse_cards("KH 7C"))) == COUNTER_THROW_ODDS
    assert thrown.likelihood(mask_of(parse_cards("KH QH"))) == 1.0
    unsafe_lead = OpponentPlay(parse_card("7C"), -1, before=0, drew_since=False)
    assert unsafe_lead.likelihood(mask_of(parse_cards("7C AS"))) == UNSAFE_LEAD_ODDS  # AS was safe
    assert unsafe_lead.likelihood(mask_of(parse_cards("7C 7D"))) == 1.0  # nothing was


# ---------------------------------------------------------------------- options
def test_registered_as_search_with_its_options() -> None:
    agent = make_agent("search:samples=8,time_budget=0.05,depth=1", PRESET, seed=1)
    assert isinstance(agent, SchneiderSearchAgent)
    assert (agent.samples, agent.time_budget, agent.depth) == (8, 0.05, 1)
    assert {"samples", "time_budget", "depth", "exact_tricks", "tiebreak"} <= set(agent_options("search", PRESET))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"samples": 0}, r"samples 0 is out of range: expected an integer >= 1"),
        ({"samples": 2.5}, r"samples 2.5 is not an integer"),
        ({"samples": True}, r"samples True is a bool, not an integer"),
        ({"time_budget": 0.0}, r"time_budget \(seconds\) 0.0 is out of range: expected a finite number > 0.0"),
        ({"time_budget": math.inf}, r"time_budget \(seconds\) inf is not finite"),
        ({"time_budget": math.nan}, r"time_budget \(seconds\) nan is not finite"),
        ({"time_budget": -1}, r"time_budget \(seconds\) -1 is out of range"),
        ({"depth": 0}, r"depth 0 is out of range: expected an integer >= 1"),
        ({"exact_tricks": -2}, r"exact_tricks -2 is out of range"),
        ({"tiebreak": -0.5}, r"tiebreak \(standard errors\) -0.5 is out of range: expected a finite number >= 0.0"),
        ({"tiebreak": math.nan}, r"tiebreak \(standard errors\) nan is not finite"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SchneiderSearchAgent(None, 0, **options)


@pytest.mark.parametrize("spec", ["search:samples=0", "search:time_budget=nan", "search:depth=x", "search:speed=2"])
def test_bad_options_by_name_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="samples|time_budget|depth|speed"):
        make_agent(spec, PRESET)
