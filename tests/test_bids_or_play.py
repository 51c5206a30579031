"""research/scripts/bids_or_play.py: seats made of one agent's auction and another's play."""

from typing import Any

import pytest

import smear_env
from agents.base import Agent
from agents.random_agent import RandomAgent
from tests.file_modules import ROOT, load_module
from training.evaluate.games import MatchConfig, Runner, play_game
from training.evaluate.tally import Tally

bids_or_play = load_module(ROOT / "research" / "scripts" / "bids_or_play.py")


class Recorder(RandomAgent):
    """A random player that notes the phase of every move it is asked for ("lead" for a lead that sets trump)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.phases: set[str] = set()

    def act(self, view: dict[str, Any], observation: Any = None) -> int:
        self.phases.add("lead" if view["phase"] == "play" and view["trump"] is None else view["phase"])
        return super().act(view, observation)


def halves_phases(preset: str) -> tuple[set[str], set[str]]:
    """The phases the bidding halves and the playing halves were asked to move in, over one game of ``preset``."""
    env = smear_env.raw_env(preset=preset)
    bidders, players = [Recorder(k) for k in range(4)], [Recorder(10 + k) for k in range(4)]
    seats: list[Agent] = [bids_or_play.Halves(b, p, k) for k, (b, p) in enumerate(zip(bidders, players, strict=True))]
    play_game(env, seats, seed=2, max_hands=200)
    return set().union(*(b.phases for b in bidders)), set().union(*(p.phases for p in players))


def test_the_bidding_half_plays_the_auction_and_the_other_half_the_discards_and_tricks() -> None:
    assert halves_phases("ten_point") == ({"bid", "trump"}, {"discard", "play"})


def test_where_the_first_lead_sets_trump_that_lead_goes_with_the_bids() -> None:
    assert halves_phases("pitch_smudge") == ({"bid", "lead"}, {"play"})


def test_an_agent_made_of_its_own_halves_scores_what_the_harness_gives_it() -> None:
    rules = {"target_score": 11}
    runner, tallies = Runner(MatchConfig("rule", "random", "ten_point", 4, 200, rules)), [Tally(), Tally()]
    harness = sum(runner.play(game, tallies).score_a for game in range(6)) / 6
    assert bids_or_play.score("rule", "rule", "random", "ten_point", rules, games=6, seed=4) == harness


def test_a_held_out_house_set_is_played_under_its_changes(capsys) -> None:
    bids_or_play.main(["rule", "random", "--house", "7", "--games", "2", "--seed", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert "joker_rank" in lines[0] and [line.split()[0] for line in lines[1:]] == ["the", "its", "the"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--house", "-1"], "--house: -1 is out of range: expected an integer >= 0"),
        (["--preset", "minnesota", "--house", "0"], "--preset and --rule do not go with it"),
        (["--games", "3"], "--games 3: expected an even count"),
        (["--games", "0"], "--games: 0 is out of range: expected an integer >= 2"),
    ],
)
def test_a_table_it_cannot_play_is_a_usage_error(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        bids_or_play.main(["rule", "random", *argv])
    assert stop.value.code == 2 and message in capsys.readouterr().err
