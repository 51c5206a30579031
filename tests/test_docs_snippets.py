"""Every ```python block in README.md and docs/**/*.md runs, from the repository root, within a time cap.

A block that must not run says so on the line before it, with a reason:
``<!-- docs-test: skip (why) -->``. Pages added later are covered without touching this file.
Their links are checked by ``tests/test_links.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\s*(?:\((?P<reason>[^)]*)\))?\s*-->")
TIME_CAP_SECONDS = 60


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    code: str
    skip_reason: str | None  # None: runs

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def python_blocks(page: Path) -> list[Block]:
    """The ```python blocks of a markdown page, with the skip reason given just before each."""
    lines = page.read_text().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            marker = SKIP.search(before)
            reason = None if marker is None else (marker.group("reason") or "").strip()
            blocks.append(Block(page, i + 1, "\n".join(lines[i + 1 : end]) + "\n", reason))
            i = end
        i += 1
    return blocks


BLOCKS = [block for page in PAGES for block in python_blocks(page)]


def test_the_readme_and_the_docs_have_blocks_to_run() -> None:
    assert [b for b in BLOCKS if b.page.name == "README.md" and b.skip_reason is None]
    assert len({b.page for b in BLOCKS}) >= 5


def test_every_skipped_block_says_why() -> None:
    assert not [b.name for b in BLOCKS if b.skip_reason == ""], "a docs-test skip marker needs a reason"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.skip_reason is None], ids=lambda b: b.name)
def test_python_block_runs(block: Block) -> None:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    try:
        done = subprocess.run(
            [sys.executable, "-c", block.code], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=TIME_CAP_SECONDS,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.name} ran past {TIME_CAP_SECONDS} s")
    assert done.returncode == 0, f"{block.name} failed:\n{block.code}\n{done.stderr[-3000:]}"
