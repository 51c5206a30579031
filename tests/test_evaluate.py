"""The evaluation harness: interval statistics, duplicate deals, determinism, reports, ladder."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import smear_env
from smear_env import actions as A
from smear_env.game import Game
from training.evaluate import (
    DecisionTimes,
    EvalResult,
    MatchConfig,
    Runner,
    Tally,
    derive_seed,
    evaluate,
    lineup,
    mean_hand_reward,
    rules_for_agents,
    score_for_a,
    seat_teams,
)
from training.evaluate.cli import main, parse_rule
from training.evaluate.games import start_scores
from training.ladder import ladder
from training.stats import Z95, RunningMean, mean_interval, wilson_interval, win_rate


# ---------------------------------------------------------------------- statistics
def test_wilson_known_value() -> None:
    low, high = wilson_interval(60, 100)
    assert (round(low, 4), round(high, 4)) == (0.5020, 0.6906)
    assert low == pytest.approx(0.5020025867910618, abs=1e-12)  # statsmodels proportion_confint(method="wilson")
    assert high == pytest.approx(0.6905987135675411, abs=1e-12)


@pytest.mark.parametrize(("successes", "n"), [(60, 100), (1, 10), (199.5, 200), (37, 41), (3, 3)])
def test_wilson_bounds_solve_the_score_equation(successes: float, n: int) -> None:
    """The Wilson bounds are the roots q of (p - q)^2 = z^2 q (1 - q) / n."""
    p = successes / n
    for q in wilson_interval(successes, n):
        assert (p - q) ** 2 == pytest.approx(Z95**2 * q * (1 - q) / n, abs=1e-12)


def test_wilson_edges_and_errors() -> None:
    low, high = wilson_interval(0, 20)
    assert low == 0 and 0 < high < 0.2
    low, high = wilson_interval(20, 20)
    assert 0.8 < low < 1 and high == 1
    with pytest.raises(ValueError, match="n must be positive"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(5, 4)


def test_win_rate_counts_draws_half() -> None:
    estimate = win_rate(wins=50, draws=20, games=100)
    assert estimate.value == 0.6
    assert (estimate.low, estimate.high) == wilson_interval(60, 100)


def test_mean_interval_known_values() -> None:
    estimate = mean_interval([1, 2, 3, 4, 5])
    half = Z95 * math.sqrt(2.5 / 5)  # sample variance 2.5
    assert estimate is not None
    assert (estimate.value, estimate.n) == (3, 5)
    assert (estimate.low, estimate.high) == pytest.approx((3 - half, 3 + half))
    assert mean_interval([]) is None
    assert mean_interval([7]) == mean_interval([7.0])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-5, 20), min_size=1, max_size=40), st.integers(0, 40))
def test_running_mean_matches_mean_interval_for_any_split(values: list[int], cut: int) -> None:
    left, right = RunningMean(), RunningMean()
    for i, v in enumerate(values):
        (left if i < cut else right).add(v)
    right.merge(left)  # merged out of order
    got, want = right.estimate(), mean_interval(values)
    assert got is not None and want is not None
    assert got.value == pytest.approx(want.value) and got.n == want.n
    assert (got.low, got.high) == pytest.approx((want.low, want.high))


def test_decision_times_median_is_close() -> None:
    times = DecisionTimes()
    for ms in [0.5, 1.0, 2.0, 3.0, 100.0]:
        times.add(ms / 1000)
    median = times.median()
    assert times.count == 5 and median is not None
    assert median == pytest.approx(0.002, rel=0.03)
    assert DecisionTimes().median() is None


# ---------------------------------------------------------------------- seeds, lineups, outcomes
def test_seeds_are_stable_and_lineups_alternate() -> None:
    assert derive_seed(1, 2) == 7777801250388762567  # blake2b: the same in every process, unlike hash()
    assert derive_seed(1, 2) != derive_seed(2, 1)
    assert lineup(0, [0, 1, 0, 1]) == (0, 1, 0, 1) and lineup(1, [0, 1, 0, 1]) == (1, 0, 1, 0)
    assert lineup(0, range(5)) == (0, 1, 0, 1, 0) and lineup(1, range(5)) == (1, 0, 1, 0, 1)


def test_score_for_a_individual_and_shared_wins() -> None:
    roles = lineup(0, range(5))  # everyone alone: A in seats 0, 2, 4
    seats_game = SimpleNamespace(num_players=5, winners=frozenset({2}), team_of=lambda s: s)
    assert score_for_a(seats_game, roles, stopped=False) == 1.0
    seats_game.winners = frozenset({3})
    assert score_for_a(seats_game, roles, stopped=False) == 0.0
    seats_game.winners = frozenset({1, 2})  # A and B seats share the win
    assert score_for_a(seats_game, roles, stopped=False) == 0.5
    assert score_for_a(SimpleNamespace(winners=frozenset({0, 1})), (0, 1), stopped=False) == 0.5  # Schneider draw
    assert score_for_a(SimpleNamespace(winners=frozenset({0})), (0, 1), stopped=True) == 0.5


@pytest.mark.parametrize("preset", ["smear", "ten_point_5p", "bohemian_schneider"])
def test_duplicate_games_share_deals_with_lineup_swapped(preset: str) -> None:
    runner = Runner(MatchConfig("random", "random", preset, seed=3, max_hands=12, rule_overrides={}))
    records, outcomes = [], []
    for game_index in (0, 1):
        outcomes.append(runner.play(game_index, [Tally(), Tally()]))
        records.append(runner.env.unwrapped.game.record())
    first, second = records
    assert first["deals"][0] == second["deals"][0]
    shared = min(len(first["deals"]), len(second["deals"]))
    assert first["deals"][:shared] == second["deals"][:shared]  # the whole deal sequence, whatever the play
    assert first["moves"] != second["moves"]  # different players: different play on the same cards
    n = len(runner.env.possible_agents)
    assert outcomes[0].a_seats == tuple(range(0, n, 2)) and outcomes[1].a_seats == tuple(range(1, n, 2))
    assert outcomes[0].deal_seed == outcomes[1].deal_seed


# ---------------------------------------------------------------------- roles by team
THREE_TEAMS_OF_TWO = {"teams": [[0, 3], [1, 4], [2, 5]]}


@pytest.mark.parametrize("preset", smear_env.list_presets())
def test_every_preset_keeps_the_seat_parity_lineups_evaluations_always_had(preset: str) -> None:
    env = smear_env.raw_env(preset=preset)
    n = len(env.possible_agents)
    for game_index in range(4):
        assert lineup(game_index, seat_teams(env.rules, n)) == tuple((seat + game_index) % 2 for seat in range(n))


def test_lineups_give_roles_by_team() -> None:
    teams = seat_teams(smear_env.get_rules("ten_point_6p", **THREE_TEAMS_OF_TWO), 6)
    assert teams == (0, 1, 2, 0, 1, 2)
    assert lineup(0, teams) == (0, 1, 0, 0, 1, 0) and lineup(1, teams) == (1, 0, 1, 1, 0, 1)
    assert lineup(0, seat_teams(smear_env.get_rules("ten_point", teams=[[0, 1], [2, 3]]), 4)) == (0, 0, 1, 1)
    with pytest.raises(ValueError, match="match team of each seat, got the number 4"):
        lineup(0, 4)  # type: ignore[arg-type]


def test_with_three_teams_a_wins_when_only_its_teams_win() -> None:
    teams = (0, 1, 2, 0, 1, 2)
    game = SimpleNamespace(num_players=6, winners=frozenset({2}), team_of=lambda s: teams[s])
    assert score_for_a(game, lineup(0, teams), stopped=False) == 1.0  # A holds teams 0 and 2 in even games
    assert score_for_a(game, lineup(1, teams), stopped=False) == 0.0  # and team 1 in odd ones
    game.winners = frozenset({0, 1})  # a shared win
    assert score_for_a(game, lineup(0, teams), stopped=False) == 0.5


@pytest.mark.parametrize(
    ("preset", "overrides", "a_seats"),
    [
        ("ten_point_6p", THREE_TEAMS_OF_TWO, [(0, 2, 3, 5), (1, 4)]),
        ("ten_point", {"partnerships": False}, [(0, 2), (1, 3)]),
        ("ten_point", {"teams": [[0, 1], [2, 3]]}, [(0, 1), (2, 3)]),
    ],
)
def test_an_evaluation_with_custom_teams_keeps_every_team_with_one_agent(
    preset: str, overrides: dict[str, object], a_seats: list[tuple[int, ...]]
) -> None:
    result = evaluate("rule", "random", preset, matches=4, seed=2, workers=1, max_hands=6, rule_overrides=overrides)
    assert [g.a_seats for g in result.games] == a_seats * 2
    for team in smear_env.get_rules(preset, **overrides).team_seats:  # each team wholly A's or wholly B's
        assert all(set(team) <= set(g.a_seats) or not set(team) & set(g.a_seats) for g in result.games)
    assert [g.deal_seed for g in result.games[::2]] == [g.deal_seed for g in result.games[1::2]]
    assert result.a.games == result.b.games == 4 and result.a.wins == result.b.losses
    assert result.a.hands == result.b.hands == sum(g.hands for g in result.games) > 0
    assert result.a.bid_rate + result.b.bid_rate == pytest.approx(1)
    if preset == "ten_point_6p":  # the seating reaches worker processes too, with the same results
        again = evaluate("rule", "random", preset, matches=4, seed=2, workers=2, max_hands=6, rule_overrides=overrides)
        assert again.results_only() == result.results_only()


# ---------------------------------------------------------------------- evaluations
def test_random_against_itself_is_even() -> None:
    result = evaluate("random", "random", "smear", matches=200, seed=11, workers=2)
    assert 0.35 <= result.a.win_rate.value <= 0.65
    assert result.a.win_rate.value + result.b.win_rate.value == pytest.approx(1)
    assert result.a.wins == result.b.losses and result.a.draws == result.b.draws
    assert result.stopped == 0 and len(result.games) == 200
    assert result.a.hands == 2000  # smear: exactly 10 hands a match
    assert result.a.bid_rate + result.b.bid_rate == pytest.approx(1)
    assert 2 <= result.a.mean_bid <= 4 and 0 <= result.a.made_rate <= 1
    assert result.a.decisions > 0 and result.a.median_ms > 0


def test_same_seed_same_result_and_seed_matters() -> None:
    first = evaluate("random", "random", "four_point", matches=12, seed=5, workers=1)
    again = evaluate("random", "random", "four_point", matches=12, seed=5, workers=1)
    other = evaluate("random", "random", "four_point", matches=12, seed=6, workers=1)
    assert first.results_only() == again.results_only()
    assert first.games != other.games


def test_results_do_not_depend_on_workers() -> None:
    one = evaluate("random", "random", "smear", matches=40, seed=2, workers=1)
    two = evaluate("random", "random", "smear", matches=40, seed=2, workers=2)
    assert one.results_only() == two.results_only()


def test_max_hands_stops_games_as_draws() -> None:
    result = evaluate("random", "random", "smear", matches=4, seed=0, workers=1, max_hands=3)
    assert result.stopped == 4 and result.a.draws == 4
    assert result.a.win_rate.value == 0.5
    assert all(g.hands == 3 for g in result.games)


def test_rule_overrides_reach_the_game() -> None:
    result = evaluate("random", "random", "smear", matches=2, seed=0, workers=1, rule_overrides={"num_hands": 2})
    assert [g.hands for g in result.games] == [2, 2]


def test_agents_get_house_rules() -> None:
    env = smear_env.raw_env(preset="smear", num_hands=2)
    assert rules_for_agents(env, "smear", {"num_hands": 2}).num_hands == 2
    assert rules_for_agents(env, "smear", {}) == "smear"
    assert rules_for_agents(smear_env.raw_env(preset="bohemian_schneider"), "bohemian_schneider", {}) == (
        "bohemian_schneider"
    )


def test_schneider_has_no_bid_statistics() -> None:
    result = evaluate("rule", "random", "bohemian_schneider", matches=20, seed=0, workers=1)
    assert result.a.bid_rate is None and result.a.made_rate is None and result.a.mean_bid is None
    assert result.a.hands == 40 and result.a.points_per_hand.value > result.b.points_per_hand.value
    assert "points/round" in result.markdown()
    assert result.paired_reward is None and "hand reward" not in result.markdown()


def test_a_deterministic_bot_against_itself_cancels_in_every_deal_pair() -> None:
    """The rule bot uses no randomness: the second game of a pair is the first with the roles swapped."""
    result = evaluate("rule", "rule", "minnesota", matches=10, seed=3, workers=1)
    for first, second in zip(result.games[::2], result.games[1::2], strict=True):
        assert first.reward_a == -second.reward_a
    assert (result.paired_reward.value, result.paired_reward.low, result.paired_reward.high) == (0, 0, 0)
    assert result.paired_reward.n == 5


def test_a_deal_thrown_in_counts_zero_hand_reward_so_one_deal_games_still_pair() -> None:
    game = Game("minnesota", seed=5)
    while len(game.deals) == 1:  # everybody passes: the deal is thrown in
        game.apply(A.PASS if A.PASS in game.legal_actions() else game.legal_actions()[0])
    assert not game.hand_results and mean_hand_reward(game, [0, 2]) == 0.0
    result = evaluate("rule", "rule", "minnesota", matches=20, seed=1, workers=1, max_hands=1)
    assert sum(g.hands == 0 for g in result.games) == 2  # one deal pair was thrown in (all passed)
    assert result.paired_reward == mean_interval([0.0] * 10)  # the rule bot against itself: every pair cancels


def test_hand_reward_compares_the_two_agents_whatever_the_number_of_sides() -> None:
    hand = SimpleNamespace(side_of_seat=[0, 1, 2, 0, 1, 2], deltas={0: 3, 1: -2, 2: 1})  # three teams of two
    game = SimpleNamespace(num_players=6, hand_results=[hand, hand])
    assert mean_hand_reward(game, [0, 2, 3, 5]) == 4.0  # A's seats change by 2 on average, B's by -2
    assert mean_hand_reward(game, [1, 4]) == -4.0
    alone = SimpleNamespace(side_of_seat=[0, 1, 2, 3], deltas={0: 5, 1: -4, 2: 1, 3: 2})  # everyone alone
    assert mean_hand_reward(SimpleNamespace(num_players=4, hand_results=[alone]), [0, 2]) == 3 - (-1)


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [("ten_point_6p", THREE_TEAMS_OF_TWO), ("ten_point", {"partnerships": False}), ("ten_point_5p", {})],
)
def test_a_deterministic_bot_against_itself_cancels_with_any_number_of_sides(
    preset: str, overrides: dict[str, object]
) -> None:
    result = evaluate("rule", "rule", preset, matches=4, seed=3, workers=1, max_hands=4, rule_overrides=overrides)
    for first, second in zip(result.games[::2], result.games[1::2], strict=True):
        assert first.reward_a == -second.reward_a != 0
    assert result.paired_reward.value == 0


def test_paired_reward_averages_each_pair_then_takes_the_interval_over_pairs() -> None:
    result = evaluate("rule", "random", "four_point", matches=6, seed=1, workers=1)
    known = [2.0, 1.0, -1.0, 3.0, 0.5, 0.5]  # pairs average to 1.5, 1.0, 0.5
    games = tuple(dataclasses.replace(g, reward_a=r) for g, r in zip(result.games, known, strict=True))
    reward = dataclasses.replace(result, games=games).paired_reward
    assert reward == mean_interval([1.5, 1.0, 0.5])
    assert "rule's hand reward per hand" in result.markdown() and result.paired_reward.value > 0


def test_bad_setups_fail_clearly() -> None:
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        evaluate("nobody", "random", "smear", matches=2, seed=0)
    with pytest.raises(ValueError, match="unknown preset 'smer'.*did you mean 'smear'"):
        evaluate("random", "random", "smer", matches=2, seed=0)
    with pytest.raises(ValueError, match="even"):
        evaluate("random", "random", "smear", matches=3, seed=0)
    with pytest.raises(ValueError, match="targt_score"):
        evaluate("random", "random", "smear", matches=2, seed=0, rule_overrides={"targt_score": 3})


def test_cli_reports_unknown_agent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["nobody", "random", "--preset", "smear", "--no-progress"])
    assert exit_info.value.code == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_json_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "result.json"
    args = "random random --preset smear --matches 4 --workers 1 --no-progress --json".split()
    main([*args, str(path)])
    loaded = EvalResult.from_dict(json.loads(path.read_text()))
    assert loaded.matches == 4 and loaded.a.agent == "random"
    assert EvalResult.from_dict(json.loads(json.dumps(loaded.to_dict()))) == loaded


def test_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["random", "random", "--preset", "four_point", "--matches", "2", "--workers", "1", "--no-progress"]
    main([*args, "--markdown"])
    out = capsys.readouterr().out
    assert "| random (A) | 2 |" in out and "| random (B) | 2 |" in out
    assert "win rate [95% CI]" in out and "points/hand" in out


def test_the_report_for_a_terminal_is_narrow_and_says_what_its_columns_mean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shipped = "agents/shipped/ten_point.npz"  # a long name: the table shows its file name, the title all of it
    main([shipped, "rule", "--preset", "ten_point", "--matches", "2", "--workers", "1", "--no-progress"])
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 110
    table = lines[lines.index("") + 1 :][:3]
    assert table[0].split()[:3] == ["agent", "games", "W-D-L"] and table[0].endswith("ms/decision")
    assert table[1].startswith("ten_point.npz (A)") and table[2].startswith("rule (B)")
    assert any(line.startswith(f"{shipped} (A) vs rule (B) on ten_point: 2 games") for line in lines)
    assert any(line.startswith("Hand reward: ") for line in lines)
    for column in ("win rate:", "points/hand:", "bids:", "ms/decision:"):
        assert any(line.startswith(column) for line in lines), column


def test_parse_rule() -> None:
    assert parse_rule("target_score=21") == ("target_score", 21)
    assert parse_rule("follow=strict") == ("follow", "strict")
    assert parse_rule("moon_bid=true") == ("moon_bid", True)


# ---------------------------------------------------------------------- ladder
def test_ladder_ranks_the_better_agent_first() -> None:
    entries = ladder(["random", "rule"], "bohemian_schneider", matches_per_pair=20, seed=0, workers=1)
    assert [e.agent for e in entries] == ["rule", "random"]
    best, worst = entries
    assert best.rating > worst.rating and best.score > 0.9
    assert best.games == worst.games == 20


def test_ladder_needs_distinct_agents() -> None:
    with pytest.raises(ValueError, match="distinct"):
        ladder(["random", "random"], "smear", matches_per_pair=2, seed=0)


# ---------------------------------------------------------------------- late starts
def test_late_starts_put_each_team_within_two_hands_of_the_target_the_same_for_both_games_of_a_pair() -> None:
    rules = smear_env.get_rules("pitch_smudge")  # target 21, at most 4 points a hand: scores 13..20
    drawn = [start_scores(rules, "late", 5, pair) for pair in range(200)]
    assert all(len(scores) == 2 and all(13 <= s <= 20 for s in scores) for scores in drawn)
    assert {s for scores in drawn for s in scores} == set(range(13, 21))
    assert drawn == [start_scores(rules, "late", 5, pair) for pair in range(200)]  # a function of (seed, pair)
    assert start_scores(rules, "new", 5, 0) is None
    result = evaluate("rule", "random", "pitch_smudge", matches=8, seed=5, workers=1, start="late")
    assert result.start == "late" and "every match started late" in result.markdown()
    runner = Runner(MatchConfig("rule", "random", "pitch_smudge", 5, 200, {}, "late"))
    for index in range(4):
        runner.play(index, [Tally(), Tally()])
        assert runner.env.unwrapped.game.record()["start_scores"] == start_scores(rules, "late", 5, index // 2)
    assert EvalResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


@pytest.mark.parametrize(
    ("preset", "start", "message"),
    [
        ("smear", "late", "start 'late' needs a Smear preset played to a target score; smear's matches last 10 hands"),
        ("bohemian_schneider", "late", "bohemian_schneider is another game"),
        ("ten_point", "early", "start 'early' is unknown: expected one of new, late"),
    ],
)
def test_a_start_the_game_cannot_take_is_refused_before_any_game(preset: str, start: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate("rule", "random", preset, matches=2, seed=0, workers=1, start=start)
