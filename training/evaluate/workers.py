"""Sharing an evaluation's deal pairs among worker processes, and gathering what each chunk played.

The deal pairs are cut into chunks, several per worker, so that the workers
finish together, the progress bar moves and a stopped evaluation loses at most
a chunk's games per worker (:mod:`training.evaluate.journal`); each chunk comes
back with its index, and the caller sorts by it, so the order the chunks finish
in never shows in the results.
"""

from __future__ import annotations

import math
import multiprocessing
import sys
from collections.abc import Iterator, Sequence

from tqdm import tqdm

from training.evaluate.games import MatchConfig, Runner
from training.evaluate.tally import GameOutcome, Tally

#: what a chunk gives back: its index among the chunks, its games in order, and the (A, B) tallies of those games
ChunkResult = tuple[int, list[GameOutcome], list[Tally]]

_WORKER: Runner | None = None


def _init_worker(config: MatchConfig) -> None:
    global _WORKER
    _WORKER = Runner(config)


def _play_chunk(task: tuple[int, Sequence[int]]) -> ChunkResult:
    index, pairs = task
    assert _WORKER is not None, "worker not initialised"
    return (index, *_WORKER.play_pairs(pairs))


#: the most deal pairs in a chunk: at 40 s a game against search, 8 pairs are about 11 minutes of one core
MAX_CHUNK_PAIRS = 8


def chunks(pairs: Sequence[int], workers: int) -> list[Sequence[int]]:
    """Deal pairs split into chunks: several per worker for load balance and a moving progress bar."""
    size = max(1, min(MAX_CHUNK_PAIRS, math.ceil(len(pairs) / (workers * 8))))
    return [pairs[start : start + size] for start in range(0, len(pairs), size)]


def run_chunks(config: MatchConfig, chunks: list[Sequence[int]], workers: int, progress: bool) -> Iterator[ChunkResult]:
    """Results of every chunk (any order), in this process when ``workers`` is 1, else in a Pool.

    ``progress`` shows a tqdm bar on stderr, counting games.
    """
    desc = f"{config.agent_a} vs {config.agent_b}"
    total = 2 * sum(len(c) for c in chunks)
    if workers <= 1:
        runner = Runner(config)
        with tqdm(total=total, desc=desc, unit="game", file=sys.stderr, disable=not progress) as bar:
            for index, pairs in enumerate(chunks):
                yield (index, *runner.play_pairs(pairs))
                bar.update(2 * len(pairs))
        return
    # spawned, not forked: a fork after torch has started its thread pool (checking a checkpoint
    # agent loads one) deadlocks the workers on their first forward pass
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(config,)) as pool:
        results = pool.imap_unordered(_play_chunk, list(enumerate(chunks)))
        with tqdm(total=total, desc=desc, unit="game", file=sys.stderr, disable=not progress) as bar:
            for result in results:
                bar.update(len(result[1]))
                yield result
