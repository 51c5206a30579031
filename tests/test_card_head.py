"""The card head: a network that scores every card by one shared function of its features.

It starts as the plain network it was made from, plays the same in torch and in the torch-free
policy file, is fitted by ``smear-rl distill --card-head``; PPO trains it with ``card_head`` set, and starts from the
network without it otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.card_features import CARD_FEATURE_SETS, CARD_FEATURES  # noqa: E402
from agents.neural_agent import Policy, load_policy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from smear_env.game import PLAY, Game  # noqa: E402
from smear_env.observation import Observer, layout  # noqa: E402
from smear_env.rules import get_rules  # noqa: E402
from tests.test_training import tiny_config  # noqa: E402
from training import distill  # noqa: E402
from training.checkpoint import load_checkpoint, network_from_checkpoint, save_checkpoint  # noqa: E402
from training.distill import LabelJob, collect_labels  # noqa: E402
from training.evaluate import evaluate  # noqa: E402
from training.export import policy_from_checkpoint  # noqa: E402
from training.model import CARD_HEAD, CardHeadNet, network_input  # noqa: E402
from training.ppo import Trainer  # noqa: E402

STUDENT = str(Path(__file__).resolve().parent / "data" / "ten_point_layout1.pt")  # a plain network, no card head
RULES = get_rules("ten_point")


def vectors(hands: int = 2) -> np.ndarray:
    """Every seat's observation at every decision of a few hands of random play (card play included)."""
    game, observer, rng, out = Game(RULES, seed=7), Observer(4), np.random.default_rng(7), []
    while len(game.deals) <= hands and not game.is_over:
        out.append(observer.vector(game, game.current_player))
        game.apply(int(rng.choice(game.legal_actions())))
    return np.stack(out)


