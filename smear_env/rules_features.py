"""The rule options as numbers: the ``rules`` block of the observation vector (layout version 3).

Why: one network that plays every rule set must be told which rules it plays. The
block is read off the option declarations of :class:`smear_env.rules.Rules`
(:func:`smear_env.rules.option_specs`), so an option added there is encoded here
without a line changing, and an option of a kind this module cannot encode fails
at import, naming it, rather than being left out in silence.

Each option in declaration order, by the kind its declaration gives it:

=========  ==========================================================================
kind       features
=========  ==========================================================================
choice     one-hot over its choices, in the declared order
bool       1 when true
int        ``v / 10`` and ``sign(v) log(1 + |v|) / log(101)``, each clipped to [-1, 1] (the
           env's bounds): the first tells small counts apart, the second large ones.
           An option that may be none adds a third, 1 when it is none (the others 0)
names      one bit per name it may list (``protected_discards``: ace, two, ... scoring)
teams      the seating the rules give, ``team_seats`` (from ``teams``, else from
           ``partnerships``): one bit per pair of relative seats ``(j, k)``, ``j < k``
           among the first six, set when the two play on one team. Relative to the
           observing seat, like every seat in the vector.
str        nothing: ``name`` only says which preset the rules started from
=========  ==========================================================================

Then three facts derived from the options, which a network would otherwise have to
work out: the deck's size / 54, the most points a hand awards / 20 (clipped to [-1, 1], as
every feature: the env's bounds), and the cards left undealt / 54. :data:`RULES_FEATURES` is
the block's size; :func:`feature_names` names every position (for the docs and for tests).
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from smear_env.cards import NUM_CARDS
from smear_env.rules import OptionSpec, Rules, option_specs

#: relative seats whose pairs the teams features cover (the observation's seat slots)
TEAM_SEATS = 6
_PAIRS = tuple(combinations(range(TEAM_SEATS), 2))
_DERIVED = ("deck_size", "max_hand_points", "stock_size")
_LOG_SCALE = math.log(101.0)


def _names_of(spec: OptionSpec) -> list[str]:
    """Names of the features one option takes, in order (their count is its width in the block)."""
    kind = spec.kind
    if kind in ("choice", "names"):
        return [f"{spec.name}={choice}" for choice in spec.choices]
    if kind == "bool":
        return [spec.name]
    if kind == "int":
        names = [f"{spec.name}/10", f"{spec.name}:log"]
        return [*names, f"{spec.name}:none"] if spec.optional else names
    if kind == "teams":
        return [f"same_team[{j},{k}]" for j, k in _PAIRS]
    if kind == "str":
        return []
    raise TypeError(f"rule option {spec.name!r} is of kind {kind!r}, which the rules block cannot encode")


def feature_names() -> list[str]:
    """The name of every position of the rules block, in order."""
    return [name for spec in option_specs() for name in _names_of(spec)] + list(_DERIVED)


#: floats in the rules block
RULES_FEATURES = len(feature_names())


def _clip(x: float) -> float:
    return max(-1.0, min(1.0, x))


def _int_features(value: int | None, optional: bool) -> list[float]:
    if value is None:
        return [0.0, 0.0, 1.0]
    scaled = [_clip(value / 10), _clip(math.copysign(math.log1p(abs(value)), value) / _LOG_SCALE)]
    return [*scaled, 0.0] if optional else scaled


def _option_features(spec: OptionSpec, value: object, rules: Rules, seat: int) -> list[float]:
    kind = spec.kind
    if kind == "choice":
        return [float(value == choice) for choice in spec.choices]
    if kind == "names":
        return [float(choice in value) for choice in spec.choices]  # type: ignore[operator]
    if kind == "bool":
        return [float(bool(value))]
    if kind == "int":
        return _int_features(value, spec.optional)  # type: ignore[arg-type]
    if kind == "teams":
        n = rules.num_players
        team = [rules.team_of((seat + k) % n) if k < n else -1 - k for k in range(TEAM_SEATS)]
        return [float(team[j] == team[k]) for j, k in _PAIRS]
    return []


def _compute(rules: Rules, seat: int) -> np.ndarray:
    values: list[float] = []
    for spec in option_specs():
        values += _option_features(spec, getattr(rules, spec.name), rules, seat)
    values += [len(rules.deck) / NUM_CARDS, _clip(rules.max_hand_points / 20), max(0, rules.stock_size) / NUM_CARDS]
    out = np.asarray(values, dtype=np.float32)
    out.setflags(write=False)
    return out


def rules_features(rules: Rules, seat: int) -> np.ndarray:
    """The rules block seen from ``seat`` (read-only float32 ``[RULES_FEATURES]``), computed once per rule set and
    seat and kept on the rules object, like its trump tables."""
    kept = rules.derived.setdefault("rules_features", {})
    block = kept.get(seat)
    if block is None:
        block = kept[seat] = _compute(rules, seat)
    return block
