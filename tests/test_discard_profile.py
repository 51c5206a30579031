"""scripts/discard_profile.py: the discard counts behind the warm-start diagnosis in docs/results.md."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "discard_profile.py"


def _profile():
    spec = importlib.util.spec_from_file_location("discard_profile", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_seat_discards_down_to_six_cards_in_each_hand_counted():
    counts = _profile().discard_counts("ten_point_midwest", "random", hands=5, seed=0)
    assert counts["hands"] == 5
    assert counts["discards"] == 5 * 4 * (10 - 6)  # four seats, dealt 10, play 6


def test_random_throws_trump_away_where_the_rules_allow_it_and_the_rule_bot_keeps_its_points():
    profile = _profile()
    random_counts = profile.discard_counts("ten_point_midwest", "random", hands=10, seed=0)
    rule_counts = profile.discard_counts("ten_point_midwest", "rule", hands=10, seed=0)
    assert random_counts["trump"] > 0 and random_counts["scoring trump"] > 0
    assert rule_counts["scoring trump"] == 0


def test_a_preset_dealt_its_six_cards_counts_its_hands_and_no_discards():
    counts = _profile().discard_counts("pitch_smudge", "rule", hands=3, seed=0)
    assert counts["hands"] == 3 and counts["discards"] == 0
