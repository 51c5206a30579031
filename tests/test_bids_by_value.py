"""research/scripts/bids_by_value.py: each side's winning bids by value, behind the house set 7 exploiter's reading."""

from tests.file_modules import ROOT, load_module
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.tally import Tally

bids_by_value = load_module(ROOT / "research" / "scripts" / "bids_by_value.py")


def test_each_sides_bids_and_makes_add_up_to_what_the_harness_counts_on_the_same_games() -> None:
    rules = {"target_score": 11}
    counts = bids_by_value.bids_by_value("random", "rule", "ten_point", rules, games=6, seed=3)
    runner, tallies = Runner(MatchConfig("random", "rule", "ten_point", 3, 200, rules)), [Tally(), Tally()]
    for game_index in range(6):
        runner.play(game_index, tallies)
    for side, tally in zip(("agent", "opponent"), tallies, strict=True):
        rows = [row for (who, _), row in counts.items() if who == side]
        assert sum(hands for hands, _, _ in rows) == tally.bids > 0, side
        assert sum(made for _, made, _ in rows) == tally.made, side
    assert all(2 <= bid <= 10 and 0 <= points <= 10 * hands for (_, bid), (hands, _, points) in counts.items())


def test_a_held_out_house_set_is_played_under_its_changes(capsys) -> None:
    bids_by_value.main(["rule", "rule", "--house", "7", "--games", "2", "--seed", "1"])
    out = capsys.readouterr().out
    assert "joker_rank" in out.splitlines()[0] and "bidder's points a hand" in out