@pytest.fixture(scope="module", params=CARD_FEATURE_SETS, ids=lambda n: f"{n}_features")
def card_head_checkpoint(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """ten_point.pt with a card head of random, non-zero weights, reading each feature set a head may read."""
    data = load_checkpoint(STUDENT)
    net = CardHeadNet.from_plain(network_from_checkpoint(data), features=request.param)
    gen = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for name, param in net.named_parameters():
            if name.startswith("card_"):
                param.copy_(torch.randn(param.shape, generator=gen) * 0.3)
    path = tmp_path_factory.mktemp("card") / "agent.pt"
    save_checkpoint(path, {**data, "model": net.state_dict(), "card_head": net.sizes})
    return path


def torch_logits(net: torch.nn.Module, obs: np.ndarray) -> np.ndarray:
    mask = torch.ones(len(obs), net.num_actions, dtype=torch.bool)
    inputs = network_input(net, obs, RULES)
    with torch.no_grad():
        return net(torch.from_numpy(inputs), mask)[0].numpy()


def test_a_new_card_head_changes_nothing() -> None:
    plain = network_from_checkpoint(load_checkpoint(STUDENT))
    obs = vectors()
    np.testing.assert_array_equal(torch_logits(CardHeadNet.from_plain(plain), obs), torch_logits(plain, obs))


def test_the_policy_file_plays_what_the_torch_network_plays(card_head_checkpoint: Path, tmp_path: Path) -> None:
    net = network_from_checkpoint(load_checkpoint(card_head_checkpoint))
    assert isinstance(net, CardHeadNet)
    obs = vectors()
    expected = torch_logits(net, obs)
    policy = policy_from_checkpoint(card_head_checkpoint)
    assert policy.layout["card_head"] == net.sizes and len(policy.card_head) == 4
    mask = np.ones((len(obs), net.num_actions), np.int8)
    np.testing.assert_allclose(policy.logits(obs, mask), expected, atol=1e-4)
    np.testing.assert_allclose(policy.logits(obs[-1], mask[-1]), expected[-1], atol=1e-4)  # one vector, unbatched
    plain = torch_logits(network_from_checkpoint(load_checkpoint(STUDENT)), obs)
    playing = obs[:, dict((name, start) for name, start, _ in layout(4))["phase"] + PLAY] == 1
    assert playing.any() and not np.allclose(expected[playing], plain[playing], atol=1e-3)  # the head does act
    saved = load_policy(policy.save(tmp_path / "card.npz"))
    assert saved.fingerprint == policy.fingerprint
    np.testing.assert_array_equal(saved.logits(obs, mask), policy.logits(obs, mask))


def test_a_card_head_agent_plays_legal_matches(card_head_checkpoint: Path) -> None:
    assert evaluate(str(card_head_checkpoint), "rule", "ten_point", 2, seed=0, workers=1).a.games == 2


def test_a_policy_file_with_a_card_head_of_other_sizes_is_refused(card_head_checkpoint: Path) -> None:
    arrays = policy_from_checkpoint(card_head_checkpoint).to_arrays()
    layout = json.loads(str(arrays["layout"][()]))
    head_here = layout["card_head"]
    for head, message in [({**head_here, "size": 16}, "card.phi1 has shapes"),
                          ({**CARD_HEAD, "features": 3}, "card_head .* is not")]:  # fmt: skip
        bad = {**arrays, "layout": np.array(json.dumps({**layout, "card_head": head}))}
        with pytest.raises(ValueError, match=message):
            Policy.from_arrays(bad, "bad.npz")
    other = 15 if head_here["features"] == CARD_FEATURES else CARD_FEATURES  # the other feature set, same arrays
    bad = {**arrays, "layout": np.array(json.dumps({**layout, "card_head": {**head_here, "features": other}}))}
    with pytest.raises(ValueError, match="card.phi0 has shapes"):
        Policy.from_arrays(bad, "bad.npz")
    del arrays["card.g.weight"]
    with pytest.raises(ValueError, match="'card.g.weight' is missing"):
        Policy.from_arrays(arrays, "bad.npz")


def test_a_checkpoint_whose_card_head_reads_another_feature_set_is_refused(card_head_checkpoint: Path) -> None:
    data = load_checkpoint(card_head_checkpoint)
    with pytest.raises(ValueError, match="card head .* is not this version's"):
        network_from_checkpoint({**data, "card_head": {**data["card_head"], "features": 16}})


def test_ppo_from_a_card_head_starts_from_its_network_without_the_head(
    card_head_checkpoint: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trainer = Trainer(tiny_config(init_from=str(card_head_checkpoint), hidden=[256, 256], bc_hands=0), tmp_path / "ft")
    assert not isinstance(trainer.net, CardHeadNet)
    saved = load_checkpoint(card_head_checkpoint)["model"]
    for name, weights in trainer.net.state_dict().items():
        assert torch.equal(weights, saved[name]), name
    assert "its card head is left out" in capsys.readouterr().err


def test_ppo_keeps_a_card_head_and_trains_it(card_head_checkpoint: Path, tmp_path: Path) -> None:
    """card_head = its feature count: the run starts as the file plays, trains the head, records it,
    and resumes to the same weights as an uninterrupted run."""
    features = load_checkpoint(card_head_checkpoint)["card_head"]["features"]
    config = tiny_config(init_from=str(card_head_checkpoint), hidden=[256, 256], bc_hands=0, card_head=features,
                         total_steps=400, rollout_steps=200, eval_opponents=["random"])  # fmt: skip
    trainer = Trainer(config, tmp_path / "ft")
    saved = load_checkpoint(card_head_checkpoint)["model"]
    assert isinstance(trainer.net, CardHeadNet) and trainer.net.features == features
    assert all(torch.equal(weights, saved[name]) for name, weights in trainer.net.state_dict().items())
    trainer.run(progress=False, max_updates=1)
    Trainer(None, tmp_path / "ft", resume=tmp_path / "ft" / "checkpoint.pt").run(progress=False)
    Trainer(config, tmp_path / "whole").run(progress=False)
    for run in ("ft", "whole"):
        data = load_checkpoint(tmp_path / run / "agent.pt", RULES)
        assert data["card_head"] == {**CARD_HEAD, "features": features}
        assert not torch.equal(data["model"]["card_g.weight"], saved["card_g.weight"])  # the head learned
    resumed, whole = (load_checkpoint(tmp_path / run / "agent.pt")["model"] for run in ("ft", "whole"))
    assert all(torch.equal(resumed[name], whole[name]) for name in whole)
    assert make_agent(str(tmp_path / "ft" / "agent.pt"), "ten_point", 0).policy.card_head


def test_ppo_adds_a_card_head_that_starts_at_zero_to_a_plain_network(tmp_path: Path) -> None:
    trainer = Trainer(tiny_config(init_from=STUDENT, hidden=[256, 256], bc_hands=0, card_head=15), tmp_path / "ft")
    assert isinstance(trainer.net, CardHeadNet) and trainer.net.features == 15
    plain = network_from_checkpoint(load_checkpoint(STUDENT))
    obs = vectors()
    np.testing.assert_array_equal(torch_logits(trainer.net, obs), torch_logits(plain, obs))


def test_ppo_refuses_a_card_head_of_another_feature_set_and_a_card_head_on_schneider(
    card_head_checkpoint: Path, tmp_path: Path
) -> None:
    theirs = load_checkpoint(card_head_checkpoint)["card_head"]["features"]
    other = 15 if theirs == CARD_FEATURES else CARD_FEATURES
    with pytest.raises(ValueError, match=f"its card head reads {theirs} card features, card_head = {other}"):
        Trainer(
            tiny_config(init_from=str(card_head_checkpoint), hidden=[256, 256], card_head=other, bc_hands=0),
            tmp_path / "x",
        )
    assert not (tmp_path / "x").exists()
    with pytest.raises(ValueError, match=r"card_head = 16: expected 0 or one of \(15, 18\)"):
        tiny_config(card_head=16)
    with pytest.raises(ValueError, match="card_head = 18: the card features read Smear's observation"):
        tiny_config(card_head=18, preset="bohemian_schneider", opp_self=1.0, opp_pool=0.0, opp_rule=0.0,
                    opp_random=0.0, eval_opponents=["random"])  # fmt: skip


def test_distill_fits_a_card_head_and_records_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = LabelJob(STUDENT, "search:samples=2,time_budget=30,bid_by=rule", seed=3, max_hands=2)
    collect_labels(job, matches=2, workers=1, progress=False).save(tmp_path / "labels.npz")
    out = tmp_path / "run"
    distill.main([STUDENT, "--card-head", "--out", str(out), "--labels", str(tmp_path / "labels.npz"),
                  "--epochs", "2", "--holdout", "0", "--seed", "1"])  # fmt: skip
    data = load_checkpoint(out / "agent.pt", RULES)
    assert data["card_head"] == CARD_HEAD
    net = network_from_checkpoint(data)
    assert isinstance(net, CardHeadNet) and any(p.abs().sum() > 0 for p in net.card_g.parameters())
    assert make_agent(str(out / "agent.pt"), "ten_point", 0).policy.card_head  # the agent plays with its head
    again = tmp_path / "again"  # a card-head student keeps its head without the flag
    distill.main([str(out / "agent.pt"), "--out", str(again), "--labels", str(tmp_path / "labels.npz"),
                  "--epochs", "1", "--holdout", "0"])  # fmt: skip
    assert load_checkpoint(again / "agent.pt")["card_head"] == CARD_HEAD
    first = tmp_path / "first15"  # the first 15 features only, as heads made before the last three
    distill.main([STUDENT, "--card-head", "--card-features", "15", "--out", str(first), "--labels",
                  str(tmp_path / "labels.npz"), "--epochs", "1", "--holdout", "0"])  # fmt: skip
    assert load_checkpoint(first / "agent.pt")["card_head"] == {**CARD_HEAD, "features": 15}
    assert make_agent(str(first / "agent.pt"), "ten_point", 0).policy.card_head[0][0].shape == (15, 64)
    for args, message in [(["--card-features", "15"], "expected --card-head too"),
                          (["--card-features", "18"], "reads 15 features, and a student keeps its head")]:  # fmt: skip
        student = STUDENT if "--card-head too" in message else str(first / "agent.pt")
        with pytest.raises(SystemExit):
            distill.main([student, *args, "--out", str(tmp_path / "bad"), "--labels", str(tmp_path / "labels.npz")])
        assert message in capsys.readouterr().err
