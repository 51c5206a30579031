"""Distil the search bot's card play into a trained agent (DAgger-style imitation with soft targets).

Why: PPO never meets the search bot in training (a search decision costs tens
of milliseconds; PPO needs millions of hands), and search's card play is what
beats the shipped ``ten_point`` agent. Search can still teach: the student plays
matches against it, every card-play decision with a choice (the student's and
the teacher's) is labelled with the teacher's mean value per legal card
(:meth:`agents.search_bot.SearchAgent.play_values`), and the student learns the
softmax of those values (``temperature`` in hand points; 0 = the teacher's
choice alone). Positions come from the student's own play, so it learns what to
do where it actually goes (DAgger), and from the teacher's. The student's other
decisions (bids, trump, discards) are held near where they started by a KL term
to the starting policy, and its value head by regression to the starting one,
so what changes is the card play.

Labelling is the slow part and runs on every core (``--workers``); the labels
are saved (``labels.npz``) so the fitting can be redone with other settings
(``--labels``). Every match's seed depends on ``(seed, match)`` only, so the
labels do not depend on the worker count, and they are exactly reproducible
when the teacher stops at its sample count rather than its time budget
(``search:time_budget=...`` large).

Two variations: ``--opponent`` plays the labelling matches against another
agent (the rule bot, the student itself), labelling the student's card plays
only; ``--teacher rollout:samples=N`` values each card by the student's own
play-outs instead of search's (:mod:`training.rollout_teacher`). On ``schmier``
neither made a network that plays search better (docs/results.md). A third,
``--teacher oracle`` (with ``--opponent``), values each card by solving the real
deal, every hand open (:mod:`training.oracle_teacher`). Usage::

    smear-rl distill agents/shipped/ten_point.npz --matches 200 --out runs/distill
    smear-rl evaluate runs/distill/agent.pt search --preset ten_point --matches 200
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from agents.card_features import CARD_FEATURE_SETS, CARD_FEATURES
from agents.knowledge import knowledge_from_view
from agents.neural_agent import NeuralAgent, Policy
from agents.registry import make_agent
from agents.search_bot import SearchAgent, best_card
from smear_env import actions as A
from smear_env.game import PLAY, Game
from smear_env.observation import IncrementalObserver, action_mask, observation_size, player_view
from smear_env.signature import DEFAULT_GAME, game_of
from smear_env.version import code_version
from training.checkpoint import checkpoint_rules, load_checkpoint, network_from_checkpoint, save_checkpoint
from training.cli import ArgumentParser, check_output_folder, int_at_least
from training.evaluate import derive_seed, lineup
from training.evaluate.lineups import A as STUDENT
from training.export import agent_from_checkpoint
from training.model import CardHeadNet, network_input
from training.oracle_teacher import ORACLE, OracleTeacher
from training.rollout_teacher import RolloutSpec, RolloutTeacher, parse_rollout_spec


@dataclass(frozen=True)
class LabelJob:
    """What every labelling match shares; sent to each worker once."""

    student: str  # checkpoint path of the agent that learns
    teacher: str  # registry spec of the search bot that labels (and plays the other side), or rollout:samples=N
    seed: int
    max_hands: int = 60  # a labelling match still running after this many deals is cut short
    opponent: str = ""  # registry spec of the other side; "" = the teacher, whose own card plays are labelled too


@dataclass
class Labels:
    """Recorded decisions: observations, masks, the teacher's values (NaN where none) and where each came from."""

    obs: np.ndarray  # float32 [N, obs]
    masks: np.ndarray  # bool [N, actions]
    values: np.ndarray  # float32 [N, actions]: teacher's mean value per legal card, NaN elsewhere (all NaN: unlabelled)
    student: np.ndarray  # bool [N]: the student's decision (else the teacher's)
    match: np.ndarray  # int32 [N]: index of the match the decision came from

    @property
    def labelled(self) -> np.ndarray:
        return ~np.isnan(self.values).all(axis=1)

    def save(self, path: Path, source: dict[str, Any] | None = None) -> None:
        """The arrays, and how they were made (``source``, JSON) so that a fit from the file can say."""
        extra = {"source": np.array(json.dumps(source))} if source else {}
        np.savez_compressed(path, **asdict(self), **extra)

    @classmethod
    def load(cls, path: str | Path) -> Labels:
        """Labels saved by :meth:`save`: plain arrays only (``allow_pickle=False``: loading runs no code).

        ``ValueError`` when an array is missing, of another kind or of another length.
        """
        with np.load(path, allow_pickle=False) as data:
            missing = [name for name in cls.__dataclass_fields__ if name not in data.files]
            if missing:
                raise ValueError(f"it has no {missing[0]!r} array")
            labels = cls(**{name: data[name] for name in cls.__dataclass_fields__})
        labels._check()
        return labels

    def _check(self) -> None:
        kinds = {"obs": ("f", 2), "masks": ("b", 2), "values": ("f", 2), "student": ("b", 1), "match": ("iu", 1)}
        for name, (kind, dims) in kinds.items():
            array = getattr(self, name)
            if array.dtype.kind not in kind or array.ndim != dims:
                raise ValueError(f"its {name!r} is a {array.ndim}-d {array.dtype} array, not what save() writes")
            if len(array) != len(self.obs):
                raise ValueError(f"its {name!r} has {len(array)} rows, its 'obs' {len(self.obs)}")
        if self.masks.shape != self.values.shape:
            raise ValueError(f"its masks are {self.masks.shape} but its values {self.values.shape}")

    def take(self, rows: np.ndarray) -> Labels:
        """The decisions at ``rows`` (a boolean mask or indices)."""
        return Labels(*(getattr(self, name)[rows] for name in self.__dataclass_fields__))

    @classmethod
    def concat(cls, parts: list[Labels]) -> Labels:
        return cls(**{name: np.concatenate([getattr(p, name) for p in parts]) for name in cls.__dataclass_fields__})


