"""research/scripts/card_play_gap.py: the network's card play and 12-sample search's, judged by a many-sample search."""

import numpy as np
import pytest

pytest.importorskip("torch")

from tests.file_modules import ROOT, load_module  # noqa: E402

card_play_gap = load_module(ROOT / "research" / "scripts" / "card_play_gap.py")


CHEAP = "search:samples=4,time_budget=30,bid_by=rule"  # bounded by samples, not time: the same moves every run


def test_every_network_card_choice_is_judged_by_each_search_and_reproducibly():
    agent = str(ROOT / "agents" / "shipped" / "pitch_smudge.npz")
    rows = card_play_gap.gaps(agent, matches=1, reference=4, seed=1, opponent=CHEAP)
    assert rows.shape[1] == len(card_play_gap.COLUMNS) and len(rows) > 10
    assert (rows >= 0).all()  # points given up against the best card of the judging values
    assert (rows[:, 0] == 0).any() and (rows[:, 0] > 0).any()  # the network plays the reference's card, not always
    np.testing.assert_array_equal(rows, card_play_gap.gaps(agent, 1, 4, 1, CHEAP))
