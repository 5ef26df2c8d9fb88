"""Game kinds, found by name. A plain table: adding a kind is one line here plus its package.

Kinds are imported on first use, so a kind that fails to import cannot take the others down.
"""

from __future__ import annotations

import importlib
from typing import Any

from gm_daemon.games.protocol import Game

_KINDS: dict[str, str] = {
    "highnoon": "gm_daemon.games.highnoon:GAME",
    "primtraktor": "gm_daemon.games.primtraktor:GAME",
    "hornberg": "gm_daemon.games.hornberg:GAME",
    "hexenhalma": "gm_daemon.games.hexenhalma:GAME",
    "highlander": "gm_daemon.games.highlander:GAME",
}


class UnknownKind(LookupError):
    pass


def find_game(kind: str) -> Game[Any, Any, Any]:
    """The engine for a config ``kind``; UnknownKind names the kinds that exist."""
    target = _KINDS.get(kind)
    if target is None:
        raise UnknownKind(f"unknown game kind {kind!r}; known: {', '.join(_KINDS)}")
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UnknownKind(f"game kind {kind!r} is not available in this version") from exc
        raise
    game = getattr(module, attr, None)
    if game is None:
        raise UnknownKind(f"game kind {kind!r} is not available in this version")
    return game


def available_kinds() -> list[str]:
    """Kinds whose package is installed (the table may name kinds still being built)."""
    found = []
    for kind in _KINDS:
        try:
            find_game(kind)
        except UnknownKind:
            continue
        found.append(kind)
    return found
