"""One checkpoint file per training state: model, optimizer, config, rules, versions, step, RNG state.

Files are written with ``torch.save`` and read with ``torch.load(weights_only=True)``,
so loading a checkpoint never runs pickled code. The only pickle inside is the
trainer's own collector state (games in flight, bots, RNGs), kept as bytes and
unpickled solely by ``--resume`` of one's own run.

A checkpoint records what its network was trained on (rules, observation
layout, action space, engine version); :func:`load_checkpoint` refuses one that
does not match the game it is asked to play and says what differs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

from smear_env import actions as A
from smear_env.game import ENGINE_VERSION
from smear_env.observation import OBSERVATION_VERSION, observation_size
from smear_env.rules import Rules, rules_from_dict
from smear_env.version import code_version
from training.model import PolicyValueNet

CHECKPOINT_FORMAT = "smear-rl-checkpoint"
CHECKPOINT_VERSION = 1


def game_signature(rules: Rules) -> dict[str, Any]:
    """What a network depends on: the rules, the observation layout and the action space."""
    return {
        "rules": rules.to_dict(),
        "engine_version": ENGINE_VERSION,
        "observation_version": OBSERVATION_VERSION,
        "observation_size": observation_size(rules.num_players),
        "num_actions": A.NUM_ACTIONS,
    }


def save_checkpoint(path: str | Path, payload: dict[str, Any]) -> Path:
    """Write ``payload`` (plus the format tag) atomically: a crash never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tags = {"format": CHECKPOINT_FORMAT, "format_version": CHECKPOINT_VERSION, "code_version": code_version()}
    torch.save({**tags, **payload}, tmp)
    os.replace(tmp, path)
    return path


def load_checkpoint(path: str | Path, rules: Rules | None = None) -> dict[str, Any]:
    """Read a checkpoint; with ``rules``, check that it was trained for exactly them."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"checkpoint {str(path)!r} does not exist")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many types for truncated or foreign files
        raise ValueError(f"{str(path)!r} is not a readable smear-rl checkpoint: {err}") from err
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{str(path)!r} is not a smear-rl checkpoint (no {CHECKPOINT_FORMAT!r} tag)")
    if data.get("format_version") != CHECKPOINT_VERSION:
        raise ValueError(
            f"{str(path)!r} has checkpoint format {data.get('format_version')}; this version reads {CHECKPOINT_VERSION}"
        )
    if rules is not None:
        check_signature(data, rules, str(path))
    return data


def check_signature(data: dict[str, Any], rules: Rules, where: str) -> None:
    """Raise ValueError naming every difference between the checkpoint's game and ``rules``."""
    want = game_signature(rules)
    problems = [
        f"{key} is {data.get(key)!r} in the checkpoint but {value!r} here"
        for key, value in want.items()
        if key != "rules" and data.get(key) != value
    ]
    saved = rules_from_dict(data["rules"]).to_dict()
    problems += [
        f"rule {name!r} is {saved[name]!r} in the checkpoint but {value!r} here"
        for name, value in want["rules"].items()
        if saved.get(name) != value
    ]
    if problems:
        raise ValueError(f"checkpoint {where} was trained for other rules or another layout: " + "; ".join(problems))


def checkpoint_rules(data: dict[str, Any]) -> Rules:
    """The rules a checkpoint was trained for."""
    return rules_from_dict(data["rules"])


def network_from_checkpoint(data: dict[str, Any]) -> PolicyValueNet:
    """The checkpoint's network with its trained weights, in eval mode."""
    net = PolicyValueNet(data["observation_size"], data["num_actions"], data["hidden"])
    try:
        net.load_state_dict(data["model"])
    except (RuntimeError, KeyError) as err:
        raise ValueError(f"checkpoint weights do not fit a network of hidden sizes {data['hidden']}: {err}") from err
    return net.eval()
