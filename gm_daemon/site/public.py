"""What the site may show of a game, gathered from the store: the public part of every
report, the public facts of the running phase, nothing else.

This is the site's one door to the games. It reads only what a result mail to an observer
holds (``Report.public`` and ``Report.attachments``, re-rendered as ``gm-daemon show`` does,
and the whole ``public_state`` such a mail attached before ``mail_state`` split it),
the game row's public facts (phase, deadline, paused, finished) and player names. No address,
code, private report part, order text or state dump passes through here; the seed only once
the game is over and only where the welcome promised it.
"""

from __future__ import annotations

import json
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from gm_daemon.deadlines import local_text
from gm_daemon.games.kit.layout import fit
from gm_daemon.games.protocol import Attachment, Report, Resolution
from gm_daemon.loaded import Loaded
from gm_daemon.mailer import leaves_chance
from gm_daemon.rng import commitment
from gm_daemon.season_tools import END_TRIGGER, ended_text, recorded
from gm_daemon.site.words import say
from gm_daemon.store import Store, from_iso

RUNNING, WAITING, PAUSED, FINISHED = "running", "waiting", "paused", "finished"


@dataclass(frozen=True)
class Picture:
    """A PNG beside the pages: its file name in the game's folder and what it shows."""

    file: str
    alt: str
    data: bytes


@dataclass(frozen=True)
class PhaseView:
    number: int
    label: str
    resolved_at: datetime
    text: str
    pictures: tuple[Picture, ...]
    data: bytes = b""  # the phase's whole public state as JSON (``data_file``)

    @property
    def page(self) -> str:
        return f"phase-{self.number}.html"

    @property
    def data_file(self) -> str:
        """The machine-readable result beside the page: what a result mail attached before
        kinds sent each player only his part (``mail_state``), written once for everyone."""
        return f"phase-{self.number}.json"


@dataclass(frozen=True)
class GameView:
    id: str
    kind: str
    kind_title: str
    title: str
    lang: str
    phase: int
    phase_label: str
    state: str
    deadline_at: datetime | None
    deadline_text: str
    players: tuple[str, ...]
    sent: tuple[str, ...]
    owed: tuple[str, ...]
    help_text: str
    ranking: tuple[tuple[str, ...], ...] = ()
    seed: str | None = None
    commitment: str | None = None
    phases: tuple[PhaseView, ...] = field(default_factory=tuple)

    @property
    def latest(self) -> PhaseView | None:
        return self.phases[-1] if self.phases else None

    def word(self, key: str, **values: object) -> str:
        return say(self.lang, key, **values)


def game_view(
    loaded: Loaded,
    store: Store,
    tz: ZoneInfo,
    show_who_sent: bool,
    phases: set[int] | None = None,
) -> GameView:
    """The public view of one game. ``phases`` limits which past phases are re-rendered
    (the ones whose pages are written now); the others are listed by number and label."""
    row, engine, lang = loaded.row, loaded.engine, loaded.lang
    names = {p.seat: p.name for p in loaded.players}
    running = not row.finished
    owed = loaded.owed() if running and not row.waiting else set()
    on_file = store.seats_with_orders(row.id, row.phase) if running else set()
    sent = sorted(names.get(s, s) for s in owed & on_file) if show_who_sent else []
    records = _records(store, row.id)
    views = tuple(
        _phase_view(loaded, store, record, phases is None or record["phase"] in phases)
        for record in records
    )
    final = records[-1] if records and row.finished else None
    ranking = json.loads(final["ranking"]) if final is not None and final["ranking"] else []
    reveal = row.finished and leaves_chance(loaded)
    state = _state(loaded)
    return GameView(
        id=row.id,
        kind=row.kind,
        kind_title=engine.title.get(lang, row.kind),
        title=loaded.title,
        lang=lang,
        phase=row.phase,
        # a finished game's own label names the phase that never ran ("Runde 2")
        phase_label=(
            say(lang, "last_played", phase_label=final["label"])
            if final is not None
            else loaded.label()
        ),
        state=state,
        deadline_at=row.deadline_at if state == RUNNING else None,
        deadline_text=(
            local_text(row.deadline_at, tz, lang)
            if row.deadline_at and state == RUNNING
            else say(lang, "no_deadline")
        ),
        players=tuple(names.values()),
        sent=tuple(sent),
        owed=tuple(sorted(names.get(s, s) for s in owed - on_file)) if show_who_sent else (),
        help_text=_help(loaded),
        ranking=tuple(tuple(names.get(s, s) for s in rank) for rank in ranking),
        seed=row.seed if reveal else None,
        commitment=commitment(row.seed) if reveal else None,
        phases=views,
    )


