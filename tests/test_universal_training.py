"""Universal runs: one network trained over rule sets drawn per match, taught by the specialists, resumable exactly."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.neural_agent import NeuralAgent, Policy, load_policy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.shipped import shipped_policy_path  # noqa: E402
from smear_env.game import Game  # noqa: E402
from smear_env.house_rules import changes_from, evaluation_rule_sets  # noqa: E402
from smear_env.observation import Observer, action_mask, player_view  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.model import card_head_input  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.rules_draw import RulesDraw  # noqa: E402
from training.run_summary import plan  # noqa: E402
from training.teachers import SpecialistTeacher, labelled, move_kinds  # noqa: E402

TINY = {
    "preset": "ten_point", "universal": True, "train_presets": ["ten_point", "minnesota", "ten_point_5p"],
    "house_share": 0.5, "hidden": [16], "card_head": 18, "num_games": 4, "rollout_steps": 96, "minibatch": 64,
    "epochs": 1, "bc_hands": 0, "total_steps": 192, "eval_every_minutes": 0, "final_eval_matches": 2,
    "eval_opponents": ["random"], "device": "cpu", "checkpoint_every": 1, "match_moon": True, "moon_model": "network",
}  # fmt: skip
TEN_POINT, FOUR_POINT = get_rules("ten_point"), get_rules("four_point")


def weights(path: Path) -> dict[str, torch.Tensor]:
    return load_checkpoint(path)["model"]


def test_a_taught_run_fits_the_specialists_moves_over_several_rule_sets(tmp_path: Path) -> None:
    trainer = Trainer(config_from_dict({**TINY, "teacher": "specialists"}), tmp_path)
    played = {m.game.rules.name for m in trainer.collector.matches}
    batch = trainer.collector.collect(96, trainer._learner_policy(), [])
    assert batch.targets is not None and batch.targets.shape == batch.masks.shape
    assert np.all(batch.targets[~batch.masks] < -1e8)  # the teacher never prefers an illegal move
    assert batch.obs.shape[1] == Observer(4).size + 54 * 18  # each decision's card features, read under its rules
    losses = trainer.distill_update(batch)
    assert 0 <= losses["agreement"] <= 1 and losses["distill_loss"] > 0
    assert len(played | {m.game.rules.name for m in trainer.collector.matches}) >= 2
    trainer.writer.close()


def test_the_teacher_is_the_specialist_on_its_own_preset() -> None:
    rules = get_rules("minnesota")
    game, observer = Game(rules, seed=2), Observer(4)
    specialist = load_policy(shipped_policy_path("minnesota"))
    obs, masks = [], []
    for _ in range(40):  # positions of a hand played by the specialist itself
        seat = game.current_player
        obs.append(observer.vector(game, seat))
        masks.append(action_mask(game.legal_mask()))
        game.apply(int(np.argmax(specialist.logits(obs[-1], masks[-1]))))
    obs_array, mask_array = np.stack(obs), np.stack(masks)
    inputs = card_head_input(obs_array, rules, 18)
    taught = SpecialistTeacher(card_features=18)(rules, inputs, mask_array)
    np.testing.assert_allclose(taught, specialist.logits(obs_array, mask_array), rtol=0, atol=1e-4)


def test_the_start_agent_teaches_every_rule_set_that_is_not_a_specialists_own() -> None:
    """specialists_and_start: the specialist on its preset's exact rules, the frozen start agent on a house set."""
    start = load_policy(shipped_policy_path("ten_point"))  # any agent whose logits differ from minnesota's
    teacher = SpecialistTeacher(card_features=18, start=start)
    preset, house = get_rules("minnesota"), get_rules("minnesota", target_score=31)
    assert (teacher.who(preset), teacher.who(house)) == ("minnesota", "start")
    game, observer = Game(house, seed=5), Observer(4)
    obs = np.stack([observer.vector(game, game.current_player)])
    masks = np.stack([action_mask(game.legal_mask())])
    inputs = card_head_input(obs, house, 18)  # each card's features read under the real rules, as the start agent's
    features = inputs[:, obs.shape[1] :].reshape(1, 54, 18)
    np.testing.assert_allclose(teacher(house, inputs, masks), start.logits(obs, masks, features), atol=1e-4)
    specialist = load_policy(shipped_policy_path("minnesota"))
    np.testing.assert_allclose(
        teacher(preset, card_head_input(obs, preset, 18), masks), specialist.logits(obs, masks), atol=1e-4
    )


