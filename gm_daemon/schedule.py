"""Deadline and reminder timers. The database holds the deadlines; this only holds timers.

APScheduler fires a wake-up at each game's next deadline or reminder; the daemon's loop then
asks the database what is due. Timers are re-armed from the database after every cycle and at
start-up, so a timer that is lost or fires twice changes nothing: the work is decided by the
stored deadlines and guarded by the phase number.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger


class Timers:
    def __init__(self, wake: asyncio.Event):
        self._wake = wake
        self._scheduler = AsyncIOScheduler()

    def start(self) -> None:
        self._scheduler.start()

    def stop(self) -> None:
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)

    def arm(self, moments: dict[str, datetime]) -> None:
        """One timer per game at its next due moment; timers of games not named go away."""
        wanted = set(moments)
        for job in self._scheduler.get_jobs():
            if job.id not in wanted:
                job.remove()
        for game_id, moment in moments.items():
            self._scheduler.add_job(
                self._wake.set,
                DateTrigger(run_date=moment),
                id=game_id,
                replace_existing=True,
                misfire_grace_time=None,
            )

    def armed(self) -> dict[str, datetime]:
        return {job.id: job.next_run_time for job in self._scheduler.get_jobs()}
