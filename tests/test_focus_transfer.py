"""research/scripts/focus_transfer.py: two agents on a focused stage's most-drawn sets, on fresh deals."""

import json
from pathlib import Path

from tests.file_modules import ROOT, load_module
from training.focus import FocusSet

focus_transfer = load_module(ROOT / "research" / "scripts" / "focus_transfer.py")


def test_the_most_drawn_sets_are_played_by_both_agents(tmp_path: Path, capsys) -> None:
    sets = [FocusSet("ten_point", {"target_score": 21, "follow": "strict"}, 4, 3.0, 0.2),
            FocusSet("smear", {"jokers": 0, "num_hands": 5}, 4, 1.0, 0.8)]  # fmt: skip
    path = tmp_path / "focus.json"
    path.write_text(json.dumps([f.to_dict() for f in sets]))
    rows = focus_transfer.transfer(path, "random", "rule", top=1, games=2, seed=0)
    assert rows == [("smear: jokers=0, num_hands=5", "0.250", rows[0][2], rows[0][3])]  # the most drawn only
    assert all(float(share) in (0.0, 0.5, 1.0) for share in rows[0][2:])  # two games each: won none, one or both
    focus_transfer.main([str(path), "random", "rule", "--top", "2", "--games", "2"])
    out = capsys.readouterr().out
    assert "| mean of 2 | 0.500 |" in out and 'ten_point: follow="strict", target_score=21 | 0.750 |' in out
