"""Experience from many matches at once: batched policy inference over every match waiting on it.

Each match in flight has a role per seat: the learner (the current policy; its
decisions are recorded), a pool snapshot, or a baseline bot. One step asks every
match for its next decision, groups the matches by who decides, and runs one
forward pass per group. Forced moves (one legal action) are applied without
asking anybody and are not recorded.

An episode is one hand of one learner seat: its decisions from the deal to the
hand's end, rewarded at the end with the hand reward (my side's score change
minus the best other side's, scaled). Hands are played inside whole matches so
the score features the network sees are those of real matches. A match's last
hand may also carry the match's outcome (``match_reward``): points won are not
matches won where a side must bid to go out (``pitch_smudge``) or a lead late in
a match is worth defending rather than stretching. Such hands come once a
match; ``late_start`` begins a share of the matches with each side two hands or
less from the target, where most hands decide the match. When a hand
ends, its episodes get their GAE advantages and become ready for an update;
hands still in progress wait for the next rollout (their behaviour
log-probabilities are stored, so PPO's ratio corrects for the newer policy).

A checkpoint keeps the collector as plain data (:meth:`Collector.state_dict`): each
match in flight as its engine record plus each bot's options and RNG state, open
episodes and ready decisions as tensors. ``torch.load(weights_only=True)`` reads that
without running code, and :meth:`Collector.load_state_dict` rebuilds the very same
matches (the record replays the game exactly, bots get their RNG states back).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import torch

from agents.base import Agent
from agents.card_features import card_features
from agents.knowledge import knowledge_from_game
from agents.match_odds import MATCH_MOON_PRESETS, moon_model_for, unfitted_match_moon
from agents.neural_agent import network_moon_wins
from agents.registry import make_agent
from agents.rule_bot import RuleAgent, moon_wins_match
from smear_env.actions import MOON
from smear_env.game import Game, replay
from smear_env.observation import IncrementalObserver, action_mask, player_view
from smear_env.rules import Rules
from smear_env.schneider.game import SchneiderRules
from training.evaluate.games import late_scores
from training.model import CardHeadNet, PolicyValueNet, log_softmax_np, network_input, sample_actions

LEARNER = "learner"
POOL = "pool"
#: who faces the learner: the policy, its pool, bots by name; fixed: Collector.fixed_agent; neural: the agent
#: shipped for each match's rules (its preset's specialist, or the universal agent on a house-rule set)
OPPONENT_KINDS = ("self", "pool", "rule", "random", "bold", "searchbid", "fixed", "neural")
MAX_DEALS_PER_MATCH = 100  # a match still running after this many deals is abandoned (cautious bots may never end)


@dataclass
class Episode:
    """One learner seat's decisions in one hand."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logps: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    targets: list[np.ndarray] = field(default_factory=list)  # a teacher's logits for each decision, when one labels

    def add(self, obs: np.ndarray, mask: np.ndarray, action: int, logp: float, value: float) -> None:
        self.obs.append(obs)
        self.masks.append(mask)
        self.actions.append(action)
        self.logps.append(logp)
        self.values.append(value)


@dataclass
class Match:
    """A match in flight: the game, its observer, who plays each seat, and open episodes."""

    game: Game
    observer: IncrementalObserver
    roles: list[str]  # per seat: LEARNER, POOL, or a bot name
    opponent: str  # kind of the side facing the learner (one of OPPONENT_KINDS)
    bots: dict[int, Agent]
    pool_index: int
    episodes: dict[int, Episode] = field(default_factory=dict)
    deals: int = 1
    results: int = 0


