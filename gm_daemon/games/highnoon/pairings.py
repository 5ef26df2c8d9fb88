"""Who duels whom: the random first round (HN-3, A-1) and pairings from challenges (HN-16)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from gm_daemon.games.highnoon.model import Pair


def pair(x: str, y: str) -> Pair:
    """A duel as stored: lower id first, which is also the order of rolls and display."""
    return (x, y) if x < y else (y, x)


def cycle_pairings(circle: Sequence[str]) -> list[Pair]:
    """Everyone duels his two neighbours in the circle: a Hamiltonian cycle, so each player
    has exactly two duels (HN-3); three players give the triangle."""
    if len(circle) < 3:
        raise ValueError("a circle of duels needs at least three players")
    neighbours = zip(circle, [*circle[1:], circle[0]], strict=True)
    return sorted({pair(x, y) for x, y in neighbours})


def random_challenge_pairings(ids: Sequence[str], rng: random.Random) -> list[Pair]:
    """A-1 reading (b): for each player (in id order) the GM challenges two random others on
    his behalf; every player then has between 2 and 2·(N−1) duels."""
    pairs: set[Pair] = set()
    for seat in sorted(ids):
        others = [other for other in sorted(ids) if other != seat]
        pairs.update(pair(seat, other) for other in rng.sample(others, 2))
    return sorted(pairs)


def round1_pairings(mode: str, ids: Sequence[str], rng: random.Random) -> list[Pair]:
    """The first round's duels; the circle is drawn by shuffling the players (id order first,
    so that the result depends only on the rng, not on the order of the config)."""
    if mode == "random_challenges":
        return random_challenge_pairings(ids, rng)
    circle = sorted(ids)
    rng.shuffle(circle)
    return cycle_pairings(circle)


def pairings_from_challenges(challenges: Iterable[Pair], active: Iterable[str]) -> list[Pair]:
    """HN-16: one duel per pair of active players that a challenge connects, whichever side
    challenged and however often; challenges touching an eliminated player drop out (A-7)."""
    alive = set(active)
    return sorted({pair(x, y) for x, y in challenges if x in alive and y in alive and x != y})


def duel_counts(pairings: Iterable[Pair], ids: Iterable[str]) -> dict[str, int]:
    """Number of scheduled duels per player (0 for those without any)."""
    counts = dict.fromkeys(ids, 0)
    for x, y in pairings:
        counts[x] = counts.get(x, 0) + 1
        counts[y] = counts.get(y, 0) + 1
    return counts