def test_a_run_taught_by_specialists_and_its_start_labels_house_sets_by_the_start_agent(
    tmp_path: Path, universal_agent: Path
) -> None:
    config = config_from_dict({**TINY, "teacher": "specialists_and_start", "init_from": str(universal_agent)})
    trainer = Trainer(config, tmp_path)
    batch = trainer.collector.collect(96, trainer._learner_policy(), [])
    assert batch.targets is not None and np.all(batch.targets[~batch.masks] < -1e8)
    losses = trainer.distill_update(batch)
    assert 0 <= losses["agreement"] <= 1
    trainer.writer.close()
    with pytest.raises(ValueError, match="teacher = 'specialists_and_start'.*set init_from"):
        config_from_dict({**TINY, "teacher": "specialists_and_start"})


def minnesota_opening(specialist: Policy) -> tuple[np.ndarray, np.ndarray]:
    """The first 24 positions of a minnesota game the specialist plays at every seat (the auction, the trump call,
    the discards and the first cards): their vectors and masks."""
    game, observer = Game(get_rules("minnesota"), seed=2), Observer(4)
    obs, masks = [], []
    for _ in range(24):
        obs.append(observer.vector(game, game.current_player))
        masks.append(action_mask(game.legal_mask()))
        game.apply(int(np.argmax(specialist.logits(obs[-1], masks[-1]))))
    return np.stack(obs), np.stack(masks)


def test_a_teacher_limited_to_the_bids_of_one_preset_labels_those_and_leaves_every_other_row_unlabelled() -> None:
    teacher = SpecialistTeacher(card_features=18, presets=("minnesota",), moves=("bid",))
    rules, house = get_rules("minnesota"), get_rules("minnesota", target_score=31)
    ten_point = get_rules("ten_point")
    assert [teacher.who(r) for r in (rules, house, ten_point)] == ["minnesota", "nobody", "nobody"]
    specialist = load_policy(shipped_policy_path("minnesota"))
    obs_array, mask_array = minnesota_opening(specialist)
    kinds = move_kinds(mask_array)
    assert kinds[:4] == ["bid"] * 4 and {"trump", "discard", "play"} <= set(kinds)
    taught = teacher(rules, card_head_input(obs_array, rules, 18), mask_array)
    bids = np.array([kind == "bid" for kind in kinds])
    np.testing.assert_array_equal(labelled(taught), bids)
    np.testing.assert_allclose(taught[bids], specialist.logits(obs_array[bids], mask_array[bids]), atol=1e-4)
    assert not labelled(teacher(house, card_head_input(obs_array, house, 18), mask_array)).any()


