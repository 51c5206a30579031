"""The universal agent's protocol tables: each target met, not met, or short of its games, read from the data files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from smear_env.house_rules import BASE_PRESETS
from training import universal_eval
from training.evaluate.results import read_results
from training.pool import PooledResult
from training.stats import win_rate
from training.universal_eval import (
    CHOICE_HOUSE_SETS,
    CHOICE_SEEDS,
    SEEDS,
    TARGETS,
    choice_comparison,
    choice_protocol,
    main,
    protocol,
    targets,
    write_tables,
)

EVALS = Path(__file__).resolve().parents[1] / "research" / "evals"


def pooled(wins: int, games: int) -> PooledResult:
    return PooledResult("a", "b", "ten_point", (1,), wins, 0, games - wins, win_rate(wins, 0, games), 0, None, 0.0, ())


@pytest.mark.parametrize(
    ("kind", "wins", "games", "cell"),
    [
        ("specialist", 224, 400, "0.560 met"),
        ("specialist", 196, 400, "0.490 not met"),
        ("specialist", 60, 100, "0.600 (100 of 400 games)"),
        ("search", 210, 400, "0.525 [0.476, 0.573] met"),
        ("search", 196, 400, "0.490 [0.441, 0.539] not met"),  # smear's: the lower bound short of 0.45
        ("random", 194, 200, "0.970 met"),  # no count of games asked
        ("random", 193, 200, "0.965 not met"),
        ("house_rule", 122, 200, "0.610 not met"),
    ],
)
def test_a_cell_says_whether_the_target_is_met_or_how_many_games_it_lacks(
    kind: str, wins: int, games: int, cell: str
) -> None:
    assert TARGETS[kind].cell(pooled(wins, games)) == cell


def test_a_match_up_not_played_shows_a_dash() -> None:
    assert TARGETS["search"].cell(None) == "-"


#: frozen records (a candidate's choice games, never extended) copied under the protocol's names: the table's logic,
#: not the agent's current figures, is what is tested
STAND_INS = {
    "schmier_vs_search": "house12_vs_rule",  # 100 games: short of 400
    "six_point_vs_specialist": "six_point_vs_specialist400",  # 0.412 over 400: not met
    "six_point_vs_search": "smear_vs_specialist400",  # 0.562 over 400: met
    "smear_vs_search": "pitch_smudge_vs_specialist400",  # 0.380 over 400: not met
    "house2_vs_rule": "house13_vs_rule",  # 100 games: short of 200
    "house4_vs_search": "ten_point_5p_vs_random",  # 0.985 over 200: met
}


PRESET_ROWS = [
    "| `schmier` | - | - | 0.820 [0.733, 0.883] (100 of 400 games) |",
    "| `six_point` | - | 0.412 not met | 0.562 [0.514, 0.610] met |",
    "| `smear` | - | - | 0.380 [0.334, 0.428] not met |",
    "| all | 0 of 3 met, 3 not played | 0 of 3 met, 2 not played | 1 of 3 met, 1 short of 400 games |",
]
HOUSE_ROWS = [
    "| 2 | 0.870 (100 of 200 games) | - |",
    "| 4 | - | 0.985 met |",
    "| all | 0 of 2 met, 1 short of 200 games, 1 not played | 1 of 5 needed met, 1 not played |",
]


def test_the_tables_count_the_targets_met_and_read_only_the_protocols_files(tmp_path: Path) -> None:
    for name, record in STAND_INS.items():
        shutil.copy(EVALS / f"universal_choice_match_{record}.json.gz", tmp_path / f"universal_{name}.json.gz")
    shutil.copy(EVALS / "universal_choice_match_smear_vs_specialist400.json.gz", tmp_path)  # not a protocol name
    presets, houses = targets(tmp_path, "universal_").split("\n\n")
    assert presets.splitlines()[2:] == PRESET_ROWS
    assert houses.splitlines()[2:] == HOUSE_ROWS


def test_the_tables_go_into_a_page_where_their_headers_are_and_a_page_without_them_is_left_as_it_was(
    tmp_path: Path,
) -> None:
    page = tmp_path / "agent.md"
    page.write_text("# An agent\n\n| a | b |\n|---|---|\n| old | row |\n\nAfter.\n")
    write_tables(page, ["| a | b |\n|---|---|\n| new | row |"])
    assert page.read_text() == "# An agent\n\n| a | b |\n|---|---|\n| new | row |\n\nAfter.\n"
    with pytest.raises(ValueError, match="no table headed '\\| c \\|'"):
        write_tables(page, ["| a | b |\n|---|---|\n| newer | row |", "| c |\n|---|\n| x |"])
    assert page.read_text() == "# An agent\n\n| a | b |\n|---|---|\n| new | row |\n\nAfter.\n"


def test_the_command_needs_an_agent_unless_it_only_prints_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path)])
    assert stopped.value.code == 2
    assert "the agent to evaluate is needed" in capsys.readouterr().err
    main(["--summary", "--out", str(tmp_path)])
    assert "| all | 0 of 0 met" in capsys.readouterr().out


def test_a_candidate_is_chosen_on_deals_and_house_sets_no_reported_figure_plays() -> None:
    report, choice = protocol(quick=False), choice_protocol()
    assert not set(CHOICE_SEEDS.values()) & set(SEEDS.values())
    assert {m.seed for m in choice} == set(CHOICE_SEEDS.values())
    assert not {m.house for m in report if m.house is not None} & set(CHOICE_HOUSE_SETS)
    assert {m.preset for m in choice if m.games == 400} == set(BASE_PRESETS)  # every preset against its specialist


#: the research log's table of the ``hold_bids`` candidate (2026-12-06), from its frozen choice files and stage 4's
HOLD_BIDS_ROWS = {
    "| `six_point` against its specialist (400 games, seed 701) | 0.672 | 0.688 | +0.015 [-0.019, +0.049] |",
    "| `schmier` against its specialist (400 games, seed 701) | 0.550 | 0.590 | +0.040 [+0.001, +0.079] |",
    "| mean of the 10 presets | 0.545 | 0.560 | +0.015 [+0.003, +0.027] |",
    "| held-out house sets 10 to 39 against the rule bot (30 sets, 100 games each, seed 601; sets at 0.65 or more) "
    "| 0.783 (26) | 0.789 (26) | +0.006 [-0.005, +0.017] |",
    "| `ten_point_5p` against random players (200 games, seed 601, cap 1000; games stopped at the cap) "
    "| 0.973 (11 stopped) | 0.973 (11 stopped) | +0.000 [-0.022, +0.022] |",
}


def test_a_candidates_choice_is_shown_beside_its_baselines_paired_deal_by_deal() -> None:
    rows = set(choice_comparison(EVALS, "universal_choice_holdbids_", "universal_choice_fix_stage4_").splitlines())
    assert rows >= HOLD_BIDS_ROWS


def test_a_choice_against_another_opponent_is_refused_naming_the_match_up() -> None:
    """The ``bids`` candidate's games on four_point were played against ``neural`` after its specialist retired:
    the universal agent, not the specialist stage 4 played. Paired, they once made a fall of 0.139 out of nothing."""
    with pytest.raises(ValueError, match=r"four_point_vs_specialist400: .* cannot be paired: .*agent_b's network"):
        choice_comparison(EVALS, "universal_choice_bids_", "universal_choice_fix_stage4_")


def test_a_choice_shows_only_the_match_ups_both_sides_played(tmp_path: Path) -> None:
    for side in ("new_", "old_"):
        for name in ("six_point_vs_specialist400", "house12_vs_rule"):
            shutil.copy(EVALS / f"universal_choice_bids_{name}.json.gz", tmp_path / f"{side}{name}.json.gz")
    shutil.copy(
        EVALS / "universal_choice_bids_smear_vs_specialist400.json.gz", tmp_path / "new_smear_vs_specialist400.json.gz"
    )
    rows = choice_comparison(tmp_path, "new_", "old_").splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [
        "| `six_point` against its specialist (400 games, seed 701)",
        "| mean of the 1 presets",
        "| held-out house sets 12 to 12 against the rule bot (1 sets, 100 games each, seed 601; sets at 0.65 or more)",
    ]
    assert all(row.endswith("| +0.000 [+0.000, +0.000] |") for row in rows)  # the same games on both sides


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--choice", "--summary"], "name its prefix with --baseline"),
        (["--choice", "--summary", "--prefix", "x_", "--baseline", "y_"], "no choice match-up has files for both"),
        (["--choice", "--summary", "--page", "p.md"], "--choice has no --quick and writes no page"),
        (["--choice", "--quick", "a.npz"], "--choice has no --quick and writes no page"),
        (["--summary", "--baseline", "y_"], "--baseline goes with --choice --summary"),
    ],
)
def test_the_choice_commands_refuse_what_they_cannot_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], error: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--out", str(tmp_path)])
    assert stopped.value.code == 2
    assert error in capsys.readouterr().err


def test_the_choice_plays_its_match_ups_into_prefixed_files_and_skips_those_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[list[str]] = []
    monkeypatch.setattr(universal_eval.evaluate_cli, "main", played.append)
    (tmp_path / "cand_house10_vs_rule.json.gz").write_bytes(b"")  # played already
    main(["agent.npz", "--choice", "--only", "house1", "--prefix", "cand_", "--out", str(tmp_path)])
    assert [argv[argv.index("--json") + 1] for argv in played] == [
        str(tmp_path / f"cand_house{k}_vs_rule.json.gz") for k in range(11, 20)
    ]
    assert {argv[argv.index("--seed") + 1] for argv in played} == {"601"}


def test_the_full_protocol_plays_search_in_the_pages_layout_of_runs_on_consecutive_seeds() -> None:
    searched = {m.name: m for m in protocol(quick=False) if m.opponent == "search"}
    assert searched["smear_vs_search"].runs() == [(101, 100), (102, 100), (103, 100), (104, 100)]
    assert searched["house0_vs_search"].runs() == [(501, 100), (502, 100)]
    assert all(m.runs() == [(m.seed, m.games)] for m in protocol(quick=True) if m.opponent == "search")


def test_a_match_up_in_pieces_pools_them_into_its_file_and_resumes_from_those_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each piece is a run of its own (a stop keeps the pieces played); the match-up's file is written last."""
    played: list[list[str]] = []

    def fake_evaluate(argv: list[str]) -> None:
        played.append(argv)
        shutil.copy(EVALS / "universal_choice_bids_house12_vs_rule.json.gz", argv[argv.index("--json") + 1])

    monkeypatch.setattr(universal_eval.evaluate_cli, "main", fake_evaluate)
    shutil.copy(EVALS / "universal_choice_bids_house12_vs_rule.json.gz", tmp_path / "c_smear_vs_search.seed102.json.gz")
    main(["agent.npz", "--only", "smear_vs_search", "--prefix", "c_", "--out", str(tmp_path)])
    assert [(a[a.index("--seed") + 1], a[a.index("--matches") + 1]) for a in played] == [
        ("101", "100"),
        ("103", "100"),
        ("104", "100"),
    ]
    assert len(read_results(tmp_path / "c_smear_vs_search.json.gz")) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c_smear_vs_search.json.gz"]  # the pieces removed
