"""Every shipped agent has its page, and every figure shown of it comes from the data the page names.

An agent page's results table names, on each row, the file under ``research/evals/`` that holds that
evaluation's runs and games: pooled again, they must give the games, the win rate with its interval and
the points a hand the row shows, and the commit it names. The README's table, the results summary and the
agents overview repeat those figures: they must equal the page's. So a figure cannot drift from its data,
and a new agent cannot ship without its page and rows (docs/agents/TEMPLATE.md).
"""

from __future__ import annotations

import csv
import fnmatch
import re
from functools import cache
from pathlib import Path

import pytest

from agents.neural_agent import load_policy
from agents.shipped import (
    retired_presets,
    shipped_presets,
    specialist_policy_path,
    specialist_presets,
    universal_policy_path,
)
from training.evaluate.results import EvalResult, read_results
from training.pool import PooledResult, pool
from training.universal_eval import targets

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ROOT / "docs" / "agents"
EVALS = ROOT / "research" / "evals"
OPPONENTS = ("random players", "the rule bot", "the search bot", "its exploiter (the exploiter's score)")
ROW = re.compile(
    r"^\| (?P<against>[^|]+?) \| (?P<games>\d+) \([^)]*\) \| (?P<won>[\d.]+ \[[\d.]+, [\d.]+\]) "
    r"\| (?P<reward>[-+][\d.]+|-) \| `(?P<commit>[0-9a-f]{7})` of [\d-]+ "
    r"\| `research/evals/(?P<file>[\w.-]+)`(?: `--seeds (?P<seeds>[\d,]+)`)? \|$"
)


@cache
def page_rows(preset: str) -> dict[str, dict[str, str]]:
    """The results table of ``preset``'s page: opponent -> the row's cells."""
    rows = [ROW.match(line) for line in (AGENTS / f"{preset}.md").read_text().splitlines()]
    return {m["against"]: m.groupdict() for m in rows if m}


def stored(row: dict[str, str]) -> tuple[PooledResult, list[EvalResult]]:
    runs = read_results(EVALS / row["file"])
    if row["seeds"]:
        runs = [run for run in runs if str(run.seed) in row["seeds"].split(",")]
    return pool(runs), runs


def check_row(row: dict[str, str], shown: str, shipped: str, side: int) -> None:
    """A results row's games, win rate, interval, points a hand and commit are its data file's, played by
    ``shipped`` (the digest of the network each run records) as agent A (``side`` 0) or B."""
    pooled, runs = stored(row)
    assert int(row["games"]) == pooled.games, shown
    assert row["won"] == pooled.win_rate.as_text(), shown
    reward = "-" if pooled.paired_reward is None else f"{pooled.paired_reward.value:+.2f}"
    assert row["reward"] == reward, shown
    assert any(row["commit"] in run.code_version for run in runs), shown
    assert {run.weights[side].split()[0] for run in runs} == {shipped}, f"{shown}: not the shipped network"


def page_decision_ms(preset: str) -> str:
    found = re.search(r"A decision takes it a median of ([\d.]+) ms", (AGENTS / f"{preset}.md").read_text())
    assert found, f"{preset}'s page gives no decision time"
    return found.group(1)


def table_rows(path: Path, link: str) -> dict[str, list[str]]:
    """Rows of the tables in ``path`` whose first cell links an agent page (``link`` is the pages' folder)."""
    rows = {}
    for line in path.read_text().splitlines():
        found = re.match(rf"^\| \[[^\]]+\]\({re.escape(link)}(\w+)\.md\) \|(.*)\|$", line)
        if found:
            rows[found.group(1)] = [cell.strip() for cell in found.group(2).split("|")]
    return rows


def test_every_shipped_agent_has_a_page_in_the_site_and_a_row_in_each_table() -> None:
    """Every specialist has its page, retired ones too; the tables list the ones that play as ``neural``."""
    presets, specialists = shipped_presets(), specialist_presets()
    nav = (ROOT / "mkdocs.yml").read_text()
    universal = ["universal"] if universal_policy_path() else []  # its page has a table of its own (below)
    pages = sorted(p.stem for p in AGENTS.glob("*.md") if p.stem not in ("index", "TEMPLATE"))
    assert pages == sorted(specialists + universal)
    for preset in specialists:
        assert f"agents/{preset}.md" in nav, f"{preset}'s page is not in mkdocs.yml's nav"
        assert set(page_rows(preset)) == set(OPPONENTS), f"{preset}'s page lacks a results row"
    for preset in retired_presets():
        assert (AGENTS / f"{preset}.md").read_text().startswith(f"# The `{preset}` agent (retired)\n")
    assert sorted(table_rows(ROOT / "README.md", "docs/agents/")) == presets
    assert sorted(table_rows(ROOT / "docs" / "results.md", "agents/")) == presets
    assert sorted(table_rows(AGENTS / "index.md", "")) == presets


