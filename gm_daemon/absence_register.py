"""The absences a game keeps in its store: a player's ABWESEND / ABSENT (announce, list,
cancel) and the GM's ``gm-daemon absences --drop``. What an absence does to a deadline is
``absences`` (pure); this is where the referee's store and clock meet it.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from gm_daemon import absences
from gm_daemon.loaded import Loaded
from gm_daemon.mailer import Reply
from gm_daemon.store import AbsenceRow
from gm_daemon.texts import phrase

if TYPE_CHECKING:
    from gm_daemon.referee import Referee


class AbsenceRegister:
    def __init__(self, referee: Referee):
        self.referee = referee

    def today(self) -> date:
        return self.referee.clock().astimezone(self.referee.tz).date()

    def running(self, game_id: str, seat: str | None = None) -> list[AbsenceRow]:
        """Absences that have not ended and were not dropped, of one seat or of all."""
        today = self.today()
        rows = absences.running(self.referee.store.absences(game_id, today), today)
        return [a for a in rows if seat is None or a.seat == seat]

    def announce(self, loaded: Loaded, seat: str, first: date, last: date) -> AbsenceRow:
        """Raises ``AbsenceProblem`` for an absence the game's limits do not allow. The
        running phase's deadline stays: the phase began before the absence was known."""
        announced = len(self.running(loaded.id, seat))
        absences.check_new(first, last, self.today(), loaded.config.absences, announced)
        self.referee.store.add_absence(loaded.id, seat, first, last, self.referee.clock())
        return next(a for a in reversed(self.running(loaded.id, seat)) if a.first_day == first)

    def cancel(self, game_id: str, seat: str) -> list[AbsenceRow]:
        dropped = self.running(game_id, seat)
        self.referee.store.drop_absences(game_id, [a.id for a in dropped], self.referee.clock())
        return dropped

    def drop(self, game_id: str, absence_id: int) -> AbsenceRow:
        """The GM strikes an absence; its player is told. Like one the player cancels, it
        no longer moves the deadlines of phases that begin from now on."""
        referee = self.referee
        with referee.store.transaction():
            absence = next((a for a in self.running(game_id) if a.id == absence_id), None)
            if absence is None:
                known = ", ".join(f"#{a.id}" for a in self.running(game_id)) or "none"
                raise LookupError(
                    f"{game_id} has no running absence #{absence_id} (running: {known}; "
                    f"see gm-daemon absences --game {game_id})"
                )
            referee.store.drop_absences(game_id, [absence_id], referee.clock())
            loaded = referee.load(game_id)
            if loaded is not None:
                view, player = loaded.for_seat(absence.seat), loaded.player(absence.seat)
                body = phrase(
                    view.lang, "absence_dropped", first=absence.first_day, last=absence.last_day
                )
                reply = Reply("absence_subject", body, "absence-dropped")
                referee.mailer.notice(view, player, view.lang, reply)
        return absence
