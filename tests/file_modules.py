"""Importing a repository file that is not in a package (``research/scripts/``, ``examples/``) by its path."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_module(path: Path) -> ModuleType:
    """Execute the file at ``path`` as a fresh module named after it (scripts and examples are not importable)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, f"not a Python file: {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