def _teacher(spec: str, rules: Any, seed: int) -> SearchAgent:
    if spec == ORACLE or parse_rollout_spec(spec) is not None:
        raise ValueError(f"teacher {spec!r} plays no side of its own: name the labelling matches' other side "
                         "with --opponent (rule, search, or the student's own file for self-play)")  # fmt: skip
    bot = make_agent(spec, rules, seed)
    if not isinstance(bot, SearchAgent):
        raise ValueError(f"teacher {spec!r} has no per-card values to teach: expected a search bot (e.g. 'search')")
    return bot


class LabelRunner:
    """Plays labelling matches, the student's side against the teacher's (or another opponent's), and records
    every decision.

    Against the teacher both sides' card plays are labelled. Against another
    opponent only the student's are: those are the positions the student meets
    there (DAgger), which matches against search alone do not show it.
    """

    def __init__(self, job: LabelJob) -> None:
        self.job = job
        data = load_checkpoint(job.student)
        self.rules = checkpoint_rules(data)
        self.student = agent_from_checkpoint(job.student, self.rules)
        # one bot per seat, as in an evaluation: a search bot keeps its bid's plan (trump, first lead)
        # until it names trump, and a partner bidding after it with the same object would overwrite it
        self.against_teacher = not job.opponent
        self.others = [
            _teacher(job.teacher, self.rules, 0) if self.against_teacher else make_agent(job.opponent, self.rules, 0)
            for _ in range(self.rules.num_players)
        ]
        rollout = parse_rollout_spec(job.teacher)
        self.labeller: SearchAgent | RolloutTeacher | OracleTeacher
        if job.teacher == ORACLE and job.opponent:
            self.labeller = OracleTeacher()
        elif rollout is None:
            self.labeller = _teacher(job.teacher, self.rules, 0)
        else:
            opponents = _rollout_opponents(rollout, self.rules)
            self.labeller = RolloutTeacher(self.student.policy, self.rules.num_players, rollout.samples, 0, opponents)

    def match(self, index: int) -> Labels:
        """Match ``index``: the student's teams are role A of an evaluation's game ``index`` (they alternate)."""
        r = self.rules
        seed = derive_seed("distill", self.job.seed, index)
        for k, bot in enumerate((self.student, self.labeller, *self.others)):
            bot.reset(derive_seed("distill-agent", self.job.seed, index, k))
        game = Game(r, seed=seed, dealer=index % r.num_players)
        observer = IncrementalObserver(r.num_players)
        roles = lineup(index, game.teams)  # by team, so partners are both the student or both teachers
        rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]] = []
        while not game.is_over and len(game.deals) <= self.job.max_hands:
            seat = game.current_player
            legal = game.legal_mask()
            if legal & (legal - 1) == 0:  # forced
                game.apply(legal.bit_length() - 1)
                continue
            is_student = roles[seat] == STUDENT
            view = player_view(game, seat)
            obs = observer.vector(game, seat)
            mask = action_mask(legal).astype(bool)
            if game.phase == PLAY and game.trump >= 0 and (is_student or self.against_teacher):
                k = knowledge_from_view(view, r)
                labeller = self.labeller
                values = labeller.play_values(k) if isinstance(labeller, SearchAgent) else labeller.play_values(game, k)
                if values is not None:
                    row = np.full(A.NUM_ACTIONS, np.nan, dtype=np.float32)
                    for card, value in values.items():
                        row[A.PLAY_BASE + card] = value
                    rows.append((obs, mask, row, is_student))
                    if not is_student:  # the teacher plays as it would have: its best card
                        game.apply(A.PLAY_BASE + best_card(values, k))
                        continue
            elif is_student:
                rows.append((obs, mask, np.full(A.NUM_ACTIONS, np.nan, dtype=np.float32), True))
            bot = self.student if is_student else self.others[seat]
            game.apply(bot.act(view, {"observation": obs, "action_mask": mask.astype(np.int8)}))
        if not rows:
            return _no_labels(observation_size(r.num_players))
        obs, masks, values, student = zip(*rows)
        return Labels(
            np.stack(obs), np.stack(masks), np.stack(values), np.array(student), np.full(len(rows), index, np.int32)
        )


