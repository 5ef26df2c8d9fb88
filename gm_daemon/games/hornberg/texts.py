"""The game's words: ``say(lang, key, count=None, **values)`` is the phrase catalogue
``phrases.toml`` beside this module (the one format of all games, ``games.kit.phrases``);
``wrap`` folds long lists to the mail's width."""

from __future__ import annotations

import textwrap

from gm_daemon.games.kit.layout import WIDTH
from gm_daemon.games.kit.phrases import Phrases

say = Phrases.beside(__file__)


def wrap(text: str, indent: int = 4) -> str:
    """Long lists (cells, cannons, lines) folded to the mail's width, continued indented."""
    return textwrap.fill(
        text,
        width=WIDTH,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