def opening(preset: str, moves: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """The vectors and masks of a game's first ``moves`` positions, each seat playing its first legal move."""
    game, observer = Game(get_rules(preset), seed=3), Observer(4)
    obs, masks = [], []
    for _ in range(moves):
        obs.append(observer.vector(game, game.current_player))
        masks.append(action_mask(game.legal_mask()))
        game.apply(game.legal_actions()[0])
    return np.stack(obs), np.stack(masks)


def test_where_the_first_lead_sets_trump_that_lead_is_a_trump_move_and_the_teacher_of_trumps_labels_it() -> None:
    obs_array, mask_array = opening("pitch_smudge")
    cards = move_kinds(mask_array)
    kinds = move_kinds(mask_array, get_rules("pitch_smudge"), obs_array)
    first_play = cards.index("play")
    assert "trump" not in cards and kinds[first_play] == "trump" and kinds[first_play + 1 :].count("trump") == 0
    assert [k for k in kinds if k != "trump"] == [k for i, k in enumerate(cards) if i != first_play]
    teacher = SpecialistTeacher(card_features=18, presets=("pitch_smudge",), moves=("bid", "trump"))
    taught = teacher(get_rules("pitch_smudge"), card_head_input(obs_array, get_rules("pitch_smudge"), 18), mask_array)
    np.testing.assert_array_equal(labelled(taught), [k in ("bid", "trump") for k in kinds])
    ten_obs, ten_masks = opening("ten_point")
    assert move_kinds(ten_masks, get_rules("ten_point"), ten_obs) == move_kinds(ten_masks)


def test_with_a_start_agent_the_presets_not_listed_are_taught_by_it() -> None:
    """specialists_and_start with teacher_presets: the specialists where listed, the start agent on the rest."""
    start = load_policy(shipped_policy_path("ten_point"))
    teacher = SpecialistTeacher(card_features=18, start=start, presets=("minnesota",), moves=("bid",))
    names = [teacher.who(get_rules(p)) for p in ("minnesota", "ten_point_midwest", "smear")]
    assert names + [teacher.who(get_rules("minnesota", target_score=31))] == ["minnesota", "start", "start", "start"]
    rules = get_rules("smear")
    game, observer = Game(rules, seed=4), Observer(4)
    obs = np.stack([observer.vector(game, game.current_player)])
    masks = np.stack([action_mask(game.legal_mask())])  # the first bid
    inputs = card_head_input(obs, rules, 18)
    features = inputs[:, obs.shape[1] :].reshape(1, 54, 18)
    np.testing.assert_allclose(teacher(rules, inputs, masks), start.logits(obs, masks, features), atol=1e-4)


def test_held_the_start_agent_labels_every_move_the_specialists_do_not() -> None:
    """teacher_hold: on minnesota the specialist's bids and the start's other moves; elsewhere the start's all."""
    start = load_policy(shipped_policy_path("ten_point"))
    specialist = load_policy(shipped_policy_path("minnesota"))
    teacher = SpecialistTeacher(card_features=18, start=start, presets=("minnesota",), moves=("bid",), hold=True)
    rules = get_rules("minnesota")
    obs_array, mask_array = minnesota_opening(specialist)
    bids = np.array([kind == "bid" for kind in move_kinds(mask_array)])
    inputs = card_head_input(obs_array, rules, 18)
    taught = teacher(rules, inputs, mask_array)
    assert labelled(taught).all()
    np.testing.assert_allclose(taught[bids], specialist.logits(obs_array[bids], mask_array[bids]), atol=1e-4)
    features = inputs[:, obs_array.shape[1] :].reshape(len(inputs), 54, 18)
    held = start.logits(obs_array[~bids], mask_array[~bids], features[~bids])
    np.testing.assert_allclose(taught[~bids], held, atol=1e-4)
    house = get_rules("minnesota", target_score=31)  # not the preset's exact rules: the start labels every move
    np.testing.assert_allclose(teacher(house, card_head_input(obs_array, house, 18), mask_array),
                               start.logits(obs_array, mask_array, features), atol=1e-4)  # fmt: skip
    with pytest.raises(ValueError, match="hold: the start agent labels the moves the specialists do not"):
        SpecialistTeacher(card_features=18, moves=("bid",), hold=True)


def test_a_table_expert_labels_every_move_at_its_table_and_nowhere_else() -> None:
    """tables: on its table the expert labels every kind of move; elsewhere the teacher is as without it."""
    start, expert = load_policy(shipped_policy_path("ten_point")), load_policy(shipped_policy_path("minnesota"))
    table, elsewhere = get_rules("minnesota", target_score=31), get_rules("minnesota", target_score=41)
    teacher = SpecialistTeacher(
        card_features=18, start=start, presets=("smear",), moves=("bid",), tables={table: expert}
    )
    assert [teacher.who(r) for r in (table, elsewhere, get_rules("minnesota"))] == ["table", "start", "start"]
    obs_array, mask_array = minnesota_opening(expert)
    inputs = card_head_input(obs_array, table, 18)
    taught = teacher(table, inputs, mask_array)
    assert labelled(taught).all()
    features = inputs[:, obs_array.shape[1] :].reshape(len(inputs), 54, 18)
    np.testing.assert_allclose(taught, expert.logits(obs_array, mask_array, features), atol=1e-4)
    bids = np.array([kind == "bid" for kind in move_kinds(mask_array)])
    np.testing.assert_array_equal(
        labelled(teacher(elsewhere, card_head_input(obs_array, elsewhere, 18), mask_array)), bids
    )


def test_an_expert_whose_card_head_reads_more_features_than_the_student_is_given_reads_its_own() -> None:
    """A student of 15 card features and an expert of 18: the expert's head reads its 18 under the table's rules."""
    start, expert = load_policy(shipped_policy_path("ten_point")), load_policy(shipped_policy_path("minnesota"))
    table = get_rules("minnesota", target_score=31)
    teacher = SpecialistTeacher(card_features=15, start=start, tables={table: expert})
    obs_array, mask_array = minnesota_opening(expert)
    taught = teacher(table, card_head_input(obs_array, table, 15), mask_array)
    np.testing.assert_allclose(taught, expert.logits(obs_array, mask_array, rules=table), atol=1e-4)


def test_a_kickstarted_run_is_ppo_with_the_teachers_bids_as_a_second_loss(tmp_path: Path) -> None:
    kickstart = {
        "teacher": "specialists",
        "teacher_coef": 1.0,
        "teacher_moves": ["bid"],
        "teacher_presets": ["minnesota"],
    }
    trainer = Trainer(config_from_dict({**TINY, "train_presets": ["minnesota", "ten_point"], **kickstart}), tmp_path)
    batch = trainer.collector.collect(96, trainer._learner_policy(), [])
    assert batch.targets is not None
    taught = labelled(batch.targets)
    assert 0 < taught.sum() < len(batch)  # minnesota's bids only
    assert set(move_kinds(batch.masks[taught])) == {"bid"}
    losses = trainer.ppo_update(batch)
    assert {"policy_loss", "teacher_loss", "agreement"} <= set(losses) and 0 <= losses["agreement"] <= 1
    trainer.writer.close()
    Trainer(config_from_dict({**TINY, **kickstart, "total_steps": 96}), tmp_path / "run").run(progress=False)
    assert load_checkpoint(tmp_path / "run" / "agent.pt")["config"]["teacher_coef"] == 1.0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"teacher_coef": 0.5}, "teacher_coef = 0.5: it shapes a teacher's labels: set teacher"),
        ({"teacher": "specialists", "teacher_coef": -1.0}, "teacher_coef = -1.0: expected 0 .DAgger. or a positive"),
        ({"teacher": "specialists", "teacher_moves": ["bids"]}, "teacher_moves = .*not kinds of move: expected .*bid"),
        ({"teacher": "specialists", "teacher_presets": ["minesota"]}, "teacher_presets = .*not Smear presets"),
        ({"teacher_hold": True}, "teacher_hold = True: it shapes a teacher's labels: set teacher"),
        ({"teacher": "specialists", "teacher_hold": True}, "teacher_hold = True: the start agent labels the rest"),
    ],
)  # fmt: skip
def test_a_teachers_labels_are_checked_before_a_run_starts(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})


