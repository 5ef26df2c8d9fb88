"""Writing the static site: pages from Jinja2 templates, pictures, calendars and feeds.

Layout under ``[site] dir``::

    index.html  style.css  deadlines.ics
    <game>/index.html  <game>/phase-<n>.html  <game>/phase-<n>.json  <game>/p<n>-<picture>.png
    <game>/deadlines.ics  <game>/feed.xml  <game>/game.json

Every file is written to a temporary name and renamed, so a reader never sees half a page.
A game's rebuild after a resolution writes only what changed: its game page, calendar and
feed, the pages of phases not yet on disk and the one before them (its "next" link now
points to a phase page), and the index. ``game.json`` holds the index's line of the game,
so the index is built without loading every game.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import uuid
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from gm_daemon.config import Config, SiteSection
from gm_daemon.deadlines import local_text
from gm_daemon.referee import Referee
from gm_daemon.site.blocks import blocks
from gm_daemon.site.public import RUNNING, GameView, PhaseView, game_view
from gm_daemon.site.words import say
from gm_daemon.store import Store, from_iso, iso

if TYPE_CHECKING:
    import jinja2
    from icalendar import Timezone

_HERE = Path(__file__).resolve().parent


@functools.cache
def _env() -> jinja2.Environment:
    """The templates, loaded when the first page is written: a daemon without [site] (and
    every ``run --once`` of a cron job) does not pay for importing Jinja2 and icalendar,
    about a quarter of its start-up."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_HERE / "templates"),
        autoescape=True,  # every report, name and title is text, never markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["blocks"] = blocks
    return env


SUMMARY = "game.json"


@dataclass(frozen=True)
class Summary:
    """A game's line in the index and the site-wide calendar, kept in ``<game>/game.json``."""

    id: str
    lang: str
    kind_title: str
    title: str
    phase: int
    phase_label: str
    state: str
    state_text: str
    deadline_at: str | None
    deadline_text: str

    @classmethod
    def of(cls, view: GameView) -> Summary:
        return cls(
            id=view.id,
            lang=view.lang,
            kind_title=view.kind_title,
            title=view.title,
            phase=view.phase,
            phase_label=view.phase_label,
            state=view.state,
            state_text=view.word(f"state_{view.state}"),
            deadline_at=iso(view.deadline_at) if view.deadline_at else None,
            deadline_text=view.deadline_text,
        )


