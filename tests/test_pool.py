"""Pooling evaluations run on several seeds: counts add up, mismatched or repeated runs are refused."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from smear_env import get_rules
from training.evaluate import EvalResult, evaluate
from training.evaluate.results import read_results, write_results
from training.pool import main, pool
from training.stats import mean_interval


@pytest.fixture(scope="module")
def runs() -> list[EvalResult]:
    return [evaluate("rule", "random", "four_point", matches=2, seed=seed, workers=1) for seed in (1, 2)]


def with_record(run: EvalResult, wins: int, draws: int, losses: int, stopped: int = 0) -> EvalResult:
    """``run`` with agent A's record replaced by a known one."""
    a = dataclasses.replace(run.a, wins=wins, draws=draws, losses=losses, games=wins + draws + losses)
    return dataclasses.replace(run, reports=(a, run.b), stopped=stopped)


def test_pooled_counts_add_up_and_the_interval_is_the_totals(runs: list[EvalResult]) -> None:
    pooled = pool([with_record(runs[0], 5, 2, 1, stopped=2), with_record(runs[1], 2, 0, 2)])
    assert (pooled.wins, pooled.draws, pooled.losses, pooled.games, pooled.stopped) == (7, 2, 3, 12, 2)
    assert pooled.seeds == (1, 2)
    assert pooled.win_rate.value == pytest.approx(8 / 12)  # a draw is half a win
    # Wilson 95% for 8 of 12, worked by hand: centre 0.6263, half-width 0.2356
    assert (pooled.win_rate.low, pooled.win_rate.high) == pytest.approx((0.3906, 0.8619), abs=1e-4)
    assert pooled.run_seconds == pytest.approx(sum(r.wall_seconds for r in runs))
    assert pooled.paired_reward == mean_interval(runs[0].pair_rewards() + runs[1].pair_rewards())
    older = dataclasses.replace(runs[1], games=tuple(dataclasses.replace(g, reward_a=None) for g in runs[1].games))
    assert pool([runs[0], older]).paired_reward is None  # results written before hand rewards were kept


def test_the_code_versions_the_runs_recorded_are_named(runs: list[EvalResult]) -> None:
    older = dataclasses.replace(runs[1], code_version="unrecorded")
    pooled = pool([runs[0], older])
    assert pooled.code_versions == (runs[0].code_version, "unrecorded")
    assert "code " + ", ".join(pooled.code_versions) in pooled.markdown()


def test_a_repeated_seed_is_refused(runs: list[EvalResult]) -> None:
    with pytest.raises(ValueError, match="seed 1 appears twice: runs with one seed replay the same deals"):
        pool([runs[0], runs[0]])


def test_different_match_ups_are_refused(runs: list[EvalResult]) -> None:
    other = dataclasses.replace(runs[1], agent_a="random")
    with pytest.raises(ValueError, match="agent_a is 'rule' in the first result and 'random' in the run with seed 2"):
        pool([runs[0], other])
    house = dataclasses.replace(runs[1], rule_overrides={"target_score": 21})
    with pytest.raises(ValueError, match="rule_overrides is {} in the first result"):
        pool([runs[0], house])
    late = dataclasses.replace(runs[1], start="late")
    with pytest.raises(ValueError, match="start is 'new' in the first result and 'late' in the run with seed 2"):
        pool([runs[0], late])
    with pytest.raises(ValueError, match="nothing to pool"):
        pool([])


def test_an_override_that_restates_the_preset_is_the_same_rules(runs: list[EvalResult]) -> None:
    restated = dataclasses.replace(runs[1], rule_overrides={"target_score": get_rules("four_point").target_score})
    assert pool([runs[0], restated]).games == runs[0].a.games + runs[1].a.games


def test_the_command_line_reads_the_harness_json_and_names_files_in_errors(
    runs: list[EvalResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = []
    for run in runs:
        paths.append(tmp_path / f"seed{run.seed}.json")
        paths[-1].write_text(json.dumps(run.to_dict()))
    main([str(p) for p in paths])
    assert "**rule vs random** on `four_point`, seeds 1, 2 pooled: 4 games" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(paths[0]), str(paths[0])])
    assert f"{paths[0]} has seed 1" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{"agent_a": "rule"}')
    with pytest.raises(ValueError, match="broken.json: not an evaluation result .*missing field"):
        read_results(broken)
    with pytest.raises(ValueError, match="cannot read .*absent.json"):
        read_results(tmp_path / "absent.json")


