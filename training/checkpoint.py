"""One checkpoint file per training state: model, optimizer, config, rules, versions, step, RNG state.

Files are written with ``torch.save`` and read with ``torch.load(weights_only=True)``,
so loading a checkpoint never runs pickled code: everything inside is tensors and
plain data (dicts, lists, numbers, strings), the resumable training state included
(the numpy RNG's state, the matches in flight as engine records plus their bots'
RNG states, open episodes as tensors; see :meth:`training.selfplay.Collector.state_dict`).
Checkpoints from before that change kept the training state as pickled bytes;
they still load as agents, and ``--resume`` refuses them without unpickling.

A file that is not a checkpoint, a truncated one, or one whose fields are missing
or of the wrong type (no ``rules``, ``hidden`` not a list of widths, ``model`` not
a dict of tensors) raises the same ``ValueError``: not a readable smear-rl checkpoint.

A checkpoint records what its network was trained on (rules, observation
layout, action space, engine version); :func:`load_checkpoint` refuses one that
does not match the game it is asked to play and says what differs.
"""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.files import written_whole
from agents.neural_agent import load_policy
from agents.shipped import resolve_shipped
from smear_env.observation import OBSERVATION_VERSION, input_positions, observation_size
from smear_env.rules import rules_from_dict
from smear_env.rules_features import feature_names
from smear_env.signature import (
    DEFAULT_GAME,
    AnyRules,
    network_signature,
    recorded_game,
    rules_from_signature,
    signature_differences,
)
from smear_env.version import code_version
from training.model import PolicyValueNet, card_head_sizes, make_network

CHECKPOINT_FORMAT = "smear-rl-checkpoint"
CHECKPOINT_VERSION = 1


def game_signature(rules: AnyRules) -> dict[str, Any]:
    """What a network depends on: the game, its rules, the observation layout and the action space."""
    return network_signature(rules)


