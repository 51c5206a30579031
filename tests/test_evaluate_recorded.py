"""Fixed small evaluations give exactly the numbers recorded before the harness was split into modules.

``tests/data/evaluations_recorded.json`` holds, for several presets (two teams,
called partners, everyone alone, six players, house rules, games stopped by
``max_hands``, Bohemian Schneider), the ``results_only()`` of a small evaluation
between random players, recorded on ``main`` before ``training/evaluate.py`` became
a package. A refactor of the harness must leave every number as it was: every
game's seat lineup, deal seed, score and hand reward, and every agent's tallies
and intervals. Random players keep the record independent of the bots' play; a
deliberate change of the engine's play would change it, and then it is recorded
again with ``python -m tests.test_evaluate_recorded --record``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from training.evaluate import evaluate

RECORDED = Path(__file__).parent / "data" / "evaluations_recorded.json"


def _cases() -> list[dict[str, Any]]:
    return json.loads(RECORDED.read_text())["cases"]


def _results(case: dict[str, Any]) -> dict[str, Any]:
    """The case's evaluation, as its JSON would read back (tuples become lists)."""
    return json.loads(json.dumps(evaluate(**case["evaluate"], workers=1).results_only()))


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case["evaluate"]["preset"])
def test_a_fixed_evaluation_gives_the_recorded_numbers(case: dict[str, Any]) -> None:
    assert _results(case) == case["results"]


def _record() -> None:
    """Run every recorded case again and write what it gives now, with the commit it was recorded on."""
    data = json.loads(RECORDED.read_text())
    for case in data["cases"]:
        case["results"] = _results(case)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True, check=True)
    data["recorded_on"] = commit.stdout.strip()
    RECORDED.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python -m tests.test_evaluate_recorded --record")
    _record()
