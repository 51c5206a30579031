"""research/scripts/moon_drill.py: the forced moons behind the minnesota moon-play figures in the research log."""

import numpy as np
import pytest

from smear_env.game import PLAY, TRUMP
from smear_env.rules import get_rules
from tests.file_modules import ROOT, load_module
from training.fit_moon_odds import forced_moon_rows

moon_drill = load_module(ROOT / "research" / "scripts" / "moon_drill.py")
DEALS = range(200_000, 200_012)


def test_its_moons_are_the_fits_forced_moons_played_the_same_way():
    rows = moon_drill.drill(DEALS)
    assert list(rows["made"]) == [made for _, made in forced_moon_rows(DEALS)]


def test_the_network_substituted_for_itself_changes_no_deal():
    rows = moon_drill.drill(DEALS, "neural", "defence", {TRUMP, PLAY})
    assert list(rows["substituted"]) == list(rows["made"])


def test_another_player_on_the_moon_side_plays_the_same_deals():
    rows = moon_drill.drill(range(200_000, 200_040), "rule", "moon", {PLAY})
    assert len(rows["substituted"]) == len(rows["made"]) == 40
    assert (rows["substituted"] != rows["made"]).any()  # the rule bot plays some moon the network does not


def test_the_rollout_estimate_is_a_share_of_its_play_outs():
    rows = moon_drill.drill(range(200_000, 200_003), rollouts=4)
    assert set(rows["rollouts"]) <= {0, 0.25, 0.5, 0.75, 1}
    assert ((rows["fitted"] > 0) & (rows["fitted"] < 1)).all()


def test_auc_counts_ties_half():
    made = np.array([True, True, False, False])
    assert moon_drill.auc(np.array([0.9, 0.8, 0.2, 0.1]), made) == 1.0
    assert moon_drill.auc(np.array([0.1, 0.2, 0.8, 0.9]), made) == 0.0
    assert moon_drill.auc(np.full(4, 0.5), made) == 0.5


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--moon", "rule", "--phases", "trumps"], "--phases 'trumps': expected a comma-separated list among"),
        (["--deals", "20"], "nothing to measure: expected --moon, --defence, --rollouts or --auction"),
        (["--moon", "rule", "--defence", "rule"], "not allowed with argument"),
    ],
)
def test_it_refuses_bad_arguments(argv, message, capsys):
    with pytest.raises(SystemExit):
        moon_drill.main(argv)
    assert message in capsys.readouterr().err


def test_the_auction_features_read_the_bids_by_seat_after_the_mooner():
    a = moon_drill.A
    assert moon_drill.auction_features({}) == [0.0, 0.0, 0.0, 0.0, 0.0]
    seen = {1: a.BID_BASE + 3, 2: a.PASS, 3: a.PASS}  # left-hand opponent bid 3, partner and the other passed
    assert moon_drill.auction_features(seen) == [1.0, 0.0, 3.0, 1.0, 3.0]
    assert moon_drill.auction_features({2: a.BID_BASE + 4}) == [0.0, 4.0, 0.0, 0.0, 1.0]


def test_an_auction_moon_is_shot_after_the_seats_before_it_bid():
    rules = get_rules("minnesota")
    bots = [moon_drill.make_agent("neural", rules, seed=seat) for seat in range(4)]
    rows = [moon_drill.auction_moon(rules, bots, i) for i in range(16)]
    kept = [row for row in rows if row is not None]
    assert kept, "the network seldom moons or calls a misdeal before the mooner"
    for i, row in enumerate(rows):
        if row is not None:
            bids_seen = row[1][-1]
            assert bids_seen == (i // 4 % 4 - i % 4 - 1) % 4  # the seats from the dealer's left up to the mooner