def test_a_universal_run_resumes_to_the_same_weights(tmp_path: Path) -> None:
    config = config_from_dict(TINY)
    Trainer(config, tmp_path / "straight").run(progress=False)
    Trainer(config, tmp_path / "stopped").run(progress=False, max_updates=1)
    Trainer(None, tmp_path / "stopped", resume=tmp_path / "stopped" / "checkpoint.pt").run(progress=False)
    straight, resumed = weights(tmp_path / "straight" / "agent.pt"), weights(tmp_path / "stopped" / "agent.pt")
    assert all(torch.equal(straight[k], resumed[k]) for k in straight)


def test_a_run_on_one_house_rule_set_plays_it_in_every_match_and_evaluates_on_it(tmp_path: Path) -> None:
    house = {"target_score": 21, "follow": "strict"}
    config = config_from_dict({**TINY, "train_presets": ["ten_point"], "house_rules": house, "total_steps": 96})
    trainer = Trainer(config, tmp_path)
    trainer.collector.collect(96, trainer._learner_policy(), [])
    wanted = get_rules("ten_point", **house).to_dict()
    assert all(m.game.rules.to_dict() == wanted for m in trainer.collector.matches)
    trainer.run(progress=False)
    assert load_checkpoint(tmp_path / "agent.pt")["config"]["house_rules"] == house
    words = " ".join(plan(tmp_path, config).split())
    assert words.startswith("Training a ten_point agent under house rules (target_score=21, follow='strict') into")
    drawn = " ".join(plan(tmp_path, config_from_dict(TINY)).split())
    assert drawn.startswith("Training a universal agent (rules drawn per match: 3 presets, house rules 0.5) into")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"universal": False, "house_rules": {"target_score": 21}}, "house rules for every match need universal"),
        ({"house_rules": {"target_score": -3}}, "house_rules = .*not rule options ten_point can play"),
        ({"house_rules": {"targt_score": 21}}, "house_rules = .*not rule options ten_point can play"),
        ({"house_rules": ["target_score"]}, "house_rules = .*expected a dict"),
        ({"house_rules": {"target_score": TEN_POINT.target_score}}, "house_rules = .*ten_point plays these already"),
    ],
)
def test_house_rules_for_a_run_are_checked_before_it_starts(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})


