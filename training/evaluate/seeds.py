"""The seeds of an evaluation: one per deal pair for the engine, one per game and seat for the agents.

Seeds come from a hash of their parts (``blake2b``, not ``hash()``), so they are
the same in every process and on every machine: a worker needs only the base
seed and a game index to replay exactly what any other worker would have played.
"""

from __future__ import annotations

import hashlib


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from a tuple of ints and tags: the same in every process and on every machine (unlike hash())."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def deal_seed(seed: int, pair: int) -> int:
    """Engine seed shared by both games of deal pair ``pair``."""
    return derive_seed("deal", seed, pair)


def agent_seed(seed: int, game_index: int, seat: int) -> int:
    """Seed of the agent in ``seat`` for game ``game_index``."""
    return derive_seed("agent", seed, game_index, seat)