def _rollout_opponents(rollout: RolloutSpec, rules: Any) -> Policy | None:
    """The network the other sides play in the play-outs (None: the student's own)."""
    if not rollout.opponents:
        return None
    try:
        agent = make_agent(rollout.opponents, rules, 0)
    except ValueError as err:
        raise ValueError(f"rollout teacher's opponents={rollout.opponents!r}: {err}") from None
    if not isinstance(agent, NeuralAgent):
        raise ValueError(f"rollout teacher's opponents={rollout.opponents!r}: expected a network file (.pt or .npz)")
    return agent.policy


def _opponent(spec: str, rules: Any) -> None:
    """Build the opponent once, so an unknown bot or a checkpoint for other rules fails before any labelling."""
    try:
        make_agent(spec, rules, 0)
    except ValueError as err:
        raise ValueError(f"--opponent {spec!r}: {err}") from None


def _no_labels(size: int) -> Labels:
    return Labels(
        np.zeros((0, size), np.float32), np.zeros((0, A.NUM_ACTIONS), bool),
        np.zeros((0, A.NUM_ACTIONS), np.float32), np.zeros(0, bool), np.zeros(0, np.int32),
    )  # fmt: skip


_WORKER: LabelRunner | None = None


def _init_worker(job: LabelJob) -> None:
    global _WORKER
    torch.set_num_threads(1)
    _WORKER = LabelRunner(job)


def _label_match(index: int) -> tuple[int, Labels]:
    assert _WORKER is not None, "worker not initialised"
    return index, _WORKER.match(index)


