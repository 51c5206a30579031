"""Files written whole or not at all (torch-free): the policy files agents read and the checkpoints training writes.

A training run reads its frozen opponent's policy file while a user may export a new one to the same path, and a
crash mid-write must not leave half a checkpoint: both write beside the target and rename over it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def written_whole(path: str | Path) -> Iterator[Path]:
    """Yield a file beside ``path`` to write, then rename it over ``path`` (making its folder first).

    A reader that opened the old file keeps reading it whole; if the writing or the rename raises, ``path`` is left
    as it was and the partial file is removed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    try:
        yield partial
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
