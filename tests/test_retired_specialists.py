"""A specialist retires where the universal agent beat it; neural there is the universal agent, the specialist teaches.

Issue 64's rule: where the universal agent wins 50% or more head to head against a preset's
specialist over 400 games, the specialist stops playing as ``neural``. Its file stays (in
``agents/shipped/retired/``) because the universal recipe's imitation stages learn from it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.registry import make_agent
from agents.shipped import (
    RETIRED_DIR,
    SHIPPED_DIR,
    retired_presets,
    specialist_policy_path,
    universal_policy_path,
)
from smear_env.rules import get_rules
from training.evaluate.results import read_results
from training.pool import PooledResult, pool
from training.teachers import SpecialistTeacher
from training.universal_eval import protocol

ROOT = Path(__file__).resolve().parents[1]
RETIRED = retired_presets()


def test_four_specialists_are_retired() -> None:
    assert RETIRED == ["four_point", "schmier", "six_point", "ten_point_5p"]


#: the universal agent's version whose games retired the four specialists (2026-12-06), and the shipped one's
RETIRED_BY, SHIPPED = "universal_focus2_", "universal_"


def head_to_head(prefix: str, preset: str) -> PooledResult:
    """A version's 400 games against ``preset``'s specialist on the report's seed 201 (its page's data)."""
    result = pool(read_results(ROOT / "research" / "evals" / f"{prefix}{preset}_vs_specialist.json.gz"))
    assert result.games >= 400 and result.preset == preset
    return result


@pytest.mark.parametrize("preset", RETIRED)
def test_the_universal_agent_beat_each_retired_specialist_by_its_whole_interval_over_400_games(preset: str) -> None:
    """The evidence behind each retirement: the version that retired it won by its whole interval."""
    result = head_to_head(RETIRED_BY, preset)
    assert result.win_rate.low > 0.5, result.markdown()


@pytest.mark.parametrize("preset", RETIRED)
def test_the_shipped_universal_agent_still_wins_half_against_each_retired_specialist(preset: str) -> None:
    """A later version, which plays those presets now, ships only where it still wins half its games there."""
    result = head_to_head(SHIPPED, preset)
    assert result.win_rate.value >= 0.5, result.markdown()


@pytest.mark.parametrize("preset", RETIRED)
def test_neural_on_a_retired_preset_is_the_universal_agent(preset: str) -> None:
    agent = make_agent("neural", preset, 0)
    assert Path(agent.path) == universal_policy_path()
    assert not (SHIPPED_DIR / f"{preset}.npz").exists()


@pytest.fixture(scope="module")
def teacher() -> SpecialistTeacher:
    return SpecialistTeacher()  # loads every specialist's file: once for the module


@pytest.mark.parametrize("preset", RETIRED)
def test_a_retired_specialist_still_teaches_its_preset_and_is_the_protocols_specialist(
    preset: str, teacher: SpecialistTeacher
) -> None:
    assert specialist_policy_path(preset) == RETIRED_DIR / f"{preset}.npz"
    rules = get_rules(preset)
    assert teacher.who(rules) == preset
    assert not teacher.policies[preset].differences(rules)  # trained for exactly these rules
    head_to_head = next(m for m in protocol(quick=False) if m.name == f"{preset}_vs_specialist")
    assert head_to_head.opponent == str(specialist_policy_path(preset))


def test_a_preset_without_a_specialist_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="no specialist of 'universal': the presets with one are .*six_point"):
        specialist_policy_path("universal")
