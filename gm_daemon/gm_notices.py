"""Notes to the human GM (``mail.gm_address``) about a game that needs him: a phase that
waits for something only he can supply, a player who missed two phases in a row, a game in
which nobody sent orders. Each names the command that would help.

The GM's notes on a waiting phase are in English, whatever the game's language; the notices
of missed orders (docs/gm.md, "Notices to the GM") are in the game's language.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from gm_daemon.games.kit.layout import wrap
from gm_daemon.loaded import Loaded, waiting_for
from gm_daemon.texts import phrase

if TYPE_CHECKING:
    from gm_daemon.referee import Referee

log = logging.getLogger(__name__)


class GmNotices:
    """Composed inside the referee's transactions, through its mailer and store (the store
    remembers whom it told, so each is told once per streak)."""

    def __init__(self, referee: Referee):
        self.referee = referee

    def waiting(self, loaded: Loaded, waiting: str) -> None:
        """The missing piece is asked of the engine again in English."""
        log.warning("game %s: %s waits for the GM: %s", loaded.id, loaded.label(), waiting)
        label = loaded.engine.phase_label(loaded.state, "en")
        what = waiting_for(loaded.engine, loaded.state, "en") or waiting
        self.referee.mailer.tell_gm(
            f"{loaded.id}: {label} waits for you",
            wrap(
                f"Game {loaded.id}: {label} cannot start until you supply {what}.\n\n"
                f"Add it to the game's options ([games.options] of game {loaded.id} in the "
                "config) and reload the daemon (systemctl reload gm-daemon, or SIGHUP): "
                f"{label} then starts at once, and every player gets a mail with the deadline. "
                "Until then no deadline runs and no reminder goes out; a player who writes is "
                "told what is missing.\n"
            ),
        )

    def missing(self, loaded: Loaded, nmr: list[str]) -> None:
        """After a resolution: a game where no one who owed orders sent any, and a player who
        has now missed two phases of his in a row, are named to the GM, each once (until
        orders come again), with the command that would hand the seat on."""
        store = self.referee.store
        owed = loaded.engine.owed(loaded.state)
        missed = set(nmr)
        silent_key = f"gm-told-silent:{loaded.id}"
        silent = len(owed) >= 2 and owed <= missed
        if not silent:
            store.set_note(silent_key, None)
        elif store.note(silent_key) is None:
            store.set_note(silent_key, loaded.label())
            self._silent(loaded)
        for seat in sorted(owed):
            key, told = f"missed:{loaded.id}:{seat}", f"gm-told-missed:{loaded.id}:{seat}"
            if seat not in missed:
                store.set_note(key, None)
                store.set_note(told, None)
                continue
            first, last = _streak(store.note(key), loaded.row.phase)
            store.set_note(key, f"{first} {last}")
            if last - first >= 1 and not silent and store.note(told) is None:
                store.set_note(told, loaded.label())
                self._missed(loaded, seat)

    def _config_name(self) -> str:
        return self.referee.mailer.config_name()

    def _replace_command(self, game_id: str, name: str) -> str:
        return (
            f"gm-daemon replace-player --config {self._config_name()} --game {game_id} "
            f'--player "{name}" --email NEW@ADDRESS'
        )

    def _missed(self, loaded: Loaded, seat: str) -> None:
        player = loaded.player(seat)
        lang = loaded.lang
        values = {
            "game_id": loaded.id,
            "name": player.name,
            "email": player.email,
            "phase_label": loaded.label(),
            "command": self._replace_command(loaded.id, player.name),
        }
        log.warning("game %s: %s missed two phases in a row", loaded.id, player.name)
        self.referee.mailer.tell_gm(
            phrase(lang, "gm_missed_subject", **values), phrase(lang, "gm_missed", **values) + "\n"
        )

    def _silent(self, loaded: Loaded) -> None:
        lang = loaded.lang
        commands = "\n".join(
            "  " + self._replace_command(loaded.id, p.name)
            for p in loaded.players
            if p.seat in loaded.engine.owed(loaded.state)
        )
        values = {
            "game_id": loaded.id,
            "phase_label": loaded.label(),
            "pause": f"gm-daemon pause --config {self._config_name()} --game {loaded.id}",
            "commands": commands,
        }
        log.warning("game %s: nobody sent orders for %s", loaded.id, loaded.label())
        self.referee.mailer.tell_gm(
            phrase(lang, "gm_silent_subject", **values), phrase(lang, "gm_silent", **values) + "\n"
        )


def _streak(kept: str | None, phase: int) -> tuple[int, int]:
    """The phases of a player's streak of misses, first and last, with ``phase`` missed
    now. A phase played again after a rollback is the same phase, not one more: the streak
    ends with it (a miss of phase 1, a rollback, a miss of phase 1 again is one miss, not
    two in a row). A note of an older version holds the count alone: the phases before
    this one."""
    if kept is None:
        return phase, phase
    first, _, last = kept.partition(" ")
    start, end = (int(first), int(last)) if last else (phase - int(first), phase - 1)
    if start <= phase <= end + 1:
        return start, phase
    return phase, phase
