"""The trained agents that ship with the package, as torch-free policy files, found by preset name.

Each ``<preset>.npz`` here is the one file of its shipped agent: exported from the training run's
``agent.pt`` by ``training.export`` (``smear-rl export runs/x/agent.pt -o agents/shipped/ten_point.npz``;
its layout records the source file's name and sha256), installed as package data, so
``make_agent("neural", "ten_point")`` works after a ``pip install`` without the repository or torch.
Training reads it too (``init_from``, ``smear-rl distill``): ``training.checkpoint.load_checkpoint``
turns it back into the network it was exported from, weight for weight, so no ``.pt`` copy ships.
``universal.npz``, when present, is the rules-conditioned agent (``configs/recipes/universal.toml``):
it plays every Smear rule set of two to six players that has no playing specialist of its own
(:func:`neural_policy_path`).

``retired/<preset>.npz`` are specialists the universal agent beat head to head (400 games, the
whole Wilson interval above even): ``neural`` on their preset is the universal agent now. They
stay because they still teach: the universal recipe's first stages imitate each preset's
specialist (:func:`specialist_policy_path`), and a re-made universal agent needs the same teachers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

MAX_SEATS = 6  # the most players the universal agent's observation has seats for (smear_env.observation.MAX_SEATS)
SCHNEIDER = "bohemian_schneider"  # another game: never the universal agent's

SHIPPED_DIR = Path(__file__).parent
RETIRED_DIR = SHIPPED_DIR / "retired"  # specialists that teach but no longer play as neural


#: the file of the rules-conditioned agent, beside the presets' own
UNIVERSAL = "universal"


def resolve_shipped(path: str) -> str:
    """``path`` as given; but a relative ``agents/shipped/...`` that is not there (run outside the clone's root, or
    from an installed wheel) is the shipped file itself, wherever the package is installed.

    Why: shipped configs (the exploiters' ``init_from``) name shipped agents by their path in the repository.
    """
    parts = Path(path).parts
    if Path(path).exists() or Path(path).is_absolute() or parts[:2] != ("agents", "shipped"):
        return path
    installed = SHIPPED_DIR.joinpath(*parts[2:])
    return str(installed) if installed.is_file() else path


def shipped_presets() -> list[str]:
    """Presets that have a shipped agent of their own."""
    return sorted(path.stem for path in SHIPPED_DIR.glob("*.npz") if path.stem != UNIVERSAL)


def retired_presets() -> list[str]:
    """Presets whose specialist retired: it teaches the universal recipe; ``neural`` there is the universal agent."""
    return sorted(path.stem for path in RETIRED_DIR.glob("*.npz"))


def specialist_policy_path(preset: str) -> Path:
    """The specialist of ``preset``, playing or retired: the agent trained for its rules alone (a teacher's file).

    ``ValueError`` naming the presets that have one.
    """
    for folder in (SHIPPED_DIR, RETIRED_DIR):
        path = folder / f"{preset}.npz"
        if path.is_file() and preset != UNIVERSAL:
            return path
    raise ValueError(f"no specialist of {preset!r}: the presets with one are {', '.join(specialist_presets())}")


def specialist_presets() -> list[str]:
    """Presets that have a specialist, playing (:func:`shipped_presets`) or retired (:func:`retired_presets`)."""
    return sorted({*shipped_presets(), *retired_presets()})


def universal_policy_path() -> Path | None:
    """The shipped rules-conditioned agent's file, or None when this version ships none."""
    path = SHIPPED_DIR / f"{UNIVERSAL}.npz"
    return path if path.is_file() else None


def neural_policy_path(rules: Any) -> Path:
    """The shipped file whose agent plays ``rules`` (Smear's or Bohemian Schneider's).

    The preset's own agent when ``rules`` are exactly its preset's options (a specialist is
    trained for those alone); otherwise the universal agent, which reads the rules it plays.
    ``ValueError`` saying what is shipped when neither plays them.
    """
    own = SHIPPED_DIR / f"{rules.name}.npz"
    if own.is_file() and _plays(own, rules):
        return own
    universal = universal_policy_path()
    if universal is not None and getattr(rules, "num_players", 7) <= MAX_SEATS and rules.name != SCHNEIDER:
        return universal
    if own.is_file():
        return own  # its agent refuses these rules, saying what differs
    return shipped_policy_path(rules.name)


def _plays(path: Path, rules: Any) -> bool:
    from agents.neural_agent import load_policy

    return not load_policy(path).differences(rules)


def shipped_policy_path(preset: str) -> Path:
    """The shipped policy file of ``preset``; ``ValueError`` naming the presets that have one."""
    path = SHIPPED_DIR / f"{preset}.npz"
    if not path.is_file():
        raise ValueError(
            f"no shipped neural agent for {preset!r}: the presets with one are {', '.join(shipped_presets())} "
            "(or give the path of an exported .npz)"
        )
    return path
