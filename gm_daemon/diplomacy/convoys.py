"""Convoy routes on the board, as far as they can be judged before any order is known.

These answer the *legality* questions of DATC 4.E.1: an army move needs a chain of fleets at
sea that could carry it; a support of a convoyed move must not rely on the supporting fleet
itself (6.D.31); a convoy order is only legal for a fleet that is necessary for some convoy
route (6.G.19), i.e. that lies on a route no fleet of which can be left out. Whether the
convoy actually works is the resolver's business.
"""

from __future__ import annotations

from collections.abc import Collection

from gm_daemon.diplomacy.board import Board


def route_exists(board: Board, origin: int, dest: int, seas: Collection[int]) -> bool:
    """Whether fleets standing in ``seas`` could chain from ``origin`` to ``dest``."""
    goal = board.sea_adj[dest]
    frontier = [s for s in board.sea_adj[origin] if s in seas]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        if sea in goal:
            return True
        for nxt in board.sea_adj[sea]:
            if nxt in seas and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False


def necessary_seas(board: Board, origin: int, dest: int, seas: Collection[int]) -> set[int]:
    """The seas (among ``seas``) that lie on some minimal route from ``origin`` to ``dest``.

    A minimal route is a chain from which no fleet can be dropped: a chordless path
    origin - s1 - ... - sk - dest. Boards hold few fleets, so plain enumeration is cheap.
    """
    start = board.sea_adj[origin]
    found: set[int] = set()
    for first in start:
        if first in seas:
            _extend([first], start, board.sea_adj[dest], dest, board.sea_adj, seas, found)
    return found


def _extend(
    path: list[int],
    start: frozenset[int],
    goal: frozenset[int],
    dest: int,
    adj: tuple[frozenset[int], ...],
    seas: Collection[int],
    found: set[int],
) -> None:
    """Every chordless continuation of ``path`` that reaches ``goal``, its seas into
    ``found``. A function of its own, not a closure: a closure calling itself is a reference
    cycle, left to the garbage collector after every search."""
    last = path[-1]
    if last in goal:
        found.update(path)
        return
    for nxt in adj[last]:
        if nxt not in seas or nxt in path or nxt in start or nxt == dest:
            continue
        if any(nxt in adj[earlier] for earlier in path[:-1]):
            continue
        path.append(nxt)
        _extend(path, start, goal, dest, adj, seas, found)
        path.pop()