def collect_labels(job: LabelJob, matches: int, workers: int, progress: bool = True) -> Labels:
    """Label ``matches`` matches on ``workers`` processes (spawned: torch and fork do not mix)."""
    parts: dict[int, Labels] = {}
    bar = tqdm(total=matches, desc="labelling", unit="match", file=sys.stderr, disable=not progress)
    if workers <= 1:
        runner = LabelRunner(job)
        for index in range(matches):
            parts[index] = runner.match(index)
            bar.update()
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers, initializer=_init_worker, initargs=(job,)) as pool:
            for index, labels in pool.imap_unordered(_label_match, range(matches)):
                parts[index] = labels
                bar.update()
    bar.close()
    return Labels.concat([parts[i] for i in range(matches)])


# ---------------------------------------------------------------------- fitting
@dataclass(frozen=True)
class FitConfig:
    """How the student is fitted to the labels."""

    temperature: float = 0.5  # points: the target is softmax(teacher values / temperature); 0 = its best cards
    regret_weight: float = 1.0  # weight of the expected regret: the points (by the teacher) each card gives up
    epochs: int = 6  # passes over the labels
    lr: float = 3e-4  # Adam learning rate
    minibatch: int = 512  # decisions per gradient step
    keep_weight: float = 1.0  # weight of the KL to the starting policy on the student's other decisions
    value_weight: float = 0.5  # weight of the value regression to the starting network
    holdout: float = 0.1  # share of matches (the last ones) held out to measure agreement

    def __post_init__(self) -> None:
        checks = {
            "temperature": self.temperature >= 0, "regret_weight": self.regret_weight >= 0, "epochs": self.epochs >= 0,
            "lr": self.lr > 0, "minibatch": self.minibatch >= 1, "keep_weight": self.keep_weight >= 0,
            "value_weight": self.value_weight >= 0, "holdout": 0 <= self.holdout < 1,
        }  # fmt: skip
        expected = {"lr": "above 0", "minibatch": "at least 1", "holdout": "from 0 up to, not including, 1"}
        for name, ok in checks.items():
            value = getattr(self, name)
            if not ok or not math.isfinite(value):
                wanted = expected.get(name, "0 or more") + ("" if math.isfinite(value) else ", and finite")
                raise ValueError(f"fit option {name} = {value!r}: expected {wanted}")


def teacher_targets(values: np.ndarray, temperature: float) -> np.ndarray:
    """Target distribution over actions from the teacher's values (NaN = not a choice)."""
    legal = ~np.isnan(values)
    filled = np.where(legal, values, -np.inf)
    if temperature <= 0:
        best = filled.max(axis=1, keepdims=True)
        target = (filled == best).astype(np.float32)
    else:
        z = filled / temperature
        z = z - z.max(axis=1, keepdims=True)
        target = np.where(legal, np.exp(z), 0.0).astype(np.float32)
    return target / target.sum(axis=1, keepdims=True)


def shortfall(values: np.ndarray) -> np.ndarray:
    """Points each card gives up against the teacher's best card (0 where not a choice)."""
    best = values.max(axis=1, initial=-np.inf, where=~np.isnan(values))
    return np.nan_to_num(best[:, None] - values).astype(np.float32)


def agreement(net: torch.nn.Module, labels: Labels) -> dict[str, float]:
    """On the labelled decisions: how often the network's top card is one of the teacher's best
    (``agreement``), and the points it gives up by the teacher's values (``regret``, per decision)."""
    rows = labels.labelled
    if not rows.any():
        return {"agreement": float("nan"), "regret": float("nan")}
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(labels.obs[rows]), torch.from_numpy(labels.masks[rows]))
    given_up = shortfall(labels.values[rows])[np.arange(int(rows.sum())), logits.argmax(1).numpy()]
    return {"agreement": float(np.mean(given_up < 1e-6)), "regret": float(given_up.mean())}


