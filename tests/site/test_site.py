"""The static site (gm_daemon/site): nothing private on it at any moment of a game of any
kind; every page valid HTML5 with its links and pictures in place; calendars whose events
are the games' deadlines; Atom feeds; the daemon's rebuild of one game only; the CLI."""

from __future__ import annotations

import html
import json
import logging
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import html5lib
import pytest
from icalendar import Calendar

from gm_daemon.config import SiteSection, load_config
from gm_daemon.referee import Referee
from gm_daemon.store import Store
from tests.daemon_harness import DaemonHarness
from tests.site.played import (
    KINDS,
    SITE_URL,
    SiteHarness,
    assert_nothing_private,
    site_toml,
)
from tests.test_every_mail import BOARDS, GAMES, PLAYERS, games_toml, send, to

Played = Callable[[str], SiteHarness]
ATOM = "{http://www.w3.org/2005/Atom}"
HIGHNOON = '[games.deadlines]\nevery = "3d"\n[games.options]\nlife = 1\n'
PLAYED_TO_THE_END = ["highnoon", "hornberg", "highlander"]  # the others stop mid-game
KINDS_WITH_PICTURES = {"primtraktor", "highlander", "highlander-tournament",
                       "hornberg", "hornberg-drunter-drueber"}  # fmt: skip


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def parse(page: Path):  # type: ignore[no-untyped-def]
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(page.read_bytes())


def phase_numbers(h: DaemonHarness) -> list[int]:
    """The resolved phases (increasing, not always one by one: Hornberg counts turns)."""
    store = Store(h.database)
    try:
        return [n for (n,) in store.db.execute("SELECT phase FROM phases ORDER BY phase")]
    finally:
        store.close()


def phase_count(h: DaemonHarness) -> int:
    return len(phase_numbers(h))


# --- nothing private ---------------------------------------------------------------------
@pytest.mark.parametrize("name", list(KINDS))
def test_nothing_private_at_any_moment_of_a_game(played_game: Played, name: str) -> None:
    """Checked after every run of the daemon while the game is played (``SiteHarness``):
    no address, code, seed of a running game, private report line or order not yet
    resolved, on any file of the site. Here: that it was checked, and the last state."""
    h = played_game(name)
    assert h.checks >= 5
    assert len(pages(h.site)) >= 3
    assert_nothing_private(h)


def test_the_privacy_check_finds_a_leak(tmp_path: Path) -> None:
    """The check itself works: a code written into a page is found."""
    h = SiteHarness(
        tmp_path, games_toml("highnoon", "de", HIGHNOON), extra_toml=site_toml(tmp_path)
    )
    h.run()
    page = h.site / "g" / "index.html"
    page.write_text(page.read_text() + PLAYERS["Bert"][1])
    with pytest.raises(AssertionError, match="Bert's code"):
        assert_nothing_private(h)


def test_the_seed_shows_once_the_game_is_over(played_game: Played) -> None:
    h = played_game("highnoon")
    assert h.finished("g")
    assert "highnoon-de" in (h.site / "g" / "index.html").read_text()


# --- pages -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(KINDS))
def test_every_page_is_html5_without_errors(played_game: Played, name: str) -> None:
    for page in pages(played_game(name).site):
        parse(page)  # strict: the first parse error raises


@pytest.mark.parametrize("name", list(KINDS))
def test_every_link_and_picture_is_there(played_game: Played, name: str) -> None:
    """Relative links lead to files of the site; every picture has an alt text naming the
    phase it shows; there is no script anywhere."""
    site = played_game(name).site
    pictures = 0
    for page in pages(site):
        tree = parse(page)
        assert tree.find(".//script") is None, page
        for element in tree.iter():
            target = element.get("href") or element.get("src")
            if not target or urlsplit(target).scheme:
                continue
            assert (page.parent / target).resolve().is_file(), f"{page}: {target}"
        for image in tree.iter("img"):
            pictures += 1
            assert re.search(r"\S+, .+: Spielbrett \(", image.get("alt", "")), image.get("alt")
    assert (pictures > 0) == (name in KINDS_WITH_PICTURES)


