"""Policies from outside the project as agents: any Python callable, or a policy saved by SB3, RLlib or TorchRL.

Why: a policy trained anywhere should be rated (``smear-rl rate``), evaluated and played
without writing glue. What every library's policy reads is the env's own observation for
one seat: the float vector and the legal-action mask the PettingZoo env (and the
single-seat Gymnasium env) give it. So an outside policy is a function
``(observation, action_mask) -> action``, and :class:`PolicyAgent` plays one behind the
common :class:`agents.base.Agent` interface, building that observation from the seat's
view when a caller (training's collector) passes none.

The agent specs :func:`agents.registry.make_agent` resolves here (:func:`is_external`):

=========================  ==================================================================
``package.module:name``    ``name`` in an importable module: a function ``(observation,
                           action_mask) -> action``, or an object with SB3's
                           ``predict(observation, action_masks=..., deterministic=True)``
``path/to/file.py:name``   the same, from a Python file
``sb3:model.zip``          a model saved by Stable-Baselines3 or sb3-contrib (``MaskablePPO``,
                           ``PPO``, ...), played deterministically with the mask
``rllib:folder``           an RLlib RLModule checkpoint (``module.save_to_path``), or an
                           algorithm checkpoint (``algo.save``) holding one policy module
                           (``shared`` where there are several); greedy on its masked logits
``torchrl:policy.pt``      a TorchRL policy saved whole (``torch.save(module)``): a
                           TensorDictModule reading the keys ``PettingZooWrapper`` or
                           ``GymWrapper`` give it (``observation``, ``action_mask``, ``mask``)
                           and writing ``logits`` or ``action``; or a plain ``nn.Module`` from
                           the observation to logits
=========================  ==================================================================

A policy object that lives only in this process (a model in a notebook) is played by
:func:`in_process`, which names it ``live:<n>`` while a ``with`` block lasts; only this
process can build it, so whatever plays it must not spread the games over workers.

A library's files are unpickled when loaded (SB3's zip, a torch module, an RLlib
checkpoint): loading one runs code it names, so load only files you trust. The HTTP
service never takes these specs from a request (its bots are names it lists).

A policy trained on an older env reads an older observation layout: the vector of env v3
and before (layout 2, ``81 N + 392`` floats for ``N`` players; layout 1, ``75 N + 337``) is
the current vector's entries at :func:`smear_env.observation.older_positions`, so a policy
whose input size says it was made for one of them (SB3's observation space, the first linear
layer of an RLlib or TorchRL network, a function's ``input_size`` attribute) is given exactly
the vector it was trained on, built from today's.

Every action a policy returns is checked: one that is not an integer, or not legal in
the position, is a ``ValueError`` naming the policy, the move and the legal moves. A
policy is loaded once per process and spec, and shared by every seat that plays it; a
policy that should sample draws from its own seeded generator, or plays greedily (the
loaders above do), so games replay from their seeds.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from smear_env.observation import observation_size, older_positions
from smear_env.signature import SCHNEIDER, AnyRules, format_move, game_of, network_signature, vector_from_view

#: what an outside policy is once loaded: the observation vector and the int8 action mask -> an action id
PolicyFn = Callable[[np.ndarray, np.ndarray], Any]

_NAME = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"  # a dotted Python name: a module, or an attribute inside one


#: the libraries whose saved policies load by a prefix (``sb3:model.zip``); each is also the extra that installs it
LIBRARIES = ("sb3", "rllib", "torchrl")
LIVE = "live"  # the prefix of a policy object of this process (in_process)
_LIVE: dict[str, PolicyFn] = {}  # live:<n> -> its policy, while its in_process block lasts
_LIVE_NUMBERS = itertools.count()


@contextlib.contextmanager
def in_process(policy: Any) -> Iterator[str]:
    """An agent spec, ``live:<n>``, for a policy object of this process, valid inside the ``with`` block.

    ``policy`` is what ``module:name`` may name: a function ``(observation, action_mask) ->
    action`` or an object with SB3's ``predict``.
    """
    spec = f"{LIVE}:{next(_LIVE_NUMBERS)}"
    _LIVE[spec] = _as_function(spec, policy)
    try:
        yield spec
    finally:
        del _LIVE[spec]


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an outside policy: a library prefix, or ``module:name`` / ``file.py:name``.

    Agent names with options (``search:samples=12``), checkpoint paths with options
    (``x.npz:match_moon=false``) and ``sample:x.npz`` are not: their part after the colon
    holds ``=`` or a path, or their part before it is ``sample``.
    """
    head, colon, tail = spec.partition(":")
    if not colon or not tail:
        return False
    if head in (*LIBRARIES, LIVE):
        return True
    if head == "sample" or tail.endswith((".pt", ".npz")) or not re.fullmatch(_NAME, tail):
        return False
    return head.endswith(".py") or re.fullmatch(_NAME, head) is not None


