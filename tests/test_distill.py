"""Distilling search's card play: labels from matches, soft targets, the fit, and the agent file it writes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.registry import make_agent  # noqa: E402
from smear_env import actions as A  # noqa: E402
from smear_env.observation import observation_size  # noqa: E402
from tests.cli_helpers import assert_refused  # noqa: E402
from training import distill  # noqa: E402
from training.checkpoint import load_checkpoint, network_from_checkpoint  # noqa: E402
from training.distill import (  # noqa: E402
    FitConfig,
    LabelJob,
    Labels,
    agreement,
    collect_labels,
    fit,
    label_source,
    load_labels,
    teacher_targets,
)

STUDENT = str(Path(__file__).resolve().parent / "data" / "ten_point_layout1.pt")  # a plain network, no card head
CHEAP_TEACHER = "search:samples=2,time_budget=30,bid_by=rule"  # cheap, and bounded by samples, not time


JOB = LabelJob(STUDENT, CHEAP_TEACHER, seed=3, max_hands=2)  # two deals a match keep the tests short


@pytest.fixture(scope="module")
def labels() -> Labels:
    return collect_labels(JOB, matches=2, workers=1, progress=False)


def test_labels_cover_every_card_play_choice_and_only_the_legal_cards(labels: Labels) -> None:
    labelled = labels.labelled
    assert labelled.any() and (~labelled).any()  # card play labelled; the student's bids and discards kept as is
    for values, mask in zip(labels.values[labelled], labels.masks[labelled]):
        legal = np.flatnonzero(mask)
        assert len(legal) >= 2 and all(a >= A.PLAY_BASE for a in legal)
        assert set(np.flatnonzero(~np.isnan(values))) == set(legal)
    assert labels.student[~labelled].all()  # unlabelled rows are the student's own other decisions
    assert set(labels.match) == {0, 1} and labels.student.any() and (~labels.student).any()


def test_labelling_is_reproducible_from_the_seed_whatever_the_worker_count(labels: Labels) -> None:
    again = collect_labels(JOB, matches=2, workers=2, progress=False)
    for name in Labels.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(again, name), getattr(labels, name), err_msg=name)


def test_a_student_given_as_its_policy_file_labels_as_its_checkpoint_does(labels: Labels) -> None:
    """The shipped agents are .npz files only: one read as a checkpoint is the same student."""
    as_file = collect_labels(dataclasses.replace(JOB, student=STUDENT.removesuffix(".pt") + ".npz"), 2, 1, False)
    for name in Labels.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(as_file, name), getattr(labels, name), err_msg=name)


def test_targets_soften_the_teacher_values_by_temperature() -> None:
    values = np.array([[1.0, 3.0, np.nan, 3.0], [0.0, np.nan, np.log(3), np.nan]], dtype=np.float32)
    hard = teacher_targets(values, 0.0)
    np.testing.assert_allclose(hard, [[0, 0.5, 0, 0.5], [0, 0, 1, 0]])  # ties share the teacher's choice
    soft = teacher_targets(values, 1.0)
    np.testing.assert_allclose(soft[1], [0.25, 0, 0.75, 0], rtol=1e-6)
    assert soft[0, 1] == soft[0, 3] > soft[0, 0] > 0 and soft[0, 2] == 0


def test_fit_moves_card_play_toward_the_teacher_and_keeps_the_rest(labels: Labels) -> None:
    net = network_from_checkpoint(load_checkpoint(STUDENT)).train()
    start = {k: v.clone() for k, v in net.state_dict().items()}
    before_fit = agreement(net, labels)["regret"]
    fit(net, labels, FitConfig(epochs=30, lr=1e-3, holdout=0.0, temperature=0.0), log=lambda _: None)
    assert agreement(net, labels)["regret"] < before_fit
    assert any(not torch.equal(start[k], v) for k, v in net.state_dict().items())
    other = ~labels.labelled
    with torch.no_grad():
        before = network_from_checkpoint(load_checkpoint(STUDENT))
        obs, masks = torch.from_numpy(labels.obs[other]), torch.from_numpy(labels.masks[other])
        kept = (net(obs, masks)[0].argmax(1) == before(obs, masks)[0].argmax(1)).float().mean()
    assert kept > 0.9  # bids and discards stay the student's


def test_cli_writes_an_agent_that_plays_and_records_what_it_learned(labels: Labels, tmp_path: Path) -> None:
    labels.save(tmp_path / "labels.npz")
    distill.main([STUDENT, "--out", str(tmp_path / "run"), "--labels", str(tmp_path / "labels.npz"),
                  "--epochs", "1", "--seed", "4"])  # fmt: skip
    data = load_checkpoint(tmp_path / "run" / "agent.pt", make_agent("rule", "ten_point").rules)
    record = data["distill"]
    # fitted from label files: the record names them, not the --teacher flag, which did not label them
    assert record["labels"] == [str(tmp_path / "labels.npz")] and "teacher" not in record
    assert record["label_sources"] == [None]  # a file saved without its source (as before 2026-12-04) says nothing
    assert record["labelled"] == int(labels.labelled.sum()) and record["seed"] == 4  # the minibatch order's seed
    assert "evaluation" not in data  # the student's own evaluation does not describe the distilled agent
    agent = make_agent(str(tmp_path / "run" / "agent.pt"), "ten_point", 0)
    assert agent.name == "neural"


def test_a_label_file_records_how_it_was_made_and_a_fit_from_it_says_so(tmp_path: Path) -> None:
    """A shipped agent's record names its labels' teacher and student, even after the label files are gone."""
    distill.main([STUDENT, "--teacher", CHEAP_TEACHER, "--matches", "1", "--seed", "3", "--workers", "1",
                  "--label-only", "--out", str(tmp_path / "lab")])  # fmt: skip
    source = label_source(tmp_path / "lab" / "labels.npz")
    assert source is not None
    assert (source["student"], source["teacher"], source["seed"], source["matches"]) == (STUDENT, CHEAP_TEACHER, 3, 1)
    assert source["minutes"] >= 0 and source["code_version"].startswith("0.")
    distill.main([STUDENT, "--out", str(tmp_path / "fit"), "--labels", str(tmp_path / "lab" / "labels.npz"),
                  "--epochs", "1", "--holdout", "0"])  # fmt: skip
    record = load_checkpoint(tmp_path / "fit" / "agent.pt", make_agent("rule", "ten_point").rules)["distill"]
    assert record["label_sources"] == [source]


def test_a_teacher_without_card_values_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [STUDENT, "--out", str(tmp_path), "--teacher", "rule", "--matches", "1"]
    assert_refused(distill.main, argv, capsys, "teacher 'rule' has no per-card values")


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--minibatch", "0"], "fit option minibatch = 0: expected at least 1"),
        (["--holdout", "1.0"], "fit option holdout = 1.0: expected from 0 up to, not including, 1"),
        (["--temperature", "-1"], "fit option temperature = -1.0: expected 0 or more"),
        (["--matches", "0"], "--matches 0: expected at least 1 labelling match"),
    ],
)
def test_bad_options_are_refused_before_any_work(
    flags: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [STUDENT, "--out", str(tmp_path / "run"), "--teacher", CHEAP_TEACHER, *flags]
    assert_refused(distill.main, argv, capsys, message)
    assert not (tmp_path / "run").exists()


def test_labels_that_cannot_fit_the_student_are_refused(
    labels: Labels, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one_match = labels.take(labels.match == 0)
    one_match.save(tmp_path / "one_match.npz")
    argv = [STUDENT, "--out", str(tmp_path / "a"), "--labels", str(tmp_path / "one_match.npz")]
    assert_refused(distill.main, argv, capsys, "holdout 0.1 of 1 labelled match.* holds out every one")
    other = Labels(labels.obs[:, :-3], labels.masks, labels.values, labels.student, labels.match)
    other.save(tmp_path / "other.npz")
    argv = [STUDENT, "--out", str(tmp_path / "b"), "--labels", str(tmp_path / "other.npz")]
    size = observation_size(4)
    assert_refused(distill.main, argv, capsys, f"the labels' observation size is {size - 3}, the student's {size}")


def test_label_files_join_with_their_matches_numbered_on(labels: Labels, tmp_path: Path) -> None:
    labels.save(tmp_path / "a.npz")
    labels.save(tmp_path / "b.npz")
    joined = load_labels([str(tmp_path / "a.npz"), str(tmp_path / "b.npz")])
    assert len(joined.obs) == 2 * len(labels.obs)
    assert sorted(set(joined.match)) == [0, 1, 2, 3]  # the second file's matches follow the first's
    (tmp_path / "junk.npz").write_bytes(b"not a labels file")
    with pytest.raises(ValueError, match="junk.npz' is not a labels file written by training.distill"):
        load_labels([str(tmp_path / "junk.npz")])


def test_against_another_opponent_only_the_students_card_plays_are_labelled(tmp_path: Path) -> None:
    job = LabelJob(STUDENT, CHEAP_TEACHER, seed=3, max_hands=2, opponent="rule")
    labels = collect_labels(job, matches=2, workers=1, progress=False)
    assert labels.student.all()  # the rule bot's positions are not the student's: none recorded
    assert labels.labelled.any() and (~labels.labelled).any()  # its card plays labelled, its bids kept
    for values, mask in zip(labels.values[labels.labelled], labels.masks[labels.labelled]):
        assert set(np.flatnonzero(~np.isnan(values))) == set(np.flatnonzero(mask))
    distill.main([STUDENT, "--out", str(tmp_path / "run"), "--teacher", CHEAP_TEACHER, "--opponent", "rule",
                  "--matches", "2", "--epochs", "1", "--holdout", "0", "--workers", "1"])  # fmt: skip
    record = load_checkpoint(tmp_path / "run" / "agent.pt", make_agent("rule", "ten_point").rules)["distill"]
    assert record["opponent"] == "rule" and record["teacher"] == CHEAP_TEACHER


def test_an_unknown_opponent_is_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [STUDENT, "--out", str(tmp_path / "run"), "--teacher", CHEAP_TEACHER, "--opponent", "nosuch"]
    assert_refused(distill.main, argv, capsys, "--opponent 'nosuch': unknown agent 'nosuch' for ten_point")
    assert not (tmp_path / "run").exists()


ROLLOUT_JOB = LabelJob(STUDENT, "rollout:samples=2", seed=5, max_hands=2, opponent="rule")


def test_a_rollout_teacher_values_every_legal_card_and_leaves_the_game_as_it_was() -> None:
    import random

    from agents.knowledge import knowledge_from_view
    from smear_env.game import PLAY, Game
    from smear_env.observation import player_view
    from training.export import policy_from_checkpoint
    from training.rollout_teacher import RolloutTeacher

    policy = policy_from_checkpoint(STUDENT)
    teacher = RolloutTeacher(policy, 4, samples=3, seed=1)
    game, rng = Game("ten_point", seed=7), random.Random(2)
    valued = 0
    while valued < 5:
        legal = game.legal_mask()
        if game.phase == PLAY and game.trump >= 0 and legal & (legal - 1):
            k = knowledge_from_view(player_view(game, game.current_player), game.rules)
            history, hands = list(game.history), list(game.hands)
            values = teacher.play_values(game, k)
            assert values is not None and {A.PLAY_BASE + c for c in values} == set(k.legal)
            assert all(-30 <= v <= 30 for v in values.values())  # a hand's score change less the other side's
            assert game.history == history and game.hands == hands and game.legal_mask() == legal
            valued += 1
        game.apply(rng.choice(game.legal_actions()))


def test_a_rollout_teachers_opponents_play_the_other_sides_of_its_play_outs() -> None:
    import dataclasses
    import random

    from agents.knowledge import knowledge_from_view
    from smear_env.game import PLAY, Game
    from smear_env.observation import player_view
    from training.export import policy_from_checkpoint
    from training.rollout_teacher import RolloutTeacher

    policy = policy_from_checkpoint(STUDENT)
    worst = dataclasses.replace(policy, head=(-policy.head[0], -policy.head[1]))  # plays its least liked card
    game, rng, differ = Game("ten_point", seed=7), random.Random(2), 0
    for _ in range(400):
        legal = game.legal_mask()
        if game.is_over:
            break
        if game.phase == PLAY and game.trump >= 0 and legal & (legal - 1):
            k = knowledge_from_view(player_view(game, game.current_player), game.rules)
            own = RolloutTeacher(policy, 4, samples=2, seed=1).play_values(game, k)
            same = RolloutTeacher(policy, 4, samples=2, seed=1, opponents=policy).play_values(game, k)
            other = RolloutTeacher(policy, 4, samples=2, seed=1, opponents=worst).play_values(game, k)
            assert own == same
            differ += own != other
        game.apply(rng.choice(game.legal_actions()))
    assert differ > 0


def test_a_sampled_world_seats_the_called_partner_by_who_holds_the_card_in_it() -> None:
    import random

    from smear_env.game import PLAY, Game
    from training.rollout_teacher import sampled_world

    game, rng = Game("ten_point_5p", seed=1), random.Random(0)
    while not (game.phase == PLAY and game.called_card >= 0 and game.partner not in (-1, game.bidder)):
        game.apply(rng.choice(game.legal_actions()))
    card, real, bidder = game.called_card, game.partner, game.bidder
    other = next(s for s in range(5) if s not in (real, bidder))
    hands = list(game.hands)
    hands[real], hands[other] = hands[other], hands[real]  # the called card now lies with another seat
    world = sampled_world(game, hands)
    assert world.partner == other and world.hands[other] >> card & 1
    assert world.sides[other] == world.sides[bidder] != world.sides[real]
    assert game.partner == real and game.hands[real] >> card & 1  # the real game is as it was


ORACLE_JOB = LabelJob(STUDENT, "oracle", seed=6, max_hands=2, opponent="rule")


@pytest.mark.parametrize("job", [ROLLOUT_JOB, ORACLE_JOB], ids=["rollout", "oracle"])
def test_labels_against_an_opponent_are_the_students_own_and_reproducible_whatever_the_worker_count(
    job: LabelJob,
) -> None:
    labels = collect_labels(job, matches=2, workers=1, progress=False)
    assert labels.student.all() and labels.labelled.any()
    again = collect_labels(job, matches=2, workers=2, progress=False)
    for name in Labels.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(again, name), getattr(labels, name), err_msg=name)


@pytest.mark.parametrize(
    ("teacher", "message"),
    [
        ("rollout", "teacher 'rollout' plays no side of its own: name the labelling matches' other side"),
        ("rollout:samples=0", r"teacher 'rollout:samples=0': option 'samples=0' is not samples=N \(N at least 1\)"),
        ("rollout:depth=2", "teacher 'rollout:depth=2': option 'depth=2' is not samples=N"),
        ("rollout:opponents=rule", "opponents='rule': expected a network file"),
        ("rollout:opponents=nope.npz", "opponents='nope.npz': .*does not exist"),
    ],
)
def test_a_bad_rollout_teacher_is_refused_before_any_work(
    teacher: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = [] if teacher == "rollout" else ["--opponent", "rule"]
    argv = [STUDENT, "--out", str(tmp_path / "run"), "--teacher", teacher, *flags]
    assert_refused(distill.main, argv, capsys, message)
    assert not (tmp_path / "run").exists()


def test_label_regret_measures_each_network_on_every_labelled_decision(labels: Labels, tmp_path: Path) -> None:
    from tests.file_modules import ROOT, load_module

    label_regret = load_module(ROOT / "research" / "scripts" / "label_regret.py")
    labels.save(tmp_path / "labels.npz")
    measured = label_regret.measure(str(tmp_path / "labels.npz"), [STUDENT])
    expected = agreement(network_from_checkpoint(load_checkpoint(STUDENT)).eval(), labels)
    assert measured == {STUDENT: expected} and 0 < expected["agreement"] <= 1


def test_the_oracle_teacher_values_every_legal_card_as_a_search_whose_only_sample_is_the_real_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    from agents import search_bot
    from agents.knowledge import knowledge_from_view
    from smear_env.game import PLAY, Game
    from smear_env.observation import player_view
    from training.oracle_teacher import OracleTeacher

    game, rng, valued = Game("ten_point_5p", seed=3), random.Random(4), 0
    search = search_bot.SearchAgent("ten_point_5p", seed=0, samples=1)
    monkeypatch.setattr(search_bot, "sample_hands", lambda k, rng: list(game.hands))  # its one "sample": the truth
    while valued < 8:
        legal = game.legal_mask()
        if game.phase == PLAY and game.trump >= 0 and legal & (legal - 1):
            k = knowledge_from_view(player_view(game, game.current_player), game.rules)
            history = list(game.history)
            values = OracleTeacher().play_values(game, k)
            assert {A.PLAY_BASE + c for c in values} == set(k.legal)
            assert values == search.play_values(k)
            assert game.history == history and game.legal_mask() == legal  # the game is as it was
            valued += 1
        game.apply(rng.choice(game.legal_actions()))


def test_the_oracle_teacher_without_an_opponent_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [STUDENT, "--out", str(tmp_path / "run"), "--teacher", "oracle"]
    assert_refused(distill.main, argv, capsys, "teacher 'oracle' plays no side of its own: name the labelling")
    assert not (tmp_path / "run").exists()
