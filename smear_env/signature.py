"""What a trained network depends on, for each game it can play: rules, engine, observation layout, actions.

A checkpoint and an exported policy file record this signature, and an agent
refuses a file whose signature differs from the game it is asked to play. Smear
and Bohemian Schneider have different rules classes, engines, observation
vectors and action spaces; this module is the one place that tells them apart,
so the trainer, the checkpoint reader and the torch-free agent stay game-blind.

The ``game`` field names the game. Files written before Bohemian Schneider
networks existed have none: they are Smear (:data:`DEFAULT_GAME`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from smear_env import actions as A
from smear_env.game import ENGINE_VERSION as SMEAR_ENGINE_VERSION
from smear_env.observation import OBSERVATION_VERSION as SMEAR_OBSERVATION_VERSION
from smear_env.observation import observation_size as smear_observation_size
from smear_env.observation import vector_from_view as smear_vector_from_view
from smear_env.rules import Rules, get_rules, rules_from_dict
from smear_env.rules_features import feature_names
from smear_env.schneider import game as schneider_game
from smear_env.schneider import observation as schneider_observation
from smear_env.schneider.game import GAME_NAME as SCHNEIDER
from smear_env.schneider.game import SchneiderRules

DEFAULT_GAME = "smear"  # the game of a file that names none (every file made before Schneider networks)
GAMES = (DEFAULT_GAME, SCHNEIDER)

AnyRules = Rules | SchneiderRules


def game_of(rules: AnyRules) -> str:
    """``"smear"`` or ``"bohemian_schneider"``: the game ``rules`` belong to."""
    if isinstance(rules, SchneiderRules):
        return SCHNEIDER
    if isinstance(rules, Rules):
        return DEFAULT_GAME
    raise ValueError(f"{rules!r} are not rules: expected smear_env.Rules or a SchneiderRules")


def rules_for_preset(preset: str) -> AnyRules:
    """The rules a preset name stands for: a Smear preset, or Bohemian Schneider."""
    return SchneiderRules() if preset == SCHNEIDER else get_rules(preset)


def network_signature(rules: AnyRules) -> dict[str, Any]:
    """The signature of a network that plays ``rules``: what a checkpoint and a policy file record."""
    if game_of(rules) == SCHNEIDER:
        return {
            "game": SCHNEIDER,
            "rules": rules.to_dict(),
            "engine_version": schneider_game.ENGINE_VERSION,
            "observation_version": schneider_observation.OBSERVATION_VERSION,
            "observation_size": schneider_observation.OBSERVATION_SIZE,
            "num_actions": schneider_game.NUM_ACTIONS,
        }
    return {
        "game": DEFAULT_GAME,
        "rules": rules.to_dict(),
        "engine_version": SMEAR_ENGINE_VERSION,
        "observation_version": SMEAR_OBSERVATION_VERSION,
        "observation_size": smear_observation_size(rules.num_players),
        "num_actions": A.NUM_ACTIONS,
        "rules_features": feature_names(),
    }


def recorded_game(data: Mapping[str, Any]) -> str:
    """The game a checkpoint or policy layout records (Smear when it names none); ValueError for an unknown one."""
    game = data.get("game", DEFAULT_GAME)
    if game not in GAMES:
        raise ValueError(f"it is for the game {game!r}, which this version does not know (expected one of {GAMES})")
    return game


def rules_from_signature(data: Mapping[str, Any]) -> AnyRules:
    """The rules a checkpoint or policy layout records, of the game it names."""
    if recorded_game(data) == SCHNEIDER:
        return SchneiderRules.from_dict(data["rules"])
    return rules_from_dict(data["rules"])


def signature_differences(
    data: Mapping[str, Any], rules: AnyRules, holder: str = "the file", names_too: bool = False
) -> list[str]:
    """Every way the recorded signature ``data`` differs from what ``rules`` need here, as readable phrases.

    The rules' ``name`` is compared only with ``names_too``: a policy file plays house
    rules that match its options under any name, while a checkpoint to fine-tune or
    resume must be of the very preset. A ``universal`` network (one for every rule set,
    reading the rules in its observation) is compared on everything but the rules.
    """
    want = network_signature(rules)
    have_game = data.get("game", DEFAULT_GAME)
    if have_game != want["game"]:
        return [f"game is {have_game!r} in {holder} but {want['game']!r} here"]
    problems = [
        f"{key} is {data.get(key)!r} in {holder} but {value!r} here"
        for key, value in want.items()
        if key not in ("game", "rules", "rules_features") and data.get(key) != value
    ]
    if "rules_features" in want and data.get("rules_features") != want["rules_features"]:
        theirs = data.get("rules_features")
        count = f"{len(theirs)} of them" if isinstance(theirs, list) else "none named"
        here = len(want["rules_features"])
        problems.append(f"the rules block reads other features in {holder} ({count}; {here} here)")
    if data.get("universal"):
        return problems  # a rules-conditioned network: the rules it plays are part of its input, not of its file
    saved = rules_from_signature(data).to_dict()
    problems += [
        f"rule {name!r} is {saved.get(name)!r} in {holder} but {value!r} here"
        for name, value in want["rules"].items()
        if (names_too or name != "name") and saved.get(name) != value
    ]
    return problems


def possible_actions(rules: AnyRules) -> frozenset[int]:
    """Every action id some position under ``rules`` can make legal (to recognise views of other rules)."""
    if game_of(rules) == SCHNEIDER:
        return frozenset(schneider_game.DECK)
    deck = rules.deck
    bids = range(rules.min_bid, rules.top_bid + 1)
    actions = {A.PASS, *bids, *range(A.TRUMP_BASE, A.TRUMP_BASE + 4)}
    actions |= {A.MOON} if rules.moon_bid else set()
    actions |= {A.MISDEAL} if rules.misdeal_call else set()
    actions |= {A.DONE} if rules.stock_use == "redraw" else set()
    actions |= {base + c for base in (A.CALL_BASE, A.DISCARD_BASE, A.PLAY_BASE) for c in deck}
    return frozenset(actions)


def vector_from_view(view: dict[str, Any], rules: AnyRules) -> np.ndarray:
    """The observation vector of the player a structured view belongs to, for either game."""
    if game_of(rules) == SCHNEIDER:
        return schneider_observation.vector_from_view(view)
    return smear_vector_from_view(view, rules)


def format_move(rules: AnyRules, action: int) -> str:
    """An action id's label in the game ``rules`` belong to (``bid 2``, ``play 8S``)."""
    if game_of(rules) == SCHNEIDER:
        return schneider_game.format_action(action)
    return A.format_action(action)


def describe(rules: AnyRules) -> str:
    """A short phrase for error messages: the game and what its moves look like."""
    if game_of(rules) == SCHNEIDER:
        return f"{SCHNEIDER!r} (2 players, {len(schneider_game.DECK)} cards)"
    return f"{rules.name!r} (bids {rules.min_bid}..{rules.top_bid}, {len(rules.deck)} cards)"
