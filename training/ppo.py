"""Masked PPO self-play: imitation warm start, rollouts, updates, evaluation, checkpoints, TensorBoard.

The run is a pure function of its config: the network is initialised from the
seed, and one ``numpy`` Generator (its state saved in every checkpoint with the
matches in flight, as plain data: see :mod:`training.checkpoint`) drives games,
bots, sampled actions and minibatch order, so ``--resume`` from a checkpoint
gives the same weights as an uninterrupted run.
Evaluations against the baselines use their own fixed seeds and never touch
the training state; the time they take is not counted as training time.
"""

from __future__ import annotations

import copy
import csv
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter

from smear_env.signature import network_signature, rules_for_preset
from smear_env.version import code_version
from training.checkpoint import card_head_features, game_signature, load_checkpoint, save_checkpoint
from training.collection import RayCollection, make_collector
from training.config import TrainConfig, check_fresh_start, config_from_dict
from training.evaluate import evaluate
from training.focus import FocusSet, score_focus_sets, write_focus
from training.model import CardHeadNet, PolicyValueNet, make_network, network_input
from training.progress import RunProgress
from training.selfplay import OPPONENT_KINDS, Batch, PolicyFn, torch_policy
from training.stopping import StopRequested
from training.teachers import labelled

EVAL_SEED = 20261122  # deals of every evaluation during training (the same deals each time: comparable points)
#: curve.csv's columns: points_diff is points taken a hand less the opponent's (sets not subtracted), hand_reward
#: the score change a hand less the opponent's (sets counted; empty for Bohemian Schneider)
CURVE_FIELDS = ["train_minutes", "step", "opponent", "matches", "win_rate", "ci_low", "ci_high", "points_diff",
                "hand_reward"]  # fmt: skip


#: layout of the resumable state in checkpoint.pt (``training_state``); older checkpoints pickled it instead
TRAINING_STATE_VERSION = 2

#: config fields a resumed run may change: when it stops and how it is evaluated, nothing it learns from
RESUME_OVERRIDES = frozenset(
    {"total_steps", "time_limit_minutes", "eval_every_minutes", "eval_matches", "final_eval_matches",
     "eval_opponents", "checkpoint_every", "torch_threads"}
)  # fmt: skip