def _state(loaded: Loaded) -> str:
    row = loaded.row
    if row.finished:
        return FINISHED
    if row.paused:
        return PAUSED
    if row.waiting or row.held:
        return WAITING
    return RUNNING


def _help(loaded: Loaded) -> str:
    """HILFE as a reader who plays no seat gets it: the order format without any seat's
    example (an example may be drawn from a hand, or be the very orders a player sent).
    Every engine renders it for the seat "" (protocol: example "" for a seat that may not
    send); one that cannot gets no section rather than a seat's text."""
    if loaded.row.finished:
        return ""
    try:
        return fit(loaded.engine.help(loaded.state, "", loaded.lang))
    except (KeyError, ValueError, LookupError, AttributeError):
        return ""


def _records(store: Store, game_id: str) -> list[sqlite3.Row]:
    return list(
        store.db.execute(
            "SELECT phase, label, resolved_at, trigger, state_before, state_after, events,"
            " finished, ranking FROM phases WHERE game_id = ? ORDER BY phase",
            (game_id,),
        )
    )


# Phase views rendered lately, by database, game, phase and language: a phase record never
# changes, and the page of the phase before a new one is written again (its "next" link),
# so a resolution renders one report and its pictures, not two.
_RENDERED: OrderedDict[tuple[str, str, int, str], PhaseView] = OrderedDict()
RENDERED_KEPT = 256


def _phase_view(loaded: Loaded, store: Store, record: sqlite3.Row, rendered: bool) -> PhaseView:
    number, label = int(record["phase"]), str(record["label"])
    if not rendered:
        return PhaseView(number, label, from_iso(record["resolved_at"]), "", ())
    key = (str(store.path), loaded.row.id, number, loaded.lang)
    view = _RENDERED.get(key)
    if view is None:
        view = _RENDERED[key] = _render_phase(loaded, record)
        if len(_RENDERED) > RENDERED_KEPT:
            _RENDERED.popitem(last=False)
    return view


def _render_phase(loaded: Loaded, record: sqlite3.Row) -> PhaseView:
    """The phase as ``gm-daemon show`` renders it again, public part only. A game the GM
    ended (or a leaving ended) resolved nothing in its last phase: that record is the end's
    notice, as everyone received it, not a report of a round that was not played."""
    number = int(record["phase"])
    engine = loaded.engine
    before, resolution = recorded(engine, record)
    if record["trigger"] == END_TRIGGER:
        report = Report(public=_ended(loaded, before, resolution))
    else:
        report = engine.report(before, resolution, loaded.lang)
    data = {
        "game": loaded.row.id,
        "kind": loaded.row.kind,
        "phase": engine.phase_number(resolution.state),
        "finished": resolution.finished,
        "state": engine.public_state(resolution.state),
    }
    label = engine.phase_label(before, loaded.lang)  # the label in the game's language
    kind = engine.title.get(loaded.lang, loaded.row.kind)
    pictures = tuple(
        _picture(number, attachment, kind, label, loaded.lang)
        for attachment in report.attachments
        if attachment.content_type == "image/png"
    )
    text = fit(report.public.rstrip()) + "\n"  # as the result mail shows it: 78 columns
    encoded = json.dumps(data, ensure_ascii=False, sort_keys=True).encode()  # C encoder: big
    return PhaseView(number, label, from_iso(record["resolved_at"]), text, pictures, encoded)


def _ended(loaded: Loaded, before: Any, resolution: Resolution[Any, Any]) -> str:
    event = resolution.events[0] if resolution.events else {}
    return ended_text(replace(loaded, state=before), resolution.ranking or [], event)


def _picture(number: int, attachment: Attachment, kind: str, label: str, lang: str) -> Picture:
    alt = say(lang, "picture_alt", kind=kind, phase_label=label, name=attachment.filename)
    return Picture(f"p{number}-{attachment.filename}", alt, attachment.data)