@pytest.mark.parametrize("name", list(KINDS))
def test_one_page_per_phase_with_its_neighbours(played_game: Played, name: str) -> None:
    h = played_game(name)
    numbers = phase_numbers(h)
    folder = h.site / "g"
    assert set(folder.glob("phase-*.html")) == {folder / f"phase-{n}.html" for n in numbers}
    for i, number in enumerate(numbers):
        page = (folder / f"phase-{number}.html").read_text()
        before = f'rel="prev" href="phase-{numbers[i - 1]}.html"' if i else 'rel="prev"'
        after = (
            f'rel="next" href="phase-{numbers[i + 1]}.html"'
            if i + 1 < len(numbers)
            else 'rel="next"'
        )
        assert (before in page) == (i > 0) and (after in page) == (i + 1 < len(numbers))


@pytest.mark.parametrize("name", PLAYED_TO_THE_END)
def test_a_finished_game_shows_its_ranking(played_game: Played, name: str) -> None:
    h = played_game(name)
    assert h.finished("g")
    game = (h.site / "g" / "index.html").read_text()
    assert "<h2>Endstand</h2>" in game and "beendet" in game
    assert "Regeln und Befehlsformat" not in game  # no orders to write any more


@pytest.mark.parametrize("name", PLAYED_TO_THE_END)
def test_a_finished_game_names_the_phase_it_ended_in(played_game: Played, name: str) -> None:
    """Not its own label, which is the next phase's ("Runde 2" of a game over in round 1)."""
    h = played_game(name)
    assert h.finished("g")
    store = Store(h.database)
    try:
        query = "SELECT label FROM phases WHERE game_id = 'g' ORDER BY phase DESC LIMIT 1"
        (last,) = store.db.execute(query).fetchone()
    finally:
        store.close()
    page = (h.site / "g" / "index.html").read_text()
    shown = re.search(r"<dt>Phase</dt><dd>([^<]*)</dd>", page)
    assert shown is not None
    assert shown.group(1) == f"zuletzt gespielt: {html.escape(last)}"


# every kind in its first phase; after a phase those whose game goes on after it unplayed
# (Primtraktor's and Hexenhalma's test games are over when a round passes with no orders)
ENDED = [(kind, 0) for kind in GAMES] + [(kind, 1) for kind in ("highnoon", "highlander",
                                                                  "hornberg")]  # fmt: skip


@pytest.mark.parametrize(("kind", "resolved"), ENDED, ids=[f"{k}-{n}" for k, n in ENDED])
def test_a_game_the_gm_ended_shows_the_end_as_its_last_phase(
    tmp_path: Path, kind: str, resolved: int
) -> None:
    """``gm-daemon end`` leaves a record of a phase it did not resolve: its page is the end's
    notice (the report of a round that was not played broke the whole site in round 1)."""
    (tmp_path / "boards").mkdir()
    shutil.copy(BOARDS / "turm.txt", tmp_path / "boards" / "turm.txt")
    settings, _play, seats = GAMES[kind]
    toml = games_toml(kind, "de", settings, seats)
    h = SiteHarness(tmp_path, toml, extra_toml=site_toml(tmp_path))
    h.run()
    for _ in range(resolved):
        assert h.cli("resolve", "--game", "g")[0] == 0
        h.run()
    assert h.cli("end", "--game", "g", "--reason", "Saisonende")[0] == 0
    h.run()
    (last,) = [p for p in (h.site / "g").glob("phase-*.html") if p.stem == f"phase-{resolved + 1}"]
    page = last.read_text()
    assert "Der Spielleiter hat das Spiel in" in page and "„Saisonende“" in page
    assert re.search(r"ausgewertet am \w\w \d{4}-\d\d-\d\d \d\d:\d\d CET \(UTC\+01:00\)", page)
    game = (h.site / "g" / "index.html").read_text()
    assert "<h2>Endstand</h2>" in game and "beendet" in game
    # each place numbered as the mail numbers it: a shared place counts its players
    places = ranking_places(game)
    assert places and sum(len(names.split(", ")) for _, names in places) == seats
    expected = 1
    for value, names in places:
        assert int(value) == expected, places
        expected += len(names.split(", "))


def ranking_places(game_page: str) -> list[tuple[str, str]]:
    """The final ranking of a game page: (the number shown, the names) per place."""
    return re.findall(r'<li value="(\d+)">([^<]*)</li>', game_page.split('class="ranking"')[1])


