"""The game's words: ``say(lang, key, count=None, **values)`` is the phrase catalogue
``phrases.toml`` beside this module (the one format of all games, ``games.kit.phrases``).

German follows the vocabulary of the postal rules (Teilzug, Fahrfehler, Konflikt, NMR).
"""

from __future__ import annotations

from gm_daemon.games.kit.phrases import Phrases
from gm_daemon.games.primtraktor.model import Cell, Direction

say = Phrases.beside(__file__)


def direction_name(direction: Direction, lang: str) -> str:
    return say(lang, f"dir_{direction.value}")


def cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"
