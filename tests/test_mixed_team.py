"""research/scripts/mixed_team.py: a team whose seats play two agents, behind the schmier distillation reading."""

from agents.random_agent import RandomAgent
from agents.rule_bot import RuleAgent
from tests.file_modules import ROOT, load_module
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.lineups import A, lineup
from training.evaluate.tally import Tally

mixed_team = load_module(ROOT / "research" / "scripts" / "mixed_team.py")


def test_the_first_seats_of_a_team_play_the_mixed_agent_in_either_game_of_a_pair():
    runner = mixed_team.MixedRunner(MatchConfig("rule", "rule", "schmier", 1, 2, {}), "random", 2)
    for index in (0, 1):
        runner.play(index, [Tally(), Tally()])
        a_seats = [s for s, role in enumerate(lineup(index, runner.teams)) if role == A]
        kinds = [type(runner._agents[(A, seat)]) for seat in a_seats]
        assert kinds == [RandomAgent, RandomAgent, RuleAgent]


def test_with_no_mixed_seat_the_games_are_the_harness_own():
    config = MatchConfig("rule", "random", "ten_point", 1, 200, {})
    plain = [Runner(config).play(i, [Tally(), Tally()]).score_a for i in range(4)]
    wins, _ = mixed_team.play("rule", "random", "random", "ten_point", 0, 4)
    assert wins == sum(plain)