def test_a_shared_place_is_followed_by_the_place_after_its_players(tmp_path: Path) -> None:
    """Anna and Bert share the first place, Carla, removed, is third: as the mail says
    ("1. Anna / Bert / 3. Carla"), not the second item of a list."""
    toml = games_toml("highnoon", "de", HIGHNOON)
    h = SiteHarness(tmp_path, toml, extra_toml=site_toml(tmp_path))
    h.run()
    assert h.cli("remove-player", "--game", "g", "--player", "Carla")[0] == 0
    h.run()
    assert h.cli("end", "--game", "g")[0] == 0
    ended = h.run()
    assert "  3. Carla" in h.body(ended[0])
    game = (h.site / "g" / "index.html").read_text()
    assert ranking_places(game) == [("1", "Anna, Bert"), ("3", "Carla")]


def test_a_running_game_shows_who_has_sent_names_only(tmp_path: Path) -> None:
    h = DaemonHarness(
        tmp_path, games_toml("highnoon", "de", HIGHNOON), extra_toml=site_toml(tmp_path)
    )
    welcome = h.run()
    body = h.body(to(welcome, "Anna"))
    example = body.split("So sieht ein Zug aus:", 1)[1].split("\n\n")[1]
    send(h, "Anna", example)
    game = (tmp_path / "site" / "g" / "index.html").read_text()
    assert "<dt>Befehle abgegeben für Runde 1</dt><dd>Anna</dd>" in game
    assert "<dt>Befehle fehlen noch von</dt><dd>Bert, Carla</dd>" in game
    assert "Regeln und Befehlsformat" in game and "läuft" in game
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<h1>Club-Archiv</h1>" in index and re.search(r"\d\d:\d\d CET \(UTC\+01:00\)", index)


def test_show_who_sent_off_names_nobody(tmp_path: Path) -> None:
    toml = site_toml(tmp_path) + "show_who_sent = false\n"
    h = DaemonHarness(tmp_path, games_toml("highnoon", "de", HIGHNOON), extra_toml=toml)
    h.run()
    assert "Befehle abgegeben" not in (tmp_path / "site" / "g" / "index.html").read_text()


def test_mails_end_with_the_game_page(tmp_path: Path) -> None:
    h = DaemonHarness(
        tmp_path, games_toml("highnoon", "en", HIGHNOON), extra_toml=site_toml(tmp_path)
    )
    welcome = h.run()
    line = f"The game's page on the web: {SITE_URL}g/"
    assert all(line in h.body(m).splitlines() for m in welcome)
    h.advance(days=3, seconds=1)
    results = h.run()
    assert results and all(line in h.body(m).splitlines() for m in results)


# --- calendars and feeds -----------------------------------------------------------------
def deadline(h: DaemonHarness) -> datetime:
    store = Store(h.database)
    try:
        row = store.game("g")
        assert row is not None and row.deadline_at is not None
        return row.deadline_at
    finally:
        store.close()


def events(path: Path) -> list:  # type: ignore[type-arg]
    calendar = Calendar.from_ical(path.read_bytes())
    assert calendar["VERSION"] == "2.0" and calendar.get("PRODID")
    zones = [zone["TZID"] for zone in calendar.walk("VTIMEZONE")]
    assert zones == ["Europe/Berlin"]
    return list(calendar.walk("VEVENT"))


def test_calendars_hold_the_deadline_with_a_stable_uid(tmp_path: Path) -> None:
    """The event is at the deadline in the daemon's zone; a moved deadline keeps its UID
    and moves the event; the next phase is a new event; a finished game has none."""
    h = DaemonHarness(
        tmp_path, games_toml("highnoon", "de", HIGHNOON), extra_toml=site_toml(tmp_path)
    )
    h.run()
    site = tmp_path / "site"
    for path in (site / "g" / "deadlines.ics", site / "deadlines.ics"):
        (event,) = events(path)
        start = event.decoded("DTSTART")
        assert start == deadline(h) and str(start.tzinfo) == "Europe/Berlin"
        assert str(event["UID"]) == "g-phase-1@club.example"
    code, _ = h.cli("extend", "--game", "g", "--by", "1d")
    assert code == 0
    h.run()
    (event,) = events(site / "g" / "deadlines.ics")
    assert event.decoded("DTSTART") == deadline(h) and str(event["UID"]) == "g-phase-1@club.example"
    h.advance(days=4, seconds=1)
    h.run()
    if not h.finished("g"):
        (event,) = events(site / "g" / "deadlines.ics")
        assert str(event["UID"]) == "g-phase-2@club.example"
    while not h.finished("g"):
        h.advance(days=3, seconds=1)
        h.run()
    assert events(site / "g" / "deadlines.ics") == [] and events(site / "deadlines.ics") == []