class _FitData:
    """The training rows as tensors, with the teacher's targets and the starting network's outputs."""

    def __init__(self, labels: Labels, start: torch.nn.Module, temperature: float) -> None:
        self.obs, self.masks = torch.from_numpy(labels.obs), torch.from_numpy(labels.masks)
        taught = labels.labelled
        targets, given_up = np.zeros_like(labels.values), np.zeros_like(labels.values)
        targets[taught] = teacher_targets(labels.values[taught], temperature)
        given_up[taught] = shortfall(labels.values[taught])
        self.taught = torch.from_numpy(taught)
        self.targets, self.shortfall = torch.from_numpy(targets), torch.from_numpy(given_up)
        with torch.no_grad():
            logits, self.start_values = start(self.obs, self.masks)
        self.start_logp = F.log_softmax(logits, dim=1)

    def __len__(self) -> int:
        return len(self.obs)

    def loss(self, net: torch.nn.Module, idx: torch.Tensor, c: FitConfig) -> torch.Tensor:
        """Teacher cross-entropy plus expected regret on card play, KL to the start elsewhere, value regression."""
        masks, taught = self.masks[idx], self.taught[idx]
        logits, values = net(self.obs[idx], masks)
        logp = F.log_softmax(logits, dim=1).masked_fill(~masks, 0)
        imitation = -(self.targets[idx] * logp).sum(1) + c.regret_weight * (logp.exp() * self.shortfall[idx]).sum(1)
        ref = self.start_logp[idx].masked_fill(~masks, 0)
        keep = (ref.exp() * (ref - logp)).sum(1)
        per_row = torch.where(taught, imitation, c.keep_weight * keep)
        return per_row.mean() + c.value_weight * F.mse_loss(values, self.start_values[idx])