JOKERS = {"joker_rank": "not_trump", "discard_trump": "free"}  # a training set: never held out
AGAINST_FIXED = {"opp_self": 0.5, "opp_pool": 0.0, "opp_rule": 0.0, "opp_fixed": 0.5, "fixed_agent": "rule"}


def test_matches_against_the_fixed_agent_sit_at_its_table_and_the_others_at_drawn_rules(tmp_path: Path) -> None:
    config = config_from_dict({**TINY, **AGAINST_FIXED, "num_games": 24, "fixed_house_rules": JOKERS})
    trainer = Trainer(config, tmp_path)
    trainer.collector.collect(96, trainer._learner_policy(), [])
    table = get_rules("ten_point", **JOKERS)
    kinds = {m.opponent for m in trainer.collector.matches}
    assert kinds == {"fixed", "self"}
    for m in trainer.collector.matches:
        assert (m.game.rules == table) == (m.opponent == "fixed")
    assert trainer._eval_house_rules("ten_point", "fixed") == JOKERS
    assert trainer._eval_house_rules("ten_point", "rule") == {}
    assert trainer._eval_house_rules("minnesota", "fixed") is None


def test_without_a_fixed_table_the_fixed_agent_meets_the_drawn_rules(tmp_path: Path) -> None:
    matches = Trainer(config_from_dict({**TINY, **AGAINST_FIXED, "num_games": 24}), tmp_path).collector.matches
    assert any(m.opponent == "fixed" and m.game.rules.name != "ten_point" for m in matches)


HELD_OUT_TEN_POINT = next(r for r in evaluation_rule_sets(10) if r.name == "ten_point")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fixed_house_rules": JOKERS}, "fixed_house_rules = .*expected opp_fixed > 0"),
        ({**AGAINST_FIXED, "universal": False, "fixed_house_rules": JOKERS}, "need universal = true"),
        ({**AGAINST_FIXED, "fixed_house_rules": {"jokrs": 1}}, "fixed_house_rules = .*not rule options ten_point"),
        ({**AGAINST_FIXED, "fixed_house_rules": JOKERS, "house_rules": {"target_score": 21}},
         "fixed_house_rules = .*every match plays house_rules already"),
        ({**AGAINST_FIXED, "fixed_house_rules": changes_from(HELD_OUT_TEN_POINT)},
         "fixed_house_rules = .*a held-out house-rule set"),
        ({**AGAINST_FIXED, "preset": "four_point", "fixed_house_rules": {"lowest_rank": FOUR_POINT.lowest_rank}},
         "fixed_house_rules = .*four_point plays these already"),  # no change: a preset, never a held-out set
    ],
)  # fmt: skip
def test_a_fixed_agents_table_is_checked_before_a_run_starts(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})


