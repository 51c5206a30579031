"""research/scripts/discard_profile.py: the discard counts behind the warm-start diagnosis in the research log."""

from tests.file_modules import ROOT, load_module

discard_profile = load_module(ROOT / "research" / "scripts" / "discard_profile.py")


def test_every_seat_discards_down_to_six_cards_in_each_hand_counted():
    counts = discard_profile.discard_counts("ten_point_midwest", "random", hands=5, seed=0)
    assert counts["hands"] == 5
    assert counts["discards"] == 5 * 4 * (10 - 6)  # four seats, dealt 10, play 6


def test_random_throws_trump_away_where_the_rules_allow_it_and_the_rule_bot_keeps_its_points():
    random_counts = discard_profile.discard_counts("ten_point_midwest", "random", hands=10, seed=0)
    rule_counts = discard_profile.discard_counts("ten_point_midwest", "rule", hands=10, seed=0)
    assert random_counts["trump"] > 0 and random_counts["scoring trump"] > 0
    assert rule_counts["scoring trump"] == 0


def test_a_preset_dealt_its_six_cards_counts_its_hands_and_no_discards():
    counts = discard_profile.discard_counts("pitch_smudge", "rule", hands=3, seed=0)
    assert counts["hands"] == 3 and counts["discards"] == 0
