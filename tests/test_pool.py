"""Pooling evaluations run on several seeds: counts add up, mismatched or repeated runs are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training.evaluate import evaluate
from training.pool import load_result, main, pool
from training.stats import win_rate


@pytest.fixture(scope="module")
def runs():
    return [evaluate("rule", "random", "four_point", matches=6, seed=seed, workers=1) for seed in (1, 2)]


def test_pooled_counts_are_the_sums_and_the_interval_is_the_totals(runs) -> None:
    pooled = pool(runs)
    assert pooled.seeds == (1, 2)
    assert pooled.games == 12
    assert (pooled.wins, pooled.draws, pooled.losses) == tuple(
        sum(getattr(r.a, key) for r in runs) for key in ("wins", "draws", "losses")
    )
    assert pooled.win_rate == win_rate(pooled.wins, pooled.draws, 12)
    assert pooled.wall_seconds == pytest.approx(sum(r.wall_seconds for r in runs))


def test_a_repeated_seed_is_refused(runs) -> None:
    with pytest.raises(ValueError, match="seed 1 appears twice: runs with one seed replay the same deals"):
        pool([runs[0], runs[0]])


def test_different_match_ups_are_refused(runs) -> None:
    other = evaluate("random", "random", "four_point", matches=2, seed=3, workers=1)
    with pytest.raises(ValueError, match="agent_a is 'rule' in the first result and 'random' in the run with seed 3"):
        pool([runs[0], other])
    with pytest.raises(ValueError, match="nothing to pool"):
        pool([])


def test_the_command_line_reads_the_json_the_harness_writes(runs, tmp_path: Path, capsys) -> None:
    paths = []
    for run in runs:
        paths.append(tmp_path / f"seed{run.seed}.json")
        paths[-1].write_text(json.dumps(run.to_dict()))
    main([str(p) for p in paths])
    assert "**rule vs random** on `four_point`, seeds 1, 2 pooled: 12 games" in capsys.readouterr().out
    broken = tmp_path / "broken.json"
    broken.write_text('{"agent_a": "rule"}')
    with pytest.raises(ValueError, match="broken.json: not an evaluation result"):
        load_result(broken)
