"""Export a training checkpoint (``.pt``) to a torch-free policy file (``.npz``) that the neural agent loads.

The serving side (``agents.neural_agent``) never imports torch or ``training``: it
reads the weights as plain arrays plus a JSON layout (see that module for the
layout). This module is the one bridge: it reads a checkpoint with
``training.checkpoint`` and writes every weight of the network, the rules, the
observation layout and engine version it was trained for, and what the
checkpoint recorded about its making (step, training config, distillation), so
the file says what it is. Anything in ``training`` that takes a ``.pt`` path
converts it here, in memory (:func:`agent_from_checkpoint`)::

    smear-rl export runs/ten_point/agent.pt                  # -> runs/ten_point/agent.npz
    smear-rl export runs/minnesota/agent.pt -o agents/shipped/minnesota.npz
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from agents.neural_agent import POLICY_FORMAT, POLICY_FORMAT_VERSION, NeuralAgent, Policy
from smear_env.rules import Rules
from training.checkpoint import CARD_HEAD_ARRAYS, load_checkpoint, network_from_checkpoint
from training.cli import ArgumentParser, check_writable_file

#: checkpoint fields copied into the layout as they are: what the network was trained for and how
RECORDED = (
    "game",
    "rules",
    "engine_version",
    "observation_version",
    "observation_size",
    "rules_features",
    "universal",
    "upgraded_from",
    "stored_fingerprint",  # a widened network keeps the digest of its weights as stored (Policy.fingerprint)
    "num_actions",
    "preset",
    "hidden",
    "card_head",
    "step",
    "update",
    "train_minutes",
    "config",
    "distill",
    "recipe",
    "evaluation",
)


def policy_from_checkpoint(path: str | Path, rules: Rules | None = None) -> Policy:
    """The checkpoint's network as a torch-free :class:`Policy` (with ``rules``, checked to be exactly them).

    Converted once per version of the file (path, size, modification time) and rules, as
    :func:`agents.neural_agent.load_policy` reads a ``.npz`` once: training builds a fixed
    ``.pt`` opponent afresh for every match and seat, and unpickling it each time cost
    about 40 ms. A file rewritten in place (a run's ``agent.pt``) is read again.
    """
    if not Path(path).is_file():
        return _convert_checkpoint(str(path), -1, -1, rules)  # load_checkpoint says what is wrong
    stat = Path(path).stat()
    return _convert_checkpoint(str(path), stat.st_size, stat.st_mtime_ns, rules)


@functools.lru_cache(maxsize=16)
def _convert_checkpoint(path: str, size: int, mtime_ns: int, rules: Rules | None) -> Policy:
    data = load_checkpoint(path, rules)
    state = network_from_checkpoint(data).state_dict()
    arrays = {name: value.detach().cpu().numpy().astype(np.float32) for name, value in state.items()}
    layout: dict[str, Any] = {key: data[key] for key in RECORDED if key in data}
    layout |= {
        "format": POLICY_FORMAT,
        "format_version": POLICY_FORMAT_VERSION,
        "activation": "relu",
        "source": Path(path).name,
        "source_sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest(),
    }
    # torch's Linear keeps weights as [out, in]; the file keeps [in, out] so a forward pass is x @ W + b
    out: dict[str, np.ndarray] = {"layout": np.array(json.dumps(layout, sort_keys=True))}
    linears = sorted({int(name.split(".")[1]) for name in arrays if name.startswith("trunk.")})
    for k, index in enumerate(linears):
        out[f"hidden.{k}.weight"] = arrays[f"trunk.{index}.weight"].T.copy()
        out[f"hidden.{k}.bias"] = arrays[f"trunk.{index}.bias"]
    for head in ("policy", "value"):
        out[f"{head}.weight"], out[f"{head}.bias"] = arrays[f"{head}.weight"].T.copy(), arrays[f"{head}.bias"]
    for name, index in CARD_HEAD_ARRAYS.items():  # the card head's, when it has one
        if f"{index}.weight" in arrays:
            out[f"{name}.weight"], out[f"{name}.bias"] = arrays[f"{index}.weight"].T.copy(), arrays[f"{index}.bias"]
    return Policy.from_arrays(out, str(path))


def export_checkpoint(path: str | Path, out: str | Path | None = None) -> Path:
    """Write the checkpoint at ``path`` as a policy file (default: the same name with ``.npz``); returns its path."""
    out = Path(out) if out is not None else Path(path).with_suffix(".npz")
    return policy_from_checkpoint(path).save(out)


def agent_from_checkpoint(
    path: str | Path,
    rules: Rules | None = None,
    seed: int | None = None,
    greedy: bool = True,
    match_moon: bool | None = None,
    pass_bias: float | None = None,
    **moon: Any,
) -> NeuralAgent:
    """A neural agent playing the checkpoint at ``path``, converted in memory (nothing written).

    ``moon``: ``NeuralAgent``'s ``moon_model``, ``moon_threshold``, ``moon_ahead`` and ``moon_danger``."""
    policy = policy_from_checkpoint(path, rules)
    agent = NeuralAgent(policy, rules, seed, greedy, match_moon, pass_bias, **moon)
    agent.path = str(path)
    return agent


def _checked_output(checkpoint: str, out: str | None) -> Path:
    """Where to write, if it may be written: an ``.npz``, not the checkpoint itself (which it would replace)."""
    path = check_writable_file(Path(out) if out is not None else Path(checkpoint).with_suffix(".npz"), "output")
    if path.suffix != ".npz":
        raise ValueError(f"output {str(path)!r} is not an .npz: a policy file is written as one")
    if path.exists() and Path(checkpoint).exists() and path.resolve() == Path(checkpoint).resolve():
        raise ValueError(f"output {str(path)!r} is the checkpoint itself: writing it would destroy the checkpoint")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(prog="smear-rl export", description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help="a .pt file written by training (agent.pt or checkpoint.pt)")
    parser.add_argument("-o", "--out", help="the .npz to write (default: the checkpoint's name with .npz)")
    args = parser.parse_args(argv)
    try:
        out = _checked_output(args.checkpoint, args.out)
        written = export_checkpoint(args.checkpoint, out)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    try:
        policy = NeuralAgent(written).policy  # read back: the file loads and plays its own rules
    except ValueError as err:
        written.unlink(missing_ok=True)
        print(f"error: the written file does not load, so it was removed: {err}", file=sys.stderr)
        sys.exit(2)
    layout = policy.layout
    size = written.stat().st_size / 1e6
    print(
        f"wrote {written} ({size:.2f} MB): {layout.get('preset')}, hidden {layout['hidden']}, "
        f"step {layout.get('step')}, observation layout {layout['observation_version']}"
    )


if __name__ == "__main__":
    main()
