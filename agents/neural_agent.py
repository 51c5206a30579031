"""A trained agent run in numpy from an exported policy file, behind the common :class:`Agent` interface.

Why a file of its own: the layer that serves bots must not depend on the layer that
trains them. Training writes torch checkpoints (``.pt``); ``training.export`` turns
one into a ``.npz`` that holds the network's weights as plain float32 arrays and a
JSON layout, and this module reads only that, with ``np.load(allow_pickle=False)``:
no torch, no ``training``, no pickled code. The shipped agents live in
``agents/shipped/`` in that form.

File layout (``POLICY_FORMAT`` version ``POLICY_FORMAT_VERSION``):

=================  =============================================================
array              what
=================  =============================================================
``layout``         0-d string: JSON with ``format``, ``format_version``, ``hidden``
                   (sizes), ``activation``, ``observation_size``, ``num_actions``,
                   ``game`` (``smear`` or ``bohemian_schneider``; files
                   without it are Smear), ``rules`` (every option), ``observation_version``,
                   ``engine_version``, and what the checkpoint recorded (``step``,
                   ``preset``, ``config``, ``distill``, ``source``...)
``hidden.K.weight``  float32 ``[in, out]`` of hidden layer K (``x @ W + b``)
``hidden.K.bias``    float32 ``[out]``
``policy.weight``  float32 ``[last hidden, num_actions]``; ``policy.bias``
``value.weight``   float32 ``[last hidden, 1]``; ``value.bias`` (the value head)
``card.*``         only with ``card_head`` in the layout (``{"features": F, "width": W,
                   "size": K}``): ``card.phi0`` ``[F, W]``, ``card.phi1`` ``[W, K]``,
                   ``card.g`` ``[last hidden, K]``, ``card.bias`` ``[K, 1]`` (weight and
                   bias each). Card ``c``'s play logit gains ``g(h) . phi(f_c) + bias(phi(f_c))``,
                   ``h`` the last hidden layer, ``f_c`` its first ``F`` features
                   (``agents.card_features``: F is 15 or 18), ``phi`` = ``phi1(relu(phi0(f)))``
=================  =============================================================

A file of observation layout 1 (the shipped agents) is upgraded as it is read
(:func:`upgraded`: zero weights for the inputs layout 2 added, the same moves). An
agent refuses a file made for other rules (every option is compared, not only
the preset's name), for another observation layout or engine version, and a view
that its rules could not produce, each with a message saying what differs.
``greedy`` plays the most probable legal action; otherwise it samples from the
policy with the agent's own seeded RNG.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent, Decision
from agents.card_features import CARD_FEATURE_SETS, card_features
from agents.files import written_whole
from agents.knowledge import Knowledge, knowledge_from_view
from agents.match_odds import (
    MATCH_MOON_PRESETS,
    MOON_MODELS,
    NETWORK_MOON_AHEAD,
    NETWORK_MOON_DANGER,
    NETWORK_MOON_THRESHOLD,
    network_moon_call,
    network_moon_chance,
    network_moon_features,
    network_moon_reads,
    network_moon_trumps,
    unfitted_match_moon,
)
from agents.rule_bot import estimate_points, moon_wins_match
from smear_env.actions import MOON, PASS, PLAY_BASE
from smear_env.observation import OBSERVATION_VERSION, input_positions, observation_size
from smear_env.rules import Rules, get_rules
from smear_env.rules_features import feature_names
from smear_env.signature import (
    DEFAULT_GAME,
    AnyRules,
    describe,
    format_move,
    possible_actions,
    rules_from_signature,
    signature_differences,
    vector_from_view,
)

POLICY_FORMAT = "smear-rl-policy"
POLICY_FORMAT_VERSION = 1
ILLEGAL_LOGIT = np.float32(-1e9)  # in place of an illegal action's logit, as in training

#: activation name in the layout -> its numpy function
ACTIVATIONS = {"relu": lambda x: np.maximum(x, np.float32(0.0))}


@dataclass(frozen=True)
class Policy:
    """An exported network: its layout (metadata) and weights, evaluated in numpy on CPU."""

    layout: dict[str, Any]
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]  # hidden layers: (weight [in, out], bias [out])
    head: tuple[np.ndarray, np.ndarray]  # policy head
    value_head: tuple[np.ndarray, np.ndarray]
    #: the card head's layers (card.phi0, card.phi1, card.g, card.bias), or none: see agents.card_features
    card_head: tuple[tuple[np.ndarray, np.ndarray], ...] = ()

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], where: str = "policy") -> Policy:
        """A policy from the arrays of an exported file; ``ValueError`` naming what is missing or malformed."""
        if "layout" not in arrays:
            raise ValueError(f"{where} is not a smear-rl policy file: it has no 'layout' array")
        try:
            layout = json.loads(str(arrays["layout"][()]))
        except (json.JSONDecodeError, TypeError, ValueError) as err:
            raise ValueError(f"{where}: its layout is not valid JSON ({err})") from None
        if not isinstance(layout, dict) or layout.get("format") != POLICY_FORMAT:
            raise ValueError(f"{where} is not a smear-rl policy file (no {POLICY_FORMAT!r} format tag)")
        if layout.get("format_version") != POLICY_FORMAT_VERSION:
            raise ValueError(
                f"{where} has policy format {layout.get('format_version')!r}; "
                f"this version reads {POLICY_FORMAT_VERSION}"
            )
        if layout.get("activation") not in ACTIVATIONS:
            raise ValueError(f"{where}: activation {layout.get('activation')!r} is not one of {sorted(ACTIVATIONS)}")
        hidden = layout.get("hidden")
        if not isinstance(hidden, list) or not all(isinstance(h, int) and h > 0 for h in hidden):
            raise ValueError(f"{where}: hidden sizes {hidden!r} are not a list of positive integers")

        def pair(name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
            try:
                weight, bias = arrays[f"{name}.weight"], arrays[f"{name}.bias"]
            except KeyError as err:
                raise ValueError(f"{where}: array {err.args[0]!r} is missing") from None
            if weight.shape != (rows, cols) or bias.shape != (cols,):
                raise ValueError(
                    f"{where}: {name} has shapes {weight.shape} and {bias.shape}, "
                    f"expected ({rows}, {cols}) and ({cols},)"
                )
            out = np.array(weight, np.float32, order="C"), np.array(bias, np.float32)
            for array in out:
                array.setflags(write=False)  # shared by every agent made from the file
            return out

        widths = [layout.get("observation_size"), *hidden]
        if not isinstance(widths[0], int) or not isinstance(layout.get("num_actions"), int):
            raise ValueError(f"{where}: the layout needs integer observation_size and num_actions")
        layers = tuple(pair(f"hidden.{k}", widths[k], widths[k + 1]) for k in range(len(hidden)))
        head = pair("policy", widths[-1], layout["num_actions"])
        card_head = _card_head(layout, widths[-1], pair, where)
        return upgraded(cls(layout, layers, head, pair("value", widths[-1], 1), card_head))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The arrays :meth:`from_arrays` reads (what ``np.savez`` writes)."""
        arrays: dict[str, np.ndarray] = {"layout": np.array(json.dumps(self.layout, sort_keys=True))}
        named = [(f"hidden.{k}", layer) for k, layer in enumerate(self.layers)]
        named += list(zip(CARD_HEAD_NAMES, self.card_head))
        for name, (weight, bias) in [*named, ("policy", self.head), ("value", self.value_head)]:
            arrays[f"{name}.weight"], arrays[f"{name}.bias"] = weight, bias
        return arrays

    def save(self, path: str | Path) -> Path:
        """Write the policy as an uncompressed ``.npz`` (it loads without pickle).

        The file is written beside ``path`` and renamed over it, so a run reading the old file (a training run's
        frozen opponent, say) never meets half a new one.
        """
        path = Path(path)
        with written_whole(path) as partial, partial.open("wb") as f:
            np.savez(f, **self.to_arrays())
        return path

    @cached_property
    def fingerprint(self) -> str:
        """A digest of the weights alone (not the layout's file name or training notes): one network under any path.

        Two evaluations of the same network, one from a run's folder and one from its
        shipped copy, are one match-up; this is how the pool tells (``training.pool``). A
        network widened to a newer observation layout (:func:`upgraded`) keeps the digest of
        the weights as stored: it plays every move as before.
        """
        return self.layout.get("stored_fingerprint") or self._digest()

    def _digest(self) -> str:
        digest = hashlib.sha256()
        named = [*self.layers, self.head, self.value_head, *self.card_head]
        for array in (part for pair in named for part in pair):
            digest.update(f"{array.dtype.str}{array.shape}".encode())
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:32]

    @cached_property
    def rules(self) -> AnyRules:
        """The rules the network was trained for (Smear's or Bohemian Schneider's: the layout's ``game``)."""
        return rules_from_signature(self.layout)

    def _trunk(self, obs: np.ndarray) -> np.ndarray:
        activate = ACTIVATIONS[self.layout["activation"]]
        x = np.asarray(obs, dtype=np.float32)
        for weight, bias in self.layers:
            x = activate(x @ weight + bias)
        return x

    def logits(
        self, obs: np.ndarray, mask: np.ndarray, features: np.ndarray | None = None, rules: AnyRules | None = None
    ) -> np.ndarray:
        """Masked logits for one observation vector or a batch ``[B, obs]`` (illegal actions at -1e9).

        A card head reads each card's features (``[..., 54, F]``): ``features``, or read off ``obs`` under
        ``rules``, the rules the game plays. Those must be given to a universal policy: its recorded rules are
        one preset's, and features read under them misread any other table (its seats, its trumps, its points),
        as the shipped universal agent's play did on every rule set but ``ten_point`` until 2026-12-05.
        A specialist's rules default to its own.
        """
        weight, bias = self.head
        trunk = self._trunk(obs)
        out = trunk @ weight + bias
        if self.card_head:
            out[..., PLAY_BASE:] += self._card_term(obs, trunk, features, rules)
        return np.where(mask != 0, out, ILLEGAL_LOGIT)

    def _card_term(
        self, obs: np.ndarray, trunk: np.ndarray, features: np.ndarray | None, rules: AnyRules | None
    ) -> np.ndarray:
        """What the card head adds to each card's play logit (training.model.CardHeadNet.forward)."""
        (w0, b0), (w1, b1), (wg, bg), (wb, bb) = self.card_head
        if features is None:
            if rules is None and self.layout.get("universal"):
                raise ValueError(
                    "a universal policy plays many rule sets: its card head reads each card under the rules the "
                    "game plays, expected rules= (or the features read under them)"
                )
            features = card_features(obs, self.rules if rules is None else rules, len(w0))
        codes = np.maximum(features[..., : len(w0)] @ w0 + b0, np.float32(0.0)) @ w1 + b1  # [..., 54, size]
        return (codes * (trunk @ wg + bg)[..., None, :]).sum(-1) + (codes @ wb + bb)[..., 0]

    def value(self, obs: np.ndarray) -> np.ndarray:
        """The value head: the seat's expected hand reward as training scaled it, per observation."""
        weight, bias = self.value_head
        return (self._trunk(obs) @ weight + bias)[..., 0]

    def differences(self, rules: AnyRules) -> list[str]:
        """What stops this policy from playing ``rules`` here: another game, other options, layout, engine or sizes."""
        try:
            return signature_differences(self.layout, rules)
        except (ValueError, TypeError, KeyError) as err:
            return [f"its recorded game and rules do not load ({err})"]