def test_the_fixed_agent_is_evaluated_at_its_table_even_where_eval_presets_leave_its_preset_out() -> None:
    config = config_from_dict({**TINY, **AGAINST_FIXED, "fixed_house_rules": JOKERS, "eval_presets": ["minnesota"],
                               "eval_opponents": ["fixed", "rule"]})  # fmt: skip
    evaluations = Trainer._evaluations(SimpleNamespace(config=config))  # type: ignore[arg-type]
    assert evaluations == [("ten_point", "fixed", "fixed@ten_point"), ("minnesota", "rule", "rule@minnesota")]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"house_options": {"jokr": "not_trump"}}, r"house_options = .*\['jokr'\] are not rule options"),
        ({"house_options": {"joker_rank": "x"}}, "house_options = .*has joker_rank = 'x'"),
        ({"house_options": JOKERS, "house_share": 0.0}, "house_options = .*expected house_share > 0"),
        ({"house_options": JOKERS, "house_rules": JOKERS}, "house_options = .*and no house_rules"),
        ({"house_options": JOKERS, "focus_sets": 4, "init_from": "x.pt"}, "house_options = .*with focus_sets"),
        ({"house_options": JOKERS, "universal": False}, "house_options = .*need universal = true"),
    ],
)
def test_a_stages_kind_of_table_is_checked_before_it_starts(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})


def test_a_stage_on_one_kind_of_table_trains_there_in_its_house_rule_matches(tmp_path: Path) -> None:
    config = config_from_dict(
        {**TINY, "num_games": 24, "house_share": 1.0, "house_options": {"joker_rank": "not_trump"}}
    )
    matches = Trainer(config, tmp_path).collector.matches
    assert all(m.game.rules.joker_rank == "not_trump" for m in matches)


def test_a_run_with_a_table_expert_plays_at_its_table_and_is_taught_there(
    tmp_path: Path, universal_agent: Path
) -> None:
    expert = {"table_teacher": str(universal_agent), "table_rules": JOKERS, "table_share": 0.5}
    held = {"teacher": "specialists_and_start", "init_from": str(universal_agent), "teacher_hold": True,
            "teacher_presets": ["minnesota"], "teacher_moves": ["bid"]}  # fmt: skip
    trainer = Trainer(config_from_dict({**TINY, **held, **expert, "num_games": 16}), tmp_path)
    table = get_rules("ten_point", **JOKERS)
    assert trainer.collector.teacher.who(table) == "table"
    assert 0 < sum(m.game.rules == table for m in trainer.collector.matches) < 16
    batch = trainer.collector.collect(96, trainer._learner_policy(), [])
    assert batch.targets is not None and 0 <= trainer.distill_update(batch)["agreement"] <= 1
    trainer.writer.close()


def test_a_table_expert_with_no_table_rules_teaches_at_its_preset(tmp_path: Path, universal_agent: Path) -> None:
    expert = {"table_teacher": str(universal_agent), "table_rules": {}, "table_share": 0.5}
    held = {"teacher": "specialists_and_start", "init_from": str(universal_agent), "teacher_hold": True,
            "teacher_presets": ["minnesota"], "teacher_moves": ["bid"]}  # fmt: skip
    trainer = Trainer(config_from_dict({**TINY, **held, **expert, "preset": "minnesota", "num_games": 16}), tmp_path)
    teacher = trainer.collector.teacher
    assert teacher.who(get_rules("minnesota")) == "table"  # the table's expert, not minnesota's specialist
    assert teacher.who(TEN_POINT) == "start"
    trainer.writer.close()