def fit(
    net: torch.nn.Module, labels: Labels, c: FitConfig, seed: int = 0, log: Any = print,
    reference: torch.nn.Module | None = None,
) -> dict[str, float]:  # fmt: skip
    """Fit ``net`` to the teacher's card play, keeping its other decisions and its values near ``reference``.

    ``reference`` defaults to ``net`` as it starts (a frozen copy); a fresh
    network of another size learns the student's other decisions from it.
    ``seed`` orders the minibatches. The last ``holdout`` of the matches are not
    trained on; the agreement and regret reported are measured on them.
    """
    if not len(labels.match):
        raise ValueError("nothing to fit: no decisions were labelled")
    held = _held_out(labels.match, c.holdout)
    if held.all():
        matches = len(np.unique(labels.match))
        raise ValueError(f"nothing to fit: holdout {c.holdout} of {matches} labelled match(es) holds out every one; "
                         "expected more matches or --holdout 0")  # fmt: skip
    train, test = labels.take(~held), labels.take(held)
    data = _FitData(train, _frozen_copy(reference or net), c.temperature)
    before = agreement(net, test)
    optimizer = torch.optim.Adam(net.parameters(), lr=c.lr)
    rng = np.random.default_rng(seed)
    for epoch in range(c.epochs):
        total = 0.0
        for idx in np.array_split(rng.permutation(len(data)), max(1, len(data) // c.minibatch)):
            loss = data.loss(net, torch.from_numpy(idx), c)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
        now = agreement(net, test)
        log(f"epoch {epoch + 1}/{c.epochs}: loss {total / len(data):.4f}, held out: agreement {now['agreement']:.3f}, "
            f"regret {now['regret']:.3f} points per decision")  # fmt: skip
    after = agreement(net, test)
    report = {f"{key}_before": value for key, value in before.items()}
    report |= {f"{key}_after": value for key, value in after.items()}
    return report | {"held_out_decisions": float(test.labelled.sum())}


def with_card_features(net: torch.nn.Module, labels: Labels, rules: Any) -> Labels:
    """``labels`` as ``net`` reads them: a card-head network gets each card's features appended."""
    return Labels(network_input(net, labels.obs, rules), labels.masks, labels.values, labels.student, labels.match)


def _frozen_copy(net: torch.nn.Module) -> torch.nn.Module:
    import copy

    frozen = copy.deepcopy(net).eval()
    for p in frozen.parameters():
        p.requires_grad_(False)
    return frozen


def _held_out(match: np.ndarray, share: float) -> np.ndarray:
    """Rows of the last ``share`` of the matches (at least one match when ``share`` > 0)."""
    if share <= 0 or not len(match):
        return np.zeros(len(match), bool)
    last = int(match.max()) + 1
    return match >= last - max(1, round(last * share))


# ---------------------------------------------------------------------- command line
def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="smear-rl distill", description=__doc__)
    p.add_argument("student", help="the agent to start from: a checkpoint (agent.pt) or a policy file (.npz)")
    p.add_argument("--out", required=True, help="output folder: labels.npz and agent.pt")
    p.add_argument(
        "--teacher",
        default="search",
        help="search bot spec that labels, e.g. search:samples=48; or "
        "rollout:samples=N, the student's own play-outs; or oracle, the real deal solved (both need --opponent)",
    )
    p.add_argument("--matches", type=int, default=100, help="labelling matches against the teacher")
    p.add_argument(
        "--opponent",
        default="",
        help="agent spec of the other side in the labelling matches, e.g. rule "
        "(default: the teacher); only the student's card plays are labelled then",
    )
    p.add_argument("--labels", nargs="+", help="labels.npz files of earlier runs to fit on (no labelling)")
    p.add_argument("--label-only", action="store_true", help="write labels.npz and stop (fit later with --labels)")
    p.add_argument("--seed", type=int, default=0, help="seed of the labelling matches and of the minibatch order")
    p.add_argument("--workers", type=int_at_least(1), default=None, help="labelling processes (default: every core)")
    p.add_argument(
        "--card-head",
        action="store_true",
        help="fit a student with a card head (each card scored by one shared function of its features; "
        "agents/card_features.py); a student that has one keeps it",
    )
    p.add_argument(
        "--card-features",
        type=int,
        choices=CARD_FEATURE_SETS,
        default=None,
        help=f"with --card-head: the first 15 card features (heads made before the last three), or all "
        f"(default {CARD_FEATURES})",
    )
    for name, default in asdict(FitConfig()).items():
        p.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default, help=f"fit: {name}")
    return p


def label_source(path: str | Path) -> dict[str, Any] | None:
    """How a labels file was made (student, teacher, seed, matches, minutes, code), or None for older files."""
    with np.load(path, allow_pickle=False) as data:
        return json.loads(str(data["source"][()])) if "source" in data.files else None


def load_labels(paths: list[str]) -> Labels:
    """Several label files as one, their matches numbered on from file to file (the holdout takes the last)."""
    parts, offset = [], 0
    for path in paths:
        try:
            labels = Labels.load(path)
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as err:
            raise ValueError(f"{path!r} is not a labels file written by training.distill: {err}") from None
        labels.match = labels.match + offset
        offset = int(labels.match.max()) + 1 if len(labels.match) else offset
        parts.append(labels)
    return Labels.concat(parts)


def _check_card_features(count: int | None, card_head: bool, data: dict[str, Any]) -> None:
    """--card-features sizes a new card head: without one to make, or against the student's own, it is a mistake."""
    if count is None:
        return
    if data.get("card_head"):
        if data["card_head"].get("features") != count:
            raise ValueError(
                f"--card-features {count}: the student's card head reads {data['card_head'].get('features')} "
                "features, and a student keeps its head"
            )
    elif not card_head:
        raise ValueError(f"--card-features {count}: expected --card-head too (the student has no card head)")


