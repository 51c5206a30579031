"""research/scripts/oracle_bound.py: the all-seeing search behind the ten_point_5p reading against random (results)."""

from smear_env.game import Deal
from tests.file_modules import ROOT, load_module
from training.evaluate.games import MatchConfig
from training.evaluate.lineups import A, lineup
from training.evaluate.tally import Tally

oracle_bound = load_module(ROOT / "research" / "scripts" / "oracle_bound.py")


def _runner(bids: str, play: str, max_hands: int = 3):
    config = MatchConfig(f"{bids}+{play}", "random", "ten_point_5p", 1, max_hands, {})
    return oracle_bound.OracleRunner(config, bids, play)


def test_the_oracle_plays_legal_moves_through_the_harness_games_and_leaves_the_deal_sampler_as_it_was():
    around = Deal.__dict__["around"]
    runner = _runner("oracle", "oracle")
    for index in range(2):  # A holds three seats, then two
        outcome = runner.play(index, [Tally(), Tally()])  # an illegal move raises ValueError
        assert outcome.stopped and runner.env.unwrapped.game.hand_results
    assert Deal.__dict__["around"] is around  # its one-sample bidding patched it only while bidding


def test_each_half_of_a_split_agent_acts_only_in_its_own_phases():
    runner = _runner("rule", "oracle", max_hands=2)
    seen: dict[str, set[str]] = {"bidding": set(), "playing": set()}
    for seat, role in enumerate(lineup(1, runner.teams)):
        if role == A:
            split = runner.agent(A, seat, 0)
            for half in seen:
                agent = getattr(split, half)
                act = agent.act
                agent.act = lambda view, obs=None, act=act, half=half: seen[half].add(view["phase"]) or act(view, obs)
    runner.play(1, [Tally(), Tally()])
    assert seen["playing"] == {"play"}
    assert "bid" in seen["bidding"] and "play" not in seen["bidding"]
