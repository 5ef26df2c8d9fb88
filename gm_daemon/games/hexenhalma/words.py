"""The game's phrase catalogue (``phrases.toml`` beside this module), through kit.phrases."""

from __future__ import annotations

from gm_daemon.games.kit.phrases import Phrases

say = Phrases.beside(__file__)
