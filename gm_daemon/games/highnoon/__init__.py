"""High Noon (Reiner Knizia, 1986): duels at high noon, by mail.

Modules: ``model`` (options, state, orders), ``rules`` (setup and round resolution),
``duel`` (one duel), ``pairings``, ``dice`` (injectable d100), ``syntax`` (the Lark line
grammar), ``orders`` (reading and echoing orders), ``report`` / ``guide`` / ``texts``
(everything players read). ``GAME`` is what the registry loads.
"""

from gm_daemon.games.highnoon.game import HighNoon

GAME = HighNoon()

__all__ = ["GAME", "HighNoon"]
