"""When a phase ends, from the game's ``[games.deadlines]`` and the phase's start.

Pure: the daemon passes the clock in. Grid schedules (``first`` + ``every``, or ``cron``) give
fixed local times, as a postal GM announces "every Friday 18:00"; a grid point closer than
``min_notice`` to the start of the phase is skipped so nobody gets a one-hour round after an
early resolution. A length per phase type (``turn = "48h"``) counts from the start of the phase.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from gm_daemon.config import Deadlines, parse_duration

_DEFAULT_LENGTH = timedelta(days=7)


def next_deadline(
    spec: Deadlines, phase_type: str, phase_start: datetime, tz: ZoneInfo
) -> datetime:
    """The deadline (aware, UTC) of a phase of ``phase_type`` that started at ``phase_start``."""
    lengths = spec.lengths()
    if phase_type in lengths:
        return (phase_start + lengths[phase_type]).astimezone(UTC)
    earliest = phase_start + parse_duration(spec.min_notice)
    if spec.cron:
        from apscheduler.triggers.cron import CronTrigger  # only cron schedules need it

        trigger = CronTrigger.from_crontab(spec.cron, timezone=tz)
        fire = trigger.get_next_fire_time(None, earliest.astimezone(tz))
        assert fire is not None  # a valid crontab always fires again
        return fire.astimezone(UTC)
    if spec.first is not None:
        return _grid_point(spec, earliest, tz)
    assert spec.every is not None  # Deadlines guarantees one schedule
    return (phase_start + parse_duration(spec.every)).astimezone(UTC)


def _grid_point(spec: Deadlines, earliest: datetime, tz: ZoneInfo) -> datetime:
    """The first point of first, first+every, … at or after ``earliest``. Steps are taken in
    local wall-clock time, so "18:00" stays 18:00 across daylight-saving changes."""
    assert spec.first is not None
    first = spec.first.replace(tzinfo=tz)
    if first >= earliest:
        return first.astimezone(UTC)
    step = parse_duration(spec.every) if spec.every else _DEFAULT_LENGTH
    naive_gap = earliest.astimezone(tz).replace(tzinfo=None) - spec.first
    steps = max(0, int(naive_gap / step) - 1)
    candidate = spec.first + steps * step
    while candidate.replace(tzinfo=tz) < earliest:
        candidate += step
    return candidate.replace(tzinfo=tz).astimezone(UTC)


@lru_cache(maxsize=1024)
def local_text(moment: datetime, tz: ZoneInfo, lang: str) -> str:
    """A deadline as players read it: local time with zone name and UTC offset. Cached:
    every acknowledgement of a game's round names the same deadline."""
    local = moment.astimezone(tz)
    offset = local.strftime("%z")
    offset = f"UTC{offset[:3]}:{offset[3:]}"
    weekday = local.strftime("%w")
    names = _WEEKDAYS[lang] if lang in _WEEKDAYS else _WEEKDAYS["en"]
    return f"{names[int(weekday)]} {local:%Y-%m-%d %H:%M} {local.tzname()} ({offset})"


_WEEKDAYS = {
    "de": ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"],
    "en": ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
}