def test_a_table_expert_that_cannot_play_its_table_is_refused_before_a_match_is_played(
    tmp_path: Path, universal_agent: Path
) -> None:
    specialist = str(shipped_policy_path("pitch_smudge"))
    expert = {"table_teacher": specialist, "table_rules": JOKERS, "table_share": 0.5}
    held = {"teacher": "specialists_and_start", "init_from": str(universal_agent)}
    with pytest.raises(ValueError, match=f"table expert '{specialist}' cannot play its table: "):
        Trainer(config_from_dict({**TINY, **held, **expert}), tmp_path)


EXPERT = {"teacher": "specialists_and_start", "init_from": "start.pt", "table_teacher": "x.pt", "table_rules": JOKERS,
          "table_share": 0.3}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({**EXPERT, "teacher": "", "init_from": ""}, "table_teacher = 'x.pt': it shapes a teacher's labels"),
        ({**EXPERT, "teacher": "specialists"}, "teacher = 'specialists': a table expert teaches beside the start"),
        ({**EXPERT, "table_teacher": ""}, "table_teacher = '': table_rules and table_share need an agent"),
        ({**EXPERT, "table_share": 0.0}, "table_share = 0.0: expected a share of the matches above 0"),
        ({**EXPERT, "table_share": 1.5}, "table_share = 1.5: expected a share of the matches above 0, at most 1"),
        ({**EXPERT, "table_rules": {"jokrs": 1}}, "table_rules = .*not rule options"),
        ({**EXPERT, "table_rules": changes_from(HELD_OUT_TEN_POINT)}, "table_rules = .*a held-out house-rule set"),
    ],
)
def test_a_table_expert_is_checked_before_a_run_starts(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})
    config_from_dict({**TINY, **EXPERT})  # the same, well formed


def test_a_run_with_several_table_experts_plays_at_each_table_and_is_taught_there_by_its_own(
    tmp_path: Path, universal_agent: Path
) -> None:
    tables = [{"teacher": str(universal_agent), "preset": "minnesota", "share": 0.3},
              {"teacher": str(universal_agent), "preset": "ten_point", "rules": JOKERS, "share": 0.4}]  # fmt: skip
    held = {"teacher": "specialists_and_start", "init_from": str(universal_agent), "teacher_hold": True,
            "teacher_presets": ["minnesota"], "teacher_moves": ["bid"]}  # fmt: skip
    trainer = Trainer(config_from_dict({**TINY, **held, "tables": tables, "num_games": 64}), tmp_path)
    teacher = trainer.collector.teacher
    jokers, minnesota = get_rules("ten_point", **JOKERS), get_rules("minnesota")
    assert teacher.who(minnesota) == teacher.who(jokers) == "table" and teacher.who(TEN_POINT) == "start"
    assert set(teacher.tables) == {minnesota, jokers}
    played = [m.game.rules for m in trainer.collector.matches]
    assert 0 < played.count(jokers) < 64 and played.count(minnesota) > 0
    trainer.writer.close()


def test_the_tables_one_draw_picks_the_table_so_a_run_with_one_replays_as_before() -> None:
    jokers, minnesota = get_rules("ten_point", **JOKERS), get_rules("minnesota")
    both = RulesDraw(["ten_point"], 0.0, tables=[(minnesota, 0.25), (jokers, 0.5)])
    drawn = [both(np.random.default_rng(k)) for k in range(400)]
    assert 70 < drawn.count(minnesota) < 130 and 160 < drawn.count(jokers) < 240  # 100 and 200 expected
    one = RulesDraw(["ten_point"], 0.0, tables=[(jokers, 0.5)])
    picks = [np.random.default_rng(k).random() < 0.5 for k in range(100)]  # the single-table draw of before
    assert [one(np.random.default_rng(k)) == jokers for k in range(100)] == picks


