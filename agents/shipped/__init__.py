"""The trained agents that ship with the package, as torch-free policy files, found by preset name.

Each ``<preset>.npz`` here is the one file of its shipped agent: exported from the training run's
``agent.pt`` by ``training.export`` (``smear-rl export runs/x/agent.pt -o agents/shipped/ten_point.npz``;
its layout records the source file's name and sha256), installed as package data, so
``make_agent("neural", "ten_point")`` works after a ``pip install`` without the repository or torch.
Training reads it too (``init_from``, ``smear-rl distill``): ``training.checkpoint.load_checkpoint``
turns it back into the network it was exported from, weight for weight, so no ``.pt`` copy ships.
"""

from __future__ import annotations

from pathlib import Path

SHIPPED_DIR = Path(__file__).parent


def shipped_presets() -> list[str]:
    """Presets that have a shipped agent."""
    return sorted(path.stem for path in SHIPPED_DIR.glob("*.npz"))


def shipped_policy_path(preset: str) -> Path:
    """The shipped policy file of ``preset``; ``ValueError`` naming the presets that have one."""
    path = SHIPPED_DIR / f"{preset}.npz"
    if not path.is_file():
        raise ValueError(
            f"no shipped neural agent for {preset!r}: the presets with one are {', '.join(shipped_presets())} "
            "(or give the path of an exported .npz)"
        )
    return path