def external_agent(spec: str, rules: AnyRules, seed: int | None = None) -> PolicyAgent:
    """The agent that plays the outside policy ``spec`` (:func:`is_external`) on ``rules``."""
    return PolicyAgent(load_policy(spec), rules, seed, spec)


def load_policy(spec: str) -> PolicyFn:
    """The policy function ``spec`` names, loaded once per process; ``ValueError`` saying what is wrong."""
    head, _, tail = spec.partition(":")
    if head == LIVE:
        if spec not in _LIVE:
            raise ValueError(f"policy {spec!r} is not a policy of this process (a worker process cannot play one)")
        return _LIVE[spec]
    if head in LIBRARIES:
        path = Path(tail)
        if not path.exists():
            raise ValueError(f"policy {spec!r}: {tail!r} does not exist (expected a file or folder saved by {head})")
        stat = path.stat()
        return _load_saved(head, str(path.resolve()), stat.st_mtime_ns)
    if head.endswith(".py"):
        path = Path(head)
        if not path.is_file():
            raise ValueError(f"policy {spec!r}: {head!r} is not a file")
        try:
            module = _module_from_file(str(path.resolve()), path.stat().st_mtime_ns)
        except Exception as err:  # the file's own code failed: a syntax error, an exception at import
            raise _cannot_load(spec, err) from None
        return _as_function(spec, getattr_dotted(module, tail, spec))
    try:
        module = importlib.import_module(head)
    except ImportError as err:
        raise ValueError(f"policy {spec!r}: module {head!r} cannot be imported ({err})") from None
    except Exception as err:  # the module's own code failed while it was imported
        raise _cannot_load(spec, err) from None
    return _as_function(spec, getattr_dotted(module, tail, spec))


def _cannot_load(spec: str, err: Exception) -> ValueError:
    """The ``ValueError`` for a policy whose file or module failed to load, naming the failure."""
    return ValueError(f"policy {spec!r} cannot be loaded: {type(err).__name__}: {err}")


def getattr_dotted(owner: Any, name: str, spec: str) -> Any:
    """``owner.a.b`` for ``name`` ``"a.b"``; ``ValueError`` naming the missing part."""
    for part in name.split("."):
        if not hasattr(owner, part):
            raise ValueError(f"policy {spec!r}: {getattr(owner, '__name__', owner)!r} has no attribute {part!r}")
        owner = getattr(owner, part)
    return owner