@pytest.mark.parametrize("preset", specialist_presets())
def test_each_result_on_an_agent_page_is_what_its_data_file_holds(preset: str) -> None:
    """Games, win rate, interval, points a hand and commit as the runs hold them, played by the shipped network."""
    shipped = load_policy(specialist_policy_path(preset)).fingerprint  # each run records the digest of what it played
    for against, row in page_rows(preset).items():
        side = 1 if against == OPPONENTS[3] else 0  # the exploiter is agent A of its runs, the shipped agent B
        check_row(row, f"{against} on {preset}'s page", shipped, side)
    rule = stored(page_rows(preset)["the rule bot"])[1]
    assert page_decision_ms(preset) == f"{rule[0].a.median_ms:.2f}"


@pytest.mark.parametrize("preset", shipped_presets())
def test_the_readme_the_results_and_the_overview_show_each_agents_figures_as_its_page(preset: str) -> None:
    rows = page_rows(preset)
    win = {against: rows[against]["won"] for against in OPPONENTS}
    decision = f"{page_decision_ms(preset)} ms"
    readme = table_rows(ROOT / "README.md", "docs/agents/")[preset]
    assert readme[1:] == [win[OPPONENTS[0]].split()[0], win[OPPONENTS[1]].split()[0], win[OPPONENTS[2]].split()[0],
                          decision]  # fmt: skip
    results = table_rows(ROOT / "docs" / "results.md", "agents/")[preset]
    games = rows[OPPONENTS[2]]["games"]
    search = win[OPPONENTS[2]] + ("" if games == "400" else f" ({games} games)")
    assert results == [win[OPPONENTS[0]], win[OPPONENTS[1]], search, win[OPPONENTS[3]], decision]
    overview = table_rows(AGENTS / "index.md", "")[preset]
    assert overview[1:] == [win[OPPONENTS[1]].split()[0], win[OPPONENTS[2]].split()[0], decision]


def test_every_evaluation_file_the_docs_name_exists_and_every_stored_file_reads() -> None:
    files = sorted(p.name for p in EVALS.iterdir())
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    named = {m for page in pages for m in re.findall(r"research/evals/([\w.*$<>{},-]+)", page.read_text())}
    named |= {m for page in pages for m in re.findall(r"`(\w[\w.*-]*\.json\.gz)`", page.read_text())}  # a bare name
    missing = []
    for name in named:
        name = name.rstrip(".,")
        if "<" in name or "$" in name or not name:
            continue  # a pattern the prose explains (<match-up>), or a shell loop's variable
        if not any(fnmatch.fnmatch(f, name) or fnmatch.fnmatch(f, f"{name}*") for f in files):
            missing.append(name)
    assert not missing, f"docs name evaluation files that do not exist: {sorted(missing)}"
    for name in files:
        if name.endswith(".json.gz"):
            assert read_results(EVALS / name), name


UNIVERSAL_ROW = re.compile(
    r"^\| (?P<rules>[^|]+?) \| (?P<against>[^|]+?) \| (?P<games>\d+) \([^)]*\) \| (?P<won>[\d.]+ \[[\d.]+, [\d.]+\]) "
    r"\| (?P<reward>[-+][\d.]+|-) \| (?P<commits>`[0-9a-f]{7}` of [\d-]+(?:, `[0-9a-f]{7}` of [\d-]+)*) "
    r"\| `research/evals/(?P<file>[\w.-]+)` \|$"
)


def universal_rows() -> list[dict[str, str]]:
    page = (AGENTS / "universal.md").read_text().splitlines()
    return [m.groupdict() | {"seeds": None} for m in map(UNIVERSAL_ROW.match, page) if m]


