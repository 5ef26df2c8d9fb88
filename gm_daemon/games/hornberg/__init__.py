"""Das Hornberger Schießen (Zoch/Werstein 1993): Drunter & Drüber and Kreuz & Quer.

The daemon deals and keeps the table; each play is resolved as soon as it arrives. See
docs/games/hornberg.md for the order format and every decision the rule text left open.
"""

from gm_daemon.games.hornberg.engine import GAME, Hornberg

__all__ = ["GAME", "Hornberg"]
