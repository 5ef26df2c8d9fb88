"""Highlander, Diplomacy for two (TATZ 04/2005): the centre ballot, the free set-up, builds
anywhere, and the two-board tournament, on the project's Diplomacy adjudicator
(``gm_daemon.diplomacy``). Rules, decisions and order formats: ``docs/games/highlander.md``.
"""

from gm_daemon.games.highlander.game import Highlander

GAME = Highlander()

__all__ = ["GAME", "Highlander"]
