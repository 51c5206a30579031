"""Self-play training: a tiny run end to end, exact resume, masked sampling, checkpoint errors, configs."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.registry import make_agent  # noqa: E402
from agents.shipped import shipped_policy_path  # noqa: E402
from smear_env.actions import MOON, PASS  # noqa: E402
from smear_env.game import OVER, Game  # noqa: E402
from smear_env.observation import Observer, observation_size, player_view, vector_from_view  # noqa: E402
from smear_env.rules import Rules, get_rules  # noqa: E402
from tests.policies import match_reward_added  # noqa: E402
from training.checkpoint import load_checkpoint, save_checkpoint  # noqa: E402
from training.config import TrainConfig, config_from_dict, load_config, opponent_mix, parse_overrides  # noqa: E402
from training.evaluate import evaluate  # noqa: E402
from training.export import agent_from_checkpoint  # noqa: E402
from training.model import ILLEGAL_LOGIT, PolicyValueNet, sample_actions  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.selfplay import OPPONENT_KINDS, Collector, match_outcomes, torch_policy  # noqa: E402
from training.stopping import StopRequested  # noqa: E402

TINY = {
    "total_steps": 600, "num_games": 6, "rollout_steps": 200, "hidden": [32], "minibatch": 64, "epochs": 2,
    "bc_hands": 16, "bc_chunk_hands": 8, "snapshot_every": 1, "checkpoint_every": 1, "eval_every_minutes": 0.0,
    "eval_matches": 2, "final_eval_matches": 2, "opp_self": 0.4, "opp_pool": 0.3, "opp_rule": 0.2, "opp_random": 0.1,
}  # fmt: skip


def tiny_config(**changes: object) -> TrainConfig:
    return config_from_dict({**TINY, **changes})


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    Trainer(tiny_config(), out).run(progress=False)
    return out


def weights(path: Path) -> dict[str, torch.Tensor]:
    return load_checkpoint(path)["model"]


def test_tiny_run_writes_loadable_checkpoints_and_tensorboard_events(tiny_run: Path) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    data = load_checkpoint(tiny_run / "checkpoint.pt", get_rules("ten_point"))
    assert data["step"] >= 600 and data["update"] >= 3 and data["optimizer"] and data["pool"]
    agent_file = load_checkpoint(tiny_run / "agent.pt")
    assert "optimizer" not in agent_file and "state" not in agent_file
    events = EventAccumulator(str(tiny_run / "tb")).Reload()
    tags = set(events.Tags()["scalars"])
    for tag in ("loss/policy_loss", "loss/value_loss", "loss/entropy", "loss/explained_variance",
                "speed/decisions_per_second", "eval/win_rate_vs_rule", "eval/win_rate_vs_random",
                "imitation/accuracy", "bids/learner_bid_rate"):  # fmt: skip
        assert tag in tags, tag
    rows = (tiny_run / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("train_minutes,step,opponent") and len(rows) == 3  # rule and random, at the end


def test_resume_reproduces_an_uninterrupted_run(tiny_run: Path, tmp_path: Path) -> None:
    Trainer(tiny_config(), tmp_path).run(progress=False, max_updates=1)
    interrupted = weights(tmp_path / "checkpoint.pt")
    assert any(not torch.equal(interrupted[k], v) for k, v in weights(tiny_run / "checkpoint.pt").items())
    Trainer(None, tmp_path, resume=tmp_path / "checkpoint.pt").run(progress=False)
    resumed, uninterrupted = weights(tmp_path / "checkpoint.pt"), weights(tiny_run / "checkpoint.pt")
    assert all(torch.equal(resumed[k], uninterrupted[k]) for k in uninterrupted)


def test_a_run_asked_to_stop_saves_after_its_update_and_resumes_to_the_uninterrupted_weights(
    tiny_run: Path, tmp_path: Path
) -> None:
    with pytest.raises(StopRequested, match="stopped after update 1, saved in .*checkpoint.pt"):
        Trainer(tiny_config(checkpoint_every=100), tmp_path).run(progress=False, stop=lambda: True)  # asked at once
    assert load_checkpoint(tmp_path / "checkpoint.pt")["update"] == 1
    Trainer(None, tmp_path, resume=tmp_path / "checkpoint.pt").run(progress=False)
    resumed, uninterrupted = weights(tmp_path / "checkpoint.pt"), weights(tiny_run / "checkpoint.pt")
    assert all(torch.equal(resumed[k], uninterrupted[k]) for k in uninterrupted)


def test_same_seed_same_weights_other_seed_other_weights(tiny_run: Path, tmp_path: Path) -> None:
    Trainer(tiny_config(total_steps=1, bc_hands=0), tmp_path / "a").run(progress=False)
    Trainer(tiny_config(total_steps=1, bc_hands=0), tmp_path / "b").run(progress=False)
    Trainer(tiny_config(total_steps=1, bc_hands=0, seed=1), tmp_path / "c").run(progress=False)
    a, b, c = (weights(tmp_path / x / "agent.pt") for x in "abc")
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_masked_sampling_never_picks_an_illegal_action() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = rng.random((16, 181)) < rng.uniform(0.005, 0.5)
        mask[np.arange(16), rng.integers(181, size=16)] = True  # never empty
        raw = rng.normal(scale=30, size=(16, 181)).astype(np.float32)
        raw[~mask] += 1000  # illegal actions would win without the mask
        logits = np.where(mask, raw, np.float32(ILLEGAL_LOGIT))
        actions = sample_actions(logits, rng)
        assert mask[np.arange(16), actions].all()


def test_neural_agent_plays_legal_moves_through_the_harness(tiny_run: Path) -> None:
    agent = str(tiny_run / "agent.pt")
    result = evaluate(agent, "rule", "ten_point", 4, seed=3, workers=1)
    assert result.a.games == 4
    sampler = evaluate("sample:" + agent, "random", "ten_point", 2, seed=3, workers=1)
    assert sampler.a.games == 2


def test_neural_agent_same_seed_same_moves(tiny_run: Path) -> None:
    def moves(seed: int) -> list[int]:
        rules = get_rules("ten_point")
        agent = make_agent("sample:" + str(tiny_run / "agent.pt"), rules, seed)
        game, out = Game(rules, seed=5, single_hand=True), []
        while not game.is_over:
            out.append(agent.act(player_view(game, game.current_player)))
            game.apply(out[-1])
        return out

    assert moves(1) == moves(1)


def test_neural_agent_accepts_view_only_or_observation(tiny_run: Path) -> None:
    import smear_env

    env = smear_env.env(preset="ten_point")
    env.reset(seed=2)
    agent = agent_from_checkpoint(tiny_run / "agent.pt", get_rules("ten_point"))
    name = env.agent_selection
    assert agent.act(env.unwrapped.view(name)) == agent.act(env.unwrapped.view(name), env.observe(name))


@pytest.mark.parametrize("preset", ["ten_point", "minnesota", "ten_point_5p", "schmier", "pitch_smudge"])
def test_vector_from_view_equals_the_env_observation_at_every_step(preset: str) -> None:
    rules = get_rules(preset)
    game, observer, rng = Game(rules, seed=11), Observer(rules.num_players), random.Random(4)
    for _ in range(400):
        if game.is_over:
            break
        for seat in range(rules.num_players):
            assert np.array_equal(observer.vector(game, seat), vector_from_view(player_view(game, seat), rules))
        game.apply(rng.choice(game.legal_actions()))


def test_checkpoint_for_other_rules_fails_naming_the_difference(tiny_run: Path) -> None:
    with pytest.raises(ValueError, match="other rules.*target_score"):
        agent_from_checkpoint(tiny_run / "agent.pt", get_rules("ten_point", target_score=21))
    with pytest.raises(ValueError, match="rule 'num_players' is 4 in the checkpoint but 5 here"):
        make_agent(str(tiny_run / "agent.pt"), "ten_point_5p", 0)  # one vector size for all: the rules tell


def test_checkpoint_with_another_observation_layout_fails(tiny_run: Path, tmp_path: Path) -> None:
    data = load_checkpoint(tiny_run / "agent.pt")
    data["observation_version"] = 0
    save_checkpoint(tmp_path / "old.pt", {k: v for k, v in data.items() if k not in ("format", "format_version")})
    with pytest.raises(ValueError, match="observation layout 0 cannot be read as layout 3"):
        agent_from_checkpoint(tmp_path / "old.pt", get_rules("ten_point"))


def test_corrupt_truncated_and_foreign_files_fail_clearly(tiny_run: Path, tmp_path: Path) -> None:
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint at all")
    blob = (tiny_run / "agent.pt").read_bytes()
    (tmp_path / "cut.pt").write_bytes(blob[: len(blob) // 2])
    torch.save({"weights": torch.zeros(3)}, tmp_path / "foreign.pt")
    for name, message in (("junk.pt", "not a readable"), ("cut.pt", "not a readable"), ("foreign.pt", "no 'smear")):
        with pytest.raises(ValueError, match=message):
            agent_from_checkpoint(tmp_path / name)
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(tmp_path / "missing.pt")
    with pytest.raises(ValueError, match="agent only"):
        Trainer(None, tmp_path / "r", resume=tiny_run / "agent.pt")


def test_config_errors_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown field 'lerning_rate'"):
        config_from_dict({"lerning_rate": 1.0})
    with pytest.raises(ValueError, match="did you mean 'lr'"):
        config_from_dict({"lrr": 1.0})
    with pytest.raises(ValueError, match="num_games = 'many'"):
        config_from_dict({"num_games": "many"})
    with pytest.raises(ValueError, match="preset = 'bridge'"):
        config_from_dict({"preset": "bridge"})
    with pytest.raises(ValueError, match="eval_matches = 3"):
        config_from_dict({"eval_matches": 3})
    with pytest.raises(ValueError, match="match_reward = -1.0: expected zero or more"):
        config_from_dict({"match_reward": -1.0})
    (tmp_path / "bad.toml").write_text("lr = = 3")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_config(tmp_path / "bad.toml")
    with pytest.raises(ValueError, match="expected name=value"):
        parse_overrides(["lr"])


def test_shipped_configs_and_the_research_records_load_and_overrides_apply() -> None:
    """The configs a user runs and the historical stages kept as records (research/configs) are all valid."""
    configs = sorted(Path("configs/train").glob("*.toml")) + sorted(Path("research/configs").glob("*.toml"))
    assert len(configs) > 40
    for path in configs:
        overrides = ["lr=1e-4", "hidden=[64, 64]"]
        if tomllib.loads(path.read_text()).get("fixed_agent", "").startswith("runs/"):
            overrides.append('fixed_agent="rule"')  # an earlier stage's output, absent from a fresh clone
        config = load_config(path, overrides)
        assert config.lr == 1e-4 and config.hidden == [64, 64]


@pytest.mark.parametrize("preset", ["ten_point", "minnesota"])
def test_shipped_agents_load_as_checkpoints_for_their_preset_and_play_legal_matches(preset: str) -> None:
    path = shipped_policy_path(preset)
    data = load_checkpoint(path, get_rules(preset))
    assert path.stat().st_size < 5_000_000 and data["preset"] == preset
    result = evaluate(str(path), "rule", preset, 2, seed=0, workers=1)
    assert result.a.games == 2


def test_a_run_starts_from_a_shipped_agents_file_exactly(tmp_path: Path) -> None:
    """init_from reads the shipped .npz (no .pt ships): the run's network is the file's, weight for weight."""
    path = shipped_policy_path("ten_point")
    trainer = Trainer(tiny_config(init_from=str(path), hidden=[256, 256], card_head=18, bc_hands=0), tmp_path / "ft")
    start = trainer.net.state_dict()
    shipped = load_checkpoint(path)["model"]
    assert sorted(start) == sorted(shipped) and all(torch.equal(start[k], v) for k, v in shipped.items())


def test_resume_may_extend_a_run_but_not_change_what_it_learns(tiny_run: Path, tmp_path: Path) -> None:
    trainer = Trainer(None, tmp_path, resume=tiny_run / "checkpoint.pt", extend={"total_steps": 5000})
    assert trainer.config.total_steps == 5000 and trainer.config.lr == tiny_config().lr
    with pytest.raises(ValueError, match="lr cannot change"):
        Trainer(None, tmp_path, resume=tiny_run / "checkpoint.pt", extend={"lr": 1.0})


def test_fine_tuning_starts_from_the_given_weights(tiny_run: Path, tmp_path: Path) -> None:
    agent = str(tiny_run / "agent.pt")
    trainer = Trainer(tiny_config(init_from=agent, bc_hands=0), tmp_path / "ft")
    start = trainer.net.state_dict()
    assert all(torch.equal(start[k], v) for k, v in weights(tiny_run / "agent.pt").items())
    with pytest.raises(ValueError, match=r"hidden layers \[32\], this config has \[16\]"):
        Trainer(tiny_config(init_from=agent, hidden=[16], bc_hands=0), tmp_path / "other_shape")
    with pytest.raises(ValueError, match="minnesota"):
        Trainer(tiny_config(init_from=agent, preset="minnesota", bc_hands=0), tmp_path / "other_rules")
    # imitating the rule bot first once pulled the weights it started from toward the rule bot, unsaid
    with pytest.raises(ValueError, match="bc_hands = 16: a run that starts from an agent's weights .* expected 0"):
        Trainer(tiny_config(init_from=agent), tmp_path / "imitating")
    # a run begun before that check, with init_from and bc_hands, has imitated already: it still resumes
    started = Trainer(tiny_config(init_from=agent, bc_hands=0, total_steps=64), tmp_path / "begun")
    started.run(progress=False, max_updates=1)
    data = torch.load(tmp_path / "begun" / "checkpoint.pt", weights_only=True)
    data["config"]["bc_hands"] = 16
    torch.save(data, tmp_path / "begun" / "checkpoint.pt")
    assert Trainer(None, tmp_path / "begun", resume=tmp_path / "begun" / "checkpoint.pt").config.bc_hands == 16


def test_no_minibatch_is_a_sliver_of_the_rest() -> None:
    """A rollout overshoots by a few rows; a minibatch of those alone got a full optimizer step."""
    trainer = Trainer.__new__(Trainer)
    trainer.config, trainer.rng = tiny_config(minibatch=1024), np.random.default_rng(0)
    sizes = [len(idx) for idx in trainer._minibatches(8195)]
    assert sizes == [1025, 1025, 1025, 1024, 1024, 1024, 1024, 1024]
    assert sorted(np.concatenate(trainer._minibatches(8195))) == list(range(8195))
    assert [len(idx) for idx in trainer._minibatches(100)] == [100]


def test_every_opponent_kind_has_a_config_field_and_plays() -> None:
    assert tuple(opponent_mix(TrainConfig())) == OPPONENT_KINDS
    rules, rng = get_rules("ten_point"), np.random.default_rng(0)
    mix = {"bold": 1.0, "searchbid": 1.0}
    collector = Collector(rules, 2, mix, rng)
    net = PolicyValueNet(observation_size(4), 181, [16], 0)
    batch = collector.collect(40, torch_policy(net, torch.device("cpu")), [])
    assert len(batch) >= 40 and {m.opponent for m in collector.matches} <= {"bold", "searchbid"}
    with pytest.raises(ValueError, match="unknown opponent kinds \\['search'\\]"):
        Collector(rules, 2, {"search": 1.0}, rng)


@pytest.mark.parametrize("preset", ["four_point", "pitch_smudge"])
def test_match_reward_adds_the_match_outcome_to_the_last_hand_only(preset: str) -> None:
    """The same matches played twice, with and without match_reward: returns differ by +-it on last hands only."""
    rules = get_rules(preset)

    def collector(match_reward: float) -> Collector:
        return Collector(rules, 4, {"self": 1.0, "rule": 1.0}, np.random.default_rng(3), gae_lambda=1.0,
                         match_reward=match_reward)  # fmt: skip

    added = match_reward_added(collector, 12000, 10.0)
    assert set(np.unique(added)) <= {-10.0, 0.0, 10.0} and -10.0 in added  # each match a learner side lost
    assert (added == 0).mean() > 0.5  # most hands are not a match's last


def test_late_start_begins_that_share_of_matches_near_the_target_and_resumes_them(tmp_path: Path) -> None:
    """late_start = 1: every match starts with each side two hands or less from the target, as evaluate --start late."""
    rules = get_rules("pitch_smudge")
    lowest, top = rules.target_score - 2 * rules.max_hand_points, rules.target_score - 1
    collector = Collector(rules, 40, {"rule": 1.0}, np.random.default_rng(5), late_start=1.0)
    starts = [m.game.start_scores for m in collector.matches]
    assert all(lowest <= score <= top for scores in starts for score in scores) and len(set(starts)) > 20
    trainer = Trainer(tiny_config(preset="pitch_smudge", late_start=0.5), tmp_path / "late")
    trainer.run(progress=False)
    late = [m for m in trainer.collector.matches if any(m.game.start_scores)]
    assert late and len(late) < len(trainer.collector.matches)
    resumed = Trainer(None, tmp_path / "again", resume=tmp_path / "late" / "checkpoint.pt")
    assert [m.game.record() for m in resumed.collector.matches] == [m.game.record() for m in trainer.collector.matches]


def test_late_start_zero_plays_the_very_matches_it_played_before() -> None:
    """The share is drawn only when above 0, so configs without it keep their seeded games.

    Any share above 0 draws from the collector's generator for every match, so even a share
    too small to start a match late deals other matches: only 0 leaves the stream alone.
    """
    rules, mix = get_rules("ten_point"), {"self": 1.0, "rule": 1.0}
    zero = Collector(rules, 8, mix, np.random.default_rng(2), late_start=0.0)
    tiny = Collector(rules, 8, mix, np.random.default_rng(2), late_start=1e-12)
    assert not any(any(m.game.start_scores) for m in zero.matches + tiny.matches)
    assert [m.game.record() for m in tiny.matches] != [m.game.record() for m in zero.matches]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"late_start": 1.5}, r"late_start = 1\.5: expected a share from 0 to 1"),
        ({"late_start": 0.5, "preset": "smear"}, r"late_start = 0\.5: smear's matches are not played to a target"),
        ({"late_start": 0.5, "preset": "bohemian_schneider", "opp_self": 1.0, "opp_pool": 0.0, "opp_rule": 0.0,
          "opp_random": 0.0, "eval_opponents": ["rule"]},
         r"late_start = 0\.5: bohemian_schneider's matches are not played to a target"),
    ],
)  # fmt: skip
def test_a_late_start_without_a_target_score_is_refused(changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tiny_config(**changes)


def test_a_collector_refuses_a_late_start_without_a_target_score() -> None:
    with pytest.raises(ValueError, match="smear's matches are not played to a target score"):
        Collector(get_rules("smear"), 2, {"rule": 1.0}, np.random.default_rng(0), late_start=0.5)


def test_an_exploiter_trains_and_is_evaluated_against_one_fixed_agent(tmp_path: Path) -> None:
    """opp_fixed: every match faces the shipped agent, and the "fixed" evaluation plays it."""
    shipped = str(shipped_policy_path("ten_point"))
    only_fixed = {"opp_self": 0.0, "opp_pool": 0.0, "opp_rule": 0.0, "opp_random": 0.0, "opp_fixed": 1.0}
    trainer = Trainer(tiny_config(**only_fixed, fixed_agent=shipped, eval_opponents=["fixed"]), tmp_path / "x")
    trainer.run(progress=False)
    assert {m.opponent for m in trainer.collector.matches} == {"fixed"}
    assert all(bot.path == shipped for m in trainer.collector.matches for bot in m.bots.values())
    curve = (tmp_path / "x" / "curve.csv").read_text().splitlines()
    assert curve[0].startswith("train_minutes") and {line.split(",")[2] for line in curve[1:]} == {"fixed"}
    resumed = Trainer(None, tmp_path / "y", resume=tmp_path / "x" / "checkpoint.pt")
    assert [m.game.record() for m in resumed.collector.matches] == [m.game.record() for m in trainer.collector.matches]


@pytest.mark.parametrize(
    ("rules", "shipped"),
    [
        (get_rules("minnesota"), "minnesota.npz"),  # a preset: its specialist
        (get_rules("ten_point", target_score=21), "universal.npz"),  # a house rule: the universal agent
    ],
)
def test_a_neural_opponent_is_the_agent_shipped_for_its_matchs_rules(rules: Rules, shipped: str) -> None:
    """opp_neural: the side facing the learner is what ``make_agent("neural", rules)`` plays at a table."""
    collector = Collector(rules, 3, {"neural": 1.0}, np.random.default_rng(0))
    bots = [bot for m in collector.matches for bot in m.bots.values()]
    assert {m.opponent for m in collector.matches} == {"neural"} and len(bots) == 3 * rules.num_players // 2
    assert {Path(bot.path).name for bot in bots} == {shipped}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"opp_fixed": 1.0}, r"fixed_agent = '': opp_fixed or the 'fixed' eval opponent needs an agent"),
        ({"eval_opponents": ["fixed"]}, r"fixed_agent = '': opp_fixed or the 'fixed' eval opponent needs an agent"),
        ({"opp_fixed": 1.0, "fixed_agent": "nobody/x.npz"}, r"fixed_agent = 'nobody/x.npz': checkpoint .* not exist"),
        ({"opp_fixed": 1.0, "fixed_agent": "wizard"}, r"fixed_agent = 'wizard': unknown agent 'wizard'"),
    ],
)
def test_a_fixed_opponent_that_cannot_be_built_is_refused_before_training(changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tiny_config(**changes)


def test_a_fixed_agent_trained_for_other_rules_is_refused() -> None:
    with pytest.raises(ValueError, match=r"fixed_agent = .*minnesota\.npz.*trained for other rules"):
        tiny_config(opp_fixed=1.0, fixed_agent=str(shipped_policy_path("minnesota")))


def test_init_any_rules_starts_a_preset_from_another_presets_weights(tiny_run: Path, tmp_path: Path) -> None:
    """Transfer: a ten_point agent starts a ten_point_midwest run only when init_any_rules says so."""
    agent = str(tiny_run / "agent.pt")
    with pytest.raises(ValueError, match="init_from: .*ten_point"):
        Trainer(tiny_config(preset="ten_point_midwest", init_from=agent, bc_hands=0), tmp_path / "refused")
    trainer = Trainer(
        tiny_config(preset="ten_point_midwest", init_from=agent, init_any_rules=True, bc_hands=0), tmp_path / "t"
    )
    start = trainer.net.state_dict()
    assert all(torch.equal(start[k], v) for k, v in weights(tiny_run / "agent.pt").items())
    six = Trainer(
        tiny_config(preset="ten_point_6p", init_from=agent, init_any_rules=True, bc_hands=0), tmp_path / "six"
    )
    assert torch.equal(six.net.state_dict()["trunk.0.weight"], start["trunk.0.weight"])  # one vector size: any table


def test_match_reward_counts_a_shared_win_as_a_draw() -> None:
    """A bidder and its called partner both reaching the target: each gets 0, as the harness counts it half."""
    five = Game(get_rules("ten_point_5p"), seed=0)
    five.phase, five.winners = OVER, frozenset({1, 3})
    assert match_outcomes(five) == [-1.0, 0.0, -1.0, 0.0, -1.0]
    five.winners = frozenset({3})
    assert match_outcomes(five) == [-1.0, -1.0, -1.0, 1.0, -1.0]
    teams = Game(get_rules("pitch_smudge"), seed=0)
    teams.phase, teams.winners = OVER, frozenset({0})
    assert match_outcomes(teams) == teams.rewards() == [1.0, -1.0, 1.0, -1.0]


def test_match_moon_leaves_the_moon_to_the_match_odds_at_every_policy_seat() -> None:
    """Under match_moon no recorded decision offers the moon beside other moves: it is forced or ruled out,
    and the mask PPO sees is that one. Without it the same matches offer the network the moon with its bids."""
    rules = get_rules("minnesota")
    net = PolicyValueNet(observation_size(4), 181, [16], 0)

    def moon_masks(match_moon: bool, **call: str) -> tuple[int, int]:
        collector = Collector(rules, 8, {"self": 1.0}, np.random.default_rng(4), match_moon=match_moon, **call)
        masks = collector.collect(3000, torch_policy(net, torch.device("cpu")), []).masks
        offered = masks[masks[:, MOON]]
        return len(offered), int((offered.sum(axis=1) > 1).sum())

    offered, beside_others = moon_masks(False)
    assert offered > 20 and beside_others == offered
    by_rule, by_network = moon_masks(True), moon_masks(True, moon_model="network")
    assert by_rule[1] == by_network[1] == 0
    assert by_rule[0] != by_network[0]  # the two calls force different moons on the same matches
    with pytest.raises(ValueError, match="match_moon is fitted for minnesota only, not 'ten_point'"):
        Collector(get_rules("ten_point"), 2, {"rule": 1.0}, np.random.default_rng(0), match_moon=True)
    no_jick = Collector(get_rules("minnesota", jick=False), 8, {"self": 1.0}, np.random.default_rng(4),
                        match_moon=True, moon_model="network")  # fmt: skip
    masks = no_jick.collect(3000, torch_policy(net, torch.device("cpu")), []).masks  # the rule bot's call: no crash
    assert masks[:, PASS].sum() > 100 and not (masks[masks[:, MOON]].sum(axis=1) > 1).any()  # bid turns, no moon
    with pytest.raises(ValueError, match="match_moon = True: the match odds are fitted for minnesota only"):
        tiny_config(match_moon=True)
    with pytest.raises(ValueError, match="moon_model = 'network': the call match_moon makes: expected match_moon"):
        tiny_config(moon_model="network")
    with pytest.raises(ValueError, match="moon_model = 'hope': expected one of network, rule"):
        tiny_config(moon_model="hope")


def test_rival_weight_sets_how_much_of_the_best_rivals_score_change_a_hand_reward_takes_off() -> None:
    """The same matches with rival_weight 1 and 0: each hand's return is the engine's hand_reward at that weight."""
    rules = get_rules("ten_point_5p")
    net = PolicyValueNet(observation_size(5), 181, [16], 0)

    def returns(weight: float) -> np.ndarray:
        collector = Collector(rules, 4, {"rule": 1.0}, np.random.default_rng(6), gae_lambda=1.0, rival_weight=weight)
        return collector.collect(800, torch_policy(net, torch.device("cpu")), []).returns

    relative, own = returns(1.0), returns(0.0)
    assert len(relative) == len(own) and (own != relative).mean() > 0.5
    assert own.mean() > relative.mean()  # a hand's best rival usually gains: taking it off lowers the return
    with pytest.raises(ValueError, match=r"rival_weight = -1\.0: expected zero or more"):
        tiny_config(rival_weight=-1.0)
    with pytest.raises(ValueError, match="rival_weight = 0.5: bohemian_schneider's round reward is its two players"):
        tiny_config(rival_weight=0.5, preset="bohemian_schneider", opp_self=1.0, opp_pool=0.0, opp_rule=0.0,
                    opp_random=0.0, eval_opponents=["rule"])  # fmt: skip