@dataclass
class Batch:
    """Ready decisions for one update, as arrays."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    logps: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    targets: np.ndarray | None = None  # a teacher's logits [B, A] for each decision, when one labels them

    def __len__(self) -> int:
        return len(self.actions)


#: a batched policy: (observations [B, O], masks [B, A]) -> (masked logits [B, A], values [B]), numpy in and out
PolicyFn = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
#: draws the rules of a new match from the collector's Generator (training one agent over many rule sets)
RulesDraw = Callable[[np.random.Generator], Rules]


class TeacherFn(Protocol):
    """A teacher (training.teachers): its masked logits ``[B, A]`` for policy inputs ``[B, I]`` of one rule set."""

    def __call__(self, rules: Rules, inputs: np.ndarray, masks: np.ndarray) -> np.ndarray: ...

    def who(self, rules: Rules) -> str:
        """The agent that teaches ``rules``: rows of rule sets with one teacher may be labelled in one batch."""
        ...


def match_outcomes(game: Any) -> list[float]:
    """Per seat of a finished match: +1 for a win alone, 0 for a win shared with other teams or a draw, -1 lost.

    Why not the engine's rewards (+1 to every winner): with individual scores a bidder and the
    partner it called can reach the target together, and the harness counts such a win as half
    a win, like a draw. Rewarding it as a whole one never teaches the agent to win alone (call
    a card it holds, or a partner who cannot catch up). With two teams nothing changes.
    """
    outcome = game.rewards()
    if len(game.winners) > 1:
        return [0.0 if reward > 0 else reward for reward in outcome]
    return outcome


class Collector:
    """Many matches stepped in lockstep; see the module docstring."""

    opponent_kinds = OPPONENT_KINDS  # the kinds this game has bots for
    has_bids = True  # the game has an auction (the trainer charts the learner's bid rate)

    def __init__(
        self, rules: Rules, num_games: int, opponent_mix: dict[str, float], rng: np.random.Generator,
        gamma: float = 1.0, gae_lambda: float = 0.95, reward_scale: float = 0.0, imitate: bool = False,
        fixed_agent: str = "", match_reward: float = 0.0, late_start: float = 0.0, match_moon: bool = False,
        rival_weight: float = 1.0, moon_model: str = "rule", draw_rules: RulesDraw | None = None,
        card_features: int = 0, teacher: TeacherFn | None = None, fixed_rules: Rules | None = None,
    ) -> None:  # fmt: skip
        self.rules, self.rng = rules, rng
        #: the rules of each new match, drawn (one agent for many rule sets), or None: always ``rules``
        self.draw_rules = draw_rules
        #: the rules of every match against the fixed agent, or None: the drawn ones. An exploiter found its hole on
        #: its own table; met on drawn rules, it would rarely sit at that table.
        self.fixed_rules = fixed_rules
        #: card features appended to every recorded observation, read with its match's rules (0: none). Policies then
        #: get the network's whole input: with rules differing by match, no one set of rules could read them later.
        self.card_features = card_features
        self.teacher = teacher  # labels every recorded decision with its logits (training.teachers)
        self.fixed_agent = fixed_agent  # the registry spec (name or checkpoint) that plays the "fixed" kind
        self.gamma, self.gae_lambda = gamma, gae_lambda
        self.reward_scale = reward_scale  # 0: each match's default_reward_scale
        self.match_reward = match_reward  # +this/-this on the last hand of a match, for its winners/the others
        self.late_start = late_start  # share of new matches begun near the target (late_scores)
        self.rival_weight = rival_weight  # hand reward: my side's change - this x the best other side's
        self.match_moon = match_moon  # policy seats' moon calls are the match odds' (as NeuralAgent plays them)
        #: which call: the rule bot's, or the one fitted to the shipped network (NeuralAgent's moon_model) where it
        #: reads the match's rules (match_odds.moon_model_for)
        self.moon_model = moon_model
        if match_moon and draw_rules is None and rules.name not in MATCH_MOON_PRESETS:
            raise unfitted_match_moon(rules.name)
        if late_start and (draw_rules is not None or not self._plays_to_target(rules)):
            raise ValueError(f"late_start = {late_start!r}: {rules.name}'s matches are not played to a target score")
        self.imitate = imitate  # every seat is the rule bot and its moves are recorded (imitation warm start)
        misnamed = set(opponent_mix) - set(OPPONENT_KINDS)
        unplayable = {kind for kind, weight in opponent_mix.items() if weight > 0} - set(self.opponent_kinds)
        if misnamed | unplayable:
            raise ValueError(
                f"unknown opponent kinds {sorted(misnamed | unplayable)} for {rules.name}: "
                f"expected among {', '.join(self.opponent_kinds)}"
            )
        if opponent_mix.get("fixed", 0) > 0 and not fixed_agent:
            raise ValueError("the 'fixed' opponent kind needs fixed_agent: a bot name or a checkpoint path")
        kinds = [k for k in OPPONENT_KINDS if opponent_mix.get(k, 0) > 0]
        weights = np.array([opponent_mix[k] for k in kinds], dtype=np.float64)
        self.kinds, self.kind_p = kinds, weights / weights.sum()
        self.pool_size = 0  # snapshots available to pool opponents (set by the trainer)
        self.ready: list[dict[str, np.ndarray]] = []
        self.ready_steps = 0
        self.stats: dict[str, float] = defaultdict(float)
        self.matches = [self._new_match() for _ in range(num_games)]

    # ------------------------------------------------------------------ the game's hooks (Smear here)
    def default_reward_scale(self, rules: Rules) -> float:
        """What a hand reward is divided by unless the config sets ``reward_scale``: the most a side can take."""
        return float(rules.max_hand_points)

    def _new_game(self, rules: Rules, seed: int, dealer: int, scores: list[int] | None) -> Game:
        return Game(rules, seed=seed, dealer=dealer, scores=scores)

    def _plays_to_target(self, rules: Rules) -> bool:
        """Whether a match ends at a target score, so that it can start near it (``late_start``)."""
        return rules.match_end == "target"

    def _team_of(self, rules: Rules, seat: int) -> int:
        return rules.team_of(seat)

    def _num_teams(self, rules: Rules) -> int:
        return rules.num_teams

    def _observer(self, rules: Rules) -> Any:
        """What builds a seat's observation vector (``.vector(game, seat)``) for one match."""
        return IncrementalObserver(rules.num_players)

    _action_mask = staticmethod(action_mask)  # int legal mask -> the game's action mask

    def _bot_action(self, bot: Agent, game: Game, seat: int) -> int:
        return bot_action(bot, game, seat)

    _replay = staticmethod(replay)  # a match in flight's record -> its game

    @staticmethod
    def _results(game: Game) -> list[Any]:
        """The game's scored hands so far, in order (a hand thrown in has none)."""
        return game.hand_results

    def _hand_reward(self, result: Any, seat: int) -> float:
        return result.hand_reward(seat, self.rival_weight)

    def _note_result(self, m: Match, result: Any) -> None:
        """Bid statistics of the learner's made and set bids."""
        if m.roles[result.bidder] == LEARNER:
            self.stats["bids"] += 1
            self.stats["bids_made"] += result.made
            self.stats["bid_total"] += result.bid

    # ------------------------------------------------------------------ matches
    def _new_match(self) -> Match:
        rules = self.rules if self.draw_rules is None else self.draw_rules(self.rng)
        seed, dealer = int(self.rng.integers(2**62)), int(self.rng.integers(rules.num_players))
        scores = self._start_scores(rules)
        kind = "rule" if self.imitate else str(self.rng.choice(self.kinds, p=self.kind_p))
        if kind == "fixed" and self.fixed_rules is not None:
            # drawn after the rest, so a run without fixed_rules keeps its stream of matches
            rules, dealer = self.fixed_rules, int(self.rng.integers(self.fixed_rules.num_players))
        n = rules.num_players
        game = self._new_game(rules, seed, dealer, scores)
        if kind == "pool" and self.pool_size == 0:
            kind = "self"
        learner_team = int(self.rng.integers(self._num_teams(rules)))
        roles, bots = [], {}
        for seat in range(n):
            mine = self._team_of(rules, seat) == learner_team
            role = LEARNER if kind == "self" or (mine and not self.imitate) else self._role_of(kind)
            roles.append(role)
            if role not in (LEARNER, POOL):
                bots[seat] = make_agent(role, rules, int(self.rng.integers(2**62)))
        pool_index = int(self.rng.integers(self.pool_size)) if kind == "pool" else -1
        return Match(game, self._observer(rules), roles, kind, bots, pool_index)

    def _start_scores(self, rules: Rules) -> list[int] | None:
        """A new match's scores: None (0 each), or near the target for a ``late_start`` share of matches."""
        if not self.late_start or self.rng.random() >= self.late_start:  # no draw at 0: old runs replay alike
            return None
        return late_scores(rules, random.Random(int(self.rng.integers(2**62))))

    def _role_of(self, kind: str) -> str:
        """The role of a seat facing the learner: the pool, the fixed agent's spec, or the bot the kind names."""
        return {"pool": POOL, "fixed": self.fixed_agent}.get(kind, kind)

    # ------------------------------------------------------------------ stepping
    def collect(self, steps: int, learner: PolicyFn, pool: list[PolicyFn]) -> Batch:
        """Step every match until at least ``steps`` recorded decisions are in finished hands."""
        while self.ready_steps < steps:
            self.step(learner, pool)
        return self.take()

    def step(self, learner: PolicyFn | None, pool: list[PolicyFn]) -> None:
        """One decision in every match (after its forced moves)."""
        groups: dict[int, list[int]] = defaultdict(list)  # -1: learner, k: pool snapshot k
        for i in range(len(self.matches)):
            self._play_forced(i)
            m = self.matches[i]
            seat = m.game.current_player
            role = m.roles[seat]
            if role == LEARNER:
                groups[-1].append(i)
            elif role == POOL:
                groups[m.pool_index].append(i)
            else:
                self._bot_move(i, seat)
        for key, idxs in groups.items():
            self._policy_moves(idxs, learner if key == -1 else pool[key], record=key == -1)

    def _play_forced(self, i: int) -> None:
        m = self.matches[i]
        legal = m.game.legal_mask()
        while legal & (legal - 1) == 0:  # a single legal action
            self._apply(i, legal.bit_length() - 1)
            m = self.matches[i]
            legal = m.game.legal_mask()

    def _bot_move(self, i: int, seat: int) -> None:
        m = self.matches[i]
        action = self._bot_action(m.bots[seat], m.game, seat)
        if self.imitate:
            obs, mask = self._input(m, seat), self._action_mask(m.game.legal_mask()).astype(bool)
            m.episodes.setdefault(seat, Episode()).add(obs, mask, action, 0.0, 0.0)
        self._apply(i, action)

    def _policy_moves(self, idxs: list[int], policy: PolicyFn, record: bool) -> None:
        matches = [self.matches[i] for i in idxs]
        obs = np.stack([self._input(m, m.game.current_player) for m in matches])
        masks = np.stack([self._action_mask(self._policy_legal(m)) for m in matches]).astype(bool)
        logits, values = policy(obs, masks)
        actions = sample_actions(logits, self.rng)
        if record:
            logps = log_softmax_np(logits)[np.arange(len(idxs)), actions]
            targets = self._labels(matches, obs, masks) if self.teacher is not None else None
            for k, m in enumerate(matches):
                episode = m.episodes.setdefault(m.game.current_player, Episode())
                episode.add(obs[k], masks[k], int(actions[k]), float(logps[k]), float(values[k]))
                if targets is not None:
                    episode.targets.append(targets[k])
        for i, action in zip(idxs, actions):
            self._apply(i, int(action))

    def _labels(self, matches: list[Match], obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The teacher's logits for each row, asked once per group: per teacher when the rows hold their card
        features, else per rule set (the teacher reads them under the rules)."""
        teacher = self.teacher
        assert teacher is not None
        out = np.empty(masks.shape, dtype=np.float32)
        by_rules: dict[Any, list[int]] = defaultdict(list)
        for k, m in enumerate(matches):
            by_rules[teacher.who(m.game.rules) if self.card_features else id(m.game.rules)].append(k)
        for rows in by_rules.values():
            out[rows] = teacher(matches[rows[0]].game.rules, obs[rows], masks[rows])
        return out

    def _input(self, m: Match, seat: int) -> np.ndarray:
        """What a policy reads for ``seat``: its observation vector, and with ``card_features`` each card's features."""
        obs = m.observer.vector(m.game, seat)
        if not self.card_features:
            return obs
        return np.concatenate([obs, card_features(obs, m.game.rules, self.card_features).ravel()])

    def _moons_by_odds(self, rules: Rules) -> bool:
        """Whether policy seats' moon calls are the match odds' under ``rules`` (``match_moon``, where fitted)."""
        return self.match_moon and rules.moon_bid and rules.name in MATCH_MOON_PRESETS

    def _policy_legal(self, m: Match) -> int:
        """The moves a policy seat chooses among: all legal ones, but under ``match_moon`` the moon is not its call.

        The shipped agent plays the moon by the match odds (``NeuralAgent(match_moon=True)``); training its
        network under the same calls lets its other moves fit them. A forced moon, or a moon ruled out, is still
        recorded, with the one-move or moon-less mask the policy saw, so PPO's ratios stay exact.
        """
        legal = m.game.legal_mask()
        moon = 1 << MOON
        if not self.match_moon or not legal & moon or legal == moon or not self._moons_by_odds(m.game.rules):
            return legal
        seat, rules = m.game.current_player, m.game.rules
        call = network_moon_wins if moon_model_for(rules, self.moon_model) == "network" else moon_wins_match
        return moon if call(knowledge_from_game(m.game, seat, rules), rules) else legal & ~moon

    def _apply(self, i: int, action: int) -> None:
        m = self.matches[i]
        game = m.game
        game.apply(action)
        if len(game.deals) == m.deals and not game.is_over:
            return
        self._end_hand(m)
        m.deals = len(game.deals)
        if game.is_over or m.deals > MAX_DEALS_PER_MATCH:
            self.stats["matches"] += 1
            self.matches[i] = self._new_match()

    # ------------------------------------------------------------------ hand ends
    def _end_hand(self, m: Match) -> None:
        """Close the hand's episodes with their rewards (0 for a hand thrown in) and note bid statistics."""
        results = self._results(m.game)
        result = results[-1] if len(results) > m.results else None
        m.results = len(results)
        outcome = match_outcomes(m.game) if self.match_reward and m.game.is_over else None
        scale = self.reward_scale or self.default_reward_scale(m.game.rules)
        for seat, ep in m.episodes.items():
            reward = self._hand_reward(result, seat) / scale if result else 0.0
            if outcome is not None:
                reward += self.match_reward * outcome[seat]
            self._finish(ep, reward)
            if m.roles[seat] == LEARNER or self.imitate:
                self.stats[f"reward_vs_{m.opponent}"] += reward
                self.stats[f"episodes_vs_{m.opponent}"] += 1
        m.episodes = {}
        if result is not None:
            self.stats["hands"] += 1
            self._note_result(m, result)

    def _finish(self, ep: Episode, reward: float) -> None:
        """GAE over one episode whose only reward comes at its end."""
        values = np.asarray(ep.values, dtype=np.float32)
        steps = len(values)
        advantages = np.zeros(steps, dtype=np.float32)
        last, next_value = 0.0, 0.0
        for t in range(steps - 1, -1, -1):
            r = reward if t == steps - 1 else 0.0
            delta = r + self.gamma * next_value - values[t]
            last = delta + self.gamma * self.gae_lambda * last
            advantages[t] = last
            next_value = values[t]
        self.ready.append({
            "obs": np.stack(ep.obs), "masks": np.stack(ep.masks), "actions": np.asarray(ep.actions, dtype=np.int64),
            "logps": np.asarray(ep.logps, dtype=np.float32), "values": values, "advantages": advantages,
            "returns": advantages + values,
        })  # fmt: skip
        if ep.targets:
            self.ready[-1]["targets"] = np.stack(ep.targets)
        self.ready_steps += steps

    def take(self) -> Batch:
        """Every ready decision as one batch; the ready list starts empty again."""
        parts = self.ready
        self.ready, self.ready_steps = [], 0
        return Batch(**{key: np.concatenate([p[key] for p in parts]) for key in parts[0]})

    def pop_stats(self) -> dict[str, float]:
        stats, self.stats = dict(self.stats), defaultdict(float)
        return stats

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> dict[str, Any]:
        """Everything in flight as plain data and tensors (see the module docstring); not the shared RNG."""
        return {
            "matches": [_match_state(m) for m in self.matches],
            "ready": [{key: torch.from_numpy(value) for key, value in part.items()} for part in self.ready],
            "ready_steps": self.ready_steps,
            "stats": dict(self.stats),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Rebuild the matches, open episodes and ready decisions of :meth:`state_dict`.

        ``ValueError`` (nothing changed) when ``state`` is not what :meth:`state_dict`
        writes for these rules, e.g. a checkpoint of another run or a damaged one.
        """
        try:
            matches = [self._match_from_state(m) for m in state["matches"]]
            ready = [{key: _array(value, key) for key, value in part.items()} for part in state["ready"]]
            ready_steps = int(state["ready_steps"])
            stats = defaultdict(float, {str(k): float(v) for k, v in state["stats"].items()})
        except KeyError as err:
            raise ValueError(f"the matches in flight lack field {err}") from None
        except (TypeError, AttributeError, IndexError) as err:
            raise ValueError(f"the matches in flight are malformed ({type(err).__name__}: {err})") from None
        if len(matches) != len(self.matches):
            raise ValueError(
                f"{len(matches)} matches are in flight in the checkpoint, this run plays {len(self.matches)}"
            )
        self.matches, self.ready, self.ready_steps, self.stats = matches, ready, ready_steps, stats

    def _match_from_state(self, state: dict[str, Any]) -> Match:
        game = self._replay(state["record"])  # a ValueError names what is wrong with the record
        if game.rules != self.rules and self.draw_rules is None:
            raise ValueError(f"a match in flight plays {game.rules.name} rules, this run {self.rules.name}")
        roles = [str(role) for role in state["roles"]]
        bots = {}
        for seat, bot_state in state["bots"].items():
            bots[int(seat)] = make_agent(roles[int(seat)], game.rules, 0)
            restore_bot(bots[int(seat)], bot_state)
        episodes = {int(seat): _episode_from_state(ep) for seat, ep in state["episodes"].items()}
        return Match(game, self._observer(game.rules), roles, str(state["opponent"]), bots,
                     int(state["pool_index"]), episodes, int(state["deals"]), int(state["results"]))  # fmt: skip


def _match_state(m: Match) -> dict[str, Any]:
    """A match in flight as plain data: a fresh observer gives the same vectors, so it is not kept."""
    return {
        "record": m.game.record(), "roles": list(m.roles), "opponent": m.opponent, "pool_index": m.pool_index,
        "bots": {seat: bot_state(bot) for seat, bot in m.bots.items()}, "deals": m.deals, "results": m.results,
        "episodes": {seat: _episode_state(ep) for seat, ep in m.episodes.items()},
    }  # fmt: skip


def _episode_state(ep: Episode) -> dict[str, torch.Tensor]:
    state = {
        "obs": torch.from_numpy(np.stack(ep.obs)), "masks": torch.from_numpy(np.stack(ep.masks)),
        "actions": torch.tensor(ep.actions, dtype=torch.int64), "logps": torch.tensor(ep.logps, dtype=torch.float64),
        "values": torch.tensor(ep.values, dtype=torch.float64),
    }  # fmt: skip
    if ep.targets:
        state["targets"] = torch.from_numpy(np.stack(ep.targets))
    return state


def _episode_from_state(state: dict[str, Any]) -> Episode:
    """The episode of :func:`_episode_state`: the same rows, and the same Python numbers (float64 kept exact)."""
    obs, masks = _array(state["obs"], "obs"), _array(state["masks"], "masks")
    numbers = [_array(state[key], key).tolist() for key in ("actions", "logps", "values")]
    targets = list(_array(state["targets"], "targets")) if "targets" in state else []
    return Episode(list(obs), list(masks), *numbers, targets)


def _array(value: Any, what: str) -> np.ndarray:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{what} is a {type(value).__name__}, not a tensor")
    return value.numpy()


def bot_state(bot: Agent) -> dict[str, Any]:
    """A bot's attributes as plain data: its RNGs' states, nested bots' states, and plain values.

    Its rules and the attributes it rebuilds from its spec (``Agent.rebuilt_attributes``,
    e.g. a neural agent's weights, read again from its file) are left out. A bot holding
    anything else cannot be checkpointed without pickling: that fails here, at save
    time, naming the attribute, rather than resuming a run that is no longer exact.
    """
    state: dict[str, Any] = {"plain": {}, "random": {}, "bots": {}}
    for name, value in vars(bot).items():
        if name in bot.rebuilt_attributes:
            continue
        if isinstance(value, random.Random):
            state["random"][name] = value.getstate()
        elif isinstance(value, Agent):
            state["bots"][name] = bot_state(value)
        elif isinstance(value, Rules | SchneiderRules):  # either game's rules: the bot is rebuilt with them
            continue
        elif _is_plain(value):
            state["plain"][name] = value
        else:
            raise ValueError(
                f"cannot checkpoint a {type(bot).__name__}: its {name} holds a {type(value).__name__}, "
                "not plain data, an RNG or a bot"
            )
    return state


def restore_bot(bot: Agent, state: dict[str, Any]) -> None:
    """Put :func:`bot_state` back into a bot freshly built with the same name, rules and options."""
    attributes = vars(bot)
    for kind in ("plain", "random", "bots"):
        for name in state[kind]:
            if name not in attributes:
                raise ValueError(f"a {type(bot).__name__} has no attribute {name!r} to restore")
    for name, value in state["plain"].items():
        if not _is_plain(value):
            raise ValueError(f"a {type(bot).__name__}'s {name} is a {type(value).__name__}, not plain data")
        setattr(bot, name, value)
    for name, rng_state in state["random"].items():
        rng = random.Random()
        rng.setstate(rng_state)
        setattr(bot, name, rng)
    for name, nested in state["bots"].items():
        restore_bot(getattr(bot, name), nested)


def _is_plain(value: Any) -> bool:
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list | tuple):
        return all(_is_plain(v) for v in value)
    return isinstance(value, dict) and all(isinstance(k, str) and _is_plain(v) for k, v in value.items())


def bot_action(bot: Agent, game: Game, seat: int) -> int:
    """``bot``'s move for ``seat``: the rule-based bots read the engine's state directly
    (``agents.knowledge.knowledge_from_game``, the same move as from the view), others get the view."""
    if isinstance(bot, RuleAgent):
        return bot.act_on(knowledge_from_game(game, seat, bot.rules))
    return bot.act(player_view(game, seat))


def torch_policy(
    net: PolicyValueNet, device: torch.device, rules: Rules | SchneiderRules | None = None, whole_inputs: bool = False
) -> PolicyFn:
    """A batched policy function over ``net`` for :meth:`Collector.step`; a card head reads features of ``rules``,
    unless the collector hands over ``whole_inputs`` (its ``card_features``: each match's own rules read them)."""
    appends = isinstance(net, CardHeadNet) and not whole_inputs
    if appends and not isinstance(rules, Rules):
        raise ValueError(f"a card-head network needs the Smear rules its card features are read with, not {rules!r}")

    @torch.no_grad()
    def policy(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        inputs = network_input(net, obs, rules) if appends else obs
        logits, values = net(torch.from_numpy(inputs).to(device), torch.from_numpy(masks).to(device))
        return logits.float().cpu().numpy(), values.float().cpu().numpy()

    return policy