#: the card head's arrays in a policy file, in the order Policy.card_head keeps them
CARD_HEAD_NAMES = ("card.phi0", "card.phi1", "card.g", "card.bias")


def _card_head(layout: dict[str, Any], last: int, pair: Any, where: str) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The card head's layers when the layout names one (sizes checked), else none."""
    head = layout.get("card_head")
    if not head:
        return ()
    if (
        not isinstance(head, dict)
        or head.get("features") not in CARD_FEATURE_SETS
        or not all(isinstance(head.get(k), int) and head[k] > 0 for k in ("width", "size"))
    ):
        sets = " or ".join(map(str, CARD_FEATURE_SETS))
        raise ValueError(
            f"{where}: card_head {head!r} is not {{'features': {sets}, 'width': W, 'size': K}} (positive integers)"
        )
    if layout.get("game", DEFAULT_GAME) != DEFAULT_GAME:
        raise ValueError(f"{where}: a card head reads Smear's observation; this file is for {layout['game']!r}")
    features, width, size = head["features"], head["width"], head["size"]
    shapes = ((features, width), (width, size), (last, size), (size, 1))
    return tuple(pair(name, rows, cols) for name, (rows, cols) in zip(CARD_HEAD_NAMES, shapes, strict=True))


def upgraded(policy: Policy) -> Policy:
    """A policy of an older observation layout as one of the current layout, computing exactly the same function.

    Every input of layouts 1 and 2 has its place in layout 3, and a layout 3 network's
    rules inputs have theirs by name (``smear_env.observation.input_positions``): the
    first layer's rows move there, and the inputs the network never saw (the seats
    past its table's, the rules block, an option declared since) get zero rows, so it
    ignores them. The layout records ``upgraded_from``. A layout no map reads, or a size
    that does not match its rules, is left as it is, for :meth:`Policy.differences` to
    refuse saying what differs.
    """
    layout = policy.layout
    if layout.get("game", DEFAULT_GAME) != DEFAULT_GAME or not isinstance(layout.get("rules"), dict):
        return policy  # only Smear's layout has changed
    try:
        players = policy.rules.num_players
        positions = input_positions(players, layout.get("observation_version"), layout.get("rules_features"))
    except (ValueError, TypeError):
        return policy  # rules or a layout this version cannot read: refused by differences() with the rest
    (weight, bias), *rest = policy.layers
    if positions is None or layout.get("observation_size") != len(positions) or weight.shape[0] != len(positions):
        return policy
    new = observation_size(players)
    wide = np.zeros((new, weight.shape[1]), np.float32)
    wide[positions] = weight
    wide.setflags(write=False)
    upgrade = {
        "observation_version": OBSERVATION_VERSION,
        "observation_size": new,
        "rules_features": feature_names(),
        "stored_fingerprint": policy.fingerprint,
    }  # the network as stored: widening it changes no move
    layout = layout | upgrade | {"upgraded_from": layout.get("observation_version")}
    return Policy(layout, ((wide, bias), *rest), policy.head, policy.value_head, policy.card_head)