class SiteBuilder:
    """Builds the site of one config; the daemon keeps one and calls ``game`` after a
    change (``gm_daemon.site.publish``), ``gm-daemon site`` calls ``everything``."""

    def __init__(
        self,
        config: Config,
        store: Store,
        out: Path | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ):
        self.config = config
        self.site = config.site or SiteSection()
        self.out = out or self.site.dir
        self.store = store
        self.clock = clock
        self.referee = Referee(config, store, clock)
        self._summaries: dict[str, Summary] | None = None

    @property
    def lang(self) -> str:
        """The index's language: the first game's (the club's), else German."""
        return self.config.language

    # --- entry points ----------------------------------------------------------------
    def everything(self) -> int:
        """Every game of the config with all its pages, then the index; the number of games."""
        self.out.mkdir(parents=True, exist_ok=True)
        self._summaries = {}
        for game in self.config.games:
            if self.store.game(game.id) is not None:
                self._game(game.id, full=True)
        self._index()
        return len(self._summaries)

    def game(self, game_id: str) -> None:
        """One game's changed pages and the index."""
        self._game(game_id, full=False)
        self._index()

    # --- a game ----------------------------------------------------------------------
    def _game(self, game_id: str, full: bool) -> None:
        loaded = self.referee.load(game_id)
        if loaded is None:
            return  # not in the config: its language and title are unknown, its pages stay
        folder = self.out / game_id
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(n) for (n,) in self._phase_numbers(game_id)]
        wanted = set(numbers) if full else self._pages_due(folder, numbers)
        view = game_view(loaded, self.store, self.referee.tz, self.site.show_who_sent, wanted)
        phases = view.phases
        for i, phase in enumerate(phases):
            if phase.number not in wanted:
                continue
            for picture in phase.pictures:
                write(folder / picture.file, picture.data)
            write(folder / phase.data_file, phase.data)
            previous = phases[i - 1] if i else None
            following = phases[i + 1] if i + 1 < len(phases) else None
            page = self._page(
                "phase.html",
                view,
                phase=phase,
                previous=previous,
                following=following,
                generated=say(view.lang, "public_only"),
            )
            write(folder / phase.page, page.encode())
        write(folder / "index.html", self._page("game.html", view).encode())
        write(
            folder / "deadlines.ics", calendar([view], self._host(), self.clock(), self.referee.tz)
        )
        write(folder / "feed.xml", self._feed(view).encode())
        summary = Summary.of(view)
        write(folder / SUMMARY, json.dumps(asdict(summary), ensure_ascii=False).encode())
        self.summaries()[game_id] = summary

    def _phase_numbers(self, game_id: str) -> Iterable[tuple[int]]:
        return self.store.db.execute(
            "SELECT phase FROM phases WHERE game_id = ? ORDER BY phase", (game_id,)
        ).fetchall()

    @staticmethod
    def _pages_due(folder: Path, numbers: list[int]) -> set[int]:
        """The phases without a page yet, and the last one with a page: its "next" link
        changes from the game page to the first new phase. The latest phase is always
        rendered: the game page shows it."""
        missing = {n for n in numbers if not (folder / f"phase-{n}.html").exists()}
        done = [n for n in numbers if n not in missing]
        return missing | ({done[-1]} if done and missing else set()) | set(numbers[-1:])

    # --- the index -------------------------------------------------------------------
    def summaries(self) -> dict[str, Summary]:
        """Every game's index line: read from the games' ``game.json`` once, then kept."""
        if self._summaries is None:
            self._summaries = {}
            for game in self.config.games:
                path = self.out / game.id / SUMMARY
                try:
                    self._summaries[game.id] = Summary(**json.loads(path.read_text("utf-8")))
                except (OSError, ValueError, TypeError):
                    continue  # not built yet (or by an older version): the next build adds it
        return self._summaries

    def _index(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        configured = [g.id for g in self.config.games]
        games = [self.summaries()[g] for g in configured if g in self.summaries()]
        lang = self.lang
        page = (
            _env()
            .get_template("index.html")
            .render(
                lang=lang,
                site_title=self.site.title or say(lang, "site_title"),
                games=games,
                word=lambda key, **values: say(lang, key, **values),
                label={key: say(lang, key) for key in ("kind", "phase", "deadline", "state")},
                root="",
                generated=self._generated(lang),
            )
        )
        write(self.out / "index.html", page.encode())
        write(self.out / "style.css", (_HERE / "templates" / "style.css").read_bytes())
        write(
            self.out / "deadlines.ics",
            site_calendar(games, self._host(), self.clock(), self.referee.tz),
        )

    # --- rendering -------------------------------------------------------------------
    def _page(self, template: str, view: GameView, **extra: Any) -> str:
        """A page of a game; a phase page says no build time (it never changes after). Its
        moments (``local``) in the daemon's time zone, as the deadlines and the mails say
        them."""
        tz, lang = self.referee.tz, view.lang
        values = {
            "generated": self._generated(lang),
            "local": lambda moment: local_text(moment, tz, lang),
            **extra,
        }
        return (
            _env()
            .get_template(template)
            .render(
                lang=view.lang,
                site_title=self.site.title or say(view.lang, "site_title"),
                game=view,
                word=view.word,
                root="../",
                **values,
            )
        )

    def _generated(self, lang: str) -> str:
        return say(lang, "generated", moment=local_text(self.clock(), self.referee.tz, lang))

    def _host(self) -> str:
        """The UID domain of calendar events: the site's host, else a fixed name."""
        url = self.site.url or ""
        host = url.split("://", 1)[-1].split("/", 1)[0]
        return host or "gm-daemon.invalid"

    def _feed(self, view: GameView) -> str:
        """Atom (RFC 4287): one entry per resolved phase, the newest first."""
        base = self.site.game_url(view.id)
        feed_id = _urn(self._host(), view.id, "feed")
        updated = max((p.resolved_at for p in view.phases), default=self.clock())
        named = view.title if view.title == view.kind_title else f"{view.title} ({view.kind_title})"
        title = escape(named)
        lines = [
            '<?xml version="1.0" encoding="utf-8"?>',
            f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{view.lang}">',
            f"  <title>{title}</title>",
            f"  <id>{feed_id}</id>",
            f"  <updated>{_atom_time(updated)}</updated>",
            "  <author><name>gm-daemon</name></author>",
        ]
        if base:
            lines.append(f'  <link rel="alternate" href="{escape(base)}"/>')
        for phase in reversed(view.phases):
            lines += _entry(view, phase, base, self._host())
        lines.append("</feed>")
        return "\n".join(lines) + "\n"


def _entry(view: GameView, phase: PhaseView, base: str | None, host: str) -> list[str]:
    title = escape(view.word("entry", game=view.title, phase_label=phase.label))
    entry = [
        "  <entry>",
        f"    <title>{title}</title>",
        f"    <id>{_urn(host, view.id, str(phase.number))}</id>",
        f"    <updated>{_atom_time(phase.resolved_at)}</updated>",
        f"    <summary>{title}</summary>",
    ]
    if base:
        entry.append(f'    <link rel="alternate" href="{escape(base + phase.page)}"/>')
    return [*entry, "  </entry>"]


def _urn(host: str, game_id: str, part: str) -> str:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"gm-daemon://{host}/{game_id}/{part}").urn