def _check_labels_fit(labels: Labels, data: dict[str, Any]) -> None:
    """Labels recorded for another observation layout or action space would fail deep inside torch."""
    shapes = {"observation size": (labels.obs.shape[1], data["observation_size"]),
              "number of actions": (labels.masks.shape[1], data["num_actions"])}  # fmt: skip
    for what, (theirs, ours) in shapes.items():
        if theirs != ours:
            raise ValueError(f"the labels' {what} is {theirs}, the student's {ours}: labels for other rules or layout")
    if not len(labels.obs):
        raise ValueError("the label files hold no decisions")


def main(argv: list[str] | None = None) -> None:
    import os

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        out = check_output_folder(args.out, "--out folder")
        data = load_checkpoint(args.student)
        rules = checkpoint_rules(data)
        if game_of(rules) != DEFAULT_GAME:
            raise ValueError(
                f"{args.student!r} plays {rules.name}: distillation teaches the Smear search bot's card play, "
                "expected a checkpoint of a Smear preset"
            )
        fit_config = FitConfig(**{name: getattr(args, name) for name in asdict(FitConfig())})
        _check_card_features(args.card_features, args.card_head, data)
        if args.labels:
            labels = load_labels(args.labels)
            _check_labels_fit(labels, data)
        else:
            labels = None
            if args.opponent:
                _opponent(args.opponent, rules)
            rollout = parse_rollout_spec(args.teacher)
            if (rollout is None and args.teacher != ORACLE) or not args.opponent:
                _teacher(args.teacher, rules, 0)
            elif rollout is not None:
                _rollout_opponents(rollout, rules)
            if args.matches < 1:
                raise ValueError(f"--matches {args.matches}: expected at least 1 labelling match")
    except ValueError as err:
        parser.error(str(err))
    out.mkdir(parents=True, exist_ok=True)
    if labels is None:
        started, version = time.perf_counter(), code_version()  # the code the matches run, read before them
        job = LabelJob(args.student, args.teacher, args.seed, opponent=args.opponent)
        labels = collect_labels(job, args.matches, args.workers or os.cpu_count() or 1)
        minutes = (time.perf_counter() - started) / 60
        labels.save(out / "labels.npz", {**asdict(job), "matches": args.matches, "minutes": round(minutes, 2),
                                         "code_version": version})  # fmt: skip
        print(f"labelled {int(labels.labelled.sum())} of {len(labels.obs)} decisions in "
              f"{minutes:.1f} min: {out / 'labels.npz'}")  # fmt: skip
        if args.label_only:
            return
    net = network_from_checkpoint(data).train()
    if args.card_head and not isinstance(net, CardHeadNet):
        net = CardHeadNet.from_plain(net, args.seed, args.card_features or CARD_FEATURES)
    labels = with_card_features(net, labels, rules)
    try:
        report = fit(net, labels, fit_config, args.seed)
    except ValueError as err:
        parser.error(str(err))
    print(", ".join(f"{k} {v:.3f}" for k, v in report.items()))
    # the training state, and the starting agent's own evaluation, which no longer describes this one
    training_state = ("format", "format_version", "model", "optimizer", "pool", "training_state", "state", "evaluation")
    payload = {k: v for k, v in data.items() if k not in training_state}
    payload["model"] = {k: v.detach().cpu() for k, v in net.state_dict().items()}
    if isinstance(net, CardHeadNet):
        payload["card_head"] = net.sizes
    source = (
        {"labels": list(args.labels), "label_sources": [label_source(path) for path in args.labels]}
        if args.labels
        else {"teacher": args.teacher}
    )
    if args.opponent and not args.labels:
        source["opponent"] = args.opponent
    payload["distill"] = {
        "student": args.student, **source, "seed": args.seed, "matches": int(labels.match.max()) + 1,
        "decisions": len(labels.obs), "labelled": int(labels.labelled.sum()), **asdict(fit_config), **report,
    }  # fmt: skip
    save_checkpoint(out / "agent.pt", payload)
    print(f"agent: {out / 'agent.pt'}")


if __name__ == "__main__":
    main()
