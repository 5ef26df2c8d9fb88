"""The game's words: ``say(lang, key, count=None, **values)`` is the phrase catalogue
``phrases.toml`` beside this module (the one format of all games, ``games.kit.phrases``)."""

from __future__ import annotations

from gm_daemon.games.kit.phrases import Phrases

say = Phrases.beside(__file__)
