"""What an installed smear-rl offers: the commands' help, the version it records, configs by name, its extras."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from smear_env import version
from smear_rl import bench, cli
from training.config import list_configs, load_config

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_command_explains_itself(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        cli.main([command, "--help"])
    except SystemExit as done:
        assert done.code == 0
    out = capsys.readouterr().out
    assert f"smear-rl {command}" in out
    explanation = [line for line in out.splitlines() if line.strip() and not line.lstrip().startswith(("usage", "-"))]
    assert len(explanation) >= 3, out


def test_bench_measures_agents_and_refuses_an_unknown_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["bench", "agents", "--preset", "minnesota", "--agents", "random", "rule", "--decisions", "20"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| random ", "| rule "))]
    assert [row.split(" | ")[1] for row in rows] == ["20", "20"]
    with pytest.raises(SystemExit) as refused:
        bench.main(["speed"])
    assert refused.value.code == 2 and "unknown benchmark 'speed'" in capsys.readouterr().err


def test_bench_env_prints_one_row_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    bench.env_main(["--seconds", "0.05", "--repeats", "1", "--slices", "1", "--presets", "smear", "six_point"])
    rows = [line.split(" | ")[0] for line in capsys.readouterr().out.splitlines() if line.startswith("| s")]
    assert rows == ["| smear", "| six_point"]


def test_an_installed_package_records_its_version_not_a_surrounding_repository(tmp_path: Path) -> None:
    other = tmp_path / "someone_elses_repo"  # a venv inside another project: its git commit says nothing about us
    other.mkdir()
    (other / "pyproject.toml").write_text('[project]\nname = "other"\n')
    subprocess.run(["git", "init", "-q"], cwd=other, check=True)
    assert version._checkout_commit(other) is None
    assert version._checkout_commit(tmp_path / "site-packages") is None


def test_a_source_checkout_adds_its_commit() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    recorded = version.code_version()
    assert recorded.startswith(version.package_version() + "+g")
    assert recorded.split("+g")[1].split(".")[0].isalnum()


def test_evaluation_results_and_checkpoints_record_the_code_version(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import torch

    from training.checkpoint import save_checkpoint
    from training.evaluate import evaluate

    result = evaluate("random", "random", preset="pitch_smudge", matches=2, seed=0, workers=1, max_hands=2)
    assert result.code_version == version.code_version()
    save_checkpoint(tmp_path / "c.pt", {"step": 1})
    assert torch.load(tmp_path / "c.pt", weights_only=True)["code_version"] == version.code_version()


def test_training_configs_ship_and_load_by_name() -> None:
    assert {"ten_point", "ten_point_quick", "minnesota", "ten_point_exploiter"} <= set(list_configs())
    assert load_config("minnesota", ["seed=3"]).seed == 3
    # The message lists every shipped config, sorted, so a user sees the names to choose from.
    listed = re.escape(", ".join(sorted(list_configs())))
    with pytest.raises(ValueError, match=rf"'tenpoint' is neither a file nor a shipped config: .*{listed}"):
        load_config("tenpoint")


def test_the_core_needs_no_training_or_evaluation_packages() -> None:
    core = PYPROJECT["project"]["dependencies"]
    assert not [d for d in core if d.startswith(("openskill", "tqdm", "torch"))]
    script = (
        "import sys\n"
        "for m in ('torch', 'tqdm', 'openskill', 'tensorboard'): sys.modules[m] = None\n"
        "import smear_env\n"
        "from agents.demo import play_match\n"
        "from agents.registry import make_agent\n"
        "record = play_match('minnesota', 1, [make_agent('rule', 'minnesota') for _ in range(4)], 3, verbose=False)\n"
        "env = smear_env.single_agent_env('ten_point')\n"
        "env.reset(seed=0)\n"
        "print(len(record['deals']) >= 1)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "True"


def test_every_extra_the_commands_and_docs_name_exists() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {"train", "serve", "rllib", "dev", "docs", "eval", "sb3", "torchrl"} <= set(extras)
    assert {extra for _, extra, _ in cli.COMMANDS.values() if extra} <= set(extras)
    for name in ("rllib", "sb3", "torchrl"):
        assert any(d.startswith("torch>=") for d in extras[name]), name  # torch from the constraints, not a CUDA pull


def test_ci_has_every_extra_the_recipe_tests_need() -> None:
    """scripts/test.sh sets SMEAR_REQUIRE_EXTRAS: there the recipe tests must run, not skip for a missing extra."""
    if not os.environ.get("SMEAR_REQUIRE_EXTRAS"):
        pytest.skip("only where scripts/test.sh installed the extras")
    for module in ("sb3_contrib", "ray.rllib", "torchrl", "mkdocs", "mkdocstrings", "torch", "openskill"):
        importlib.import_module(module)


def test_the_code_version_is_the_checkout_as_it_was_when_the_process_first_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run that outlives a commit records the commit it started from: the version is worked out once."""
    first = version.code_version()
    monkeypatch.setattr(version, "_checkout_commit", lambda root: "gchangedlater")
    assert version.code_version() == first


