"""research/scripts/moon_profile.py: the moon counts behind the minnesota moon diagnosis in the research log."""

from tests.file_modules import ROOT, load_module
from training.evaluate import evaluate

moon_profile = load_module(ROOT / "research" / "scripts" / "moon_profile.py")

SHIPPED = str(ROOT / "agents" / "shipped" / "minnesota.npz")


def test_it_plays_the_harness_games_so_its_losses_are_the_harness_losses():
    counts = moon_profile.moon_profile(SHIPPED, "rule", "minnesota", matches=40, seed=3, max_hands=200)
    result = evaluate(SHIPPED, "rule", "minnesota", matches=40, seed=3, workers=1)
    assert counts["A lost"] == result.reports[0].losses


def test_a_loss_on_a_moon_is_one_of_the_moons_that_failed():
    network = "neural:match_moon=false"  # the shipped network's own moon calls
    counts = moon_profile.moon_profile(network, "random", "minnesota", matches=60, seed=1, max_hands=200)
    moons = sum(n for key, n in counts.items() if key.startswith("A moon"))
    assert moons > 0  # the network shoots the moon against random players
    for start in ("above 0", "0 or less"):
        assert counts[f"A lost on its moon from {start}"] <= counts[f"A moon from {start} set"]
    assert counts["A lost on its moon from above 0"] + counts["A lost on its moon from 0 or less"] <= counts["A lost"]


def test_a_failed_moon_always_ends_the_match_so_every_one_of_them_is_a_loss():
    counts = moon_profile.moon_profile(SHIPPED, "rule", "minnesota", matches=40, seed=2, max_hands=200)
    for start in ("above 0", "0 or less"):
        assert counts[f"A lost on its moon from {start}"] == counts[f"A moon from {start} set"]
