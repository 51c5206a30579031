"""Self-play training for Bohemian Schneider: the Smear trainer over the Schneider engine, end to end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import smear_env  # noqa: E402
from agents.neural_agent import NeuralAgent  # noqa: E402
from agents.registry import agent_names, make_agent  # noqa: E402
from agents.shipped import shipped_policy_path  # noqa: E402
from smear_env.schneider.game import NUM_ACTIONS, ROUND_POINTS, SchneiderRules  # noqa: E402
from smear_env.schneider.observation import OBSERVATION_SIZE, player_view  # noqa: E402
from tests.policies import match_reward_added, uniform_policy  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.evaluate import evaluate  # noqa: E402
from training.export import agent_from_checkpoint, export_checkpoint  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.schneider_selfplay import SchneiderCollector  # noqa: E402

SCHNEIDER = "bohemian_schneider"
TINY = {
    "preset": SCHNEIDER, "total_steps": 400, "num_games": 4, "rollout_steps": 120, "hidden": [32],
    "minibatch": 64, "epochs": 2, "bc_hands": 6, "bc_chunk_hands": 3, "snapshot_every": 1, "checkpoint_every": 1,
    "eval_every_minutes": 0.0, "eval_matches": 2, "final_eval_matches": 2,
    "opp_self": 0.4, "opp_pool": 0.3, "opp_rule": 0.2, "opp_random": 0.1,
}  # fmt: skip


def schneider_config(**changes: object):  # noqa: ANN201 - a TrainConfig
    return config_from_dict({**TINY, **changes})


@pytest.fixture(scope="module")
def schneider_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("schneider_run")
    Trainer(schneider_config(), out).run(progress=False)
    return out


def test_a_schneider_run_records_the_game_its_network_plays(schneider_run: Path) -> None:
    data = load_checkpoint(schneider_run / "checkpoint.pt", SchneiderRules())
    assert data["game"] == SCHNEIDER and data["rules"] == {"num_rounds": 2}
    assert (data["observation_size"], data["num_actions"]) == (OBSERVATION_SIZE, NUM_ACTIONS)
    assert data["step"] >= 400 and data["pool"]
    rows = (schneider_run / "curve.csv").read_text().splitlines()
    assert [row.split(",")[2] for row in rows[1:]] == ["rule", "random"]
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tags = set(EventAccumulator(str(schneider_run / "tb")).Reload().Tags()["scalars"])
    assert "reward/vs_rule" in tags and not any(tag.startswith("bids/") for tag in tags)  # no auction to chart


def test_a_resumed_schneider_run_reproduces_the_uninterrupted_one(schneider_run: Path, tmp_path: Path) -> None:
    Trainer(schneider_config(), tmp_path).run(progress=False, max_updates=1)
    Trainer(None, tmp_path, resume=tmp_path / "checkpoint.pt").run(progress=False)
    resumed = load_checkpoint(tmp_path / "checkpoint.pt")["model"]
    uninterrupted = load_checkpoint(schneider_run / "checkpoint.pt")["model"]
    assert all(torch.equal(resumed[k], uninterrupted[k]) for k in uninterrupted)


def test_an_exploiter_of_the_shipped_schneider_agent_checkpoints_and_resumes_exactly(tmp_path: Path) -> None:
    """opp_fixed = the shipped neural agent: its seats are saved without its rules and rebuilt on resume."""
    only_fixed = {"opp_self": 0.0, "opp_pool": 0.0, "opp_rule": 0.0, "opp_random": 0.0, "opp_fixed": 1.0}
    config = schneider_config(**only_fixed, fixed_agent="neural", eval_opponents=["fixed"])
    trainer = Trainer(config, tmp_path / "x")
    trainer.run(progress=False)
    assert {m.opponent for m in trainer.collector.matches} == {"fixed"}
    resumed = Trainer(None, tmp_path / "y", resume=tmp_path / "x" / "checkpoint.pt")
    assert [m.game.record() for m in resumed.collector.matches] == [m.game.record() for m in trainer.collector.matches]
    assert all(isinstance(bot, NeuralAgent) for m in resumed.collector.matches for bot in m.bots.values())


def test_the_exported_agent_plays_legal_moves_through_the_harness(schneider_run: Path, tmp_path: Path) -> None:
    policy = export_checkpoint(schneider_run / "agent.pt", tmp_path / "schneider.npz")
    result = evaluate(str(policy), "rule", SCHNEIDER, 4, seed=3, workers=1)
    assert result.a.games == 4
    sampler = evaluate("sample:" + str(schneider_run / "agent.pt"), "random", SCHNEIDER, 2, seed=3, workers=1)
    assert sampler.a.games == 2


def test_the_agent_acts_the_same_from_a_view_alone_as_from_the_env_observation(schneider_run: Path) -> None:
    agent = agent_from_checkpoint(schneider_run / "agent.pt", SchneiderRules())
    env = smear_env.env(preset=SCHNEIDER)
    env.reset(seed=4)
    for _ in range(20):
        name = env.agent_selection
        view, observation = env.unwrapped.view(name), env.observe(name)
        move = agent.act(view)
        assert move == agent.act(view, observation)
        env.step(move)


def test_networks_refuse_the_other_game_naming_it(schneider_run: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="game is 'bohemian_schneider' in the checkpoint but 'smear' here"):
        make_agent(str(schneider_run / "agent.pt"), "ten_point")
    with pytest.raises(ValueError, match="game is 'smear' in the file but 'bohemian_schneider' here"):
        make_agent(str(shipped_policy_path("ten_point")), SCHNEIDER)
    exported = export_checkpoint(schneider_run / "agent.pt", tmp_path / "schneider.npz")
    with pytest.raises(ValueError, match="game is 'bohemian_schneider' in the file but 'smear' here"):
        make_agent(str(exported), "ten_point")
    with pytest.raises(ValueError, match="rule 'num_rounds' is 2 in the checkpoint but 4 here"):
        load_checkpoint(schneider_run / "agent.pt", SchneiderRules(num_rounds=4))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"opp_bold": 0.5}, "opp_bold = 0.5: bohemian_schneider has no 'bold' opponent"),
        ({"opp_searchbid": 0.1}, "has no 'searchbid' opponent"),
        ({"eval_opponents": ["rule", "bold"]}, "bohemian_schneider has no 'bold' bot"),
    ],
)
def test_bidding_bots_are_refused_for_a_game_without_bids(changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        schneider_config(**changes)


def test_the_collector_records_learner_rounds_rewarded_by_the_round_score_difference() -> None:
    collector = SchneiderCollector(SchneiderRules(), 3, {"rule": 1.0}, np.random.default_rng(0), gae_lambda=1.0)
    batch = collector.collect(60, uniform_policy(1), [])
    assert batch.obs.shape[1:] == (OBSERVATION_SIZE,) and batch.masks.shape[1:] == (NUM_ACTIONS,)
    assert batch.masks[np.arange(len(batch)), batch.actions].all()
    # with zero values, gamma 1 and lambda 1, every decision's return is its round's reward: a difference
    # of round scores (each up to 3 x 20 points) over the 20 points of a round
    scaled = batch.returns * ROUND_POINTS
    assert np.allclose(scaled, np.round(scaled), atol=1e-4) and np.abs(scaled).max() <= 3 * ROUND_POINTS
    assert collector.pop_stats()["hands"] >= 1


def test_match_reward_adds_the_two_round_match_outcome_to_the_last_round_only() -> None:
    """The same matches with and without match_reward: a match's last round carries +-it (0 drawn), the first none."""

    def collector(match_reward: float) -> SchneiderCollector:
        return SchneiderCollector(SchneiderRules(), 3, {"rule": 1.0}, np.random.default_rng(4), gae_lambda=1.0,
                                  match_reward=match_reward)  # fmt: skip

    added = match_reward_added(collector, 600, 5.0)
    assert set(np.unique(added)) <= {-5.0, 0.0, 5.0} and -5.0 in added  # uniform play loses to the rule bot
    assert (added == 0).mean() >= 0.4  # a match's first round (about half its decisions) carries no outcome


def test_neural_is_the_shipped_schneider_agent_and_plays_a_match() -> None:
    assert "neural" in agent_names(SCHNEIDER)
    agent = make_agent("neural", SCHNEIDER, 0)
    assert isinstance(agent, NeuralAgent) and agent.path == str(shipped_policy_path(SCHNEIDER))
    game = smear_env.schneider.Game(SchneiderRules(), seed=3)
    while not game.is_over:
        game.apply(agent.act(player_view(game, game.current_player)))
    assert len(game.round_results) == SchneiderRules().num_rounds


def test_distillation_refuses_a_schneider_checkpoint_by_name(
    schneider_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from training.distill import main as distill_main

    with pytest.raises(SystemExit) as exit_info:
        distill_main([str(schneider_run / "agent.pt"), "--matches", "1", "--out", str(tmp_path / "d")])
    assert exit_info.value.code == 2
    assert "plays bohemian_schneider: distillation teaches the Smear search bot's card play" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
