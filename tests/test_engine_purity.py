"""The rules engine stands alone: no gymnasium, pettingzoo, torch or numpy needed."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import smear_env

ENGINE_MODULES = ["cards", "rules", "trump", "actions", "game", "scoring"]
FORBIDDEN = {"gymnasium", "pettingzoo", "torch", "numpy"}


def test_engine_modules_import_nothing_heavy() -> None:
    root = Path(smear_env.__file__).parent
    for name in ENGINE_MODULES:
        tree = ast.parse((root / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            assert not {m.split(".")[0] for m in modules} & FORBIDDEN, f"{name}.py imports {modules}"


def test_engine_plays_a_hand_with_gymnasium_and_numpy_unavailable() -> None:
    script = (
        "import sys\n"
        "for m in ('gymnasium', 'pettingzoo', 'torch', 'numpy'): sys.modules[m] = None\n"
        "from smear_env.game import Game\n"
        "g = Game('ten_point', seed=1, single_hand=True)\n"
        "while not g.is_over: g.apply(g.legal_actions()[-1])\n"
        "print(g.hands_played)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
