"""Primtraktorrennen (Peter Herwig / Cici Beilken): tractors racing at prime speeds on a torus.

Rules: docs/games/primtraktor.md and the spec's PT-1 … PT-20. The engine is pure; ``GAME`` is
what the registry in ``gm_daemon.games`` hands the daemon.
"""

from gm_daemon.games.primtraktor.game import PrimtraktorGame

GAME = PrimtraktorGame()

__all__ = ["GAME", "PrimtraktorGame"]