def test_the_code_digest_follows_the_code_and_nothing_else(tmp_path: Path) -> None:
    """A resumed run compares code by this digest: docs and data leave it, any source file's change moves it."""
    for package in version.PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(f'"""{package}."""\n')
    first = version.sources_digest(tmp_path)
    (tmp_path / "README.md").write_text("docs\n")
    (tmp_path / "agents" / "weights.npz").write_bytes(b"not code")
    assert version.sources_digest(tmp_path) == first
    (tmp_path / "training" / "stage.py").write_text("STEPS = 1\n")
    second = version.sources_digest(tmp_path)
    assert second != first
    (tmp_path / "training" / "stage.py").write_text("STEPS = 2\n")
    third = version.sources_digest(tmp_path)
    assert third not in (first, second)
    (tmp_path / "configs" / "rules").mkdir(parents=True)  # a rule preset decides play as code does
    (tmp_path / "configs" / "rules" / "ten_point.toml").write_text("target_score = 11\n")
    fourth = version.sources_digest(tmp_path)
    (tmp_path / "configs" / "rules" / "ten_point.toml").write_text("target_score = 21\n")
    (tmp_path / "agents" / "eval.json").write_text("{}")
    assert len({first, second, third, fourth, version.sources_digest(tmp_path)}) == 5
    assert version.code_digest() == version.sources_digest(version.SOURCE_ROOT)


def test_shipped_agents_named_by_their_repository_path_are_found_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exploiter configs name agents/shipped/<x>.npz: run outside the clone's root they once failed."""
    from agents.registry import make_agent
    from agents.shipped import SHIPPED_DIR, resolve_shipped

    monkeypatch.chdir(tmp_path)
    assert resolve_shipped("agents/shipped/minnesota.npz") == str(SHIPPED_DIR / "minnesota.npz")
    assert resolve_shipped("agents/shipped/none.npz") == "agents/shipped/none.npz"  # refused later, as given
    (tmp_path / "agents" / "shipped").mkdir(parents=True)
    (tmp_path / "agents" / "shipped" / "minnesota.npz").write_bytes(b"mine")
    assert resolve_shipped("agents/shipped/minnesota.npz") == "agents/shipped/minnesota.npz"  # a file here wins
    (tmp_path / "agents" / "shipped" / "minnesota.npz").unlink()
    assert make_agent("agents/shipped/minnesota.npz:match_moon=false", "minnesota").match_moon is False
    assert not make_agent("sample:agents/shipped/retired/six_point.npz", "six_point").greedy
    pytest.importorskip("torch")
    from training.checkpoint import load_checkpoint

    assert load_checkpoint("agents/shipped/ten_point.npz")["config"]["preset"] == "ten_point"