def load_policy(path: str | Path) -> Policy:
    """Read an exported policy file (``.npz``); ``ValueError`` when it is missing, corrupt or foreign.

    Files are read once per version (path, size and modification time): agents made
    again and again (a server, an evaluation) share one copy of the weights, which no
    agent ever writes to.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"policy file {str(path)!r} {'is a folder' if path.is_dir() else 'does not exist'}")
    stat = path.stat()
    return _read_policy(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _read_policy(path: str, size: int, mtime_ns: int) -> Policy:
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except Exception as err:  # zipfile and numpy raise many types for truncated or foreign files
        raise ValueError(f"{path!r} is not a readable smear-rl policy file: {err}") from None
    return Policy.from_arrays(arrays, repr(path))


def _match_moon(rules: AnyRules, asked: bool | None) -> bool:
    """Whether the moon calls are the match-odds ones: asked for, or by default where those odds were fitted."""
    fitted = isinstance(rules, Rules) and rules.moon_bid and rules.name in MATCH_MOON_PRESETS
    if asked is None:
        return fitted
    if not isinstance(asked, bool):
        raise ValueError(f"match_moon {asked!r} is not true, false or None (by preset)")
    if asked and not fitted:
        raise unfitted_match_moon(getattr(rules, "name", rules))
    return asked


def moon_features_of(hand: int, rules: Rules) -> list[float]:
    """``network_moon_features`` of ``hand``, with the rule estimates of its two best trump suits."""
    (best, suit), (second, _) = sorted(((estimate_points(hand, rules, s), s) for s in range(4)), reverse=True)[:2]
    return network_moon_features(hand, rules, suit, best, second)


def network_moon_wins(k: Knowledge, rules: Rules, thresholds: tuple[float, float, float] | None = None) -> bool:
    """The network moon call (``moon_model="network"``) for the player of ``k``; ``thresholds``: the fitted ones."""
    chance = network_moon_chance(moon_features_of(k.hand, rules))
    fitted = (NETWORK_MOON_THRESHOLD, NETWORK_MOON_AHEAD, NETWORK_MOON_DANGER)
    return network_moon_call(chance, rules, k.scores, rules.team_of(k.seat), thresholds or fitted)


def _moon_option(value: Any, name: str, default: Any, allowed: tuple[str, ...] = ()) -> Any:
    """``value`` checked (a word of ``allowed``, else a chance in [0, 1]), or ``default`` for None."""
    if value is None:
        return default
    if allowed:
        if value not in allowed:
            raise ValueError(f"{name} {value!r} is not one of {', '.join(allowed)}")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{name} {value!r} is not a chance from 0 to 1")
    return float(value)


def _pass_bias(value: Any, where: str = "pass_bias") -> float:
    """A finite number to add to the pass logit; ``ValueError`` for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where} {value!r} is not a finite number (0 plays the network as trained)")
    return float(value)