@pytest.mark.parametrize("name", list(KINDS))
def test_the_feed_is_atom_with_one_entry_per_result(played_game: Played, name: str) -> None:
    h = played_game(name)
    feed = ET.parse(h.site / "g" / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    for tag in ("id", "title", "updated"):
        assert feed.find(f"{ATOM}{tag}") is not None and feed.findtext(f"{ATOM}{tag}")
    assert feed.find(f"{ATOM}author/{ATOM}name") is not None
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == phase_count(h)
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids) and all(i and i.startswith("urn:uuid:") for i in ids)
    for entry in entries:
        updated = entry.findtext(f"{ATOM}updated") or ""
        assert datetime.strptime(updated, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        link = entry.find(f"{ATOM}link")
        assert link is not None and link.get("href", "").startswith(f"{SITE_URL}g/phase-")


# --- building ----------------------------------------------------------------------------
def test_the_daemon_rebuilds_only_the_game_that_changed(tmp_path: Path) -> None:
    second = games_toml("highnoon", "de", HIGHNOON).replace('id = "g"', 'id = "h"')
    second = second.replace("@players.test", "@other.test").replace("-1111", "-9111")
    second = second.replace("-2222", "-9222").replace("-3333", "-9333")
    h = DaemonHarness(
        tmp_path, games_toml("highnoon", "de", HIGHNOON) + second, extra_toml=site_toml(tmp_path)
    )
    welcome = h.run()
    site = tmp_path / "site"
    other = {p: p.stat().st_mtime_ns for p in (site / "h").iterdir()}
    body = h.body(to(welcome, "Anna"))
    send(h, "Anna", body.split("So sieht ein Zug aus:", 1)[1].split("\n\n")[1])
    assert "Anna" in (site / "g" / "index.html").read_text().split("Befehle abgegeben")[1]
    assert {p: p.stat().st_mtime_ns for p in (site / "h").iterdir()} == other
    assert not list(site.rglob("*.part"))  # written through temporary files, all renamed


def test_gm_daemon_site_builds_everything_once(played_game: Played, tmp_path: Path) -> None:
    h = played_game("highlander")
    code, out = h.cli("site", "--out", str(tmp_path / "out"))
    assert code == 0 and "1 game(s) written" in out
    built = {p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*")}
    daemon = {p.relative_to(h.site) for p in h.site.rglob("*")} - {Path(".built.json")}
    assert built == daemon
    name = "g/phase-3.html"
    assert (tmp_path / "out" / name).read_text() == (h.site / name).read_text()


def test_gm_daemon_site_names_a_folder_it_cannot_write(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the site's folder should be")
    h = DaemonHarness(tmp_path, games_toml("highnoon", "de", HIGHNOON))
    h.run()
    code, out = h.cli("site", "--out", str(blocked / "site"))
    assert (code, out) == (1, "")
    error = capsys.readouterr().err
    assert error.startswith(f"error: cannot write the site to {blocked / 'site'} (--out): ")
    assert len(error.splitlines()) == 1


@pytest.mark.parametrize(
    ("with_site", "out", "written"),
    [
        (False, False, None),  # no [site]: the daemon keeps none, so none is written
        (False, True, "out"),  # a copy to look at before turning the site on
        (True, False, "site"),
        (True, True, "out"),
    ],
)
def test_gm_daemon_site_writes_only_what_was_asked_for(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch, capsys, with_site: bool, out: bool, written: str | None
) -> None:
    monkeypatch.chdir(tmp_path)  # where the default dir, var/site, would be
    toml = site_toml(tmp_path) if with_site else ""
    h = DaemonHarness(tmp_path, games_toml("highnoon", "de", HIGHNOON), extra_toml=toml)
    h.run()
    shutil.rmtree(tmp_path / "site", ignore_errors=True)  # the daemon's own: built again
    code, said = h.cli("site", *(["--out", str(tmp_path / "out")] if out else []))
    assert not (tmp_path / "var").exists()
    if written is None:
        error = capsys.readouterr().err
        assert (code, said) == (1, "") and len(error.splitlines()) == 1
        assert error.startswith(f"error: {h.config_path} has no [site] table")
        assert '[site] dir = "var/site"' in error and "--out DIR" in error
        assert not (tmp_path / "site").exists() and not (tmp_path / "out").exists()
    else:
        assert code == 0 and f"{tmp_path / written}: 1 game(s) written" in said
        assert (tmp_path / written / "g" / "index.html").is_file()


def test_a_broken_site_never_stops_the_mail(tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "blocked").write_text("a file where the site's folder should be")
    toml = f'\n[site]\ndir = "{tmp_path / "blocked" / "site"}"\n'
    h = DaemonHarness(tmp_path, games_toml("highnoon", "de", HIGHNOON), extra_toml=toml)
    with caplog.at_level(logging.ERROR, logger="gm_daemon.site.publish"):
        welcome = h.run()
    assert len(welcome) == 3
    assert "web site could not be written" in caplog.text


def test_every_site_setting_is_described() -> None:
    for name, field in SiteSection.model_fields.items():
        assert field.description, name


@pytest.mark.parametrize("name", list(KINDS))
def test_a_started_game_shows_its_rules_without_anyones_example(tmp_path: Path, name: str) -> None:
    """HILFE is rendered for a reader who plays no seat: every kind can, and no player's
    example (which may be his very orders, or drawn from his hand) is in it."""
    kind, settings, seats, _ = KINDS[name]
    (tmp_path / "boards").mkdir()
    shutil.copy(BOARDS / "turm.txt", tmp_path / "boards" / "turm.txt")
    h = SiteHarness(
        tmp_path, games_toml(kind, "de", settings, seats), extra_toml=site_toml(tmp_path)
    )
    welcome = h.run()
    game = (h.site / "g" / "index.html").read_text()
    help_text = game.split("<h2>Regeln und Befehlsformat</h2>", 1)[1].split("</section>", 1)[0]
    assert len(help_text) > 200
    for mail in welcome:
        body = h.body(mail)
        marker = next((m for m in ("Beispiel:", "So sieht ein Zug aus:") if m in body), None)
        if marker is None:
            continue
        example = body.split(marker, 1)[1].strip().split("\n\n")[0].strip()
        lines = [line for line in example.splitlines() if len(line.strip()) >= 12]
        assert not any(html.escape(line.strip()) in help_text for line in lines), example


@pytest.mark.parametrize("name", list(KINDS))
def test_each_phase_has_its_whole_result_as_json(played_game: Played, name: str) -> None:
    """``phase-N.json`` beside each phase page: the whole ``public_state`` after that phase,
    as result mails attached it before ``mail_state``. A Hexenhalma round's holds every
    pairing, while each player's mail holds his own and names the file."""
    h = played_game(name)
    store = Store(h.database)
    try:
        loaded = Referee(load_config(h.config_path), store, h.clock).load("g")
        assert loaded is not None
        engine = loaded.engine
        rows = store.db.execute("SELECT phase, state_after FROM phases ORDER BY phase")
        after = {n: engine.State.model_validate_json(state) for n, state in rows}
    finally:
        store.close()
    for number, state in after.items():
        data = json.loads((h.site / "g" / f"phase-{number}.json").read_text("utf-8"))
        assert data["state"] == json.loads(json.dumps(engine.public_state(state))), number
        assert (data["game"], data["kind"]) == ("g", loaded.row.kind)
    if loaded.row.kind != "hexenhalma":
        return
    first = min(after)
    data = json.loads((h.site / "g" / f"phase-{first}.json").read_text("utf-8"))
    assert len(data["state"]["last_round"]["pairings"]) == 3  # three players, all pairings
    results = [m for m in h.mails_to(PLAYERS["Anna"][0]) if f"g-{first}.json" in h.attachments(m)]
    assert f"{SITE_URL}g/phase-{first}.json" in " ".join(h.prose(results[0]).split())
    mine = json.loads(h.attachments(results[0])[f"g-{first}.json"])
    assert "pairings" not in mine["state"]["last_round"]
    assert {(p["a"], p["b"]) for p in mine["own"]["pairings"]} == {
        ("anna", "bert"),
        ("anna", "carla"),
    }
