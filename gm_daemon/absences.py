"""Absences a player announces by mail (``ABWESEND 2026-12-20 bis 2027-01-06``), and what
they do to deadlines.

Pure: the referee passes the clock, the stored absences and the time zone in. A deadline
whose local day falls inside an absence moves to the same local time on the day after it
ends, as often as another absence catches it there. Which absences count is the caller's
(``AbsenceRow.known_at``): a phase respects those announced before it began, so an absence
never shortens or lengthens a round the others are already playing (njudge's rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Literal, NamedTuple
from zoneinfo import ZoneInfo

from gm_daemon.config import AbsencesConfig
from gm_daemon.games.text import fold
from gm_daemon.patterns import on_first_use
from gm_daemon.store import AbsenceRow

CANCEL_WORDS = frozenset({"loschen", "loeschen", "cancel", "delete"})
_SEPARATORS = frozenset({"bis", "to", "until", "-", "–", "—"})
_GERMAN_DATE = on_first_use(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")


class AbsenceProblem(Exception):
    """What is wrong with an ABWESEND line: a phrase key and its values, so the answer is
    in the player's language. (The exception's ``args`` are what it was raised with.)"""

    def __init__(self, key: str, values: dict[str, object] | None = None):
        self.key = key
        self.values = {} if values is None else values


class Request(NamedTuple):
    action: Literal["list", "cancel", "add"]
    first: date | None = None
    last: date | None = None


def read_request(args: str) -> Request:
    """``""`` lists, ``LÖSCHEN``/``CANCEL`` drops, ``FROM bis|to TO`` (or one day) adds."""
    words = args.split()
    if not words:
        return Request("list")
    if len(words) == 1 and fold(words[0]).strip(".!") in CANCEL_WORDS:
        return Request("cancel")
    if len(words) == 1:
        day = read_date(words[0])
        return Request("add", day, day)
    if len(words) == 3 and fold(words[1]) in _SEPARATORS:
        return Request("add", read_date(words[0]), read_date(words[2]))
    raise AbsenceProblem("absence_malformed", {"given": args.strip()})


def read_date(text: str) -> date:
    """2026-12-20, or the German 20.12.2026."""
    cleaned = text.strip().rstrip(".,;")
    german = _GERMAN_DATE.match(cleaned)
    try:
        if german:
            day, month, year = (int(g) for g in german.groups())
            return date(year, month, day)
        return date.fromisoformat(cleaned)
    except ValueError:
        raise AbsenceProblem("absence_bad_date", {"given": text.strip()}) from None


def check_new(first: date, last: date, today: date, limits: AbsencesConfig, announced: int) -> None:
    """Raise the first reason the absence cannot be taken: off in this game, end before
    start, in the past, too long, or one too many (``announced``: the player's absences
    that have not ended)."""
    if not limits.enabled:
        raise AbsenceProblem("absence_off")
    if last < first:
        raise AbsenceProblem("absence_backwards", {"first": first, "last": last})
    if first < today:
        raise AbsenceProblem("absence_past", {"first": first, "today": today})
    days = (last - first).days + 1
    if days > limits.max_days:
        latest = first + timedelta(days=limits.max_days - 1)
        raise AbsenceProblem(
            "absence_too_long",
            {"days": days, "max_days": limits.max_days, "first": first, "latest": latest},
        )
    if announced >= limits.max_per_player:
        raise AbsenceProblem("absence_too_many", {"max": limits.max_per_player})


def usage_example(today: date, limits: AbsencesConfig) -> tuple[date, date]:
    """The absence the command's usage shows: a week from today, as long as the game allows
    up to a week. A player who sends it back as it stands has it taken, which a fixed date
    could not promise (it passes, and may be longer than ``max_days``)."""
    first = today + timedelta(days=7)
    return first, first + timedelta(days=max(1, min(limits.max_days, 7)) - 1)


def shift(
    deadline: datetime, absences: Sequence[AbsenceRow], tz: ZoneInfo
) -> tuple[datetime, list[AbsenceRow]]:
    """The deadline moved out of every absence it falls into (local day), and the absences
    that moved it. Each absence can move it once: after the move it lies beyond its end."""
    causes: list[AbsenceRow] = []
    moved = True
    while moved:
        moved = False
        local = deadline.astimezone(tz)
        for absence in absences:
            if absence not in causes and absence.first_day <= local.date() <= absence.last_day:
                day_after = absence.last_day + timedelta(days=1)
                wall = datetime.combine(day_after, local.time().replace(tzinfo=None))
                deadline = wall.replace(tzinfo=tz).astimezone(UTC)
                causes.append(absence)
                moved = True
                break
    return deadline, causes


def running(absences: Sequence[AbsenceRow], today: date) -> list[AbsenceRow]:
    """Absences not dropped that have not ended: what a player sees and what counts
    towards ``max_per_player``."""
    return [a for a in absences if a.dropped_at is None and a.last_day >= today]
