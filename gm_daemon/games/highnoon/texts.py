"""High Noon's words: ``say(lang, key, count=None, **values)`` is the phrase catalogue
``phrases.toml`` beside this module (the one format of all games, ``games.kit.phrases``),
German as in the postal game, and English.
"""

from __future__ import annotations

from gm_daemon.games.kit.phrases import Phrases

say = Phrases.beside(__file__)


def quoted(names: list[str], lang: str) -> str:
    """Names in quotes of the language, comma-separated: „Schnell“, „Pech“."""
    return ", ".join(say(lang, "quote", text=name) for name in names)