def _atom_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- calendars ---------------------------------------------------------------------------
def calendar(views: Iterable[GameView], host: str, now: datetime, tz: ZoneInfo) -> bytes:
    """RFC 5545: the next deadline of each running game as an event at the deadline, in
    the daemon's time zone (with its VTIMEZONE), UID stable per game and phase."""
    return _calendar(
        [
            (v.id, v.phase, v.title, v.phase_label, v.lang, v.deadline_at)
            for v in views
            if v.state == RUNNING and v.deadline_at is not None
        ],
        host,
        now,
        tz,
    )


def site_calendar(games: Iterable[Summary], host: str, now: datetime, tz: ZoneInfo) -> bytes:
    return _calendar(
        [
            (g.id, g.phase, g.title, g.phase_label, g.lang, from_iso(g.deadline_at))
            for g in games
            if g.state == RUNNING and g.deadline_at is not None
        ],
        host,
        now,
        tz,
    )


Deadline = tuple[str, int, str, str, str, datetime | None]


def _calendar(deadlines: list[Deadline], host: str, now: datetime, tz: ZoneInfo) -> bytes:
    from icalendar import Calendar, Event

    cal = Calendar()
    cal.add("prodid", "-//gm-daemon//static site//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    for game_id, phase, title, label, lang, moment in deadlines:
        assert moment is not None
        event = Event()
        event.add("uid", f"{game_id}-phase-{phase}@{host}")
        event.add("dtstamp", now.astimezone(UTC))
        event.add("dtstart", moment.astimezone(tz))
        event.add("summary", say(lang, "event", game=title, phase_label=label))
        cal.add_component(event)
    cal.add_component(_zone(tz.key, now.year))
    return cal.to_ical()


@functools.cache
def _zone(key: str, year: int) -> Timezone:
    """The VTIMEZONE of ``key`` for the years around ``year`` (built once: it is the same
    for every calendar written this year)."""
    from icalendar import Timezone

    return Timezone.from_tzid(
        key, first_date=date(year - 1, 1, 1), last_date=date(year + 2, 12, 31)
    )


# --- files -------------------------------------------------------------------------------
def write(path: Path, data: bytes) -> None:
    """Write atomically: a temporary file in the same folder, then a rename over the old
    one. An unchanged file is left as it is (its time stamp keeps web caches valid)."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