TABLE = {"teacher": "x.pt", "preset": "minnesota", "share": 0.3}


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ([{**TABLE, "shares": 0.3}], "tables = .*each is {teacher = FILE, preset = NAME, rules = {...}, share = S}"),
        ([{"teacher": "x.pt", "preset": "minnesota"}], "tables = .*each is {teacher = FILE"),
        ([{**TABLE, "teacher": ""}], "tables = .*expected a teacher"),
        ([{**TABLE, "preset": "cribbage"}], "tables = .*expected a preset among"),
        ([{**TABLE, "share": 0}], r"tables = .*expected a share in \(0, 1\]"),
        ([{**TABLE, "rules": {"jokrs": 1}}], "tables = .*not rule options minnesota can play"),
        ([{**TABLE, "preset": "ten_point", "rules": changes_from(HELD_OUT_TEN_POINT)}], "tables = .*a held-out"),
        ([TABLE, {**TABLE, "teacher": "y.pt"}], "tables = .*two experts teach the same table"),
        ([TABLE, {**TABLE, "preset": "smear", "share": 0.8}], "tables = .*the tables' shares add up past 1"),
    ],
)
def test_each_of_several_table_experts_is_checked_before_a_run_starts(tables: list, message: str) -> None:
    held = {"teacher": "specialists_and_start", "init_from": "start.pt"}
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **held, "tables": tables})
    with pytest.raises(ValueError, match="tables = .*it shapes a teacher's labels: set teacher"):
        config_from_dict({**TINY, "tables": [TABLE]})
    with pytest.raises(ValueError, match="teacher = 'specialists': a table expert teaches beside the start agent"):
        config_from_dict({**TINY, "teacher": "specialists", "tables": [TABLE]})
    config_from_dict({**TINY, **held, "tables": [TABLE, {**TABLE, "preset": "smear"}]})  # well formed


@pytest.fixture(scope="module")
def universal_agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("universal")
    Trainer(config_from_dict({**TINY, "total_steps": 96}), out).run(progress=False)
    return out / "agent.pt"


def test_the_universal_agent_plays_presets_and_house_rules_it_never_saw(universal_agent: Path) -> None:
    assert load_checkpoint(universal_agent)["universal"] is True
    for rules in [get_rules("schmier"), get_rules("ten_point_midwest", num_players=3), *evaluation_rule_sets(3)]:
        agent = make_agent(str(universal_agent), rules, 1)
        assert isinstance(agent, NeuralAgent)
        game = Game(rules, seed=4, single_hand=True)
        bots = [agent, *(make_agent("random", rules, s) for s in range(1, rules.num_players))]
        while not game.is_over:
            seat = game.current_player
            game.apply(bots[seat].act(player_view(game, seat)))


def test_a_universal_network_refuses_a_table_of_more_seats_than_its_observation_has(universal_agent: Path) -> None:
    seven = get_rules("ten_point_midwest", num_players=7, hand_size=7, partnerships=False)
    with pytest.raises(ValueError, match=f"observation_size is {Observer(6).size} in .* but {Observer(7).size} here"):
        make_agent(str(universal_agent), seven, 0)


def test_the_plan_a_run_prints_names_every_option_that_chooses_its_rules(tmp_path: Path) -> None:
    chosen = {"house_options": {"target_score": 21}, "fixed_house_rules": JOKERS, **AGAINST_FIXED, **EXPERT}
    words = " ".join(plan(tmp_path, config_from_dict({**TINY, **chosen})).split())
    assert words.startswith(
        "Training a universal agent (rules drawn per match: 3 presets, house rules 0.5 with target_score=21; "
        "against the fixed agent ten_point with joker_rank='not_trump', discard_trump='free'; "
        "0.3 at ten_point with joker_rank='not_trump', discard_trump='free', taught there by x.pt) into"
    )
    words = " ".join(plan(tmp_path, config_from_dict({**TINY, **EXPERT, "tables": [TABLE]})).split())
    assert "taught there by x.pt; 0.3 at minnesota, taught there by x.pt) into" in words
