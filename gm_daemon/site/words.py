"""The site's words, from its own phrase catalogue (``phrases.toml`` beside this module),
in the one format every game's catalogue uses."""

from __future__ import annotations

from gm_daemon.games.kit.phrases import Phrases

PHRASES = Phrases.beside(__file__)


def say(lang: str, key: str, /, **values: object) -> str:
    return PHRASES(lang, key, **values)