def check_extension(changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` if a resumed run may take them; else a ValueError naming the fields that would change the run."""
    refused = sorted(set(changes) - RESUME_OVERRIDES)
    if refused:
        raise ValueError(
            f"--resume continues a run with its own config; {', '.join(refused)} cannot change "
            f"(allowed: {', '.join(sorted(RESUME_OVERRIDES))})"
        )
    return changes


def pick_device(name: str) -> torch.device:
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("training config: device = 'cuda' but no CUDA device is available")
    return torch.device(name)


class Trainer:
    """A training run in ``out_dir``: ``checkpoint.pt`` (resumable), ``agent.pt`` (to ship), ``tb/``, ``curve.csv``."""

    def __init__(
        self,
        config: TrainConfig | None,
        out_dir: str | Path,
        resume: str | Path | None = None,
        extend: dict[str, Any] | None = None,
        address: str = "",
    ) -> None:
        """A new run of ``config``, or (``config`` None) the run saved in the checkpoint ``resume``.

        ``extend`` changes only when a resumed run stops and how it is evaluated
        (:data:`RESUME_OVERRIDES`), so it stays the run it was, just longer. ``address``: the Ray cluster its
        ``workers`` join (default: Ray started on this machine).
        """
        code_version()  # asked now, so every checkpoint records the code the run started with (see code_version)
        self.out = Path(out_dir)
        if self.out.exists() and not self.out.is_dir():
            raise ValueError(f"output folder {str(self.out)!r} is a file: expected a folder (or a new name)")
        if resume is not None:
            data = load_checkpoint(resume)
            config = config_from_dict(check_extension(extend or {}), _saved_config(data, resume))
        if config is None:
            raise ValueError("Trainer needs a config, or a checkpoint to resume")
        if resume is None:
            check_fresh_start(config)
        self.config = c = config
        if c.torch_threads:
            torch.set_num_threads(c.torch_threads)
        self.rules = rules_for_preset(c.preset)
        self.device = pick_device(c.device)
        signature = network_signature(self.rules)
        self.net = self._network(signature["observation_size"], signature["num_actions"], c.seed)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=c.lr, eps=1e-5)
        self.pool: list[dict[str, torch.Tensor]] = []
        self.pool_policies: list[PolicyFn] = []
        self.step = self.update = 0
        self.train_seconds = 0.0
        self.imitated = False
        self.last_eval: dict[str, float] = {}
        self.curve_written = resume is not None  # a new run starts its own curve.csv, a resumed one adds to its own
        self.rng = np.random.default_rng(c.seed)
        self.remote = c.workers > 0  # collection in Ray workers (training.collection)
        if resume is None and c.init_from:
            self._load_weights(c.init_from)  # first: an agent that cannot start the run is refused before scoring
        self.focus = _saved_focus(data) if resume is not None else _score_focus(c, address)
        self.collector: Any = (
            RayCollection(c, self.rules, self.rng, address, self.focus)
            if self.remote
            else make_collector(c, self.rules, self.rng, focus=self.focus)
        )
        if resume is not None:
            self._restore(data, str(resume))
        self.out.mkdir(parents=True, exist_ok=True)  # only now: a refused run leaves no empty folder behind
        if self.focus:
            write_focus(self.out, self.focus)
        self.writer = SummaryWriter(str(self.out / "tb"), purge_step=self.update or None)

    # ------------------------------------------------------------------ checkpoints
    def _payload(self, full: bool) -> dict[str, Any]:
        model = {k: v.detach().cpu() for k, v in self.net.state_dict().items()}
        payload: dict[str, Any] = {
            **game_signature(self.rules), "preset": self.config.preset, "hidden": list(self.config.hidden),
            "model": model, "config": self.config.to_dict(), "step": self.step, "update": self.update,
            "train_minutes": self.train_seconds / 60, "evaluation": dict(self.last_eval),
        }  # fmt: skip
        if self.config.universal:
            payload["universal"] = True
        if isinstance(self.net, CardHeadNet):
            payload["card_head"] = self.net.sizes
        if full:
            state = {"version": TRAINING_STATE_VERSION, "rng": self.rng.bit_generator.state,
                     "imitated": self.imitated, "collector": self.collector.state_dict(),
                     "focus": [f.to_dict() for f in self.focus]}  # fmt: skip
            payload.update(optimizer=self.optimizer.state_dict(), pool=self.pool, training_state=state)
        return payload

    def save(self) -> None:
        """The resumable checkpoint and the small agent file (weights and what they were trained for)."""
        save_checkpoint(self.out / "checkpoint.pt", self._payload(full=True))
        self.save_agent(self.out / "agent.pt")

    def save_agent(self, path: str | Path) -> Path:
        """The agent file of the weights as they are now (an exploiter's start is played before it trains)."""
        return save_checkpoint(path, self._payload(full=False))

    def _load_weights(self, path: str) -> None:
        """Start from a trained agent's weights (fine-tuning): same rules and layout, same network shape.

        With ``init_any_rules`` the rules may differ (transfer: card play learned on one
        preset is a better start on a kindred one than the rule bot's imitation); the
        vector's size, so the number of players, must still match.
        """
        exact = None if self.config.init_any_rules else self.rules  # else other rules or layouts fail here
        try:
            data = load_checkpoint(path, exact)
        except ValueError as err:
            raise ValueError(f"training config: init_from: {err}") from None
        if data["observation_size"] != self.net.obs_size:
            raise ValueError(
                f"training config: init_from {path!r}: its network reads {data['observation_size']} inputs "
                f"({data['rules'].get('num_players')} players), {self.rules.name} needs {self.net.obs_size}"
            )
        if list(data["hidden"]) != list(self.config.hidden):
            raise ValueError(
                f"training config: init_from {path!r}: its network has hidden layers {list(data['hidden'])}, "
                f"this config has {list(self.config.hidden)}; set hidden to match"
            )
        missing, unexpected = self.net.load_state_dict(self._start_weights(data, path), strict=False)
        if unexpected or any(not name.startswith("card_") for name in missing):
            raise ValueError(f"training config: init_from {path!r}: weights {missing + unexpected} do not fit")

    def _start_weights(self, data: dict[str, Any], path: str) -> dict[str, torch.Tensor]:
        """init_from's weights for this run's network: a card head is kept when this run trains one that
        reads as many features, left out when it trains none. A head this run adds starts at zero (its
        weights are the ones missing), so the network plays as init_from's did."""
        theirs = card_head_features(data)
        state, mine = data["model"], self.config.card_head
        if theirs and mine and theirs != mine:
            raise ValueError(
                f"training config: init_from {path!r}: its card head reads {theirs} card features, "
                f"card_head = {mine}; set card_head = {theirs} (or 0 to leave its head out)"
            )
        if theirs and not mine:
            print(f"init_from {path}: its card head is left out (card_head = 0); "
                  "its network starts from the rest", file=sys.stderr)  # fmt: skip
            return {name: weights for name, weights in state.items() if not name.startswith("card_")}
        return state

    def _restore(self, data: dict[str, Any], where: str) -> None:
        """Continue the run saved in ``data``: weights, optimizer, counters, RNG, snapshot pool, matches in flight."""
        if "training_state" not in data:
            if "state" in data:
                raise ValueError(
                    f"checkpoint {where!r} was written by an older smear-rl that pickled its training state; "
                    "--resume no longer unpickles (a crafted file could run code), so it cannot be resumed. "
                    "Its agent still loads for play and evaluation, and init_from can fine-tune from it"
                )
            raise ValueError(
                f"checkpoint {where!r} holds an agent only (no optimizer or games in flight): cannot resume it"
            )
        state = data["training_state"]
        try:
            if state.get("version") != TRAINING_STATE_VERSION:
                raise ValueError(f"state version {state.get('version')!r}, this reads {TRAINING_STATE_VERSION}")
            self.net.load_state_dict(data["model"])
            self.optimizer.load_state_dict(data["optimizer"])
            self.step, self.update = int(data["step"]), int(data["update"])
            self.train_seconds = float(data["train_minutes"]) * 60
            self.last_eval = {str(k): float(v) for k, v in data.get("evaluation", {}).items()}
            self.rng.bit_generator.state = state["rng"]  # the collector draws from this same Generator
            self.collector.load_state_dict(state["collector"])
            self.imitated = bool(state["imitated"])
            self._set_pool(list(data["pool"]))
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RuntimeError) as err:
            problem = f"missing field {err}" if isinstance(err, KeyError) else str(err)
            raise ValueError(f"checkpoint {where!r} cannot be resumed: malformed training state: {problem}") from None

    # ------------------------------------------------------------------ the run
    def run(
        self, progress: bool = True, max_updates: int | None = None, stop: Callable[[], bool] | None = None
    ) -> dict[str, float]:
        """Train to ``total_steps`` (or the time limit, or ``max_updates`` more updates), then evaluate and save.

        ``stop``: asked after each update; when it says so, the run saves its checkpoint and raises
        :class:`training.stopping.StopRequested` (the command line's answer to SIGTERM and Ctrl-C).
        Returns the final evaluation: win rate against each baseline.
        """
        c = self.config
        stop_at = self.update + max_updates if max_updates is not None else None
        bar = RunProgress(c.total_steps, c.time_limit_minutes, progress)
        if c.bc_hands and not self.imitated:
            self.imitate(bar)
        if c.eval_at_start and self.update == 0:
            self.evaluate(c.eval_matches, progress)  # where PPO starts from: the imitation's play, for the curve
        last_eval_at = self.train_seconds
        while not self._finished(stop_at):
            started = time.perf_counter()
            batch = self._collect()
            collect_seconds = time.perf_counter() - started
            losses = self.distill_update(batch) if c.teacher and not c.teacher_coef else self.ppo_update(batch)
            self.train_seconds += time.perf_counter() - started
            self.step += len(batch)
            self.update += 1
            self._log_update(batch, losses, collect_seconds, time.perf_counter() - started)
            bar.show("training", self.step, self.train_seconds, self._postfix())
            if self.update % c.snapshot_every == 0:
                self._set_pool([*self.pool, copy.deepcopy(self.net.state_dict())][-c.pool_size :])
            stopping = stop is not None and stop()
            if stopping or self.update % c.checkpoint_every == 0:
                self.save()
            if stopping:
                bar.close()
                raise StopRequested(f"stopped after update {self.update}, saved in {self.out / 'checkpoint.pt'}")
            due = c.eval_every_minutes and self.train_seconds - last_eval_at >= c.eval_every_minutes * 60
            if due and not self._finished(stop_at):  # the last one is the final evaluation's, below
                self.evaluate(c.eval_matches, progress)
                last_eval_at = self.train_seconds
                bar.show("training", self.step, self.train_seconds, self._postfix())
        bar.close()
        self.evaluate(c.final_eval_matches, progress)  # saves before playing (the harness loads agent.pt) ...
        self.save()  # ... and after, to keep the evaluation in the files
        self.writer.close()
        if self.remote:
            self.collector.shutdown()
        return dict(self.last_eval)

    def _finished(self, stop_at: int | None) -> bool:
        """Whether the run has reached one of its limits: decisions, training time, or the updates asked for."""
        return self.step >= self.config.total_steps or self._out_of_time() or self.update == stop_at

    def _out_of_time(self) -> bool:
        limit = self.config.time_limit_minutes
        return bool(limit) and self.train_seconds >= limit * 60

    def _network(self, obs_size: int, num_actions: int, seed: int = 0) -> PolicyValueNet:
        """A network of this run's shape (with its card head, if it trains one) on its device."""
        c = self.config
        return make_network(obs_size, num_actions, c.hidden, seed, c.card_head).to(self.device)

    def _collect(self) -> Batch:
        """A rollout of the current weights, from this process's matches or the Ray workers'."""
        if self.remote:
            return self.collector.collect(self.config.rollout_steps, self.net.state_dict())
        return self.collector.collect(self.config.rollout_steps, self._learner_policy(), self.pool_policies)

    def _learner_policy(self) -> PolicyFn:
        return torch_policy(self.net, self.device, self.rules, whole_inputs=self.collector.card_features > 0)

    def _inputs(self, batch: Batch) -> np.ndarray:
        """What the network reads for a batch: its recorded vectors, with each card's features unless recorded."""
        return batch.obs if self.collector.card_features else network_input(self.net, batch.obs, self.rules)

    def _set_pool(self, pool: list[dict[str, torch.Tensor]]) -> None:
        """Keep the snapshots and a policy over each (built once per snapshot, not per rollout)."""
        self.pool = pool
        self.pool_policies = []
        if self.remote:
            self.collector.set_pool(pool)
            return
        for state in pool:
            net = self._network(self.net.obs_size, self.net.num_actions)
            net.load_state_dict(state)
            whole = self.collector.card_features > 0
            self.pool_policies.append(torch_policy(net, self.device, self.rules, whole_inputs=whole))
        self.collector.pool_size = len(pool)

    # ------------------------------------------------------------------ imitation warm start
    def imitate(self, bar: RunProgress) -> None:
        """Cross-entropy on the rule bot's moves (and value regression on its hands' rewards).

        A policy that starts from random play bids wildly and is set nearly every
        hand, which teaches little; starting from the rule bot's choices lets PPO
        spend its time on what the rule bot gets wrong. No outside data: the
        games are played here, from the run's seed.
        """
        c = self.config
        started = time.perf_counter()
        teacher = make_collector(c, self.rules, self.rng, imitate=True)
        optimizer = torch.optim.Adam(self.net.parameters(), lr=c.bc_lr)
        hands = 0
        while hands < c.bc_hands:
            while teacher.stats["hands"] < c.bc_chunk_hands:
                teacher.step(None, [])
            hands += int(teacher.pop_stats()["hands"])
            batch = teacher.take()
            for _ in range(c.bc_epochs):
                loss, accuracy = self._imitation_epoch(batch, optimizer)
            self.writer.add_scalar("imitation/loss", loss, hands)
            self.writer.add_scalar("imitation/accuracy", accuracy, hands)
            seconds = self.train_seconds + time.perf_counter() - started
            figures = {"hands": f"{hands:,}/{c.bc_hands:,}", "its moves matched": f"{accuracy:.0%}"}
            bar.show("imitating the rule bot", self.step, seconds, figures)
        self.imitated = True
        self.train_seconds += time.perf_counter() - started
        self.save()

    def _imitation_epoch(self, batch: Batch, optimizer: torch.optim.Optimizer) -> tuple[float, float]:
        total = correct = 0.0
        inputs = self._inputs(batch)
        for idx in self._minibatches(len(batch)):
            obs, masks, actions, _, _, _, returns = self._tensors(batch, inputs, idx)
            logits, values = self.net(obs, masks)
            loss = F.cross_entropy(logits, actions) + self.config.value_coef * F.mse_loss(values, returns)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
            correct += float((logits.argmax(1) == actions).sum())
        return total / len(batch), correct / len(batch)

    # ------------------------------------------------------------------ PPO
    def _minibatches(self, n: int) -> list[np.ndarray]:
        """``n`` rows shuffled into ``n // minibatch`` minibatches (at least one), the remainder spread over them.

        Why not a minibatch of the remainder: a rollout overshoots ``rollout_steps`` by a few rows (whole
        decisions of the games in flight), and a minibatch of 3 rows, its advantages normalised on its own,
        would get an optimizer step as large as a full one's.
        """
        order = self.rng.permutation(n)
        count = max(1, n // self.config.minibatch)
        return np.array_split(order, count)

    def _tensors(self, batch: Batch, inputs: np.ndarray, idx: np.ndarray) -> list[torch.Tensor]:
        """Rows ``idx`` of what the network reads (``inputs``, from batch.obs) and of the batch's other fields."""
        fields = (inputs, batch.masks, batch.actions, batch.logps, batch.values, batch.advantages, batch.returns)
        return [torch.from_numpy(f[idx]).to(self.device) for f in fields]

    def ppo_update(self, batch: Batch) -> dict[str, float]:
        c = self.config
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}  # the teacher's figures count only minibatches with rows it labelled
        inputs = self._inputs(batch)  # once per batch: card features are Python
        for _ in range(c.epochs):
            for idx in self._minibatches(len(batch)):
                obs, masks, actions, old_logp, _, adv, returns = self._tensors(batch, inputs, idx)
                extra: dict[str, torch.Tensor | float] = {}
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(idx) > 1 else adv
                logits, values = self.net(obs, masks)
                logp_all = F.log_softmax(logits, dim=1)
                logp = logp_all.gather(1, actions[:, None]).squeeze(1)
                ratio = torch.exp(logp - old_logp)
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - c.clip, 1 + c.clip) * adv).mean()
                value_loss = 0.5 * F.mse_loss(values, returns)
                entropy = -(logp_all.exp() * logp_all).sum(1).mean()
                loss = policy_loss + c.value_coef * value_loss - c.entropy_coef * entropy
                if c.teacher_coef and batch.targets is not None:  # kickstarting: the teacher's moves as a second loss
                    teacher_loss, agree = self._teacher_loss(batch.targets[idx], logits, logp_all)
                    loss = loss + c.teacher_coef * teacher_loss
                    extra = {"teacher_loss": teacher_loss, "agreement": agree} if agree == agree else {}  # nan: none
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), c.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    kl = ((ratio - 1) - (logp - old_logp)).mean()
                    clipped = ((ratio - 1).abs() > c.clip).float().mean()
                for key, value in (("policy_loss", policy_loss), ("value_loss", value_loss), ("entropy", entropy),
                                   ("approx_kl", kl), ("clip_fraction", clipped), *extra.items()):  # fmt: skip
                    sums[key] = sums.get(key, 0.0) + _number(value)
                    counts[key] = counts.get(key, 0) + 1
        out = {k: v / counts[k] for k, v in sums.items()}
        out["explained_variance"] = explained_variance(batch.values, batch.returns)
        return out

    def distill_update(self, batch: Batch) -> dict[str, float]:
        """Fit the policy to the teacher's on the student's own decisions (cross-entropy to its softmax at
        ``teacher_temperature``) and the value to the hands' returns: DAgger, where PPO would take its advantages."""
        c = self.config
        assert batch.targets is not None, "a teacher run's collector labels its decisions"
        inputs = self._inputs(batch)
        sums = {"distill_loss": 0.0, "value_loss": 0.0, "agreement": 0.0, "entropy": 0.0}
        counts = dict.fromkeys(sums, 0)  # the teacher's figures: only minibatches with rows it labelled
        for _ in range(c.epochs):
            for idx in self._minibatches(len(batch)):
                obs, masks, _, _, _, _, returns = self._tensors(batch, inputs, idx)
                logits, values = self.net(obs, masks)
                logp_all = F.log_softmax(logits, dim=1)
                distill_loss, agree = self._teacher_loss(batch.targets[idx], logits, logp_all)
                value_loss = 0.5 * F.mse_loss(values, returns)
                loss = distill_loss + c.value_coef * value_loss
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), c.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    entropy = -(logp_all.exp() * logp_all).sum(1).mean()
                taught = (("distill_loss", distill_loss), ("agreement", agree)) if agree == agree else ()  # nan: none
                for key, value in (("value_loss", value_loss), ("entropy", entropy), *taught):
                    sums[key] += _number(value)
                    counts[key] += 1
        out = {k: v / counts[k] if counts[k] else float("nan") for k, v in sums.items()}
        out["explained_variance"] = explained_variance(batch.values, batch.returns)
        return out

    def _teacher_loss(
        self, targets: np.ndarray, logits: torch.Tensor, logp_all: torch.Tensor
    ) -> tuple[torch.Tensor, float]:
        """Cross-entropy from the teacher's softmax (at ``teacher_temperature``) to the student's policy, over the rows
        the teacher labelled, and the share of them whose most probable move is the teacher's (0 and nan: none)."""
        rows = torch.from_numpy(labelled(targets)).to(self.device)
        if not bool(rows.any()):
            return logits.sum() * 0.0, float("nan")
        raw = torch.from_numpy(targets).to(self.device)[rows]
        target = F.softmax(raw / self.config.teacher_temperature, 1)
        loss = -(target * logp_all[rows]).sum(1).mean()
        agree = float((logits[rows].argmax(1) == target.argmax(1)).float().mean())
        return loss, agree

    # ------------------------------------------------------------------ logging and evaluation
    def _log_update(self, batch: Batch, losses: dict[str, float], collect_s: float, total_s: float) -> None:
        w, step = self.writer, self.step
        for key, value in losses.items():
            w.add_scalar(f"loss/{key}", value, step)
        stats = self.collector.pop_stats()
        w.add_scalar("speed/decisions_per_second", len(batch) / total_s, step)
        w.add_scalar("speed/collect_decisions_per_second", len(batch) / collect_s, step)
        w.add_scalar("time/train_minutes", self.train_seconds / 60, step)
        if stats.get("bids"):
            w.add_scalar("bids/made_rate", stats["bids_made"] / stats["bids"], step)
            w.add_scalar("bids/mean_bid", stats["bid_total"] / stats["bids"], step)
        if stats.get("hands") and self.collector.has_bids:
            w.add_scalar("bids/learner_bid_rate", stats.get("bids", 0) / stats["hands"], step)
        for kind in OPPONENT_KINDS:
            if stats.get(f"episodes_vs_{kind}"):
                w.add_scalar(f"reward/vs_{kind}", stats[f"reward_vs_{kind}"] / stats[f"episodes_vs_{kind}"], step)
        self._stats = stats

    def _postfix(self) -> dict[str, str]:
        """The last evaluation's win rates, for the progress bar (losses and the rest are in TensorBoard)."""
        rates = {k.removeprefix("win_rate_vs_"): v for k, v in self.last_eval.items() if k.startswith("win_rate_vs_")}
        return {f"won vs {name}": f"{rate:.2f}" for name, rate in rates.items()}

    def evaluate(self, matches: int, progress: bool = False) -> None:
        """Duplicate-format matches of the current agent against each baseline; logged and appended to curve.csv.

        ``progress`` shows a bar of games for each baseline.
        """
        self.save()
        agent = str(self.out / "agent.pt")
        new_file = not self.curve_written or not (self.out / "curve.csv").exists()
        fields = CURVE_FIELDS if new_file else _curve_header(self.out / "curve.csv")  # an older run's keeps its own
        with (self.out / "curve.csv").open("w" if new_file else "a", newline="") as f:
            out = csv.DictWriter(f, fields, extrasaction="ignore")
            if new_file:
                out.writeheader()
                self.curve_written = True
            for preset, opponent, label in self._evaluations():
                spec = self.config.fixed_agent if opponent == "fixed" else opponent
                house = self._eval_house_rules(preset, opponent)
                result = evaluate(agent, spec, preset, matches, EVAL_SEED, workers=1, rule_overrides=house,
                                  progress=progress)  # fmt: skip
                win, mine, theirs = result.a.win_rate, result.a.points_per_hand, result.b.points_per_hand
                reward = result.paired_reward
                diff = mine.value - theirs.value if mine and theirs else 0.0
                opponent = label
                self.last_eval[f"win_rate_vs_{opponent}"] = win.value
                self.writer.add_scalar(f"eval/win_rate_vs_{opponent}", win.value, self.step)
                self.writer.add_scalar(f"eval/points_per_hand_diff_vs_{opponent}", diff, self.step)
                self.writer.add_scalar(f"eval_by_time/win_rate_vs_{opponent}", win.value, int(self.train_seconds))
                out.writerow({"train_minutes": round(self.train_seconds / 60, 3), "step": self.step,
                              "opponent": opponent, "matches": matches, "win_rate": round(win.value, 4),
                              "ci_low": round(win.low, 4), "ci_high": round(win.high, 4),
                              "points_diff": round(diff, 4),
                              "hand_reward": "" if reward is None else round(reward.value, 4)})  # fmt: skip
        self.writer.flush()

    def _eval_house_rules(self, preset: str, opponent: str) -> dict[str, Any] | None:
        """The run's own rules on its preset: its house rules, or against the fixed agent the table it meets it at."""
        if preset != self.config.preset:
            return None
        if opponent == "fixed" and self.config.fixed_house_rules:
            return self.config.fixed_house_rules
        return self.config.house_rules

    def _evaluations(self) -> list[tuple[str, str, str]]:
        """(preset, opponent, label) of each evaluation: every baseline on the run's preset, or on each of a
        universal run's ``eval_presets`` (labelled ``opponent@preset`` then). With ``fixed_house_rules`` the fixed
        agent is met at its table alone, on ``preset``, whether or not ``eval_presets`` names it."""
        c = self.config
        presets = c.eval_presets or [c.preset]
        if presets == [c.preset]:
            return [(c.preset, opponent, opponent) for opponent in c.eval_opponents]
        at_table = bool(c.fixed_house_rules) and "fixed" in c.eval_opponents
        pairs = [(p, o) for p in presets for o in c.eval_opponents if not (at_table and o == "fixed" and p != c.preset)]
        if at_table and c.preset not in presets:
            pairs.insert(0, (c.preset, "fixed"))
        return [(p, opponent, f"{opponent}@{p}") for p, opponent in pairs]


def _score_focus(c: TrainConfig, address: str) -> list[FocusSet]:
    """A focused run's house-rule sets, scored by the agent it starts from (none unless ``focus_sets``), in the
    run's Ray workers when it has them."""
    if not c.focus_sets:
        return []
    print(f"Scoring {c.init_from} against the rule bot on {c.focus_sets} training house-rule sets "
          f"({c.focus_games} games each): its house-rule matches are drawn by the games it loses there")  # fmt: skip
    return score_focus_sets(c.init_from, c.focus_sets, c.focus_games, c.seed, c.train_presets, c.focus_power,
                            log=lambda line: print(line, flush=True), workers=c.workers, address=address)  # fmt: skip


def _saved_focus(data: dict[str, Any]) -> list[FocusSet]:
    """The sets a resumed run drew from (a run saved before focused runs existed drew from none)."""
    state = data.get("training_state")
    saved = state.get("focus", []) if isinstance(state, dict) else []
    try:
        return [FocusSet.from_dict(f) for f in saved]
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ValueError(f"checkpoint: malformed focus sets: {err}") from None


def _curve_header(path: Path) -> list[str]:
    """The columns of an existing curve.csv (runs written before ``hand_reward`` have one fewer)."""
    with path.open(newline="") as f:
        return next(csv.reader(f), CURVE_FIELDS)


def _saved_config(data: dict[str, Any], where: str | Path) -> TrainConfig:
    """The training config a checkpoint was written with; ``ValueError`` when it has none that reads."""
    try:
        return config_from_dict(data["config"])
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"checkpoint {str(where)!r} holds no readable training config: {err!r}") from None


def _number(value: torch.Tensor | float) -> float:
    """A loss figure for the logs: a tensor's value (without its graph), or a float as it is."""
    return value.item() if isinstance(value, torch.Tensor) else value


def explained_variance(predicted: np.ndarray, target: np.ndarray) -> float:
    """1 - Var(target - predicted) / Var(target): 1 is a perfect value function, 0 no better than a constant."""
    var = float(np.var(target))
    return float("nan") if var == 0 else 1.0 - float(np.var(target - predicted)) / var