def training_platform() -> dict[str, str]:
    """What a run's weights depend on besides its code, config and seed: the libraries and the CPU's kernels.

    A run is bit-for-bit reproducible from its seed on one kind of machine, not across kinds: torch picks
    its CPU kernels by the vector instructions it finds (``AVX2``, ``AVX512``, ...), their float sums round
    differently, and a few updates later the weights differ (the same recipe stage trained other weights under
    ``ATEN_CPU_CAPABILITY=avx2`` than under AVX512 after four updates). Recorded so a rerun can be matched.
    """
    return {"python": platform.python_version(), "torch": str(torch.__version__), "numpy": str(np.__version__),
            "cpu_kernels": str(torch.backends.cpu.get_cpu_capability()),
            "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else ""}  # fmt: skip


def save_checkpoint(path: str | Path, payload: dict[str, Any]) -> Path:
    """Write ``payload`` (plus the format tag) atomically: a crash never leaves half a file."""
    path = Path(path)
    tags = {"format": CHECKPOINT_FORMAT, "format_version": CHECKPOINT_VERSION, "code_version": code_version()}
    with written_whole(path) as partial:
        torch.save({**tags, **payload}, partial)
    return path


def load_checkpoint(path: str | Path, rules: AnyRules | None = None) -> dict[str, Any]:
    """Read a checkpoint; with ``rules``, check that it was trained for exactly them.

    A policy file (``.npz``, what ``smear-rl export`` writes and the shipped agents are) reads as
    the agent checkpoint it was exported from (:func:`checkpoint_from_policy`), so it can start a
    run (``init_from``) or be distilled.
    """
    path = Path(resolve_shipped(str(path)))
    if not path.is_file():
        raise ValueError(f"checkpoint {str(path)!r} {'is a folder' if path.is_dir() else 'does not exist'}")
    data = checkpoint_from_policy(path) if path.suffix == ".npz" else _read_torch_file(path)
    problem = _malformed(data)
    if problem:
        raise ValueError(f"{str(path)!r} is not a readable smear-rl checkpoint: {problem}")
    if recorded_game(data) == DEFAULT_GAME:
        data = upgrade(data, str(path))  # only Smear networks had an older layout (or an older rules block)
    if rules is not None:
        check_signature(data, rules, str(path))
    return data


def _read_torch_file(path: Path) -> dict[str, Any]:
    """A checkpoint written by :func:`save_checkpoint`, its tag and format checked."""
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many types for truncated or foreign files
        raise ValueError(f"{str(path)!r} is not a readable smear-rl checkpoint ({type(err).__name__}: {err})") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{str(path)!r} is not a smear-rl checkpoint (no {CHECKPOINT_FORMAT!r} tag)")
    if data.get("format_version") != CHECKPOINT_VERSION:
        raise ValueError(
            f"{str(path)!r} has checkpoint format {data.get('format_version')}; this version reads {CHECKPOINT_VERSION}"
        )
    return data


#: the card head's layers: name in a policy file -> name in the torch network (training.model.CardHeadNet)
CARD_HEAD_ARRAYS = {"card.phi0": "card_phi.0", "card.phi1": "card_phi.2", "card.g": "card_g", "card.bias": "card_bias"}


def checkpoint_from_policy(path: str | Path) -> dict[str, Any]:
    """An exported policy file (``.npz``) as the agent checkpoint it came from: its layout's records and its weights.

    The inverse of ``training.export``: the file keeps each layer as ``[in, out]`` for numpy,
    the network as ``[out, in]``; hidden layer ``k`` is the trunk's ``2k``-th module (each
    ``Linear`` is followed by a ``ReLU``). The weights are the file's exactly, so a run started
    from it starts from the very network that plays. The file is read without pickle.
    """
    policy = load_policy(path)  # a file of layout 1 comes upgraded, as a checkpoint of layout 1 would
    arrays = policy.to_arrays()
    names = {f"hidden.{k}": f"trunk.{2 * k}" for k in range(len(policy.layers))}
    names |= {"policy": "policy", "value": "value"} | CARD_HEAD_ARRAYS
    model = {}
    for file_name, torch_name in names.items():
        if f"{file_name}.weight" in arrays:
            model[f"{torch_name}.weight"] = torch.from_numpy(np.array(arrays[f"{file_name}.weight"].T))
            model[f"{torch_name}.bias"] = torch.from_numpy(np.array(arrays[f"{file_name}.bias"]))
    recorded = {k: v for k, v in policy.layout.items() if k not in ("format", "format_version", "activation")}
    return {**recorded, "model": model, "format": CHECKPOINT_FORMAT, "format_version": CHECKPOINT_VERSION}


def upgrade(data: dict[str, Any], where: str = "checkpoint") -> dict[str, Any]:
    """An agent checkpoint of an older observation layout made one of the current layout, computing the same policy.

    Every input of layouts 1 and 2 has its place in layout 3, and a layout 3 network's
    rules inputs have theirs by name (``smear_env.observation.input_positions``), so the
    first layer's columns move there and every input the network never saw gets zero
    weights: it ignores them until it is trained further (fine-tune with ``init_from``).
    The result records ``upgraded_from``. A layout no map reads, a size that does not
    match its rules, or a training checkpoint (an optimizer and games in flight built for
    the old layout cannot resume) is refused with what was expected.
    """
    version = data.get("observation_version")
    num_players = rules_from_dict(data["rules"]).num_players
    try:
        positions = input_positions(num_players, version, data.get("rules_features"))
    except ValueError as err:
        raise ValueError(
            f"{where}: observation layout {version!r} cannot be read as layout {OBSERVATION_VERSION}: {err}"
        ) from None
    if positions is None:
        return data
    old_size, new_size = len(positions), observation_size(num_players)
    if data.get("observation_size") != old_size:
        raise ValueError(
            f"{where}: layout {version} for {num_players} players has {old_size} inputs, "
            f"but the checkpoint records {data.get('observation_size')!r}"
        )
    if any(key in data for key in ("optimizer", "state", "training_state")):
        raise ValueError(
            f"{where} is a training checkpoint of observation layout {version}: it cannot resume under layout "
            f"{OBSERVATION_VERSION}; start a new run from its agent file (init_from = its agent.pt)"
        )
    model = dict(data["model"])
    first = model.get("trunk.0.weight")
    if first is None or tuple(first.shape[1:]) != (old_size,):
        raise ValueError(f"{where}: its first layer is not [hidden, {old_size}] (got {getattr(first, 'shape', None)})")
    wide = first.new_zeros(first.shape[0], new_size)
    wide[:, torch.from_numpy(positions)] = first
    model["trunk.0.weight"] = wide
    return {**data, "model": model, "observation_version": OBSERVATION_VERSION, "observation_size": new_size,
            "rules_features": feature_names(), "upgraded_from": version}  # fmt: skip


def _is_int(value: Any, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


#: what every checkpoint holds, and what each field must be (a check, what is expected)
_FIELDS: dict[str, tuple[Any, str]] = {
    "rules": (lambda v: isinstance(v, dict), "a dict of rule options"),
    "engine_version": (_is_int, "an engine version number"),
    "observation_version": (_is_int, "an observation layout version number"),
    "observation_size": (lambda v: _is_int(v, 1), "a positive int"),
    "num_actions": (lambda v: _is_int(v, 1), "a positive int"),
    "hidden": (lambda v: isinstance(v, list | tuple) and all(_is_int(h, 1) for h in v), "a list of layer widths"),
    "model": (
        lambda v: isinstance(v, dict) and all(isinstance(k, str) and isinstance(t, torch.Tensor) for k, t in v.items()),
        "a dict of tensors (the network's weights)",
    ),
}


def _malformed(data: dict[str, Any]) -> str | None:
    """What is missing or of the wrong type among the fields every checkpoint has; None when nothing is."""
    for name, (ok, expected) in _FIELDS.items():
        if name not in data:
            return f"it has no {name!r} ({expected})"
        if not ok(data[name]):
            return f"its {name!r} is a {type(data[name]).__name__}, not {expected}"
    try:
        rules_from_signature(data)
    except ValueError as err:
        return f"its rules do not load: {err}"
    return None


def check_signature(data: dict[str, Any], rules: AnyRules, where: str) -> None:
    """Raise ValueError naming every difference between the checkpoint's game and ``rules``."""
    problems = signature_differences(data, rules, holder="the checkpoint", names_too=True)
    if problems:
        raise ValueError(f"checkpoint {where} was trained for other rules or another layout: " + "; ".join(problems))


def checkpoint_rules(data: dict[str, Any]) -> AnyRules:
    """The rules a checkpoint was trained for (Smear's, or Bohemian Schneider's)."""
    return rules_from_signature(data)


def card_head_features(data: dict[str, Any]) -> int:
    """Card features the checkpoint's card head reads (its entry checked); 0 for a plain network."""
    return card_head_sizes(data["card_head"])["features"] if data.get("card_head") else 0


def network_from_checkpoint(data: dict[str, Any]) -> PolicyValueNet:
    """The checkpoint's network with its trained weights, in eval mode."""
    net = make_network(data["observation_size"], data["num_actions"], data["hidden"], 0, card_head_features(data))
    try:
        net.load_state_dict(data["model"])
    except (RuntimeError, KeyError) as err:
        raise ValueError(f"checkpoint weights do not fit a network of hidden sizes {data['hidden']}: {err}") from err
    return net.eval()
