"""A stopped evaluation resumes from its journal and gives what an uninterrupted one gives."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from training.evaluate import evaluate
from training.evaluate import run as evaluate_run
from training.evaluate.cli import main
from training.evaluate.results import read_results

GAMES = 24  # 12 deal pairs: chunks of at most 8 pairs, so two or more chunks with two workers
SETUP = {"agent_a": "rule", "agent_b": "random", "preset": "ten_point", "matches": GAMES, "seed": 7}
SHORT = {**SETUP, "matches": 4}


def _journal_lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def _played(path: Path) -> set[int]:
    return {pair for line in _journal_lines(path)[1:] for pair in json.loads(line)["pairs"]}


def test_a_journal_keeps_every_game_and_changes_no_result(tmp_path: Path) -> None:
    journal = tmp_path / "run.partial"
    kept = evaluate(**SETUP, workers=2, journal=journal)
    assert kept.results_only() == evaluate(**SETUP, workers=1).results_only()
    assert _played(journal) == set(range(GAMES // 2))
    assert json.loads(_journal_lines(journal)[0])["setup"]["weights"] == [None, None]


@pytest.mark.parametrize("keep", [[1], [2], [1, 3]], ids=["first chunk", "a later chunk", "chunks apart"])
def test_a_stopped_evaluation_plays_only_what_it_lacks_and_gives_the_same_result(
    tmp_path: Path, keep: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = tmp_path / "run.partial"
    whole = evaluate(**SETUP, workers=1, journal=journal)
    lines = _journal_lines(journal)
    assert len(lines) >= 4, "the test needs three chunks or more"
    cut = lines[0] + "".join(lines[k] for k in keep) + lines[-1][: len(lines[-1]) // 2]  # the last line cut short
    journal.write_text(cut)
    kept = {pair for k in keep for pair in json.loads(lines[k])["pairs"]}
    asked: list[int] = []
    run_chunks = evaluate_run.run_chunks

    def counting(config, shares, workers, progress):  # type: ignore[no-untyped-def]
        asked.extend(pair for share in shares for pair in share)
        return run_chunks(config, shares, workers, progress)

    monkeypatch.setattr(evaluate_run, "run_chunks", counting)
    resumed = evaluate(**SETUP, workers=2, journal=journal)
    assert sorted(asked) == sorted(set(range(GAMES // 2)) - kept)
    assert resumed.results_only() == whole.results_only()
    assert _played(journal) == set(range(GAMES // 2))
    assert all(json.loads(line)["run"] == 1 for line in _journal_lines(journal)[1 + len(keep) :])


def test_a_finished_journal_gives_its_result_without_playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = tmp_path / "run.partial"
    whole = evaluate(**SETUP, workers=1, journal=journal)
    monkeypatch.setattr(evaluate_run, "run_chunks", lambda *args: pytest.fail("nothing was left to play"))
    again = evaluate(**SETUP, workers=1, journal=journal)
    assert again.results_only() == whole.results_only()
    assert again.wall_seconds == pytest.approx(whole.wall_seconds, rel=0.5)


@pytest.mark.parametrize(
    ("change", "named"),
    [({"seed": 8}, "its seed is 7, here 8"), ({"matches": 6}, "its matches is 4, here 6"),
     ({"agent_b": "rule"}, "its agent_b is 'random', here 'rule'")],
)  # fmt: skip
def test_a_journal_of_another_evaluation_is_refused_and_left_as_it_was(
    tmp_path: Path, change: dict[str, object], named: str
) -> None:
    journal = tmp_path / "run.partial"
    evaluate(**SHORT, workers=1, journal=journal)
    before = journal.read_bytes()
    with pytest.raises(ValueError, match=f"holds the games of another evaluation: {named}"):
        evaluate(**{**SHORT, **change}, workers=1, journal=journal)
    assert journal.read_bytes() == before


def _rewrite_setup(journal: Path, **setup: object) -> None:
    lines = _journal_lines(journal)
    header = json.loads(lines[0])
    header["setup"].update(setup)
    journal.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))


def test_a_journal_resumes_after_a_commit_that_changed_no_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = tmp_path / "run.partial"
    whole = evaluate(**SHORT, workers=1, journal=journal)
    _rewrite_setup(journal, code_version="0.1.0+g0123456789ab")  # a docs-only commit: same code digest
    monkeypatch.setattr(evaluate_run, "run_chunks", lambda *args: pytest.fail("nothing was left to play"))
    assert evaluate(**SHORT, workers=1, journal=journal).results_only() == whole.results_only()


def test_a_journal_written_before_code_digests_is_refused_saying_so(tmp_path: Path) -> None:
    journal = tmp_path / "run.partial"
    evaluate(**SHORT, workers=1, journal=journal)
    lines = _journal_lines(journal)
    header = json.loads(lines[0])
    del header["setup"]["code_digest"]
    journal.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with pytest.raises(ValueError, match="written before journals recorded their code's digest"):
        evaluate(**SHORT, workers=1, journal=journal)


def test_a_journal_of_other_code_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    journal = tmp_path / "run.partial"
    evaluate(**SHORT, workers=1, journal=journal)
    _rewrite_setup(journal, code_digest="0000000000000000")
    before = journal.read_bytes()
    with pytest.raises(ValueError, match="its code_digest is '0000000000000000', here '[0-9a-f]{16}'"):
        evaluate(**SHORT, workers=1, journal=journal)
    assert journal.read_bytes() == before


@pytest.mark.parametrize(
    ("text", "says"),
    [("not json\n", "not an evaluation journal"), ('{"journal": 99, "setup": {}}\n', "not an evaluation journal"),
     (None, "line 2: not JSON"), (None, "line 2: not a chunk of games"), (None, "some deal pairs twice")],
    ids=["not json", "another layout", "a broken line", "a line of something else", "a chunk twice"],
)  # fmt: skip
def test_a_damaged_journal_is_refused_clearly_and_left_as_it_was(tmp_path: Path, text: str | None, says: str) -> None:
    journal = tmp_path / "run.partial"
    if text is None:
        evaluate(**SHORT, workers=1, journal=journal)
        header, *chunks = _journal_lines(journal)
        if "twice" in says:
            text = header + chunks[0] + chunks[0]
        else:
            text = header + ("{broken\n" if "JSON" in says else '{"pairs": [0]}\n') + '{"also": "whole"}\n'
    journal.write_text(text)
    with pytest.raises(ValueError, match=says):
        evaluate(**SHORT, workers=1, journal=journal)
    assert journal.read_text() == text


def test_a_journal_game_of_the_wrong_type_is_refused_naming_its_field(tmp_path: Path) -> None:
    """A journal's games are read as a results file's are: a stopped of "no" would count as stopped."""
    journal = tmp_path / "run.partial"
    evaluate(**SHORT, workers=1, journal=journal)
    header, chunk, *rest = _journal_lines(journal)
    data = json.loads(chunk)
    data["games"][1]["stopped"] = "no"
    text = header + json.dumps(data) + "\n" + "".join(rest)
    journal.write_text(text)
    with pytest.raises(ValueError, match=r"line 2: not a chunk of games .*field 'game.stopped' is 'no' \(str\)"):
        evaluate(**SHORT, workers=1, journal=journal)
    assert journal.read_text() == text


def test_the_cli_keeps_a_journal_beside_its_json_resumes_it_and_removes_it_when_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "result.json.gz"
    argv = ["rule", "random", "--matches", str(GAMES), "--seed", "7", "--workers", "1", "--no-progress", "--json"]
    main([*argv, str(out)])
    whole = read_results(out)[0]
    assert not Path(f"{out}.partial").exists()
    journal = Path(f"{out}.partial")
    evaluate(**SETUP, workers=1, journal=journal)  # as a stopped run leaves it: its first two chunks
    journal.write_text("".join(_journal_lines(journal)[:3]))
    out.unlink()
    capsys.readouterr()
    main([*argv, str(out)])
    assert f"continuing from the games kept in {journal}" in capsys.readouterr().err
    assert read_results(out)[0].results_only() == whole.results_only()
    assert not journal.exists()
    assert json.loads(gzip.decompress(out.read_bytes()))["matches"] == GAMES


def test_a_journal_that_cannot_be_written_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot write the evaluation journal .*missing"):
        evaluate(**SHORT, workers=1, journal=tmp_path / "missing" / "run.partial")