@pytest.mark.skipif(universal_policy_path() is None, reason="this version ships no universal agent")
def test_each_result_on_the_universal_agents_page_is_what_its_data_file_holds() -> None:
    """One row a preset or house-rule set and opponent, each the shipped universal network's games."""
    rows = universal_rows()
    # the choice's games, candidates' under measurement, and the version shipped before (paired with this one)
    others = ("universal_choice_", "universal_candidate_", "universal_focus2_")
    files = {p.name for p in EVALS.glob("universal_*_vs_*.json.gz") if not p.name.startswith(others)}
    assert {row["file"] for row in rows} == files, "a data file of the universal page has no row, or a row no file"
    shipped = load_policy(universal_policy_path()).fingerprint
    for row in rows:
        shown = f"{row['rules']} against {row['against']} on the universal agent's page"
        commits = re.findall(r"`([0-9a-f]{7})`", row["commits"])
        check_row(row | {"commit": commits[0]}, shown, shipped, 0)
        measured = [version.split("+g")[-1][:7] for version in stored(row)[0].code_versions]
        assert commits == list(dict.fromkeys(measured)), f"{shown}: the commits its runs were measured at"
    assert "agents/universal.md" in (ROOT / "mkdocs.yml").read_text()


@pytest.mark.skipif(universal_policy_path() is None, reason="this version ships no universal agent")
def test_the_universal_agents_targets_are_what_its_data_files_hold() -> None:
    """Its page's two tables of targets met are those the protocol's summary writes from the data files."""
    page = (AGENTS / "universal.md").read_text()
    for table in targets(EVALS, "universal_").split("\n\n"):
        assert table in page, f"rewrite them with training.universal_eval --summary (the page says how):\n{table}"


#: the universal agent's opponents that the README's and the results' table of the retired presets show, in order
RETIRED_COLUMNS = ("random players", "the rule bot", "the search bot", "its preset's specialist")


def rules_rows(path: Path, link: str) -> dict[str, list[str]]:
    """Rows of the tables in ``path`` whose first cell links a rules page (``link`` is the rules' folder)."""
    rows = {}
    for line in path.read_text().splitlines():
        found = re.match(rf"^\| \[(\w+)\]\({re.escape(link)}(\w+)\.md\) \|(.*)\|$", line)
        if found and found.group(1) == found.group(2):
            rows[found.group(2)] = [cell.strip() for cell in found.group(3).split("|")]
    return rows


@pytest.mark.skipif(universal_policy_path() is None, reason="this version ships no universal agent")
def test_the_readme_and_the_results_show_the_universal_agent_on_each_retired_preset_as_its_page() -> None:
    """Where a specialist retired, the tables show what neural plays there now: the universal agent's figures."""
    page = {(row["rules"], row["against"]): row for row in universal_rows()}
    readme = rules_rows(ROOT / "README.md", "docs/rules/")
    results = rules_rows(ROOT / "docs" / "results.md", "rules/")
    assert sorted(readme) == sorted(results) == retired_presets()
    for preset in retired_presets():
        rows = [page.get((f"`{preset}`", against)) for against in RETIRED_COLUMNS]
        won = [row["won"] if row else "-" for row in rows]  # "-": not measured yet
        decision = f"{stored(rows[1])[1][0].a.median_ms:.2f} ms"  # its games against the rule bot
        assert results[preset] == [*won, decision], f"{preset} in docs/results.md"
        assert readme[preset] == [w.split()[0] for w in won] + [decision], f"{preset} in the README"


EXPLOITER_ROW = re.compile(
    r"^  \| (?P<rules>[^|]+?) \| (?P<version>this version|the second version|the first version) \| (?P<command>[^|]+?) "
    r"\| (?P<decisions>[\d.]+) M \| (?P<won>[\d.]+) \[(?P<low>[\d.]+), (?P<high>[\d.]+)\] "
    r"\| `research/curves/(?P<file>[\w.-]+)` \|$"
)


@pytest.mark.skipif(universal_policy_path() is None, reason="this version ships no universal agent")
def test_each_exploiter_on_the_universal_agents_page_is_its_curves_last_evaluation() -> None:
    """An exploiter's row shows the 1000 games against the frozen agent that end its curve, and its decisions."""
    rows = [m.groupdict() for m in map(EXPLOITER_ROW.match, (AGENTS / "universal.md").read_text().splitlines()) if m]
    assert len(rows) >= 6, "the universal agent's page lacks its exploiter rows"
    for row in rows:
        with (ROOT / "research" / "curves" / row["file"]).open(newline="") as curve:
            final = [evaluation for evaluation in csv.DictReader(curve) if evaluation["opponent"] == "fixed"][-1]
        shown = f"{row['rules']} ({row['version']}) on the universal agent's page"
        assert final["matches"] == "1000", shown
        for page, curve in (("won", "win_rate"), ("low", "ci_low"), ("high", "ci_high")):
            assert float(row[page]) == pytest.approx(float(final[curve]), abs=6e-4), f"{shown}: {page}"
        assert float(row["decisions"]) == pytest.approx(int(final["step"]) / 1e6, abs=0.006), f"{shown}: decisions"
