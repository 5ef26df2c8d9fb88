"""Hexenhalma (Lars Falck): witch teams race across a GM-drawn board, everyone against
everyone, with five spells.

Rules with every decision: docs/games/hexenhalma.md (after the spec HH-1 … HH-16). The
engine is pure: boards and orders in, fates and standings out.
"""

from gm_daemon.games.hexenhalma.engine import GAME, Hexenhalma

__all__ = ["GAME", "Hexenhalma"]