def test_runs_saved_together_compressed_read_back_whole_and_pool_as_the_files_did(
    runs: list[EvalResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [write_results(tmp_path / f"seed{run.seed}.json", [run]) for run in runs]
    main([str(p) for p in paths] + ["--save", str(tmp_path / "both.json.gz")])
    from_files = capsys.readouterr().out
    saved = tmp_path / "both.json.gz"
    assert saved.read_bytes()[:2] == b"\x1f\x8b" and read_results(saved) == runs  # every field and game kept
    main([str(saved)])
    assert capsys.readouterr().out == from_files
    again = write_results(tmp_path / "again.json.gz", runs)
    assert again.read_bytes() == saved.read_bytes()  # no time stamp: the same runs make the same bytes
    with pytest.raises(SystemExit):  # seed 1 twice: nothing pooled, nothing saved
        main([str(paths[0]), str(saved), "--save", str(tmp_path / "refused.json.gz")])
    assert f"{paths[0]} has seed 1, {saved} has seed 1, {saved} has seed 2" in capsys.readouterr().err
    assert not (tmp_path / "refused.json.gz").exists()


def test_some_seeds_of_a_file_pool_alone(
    runs: list[EvalResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = write_results(tmp_path / "both.json.gz", runs)
    main([str(saved), "--seeds", "2"])
    assert "seed 2: 2 games" in capsys.readouterr().out
    for seeds, message in (("3", "--seeds: no run of seed 3 in"), ("2,x", "is not a list of seeds like 2,3,4")):
        with pytest.raises(SystemExit):
            main([str(saved), "--seeds", seeds])
        assert message in capsys.readouterr().err


def test_a_file_that_is_not_results_is_refused_saying_what_it_holds(tmp_path: Path) -> None:
    for name, content, problem in [
        ("list.json", b"[1, 2]", "not an object or a list of objects"),
        ("cut.json.gz", b"\x1f\x8b\x08\x00junk", ""),
        ("empty.json", b"[]", "not an object or a list of objects"),
    ]:
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ValueError, match=f"{name}: not an evaluation result .*{problem}"):
            read_results(tmp_path / name)


def test_one_network_under_two_file_names_pools_and_two_networks_do_not(tmp_path: Path) -> None:
    shipped = "agents/shipped/ten_point.npz"
    copy = tmp_path / "copy.npz"
    copy.write_bytes(Path(shipped).read_bytes())
    runs = [
        evaluate(agent, "random", "ten_point", matches=2, seed=s, max_hands=1, workers=1)
        for s, agent in ((1, shipped), (2, str(copy)), (3, "neural"))
    ]
    assert runs[0].weights[0] == runs[1].weights[0] == runs[2].weights[0] and runs[0].weights[1] is None
    assert runs[0].weights[0].endswith(" greedy")
    pooled = pool(runs)
    assert pooled.games == 6 and pooled.agent_a == f"{shipped} (the same network as {copy}, neural)"
    sampled = evaluate(f"sample:{copy}", "random", "ten_point", matches=2, seed=4, max_hands=1, workers=1)
    assert sampled.weights[0].endswith(" sampled")
    with pytest.raises(
        ValueError,
        match="agent_a's network .weights. is '.* greedy' in the first result and '.* sampled' in the run with seed 4",
    ):
        pool([runs[0], sampled])  # the same weights played another way
    other = evaluate("agents/shipped/minnesota.npz", "random", "minnesota", matches=2, seed=2, max_hands=1, workers=1)
    unrecorded = dataclasses.replace(runs[1], weights=(None, None))  # a result written before weights were kept
    with pytest.raises(ValueError, match="agent_a is .* in the first result and .*copy.npz' in the run with seed 2"):
        pool([runs[0], unrecorded])
    assert other.weights[0] != runs[0].weights[0]
    again = EvalResult.from_dict(json.loads(json.dumps(runs[1].to_dict())))
    assert again.weights == runs[1].weights and pool([runs[0], again]).games == 4
    copy.write_bytes(Path("agents/shipped/universal.npz").read_bytes())  # the file overwritten, its name kept
    overwritten = evaluate(str(copy), "random", "ten_point", matches=2, seed=5, max_hands=1, workers=1)
    with pytest.raises(ValueError, match="agent_a's network .weights. is .* in the run with seed 5"):
        pool([runs[1], overwritten])  # one name, two networks: not one agent
