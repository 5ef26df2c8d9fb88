"""Per-game randomness that anyone can audit.

The seed is secret while the game runs; its sha256 (the commitment) goes out in the welcome
mail and the seed itself in the final result, so every player can replay every draw. Each
phase gets its own generator derived from seed and phase number: resolving phase 7 twice, or
after a restart, draws exactly the same numbers.
"""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> str:
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def phase_rng(seed: str, phase: int, purpose: str = "resolve") -> random.Random:
    """A generator for one phase; ``purpose`` separates streams (e.g. "start" vs "resolve")."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{phase}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))