@functools.lru_cache(maxsize=16)
def _module_from_file(path: str, mtime_ns: int) -> Any:
    """A Python file run as a module of its own, once per version of the file (``mtime_ns``)."""
    name = "smear_policy_" + hashlib.blake2b(path.encode(), digest_size=6).hexdigest()
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise ValueError(f"{path!r} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def _as_function(spec: str, target: Any) -> PolicyFn:
    """A callable as it is; an object with ``predict`` (SB3's signature) through it; anything else refused."""
    if isinstance(target, type):
        raise ValueError(f"policy {spec!r} is a class: expected a function (observation, action_mask) -> action, "
                         "or an object with predict()")  # fmt: skip
    if hasattr(target, "predict"):  # an SB3 model or policy: its observation space says what it reads
        shape = getattr(getattr(target, "observation_space", None), "shape", None)
        return _reading(_predicting(target), int(shape[0]) if shape and len(shape) == 1 else None)
    if not callable(target):
        raise ValueError(f"policy {spec!r} is a {type(target).__name__}: expected a function "
                         "(observation, action_mask) -> action, or an object with predict()")  # fmt: skip
    return target


def _predicting(model: Any) -> PolicyFn:
    """SB3's ``model.predict``: a deterministic move among the legal ones (``action_masks``, as MaskablePPO takes)."""

    def act(observation: np.ndarray, action_mask: np.ndarray) -> Any:
        action, _ = model.predict(observation, action_masks=action_mask.astype(bool), deterministic=True)
        return action

    if callable(getattr(model, "reset", None)):
        act.reset = model.reset  # type: ignore[attr-defined]  # each game's seed reaches the model (PolicyAgent.reset)
    return act


@functools.lru_cache(maxsize=16)
def _load_saved(library: str, path: str, mtime_ns: int) -> PolicyFn:
    """A library's saved policy, once per version of the file; the library missing is a ``ValueError``."""
    loaders = {"sb3": _load_sb3, "rllib": _load_rllib, "torchrl": _load_torchrl}
    try:
        return loaders[library](path)
    except ImportError as err:
        raise ValueError(
            f"policy '{library}:{path}' needs {err.name}, which is not installed: pip install \"smear-rl[{library}]\""
        ) from None
    except Exception as err:  # not a file the library saved: a folder, text, a damaged file (each its own error)
        if isinstance(err, ValueError) and repr(path) in str(err):
            raise  # the loaders' own refusals, which name the file and what it holds
        raise _cannot_load(f"{library}:{path}", err) from None


def _load_sb3(path: str) -> PolicyFn:
    """Any SB3 or sb3-contrib model's policy, rebuilt from the class and spaces the file records.

    Only the policy is rebuilt (not the algorithm), so every algorithm's file loads alike;
    a policy that takes action masks (sb3-contrib's maskable ones) gets the legal ones.
    """
    import inspect

    from stable_baselines3.common.save_util import load_from_zip_file

    data, params, _ = load_from_zip_file(path, device="cpu")
    if not data or not params or "policy" not in params or "policy_class" not in data:
        raise ValueError(f"{path!r} holds no SB3 policy (no policy class or weights in it)")
    kwargs = {k: v for k, v in data.get("policy_kwargs", {}).items() if k != "device"}
    policy = data["policy_class"](data["observation_space"], data["action_space"], lambda _: 0.0, **kwargs)
    policy.load_state_dict(params["policy"])
    policy.set_training_mode(False)
    if "action_masks" in inspect.signature(policy.predict).parameters:
        act = _predicting(policy)
    else:

        def act(observation: np.ndarray, action_mask: np.ndarray) -> Any:
            return policy.predict(observation, deterministic=True)[0]

    shape = getattr(data["observation_space"], "shape", None)
    return _reading(act, int(shape[0]) if shape and len(shape) == 1 else None)


def _reading(act: Any, size: int | None) -> PolicyFn:
    """``act`` with the number of floats its network reads recorded (``input_size``), where it is known."""
    if size is not None:
        act.input_size = size
    return act


def _first_linear_inputs(module: Any) -> int | None:
    """The input size of a torch module's first linear layer (what an MLP policy reads), None without one."""
    import torch

    first = next((m for m in module.modules() if isinstance(m, torch.nn.Linear)), None)
    return None if first is None else int(first.in_features)


def _load_rllib(path: str) -> PolicyFn:
    """An RLlib RLModule (or the one policy module of an algorithm checkpoint), greedy on its masked logits."""
    import torch
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule
    from ray.rllib.core.rl_module.rl_module import RLModule

    folder = Path(path)
    inside = folder / "learner_group" / "learner" / "rl_module"  # where algo.save() keeps the modules
    module = RLModule.from_checkpoint(str(inside if inside.is_dir() else folder))
    if isinstance(module, MultiRLModule):
        names = list(module.keys())
        if "shared" not in names and len(names) != 1:
            raise ValueError(f"{path!r} holds policy modules {names}: expected one, or one named 'shared'")
        module = module["shared" if "shared" in names else names[0]]
    module.eval()

    @torch.no_grad()
    def act(observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = {"observations": torch.from_numpy(observation[None]), "action_mask": torch.from_numpy(
            action_mask[None].astype(np.float32))}  # fmt: skip
        out = module.forward_inference({"obs": obs})
        return masked_argmax(out["action_dist_inputs"][0].numpy(), action_mask)

    return _reading(act, _first_linear_inputs(module))


def _load_torchrl(path: str) -> PolicyFn:
    """A TorchRL TensorDictModule saved whole, or a plain ``nn.Module`` from the observation to logits."""
    import torch
    from tensordict import TensorDict
    from tensordict.nn import TensorDictModuleBase

    module = torch.load(path, weights_only=False, map_location="cpu")
    if not isinstance(module, torch.nn.Module):
        raise ValueError(f"{path!r} holds a {type(module).__name__}: expected a module saved with torch.save(module)")
    module.eval()
    if not isinstance(module, TensorDictModuleBase):

        @torch.no_grad()
        def plain(observation: np.ndarray, action_mask: np.ndarray) -> int:
            return masked_argmax(module(torch.from_numpy(observation[None]))[0].numpy(), action_mask)

        return _reading(plain, _first_linear_inputs(module))
    values = {"observation": None, "action_mask": None, "mask": None}
    for key in module.in_keys:
        leaf = key[-1] if isinstance(key, tuple) else key
        if leaf not in values:
            raise ValueError(f"{path!r} reads {key!r}: expected keys ending in {', '.join(values)}")
    outputs = [key for key in module.out_keys if (key[-1] if isinstance(key, tuple) else key) in ("logits", "action")]
    if not outputs:
        raise ValueError(f"{path!r} writes {module.out_keys}: expected a key ending in 'logits' or 'action'")
    wanted = sorted(outputs, key=lambda k: (k[-1] if isinstance(k, tuple) else k) != "logits")[0]

    @torch.no_grad()
    def act(observation: np.ndarray, action_mask: np.ndarray) -> int:
        given = {
            "observation": torch.from_numpy(observation[None]),
            "action_mask": torch.from_numpy(action_mask[None].astype(bool)),
            "mask": torch.ones(1, dtype=bool),
        }
        data = TensorDict({}, batch_size=[])
        for key in module.in_keys:
            data.set(key, given[key[-1] if isinstance(key, tuple) else key])
        out = module(data).get(wanted)[0]
        if (wanted[-1] if isinstance(wanted, tuple) else wanted) == "logits":
            return masked_argmax(out.numpy(), action_mask)
        return out.argmax().item() if out.ndim and out.numel() > 1 else out.item()

    return _reading(act, _first_linear_inputs(module))


def masked_argmax(logits: np.ndarray, action_mask: np.ndarray) -> int:
    """The legal action with the highest logit (a library's own masking is not relied on)."""
    return int(np.argmax(np.where(action_mask.astype(bool), logits, -np.inf)))


class PolicyAgent(Agent):
    """An outside policy ``(observation, action_mask) -> action`` playing one seat, its every move checked."""

    name = "policy"

    def __init__(self, act_fn: PolicyFn, rules: AnyRules, seed: int | None = None, spec: str = "policy") -> None:
        super().__init__(seed)
        self.act_fn, self.rules, self.spec = act_fn, rules, spec
        self._num_actions = network_signature(rules)["num_actions"]
        self._positions = _older_layout(getattr(act_fn, "input_size", None), rules)

    def reset(self, seed: int | None = None) -> None:
        """Also hand the game's seed to a policy that takes one (a ``reset(seed)`` method or function attribute).

        Why: a policy that samples its moves from a generator of its own would otherwise carry that
        generator from game to game, so a game's moves would depend on which games its process played
        before it, and an evaluation would change with its workers.
        """
        super().reset(seed)
        reset = getattr(self.act_fn, "reset", None)
        if callable(reset):
            reset(seed)

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        legal = self.legal_actions(view)
        if observation is None:  # a caller with the view alone (training's collector): the env's vector from it
            obs = vector_from_view(view, self.rules)
            mask = np.zeros(self._num_actions, dtype=np.int8)
            mask[legal] = 1
        else:
            obs, mask = observation["observation"], observation["action_mask"]
        if self._positions is not None:  # a policy of an older layout: the vector it was trained on
            obs = obs[self._positions]
        try:
            chosen = self.act_fn(obs, mask)
        except Exception as err:  # the policy's own code: its failure becomes one clear error at our boundary
            raise ValueError(f"policy {self.spec!r} failed on an observation of {obs.shape[0]} floats "
                             f"({type(err).__name__}: {err})") from err  # fmt: skip
        return self._checked(chosen, legal)

    def _checked(self, chosen: Any, legal: list[int]) -> int:
        """``chosen`` as a legal action id; ``ValueError`` naming the move and the legal ones otherwise."""
        values = np.asarray(chosen).reshape(-1)
        if values.size != 1 or not np.issubdtype(values.dtype, np.integer):
            raise ValueError(f"policy {self.spec!r} returned {chosen!r}: expected one integer action id")
        action = int(values[0])
        if action not in legal:
            moves = ", ".join(format_move(self.rules, a) for a in legal)
            shown = format_move(self.rules, action) if 0 <= action < self._num_actions else "out of range"
            raise ValueError(f"policy {self.spec!r} chose action {action} ({shown}), which is not legal here: "
                             f"expected one of {legal} ({moves})")  # fmt: skip
        return action


def _older_layout(input_size: int | None, rules: AnyRules) -> np.ndarray | None:
    """Where an older layout's inputs sit in today's vector, for a policy that reads ``input_size`` floats.

    None when the size is unknown, today's, or no older layout's (the policy then gets
    today's vector, and a wrong size fails on its first move, naming the size it was given).
    """
    if input_size is None or game_of(rules) == SCHNEIDER:
        return None
    players = rules.num_players
    if input_size == observation_size(players):
        return None
    for version in (2, 1):
        if input_size == observation_size(players, version):
            return older_positions(players, version)
    return None
