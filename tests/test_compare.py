"""Comparing two agents game by game: the same deals matched, the differences paired, mismatches refused."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from training.compare import compare, main
from training.evaluate import EvalResult, evaluate
from training.stats import mean_interval


@pytest.fixture(scope="module")
def rule_runs() -> list[EvalResult]:
    return [evaluate("rule", "random", "four_point", matches=6, seed=seed, workers=1) for seed in (1, 2)]


@pytest.fixture(scope="module")
def random_runs() -> list[EvalResult]:
    return [evaluate("random", "random", "four_point", matches=6, seed=seed, workers=1) for seed in (1, 2)]


def test_games_are_matched_by_seed_and_index_and_their_differences_averaged_by_deal_pair(
    rule_runs: list[EvalResult], random_runs: list[EvalResult]
) -> None:
    result = compare(rule_runs, random_runs)
    assert result.games == 12
    pairs = []
    for mine, theirs in zip(rule_runs, random_runs, strict=True):
        for index in range(0, 6, 2):
            games = zip(mine.games[index : index + 2], theirs.games[index : index + 2], strict=True)
            pairs.append(sum(a.score_a - b.score_a for a, b in games) / 2)
    assert result.score_difference == mean_interval(pairs)
    assert result.score_difference.n == 6  # two seeds of three deal pairs
    assert result.new_score == pytest.approx(sum(g.score_a for r in rule_runs for g in r.games) / 12)
    differences = [a.score_a - b.score_a for m, t in zip(rule_runs, random_runs) for a, b in zip(m.games, t.games)]
    assert (result.new_better, result.baseline_better) == (
        sum(d > 0 for d in differences),
        sum(d < 0 for d in differences),
    )
    assert result.reward_difference is not None


def test_an_agent_against_itself_differs_by_nothing(rule_runs: list[EvalResult]) -> None:
    result = compare(rule_runs, rule_runs)
    assert (result.score_difference.value, result.new_better, result.baseline_better) == (0, 0, 0)
    assert result.reward_difference is not None and result.reward_difference.value == 0


def test_only_the_games_both_sides_played_count(rule_runs: list[EvalResult], random_runs: list[EvalResult]) -> None:
    shorter = evaluate("random", "random", "four_point", matches=2, seed=1, workers=1)
    result = compare(rule_runs, [shorter])  # seed 1's first deal pair only: its deals do not depend on --matches
    assert result.games == 2 and result.score_difference.n == 1
    assert result.new_score == pytest.approx((rule_runs[0].games[0].score_a + rule_runs[0].games[1].score_a) / 2)


def test_runs_that_are_not_the_same_deals_against_the_same_opponent_are_refused(
    rule_runs: list[EvalResult], random_runs: list[EvalResult]
) -> None:
    other_opponent = [dataclasses.replace(r, agent_b="rule") for r in random_runs]
    with pytest.raises(ValueError, match="agent_b is 'random' for the new agent and 'rule' for the baseline"):
        compare(rule_runs, other_opponent)
    house = [dataclasses.replace(r, rule_overrides={"target_score": 21}) for r in random_runs]
    with pytest.raises(ValueError, match="not the same opponent and rules: rule_overrides"):
        compare(rule_runs, house)
    with pytest.raises(
        ValueError, match=r"no game in common: the new agent's runs have seeds \(1,\), the baseline's \(2,\)"
    ):
        compare(rule_runs[:1], random_runs[1:])
    game = dataclasses.replace(random_runs[0].games[3], deal_seed=12345)
    redealt = dataclasses.replace(random_runs[0], games=(*random_runs[0].games[:3], game, *random_runs[0].games[4:]))
    with pytest.raises(ValueError, match="game 3 of seed 1 was dealt differently in the two runs"):
        compare(rule_runs[:1], [redealt])
    with pytest.raises(ValueError, match="seed 1 appears twice"):
        compare([rule_runs[0], rule_runs[0]], random_runs)


def test_the_command_line_reads_the_harness_json_and_errors_in_one_line(
    rule_runs: list[EvalResult], random_runs: list[EvalResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def write(runs: list[EvalResult], name: str) -> list[str]:
        paths = [tmp_path / f"{name}_seed{run.seed}.json" for run in runs]
        for path, run in zip(paths, runs, strict=True):
            path.write_text(json.dumps(run.to_dict()))
        return [str(p) for p in paths]

    new, baseline = write(rule_runs, "rule"), write(random_runs, "random")
    main([*new, "--baseline", *baseline])
    out = capsys.readouterr().out
    assert out.startswith(
        "**rule** against **random**, each playing random on `four_point`: 12 games on the same deals"
    )
    assert "Baseline: **random vs random** on `four_point`, seeds 1, 2 pooled" in out
    with pytest.raises(SystemExit) as exit_info:
        main([new[0], "--baseline", baseline[1]])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("smear-rl compare: error: no game in common")
    (tmp_path / "broken.json").write_text("[1]")
    with pytest.raises(SystemExit):
        main([new[0], "--baseline", str(tmp_path / "broken.json")])
    assert "not an evaluation result" in capsys.readouterr().err