class NeuralAgent(Agent):
    """Plays an exported policy (a :class:`Policy` or the path of its ``.npz``) on the rules it was trained for.

    ``match_moon`` (default: on for minnesota, the preset its odds were fitted on): whether to shoot the moon
    is not the network's call but the rule bot's match-aware one (:func:`agents.rule_bot.moon_wins_match`),
    and the network chooses among the other moves. On minnesota a made moon wins the match only from a
    positive score and a failed one loses it; the trained networks moon far more than that pays (2026-11-28:
    37 of the second-stage agent's 47 losses in 1000 games against random players ended on its own failed moon;
    docs/results.md, "The moon on minnesota").

    ``moon_model`` (with ``match_moon``): ``"network"`` (default) moons when the chance that the third-stage
    minnesota network (shipped 2026-11-28 to 2026-12-03) takes every point, fitted on its own forced
    moons (:func:`agents.match_odds.network_moon_chance`),
    beats ``moon_threshold`` (``moon_ahead`` when ahead, ``moon_danger`` when another side is near the
    target); ``"rule"`` asks the rule bot's call instead (the call of every agent shipped before 2026-12-01).
    Head to head, the network's call beats the rule bot's with the same network in 56% of 2000 games (two
    seeds); against search the two are even (docs/results.md).

    ``pass_bias`` (default: the file's layout ``pass_bias``, else 0) is added to the pass logit wherever
    passing is legal: a larger one bids only the hands the network prefers by that margin, for a user who
    wants a tighter bidder. Tried as a cure for the agents' losses to search it did not help (they lose the
    card play, not the auction: docs/results.md, "Passing more against search"), so no shipped file sets one;
    on ten_point_5p a bias of 4 lifts the agent a little against random and rule players, not search (same page).
    """

    name = "neural"
    rebuilt_attributes = ("policy", "_possible")

    def __init__(
        self,
        policy: Policy | str | Path,
        rules: AnyRules | None = None,
        seed: int | None = None,
        greedy: bool = True,
        match_moon: bool | None = None,
        pass_bias: float | None = None,
        moon_model: str | None = None,
        moon_threshold: float | None = None,
        moon_ahead: float | None = None,
        moon_danger: float | None = None,
    ) -> None:
        super().__init__(seed)
        if not isinstance(policy, Policy):
            if Path(policy).suffix == ".pt":
                raise ValueError(
                    f"{str(policy)!r} is a training checkpoint: export it first (smear-rl export {policy}), "
                    "or load it through agents.registry.make_agent, which converts it when torch is installed"
                )
            self.path = str(policy)
            policy = load_policy(policy)
        else:
            self.path = str(policy.layout.get("source", "<in memory>"))
        self.rules = rules if rules is not None else policy.rules
        problems = policy.differences(self.rules)
        if problems:
            raise ValueError(
                f"policy {self.path} was trained for other rules or another layout: " + "; ".join(problems)
            )
        self.policy = policy
        self.greedy = greedy
        self.match_moon = _match_moon(self.rules, match_moon)
        self._set_moon_call(
            moon_model, {"moon_threshold": moon_threshold, "moon_ahead": moon_ahead, "moon_danger": moon_danger}
        )
        if pass_bias is None:
            self.pass_bias = _pass_bias(
                policy.layout.get("pass_bias", 0.0), f"policy {self.path}: its layout's pass_bias"
            )
        else:
            self.pass_bias = _pass_bias(pass_bias)
        self.step = policy.layout.get("step", 0)
        self._possible = possible_actions(self.rules)
        self._num_actions = policy.layout["num_actions"]  # checked against the rules' by differences()

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        return self.decide(view, observation).action

    def decide(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> Decision:
        """The move with the policy's probability of each legal move (greedy: the most probable one)."""
        legal = self.legal_actions(view)
        self._check_view(view, legal)
        moon_ruled = self.match_moon and MOON in legal and len(legal) > 1
        if moon_ruled and self._moon_wins(view):
            return Decision(MOON, {MOON: 1.0}, "probability")
        if moon_ruled:
            legal = [a for a in legal if a != MOON]
        if len(legal) == 1:
            return Decision(legal[0], {legal[0]: 1.0}, "probability")
        if observation is None or moon_ruled:
            obs = vector_from_view(view, self.rules) if observation is None else observation["observation"]
            mask = np.zeros(self._num_actions, dtype=np.int8)
            mask[legal] = 1
        else:
            obs, mask = observation["observation"], observation["action_mask"]
        logits = self.policy.logits(obs, mask, rules=self.rules)
        if self.pass_bias and PASS in legal:
            logits[PASS] += np.float32(self.pass_bias)
        top = max(float(logits[a]) for a in legal)
        weights = [math.exp(float(logits[a]) - top) for a in legal]
        total = sum(weights)
        probabilities = {a: w / total for a, w in zip(legal, weights)}
        # greedy: the most probable; else an inverse-CDF draw over the legal actions with the agent's own RNG
        action = int(np.argmax(logits)) if self.greedy else self.rng.choices(legal, weights=weights)[0]
        return Decision(action, probabilities, "probability")

    def _moon_wins(self, view: dict[str, Any]) -> bool:
        """Whether the match odds call the moon here (``moon_model``)."""
        k = knowledge_from_view(view, self.rules)
        if self.moon_model == "rule":
            return moon_wins_match(k, self.rules)
        return network_moon_wins(k, self.rules, self.moon_thresholds)

    def _set_moon_call(self, moon_model: str | None, thresholds: dict[str, float | None]) -> None:
        """Check and keep which call the match odds make (``moon_model``) and the network call's thresholds."""
        given = [name for name, value in thresholds.items() if value is not None]
        if not self.match_moon and (moon_model is not None or given):
            raise ValueError(
                "moon_model, moon_threshold, moon_ahead and moon_danger choose the match odds' moon call: "
                "expected match_moon on (minnesota's default) with them"
            )
        self.moon_model = _moon_option(moon_model, "moon_model", "network", MOON_MODELS)
        if self.moon_model == "rule" and given:
            raise ValueError(f"{given[0]} is the network moon call's: expected moon_model=network with it")
        if self.match_moon and self.moon_model == "network" and not network_moon_reads(self.rules):
            if moon_model is not None or given:
                fitted = network_moon_trumps(get_rules(self.rules.name))
                raise ValueError(
                    f"the network moon call weighs each of {self.rules.name}'s {fitted} trumps (the jokers apart) and "
                    f"these rules have {network_moon_trumps(self.rules)}: expected moon_model=rule or match_moon=false"
                )
            self.moon_model = "rule"  # by default the call that reads any hand (match_odds.moon_model_for)
        fitted = (NETWORK_MOON_THRESHOLD, NETWORK_MOON_AHEAD, NETWORK_MOON_DANGER)
        #: the network call's thresholds: level or behind, ahead, and another side near the target
        self.moon_thresholds = tuple(
            _moon_option(value, name, default) for (name, value), default in zip(thresholds.items(), fitted)
        )

    def _check_view(self, view: dict[str, Any], legal: list[int]) -> None:
        """Refuse a view of other rules: another preset or player count, or a move these rules never allow."""
        r = self.rules
        if view.get("preset") != r.name or view.get("num_players") != r.num_players:
            raise ValueError(
                f"this agent plays {r.name!r} ({r.num_players} players) but was asked to act in "
                f"{view.get('preset')!r} ({view.get('num_players')} players)"
            )
        foreign = [a for a in legal if a not in self._possible]
        if foreign:
            raise ValueError(
                f"this agent plays {describe(r)} but the view offers {format_move(r, foreign[0])!r}, which those "
                "rules never allow: a view of other rules"
            )
