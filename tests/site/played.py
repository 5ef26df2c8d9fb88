"""Games of every kind played through the real daemon with ``[site]`` on, the site checked
for private items after every run of the daemon (not only at the end: an order is private
until its phase is resolved, a seed until the game is over).

The games are those of ``tests/test_every_mail.py`` (each kind to its end, German), plus
Hornberg's other variant and a Highlander tournament match. ``played(kind, root)`` plays one
and returns its harness; the site is under ``root / "site"``.
"""

from __future__ import annotations

import contextlib
import html
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

from gm_daemon.config import load_config
from gm_daemon.referee import Referee
from gm_daemon.store import Store
from tests.daemon_harness import DaemonHarness
from tests.test_every_mail import BOARDS, GAMES, PLAYERS, accepted, games_toml, send, to

SITE_URL = "https://club.example/gm/"
# A private line shorter than this ("Bier 3", a lone colour code) also occurs in public
# texts by chance; what identifies a hand, a plan or an order is the whole line.
SHORTEST = 12


class SiteHarness(DaemonHarness):
    """A harness whose every run is followed by the privacy check of the whole site."""

    checks = 0

    def run(self):  # type: ignore[no-untyped-def]
        mails = super().run()
        assert_nothing_private(self)
        self.checks += 1
        return mails

    @property
    def site(self) -> Path:
        return self.root / "site"


def site_toml(root: Path) -> str:
    return f'\n[site]\ndir = "{root / "site"}"\nurl = "{SITE_URL}"\ntitle = "Club-Archiv"\n'


def private_items(h: DaemonHarness) -> dict[str, str]:
    """Everything of the games that must not be on the site now, each with what it is:
    every address and code, the seed of a running game, each seat's private part of the
    status and of the latest report (a Hornberg hand, Highlander's own notes), and every
    order on file for a phase not yet resolved (plans, ballots, set-ups, moves)."""
    config = load_config(h.config_path)
    store = Store(h.database)
    items: dict[str, str] = {}
    try:
        referee = Referee(config, store, h.clock)
        for row in store.games():
            loaded = referee.load(row.id)
            assert loaded is not None
            for player in loaded.players:
                items[player.email] = f"{player.name}'s address"
                items[player.code] = f"{player.name}'s code"
            if not row.finished:
                items[row.seed] = "the seed of a running game"
            for player in loaded.players:
                report = loaded.engine.status(loaded.state, player.seat, loaded.lang)
                for line in report.private.get(player.seat, "").splitlines():
                    if len(line.strip()) >= SHORTEST:
                        items[line.strip()] = f"{player.name}'s private status line"
            with contextlib.closing(sqlite3.connect(h.database)) as db:
                pending = db.execute(
                    "SELECT phase, seat, orders FROM orders WHERE game_id = ? AND phase >= ?",
                    (row.id, row.phase),
                ).fetchall()
            for phase, seat, data in pending:
                orders = loaded.engine.Orders.model_validate(json.loads(data))
                text = loaded.engine.describe_orders(loaded.state, seat, orders, loaded.lang)
                for line in text.splitlines():
                    if len(line.strip()) >= SHORTEST:
                        items[line.strip()] = f"orders of {seat} for phase {phase}"
    finally:
        store.close()
    return items


def site_files(site: Path) -> Iterator[tuple[Path, str]]:
    for path in sorted(site.rglob("*")):
        if path.is_file():
            yield path, path.read_bytes().decode("utf-8", "ignore")


def assert_nothing_private(h: SiteHarness) -> None:
    if not h.site.exists():
        return
    items = private_items(h)
    found = []
    for path, text in site_files(h.site):
        for item, what in items.items():
            forms = {item, html.escape(item), html.escape(item, quote=False)}
            if any(form in text for form in forms):
                found.append(f"{path.relative_to(h.site)}: {what}: {item!r}")
    assert not found, "\n".join(found)


# --- the games ---------------------------------------------------------------------------
def _ignore(_label: str, _message: object) -> None:
    """The plays of test_every_mail keep mails for golden files; here none is kept."""


def _tournament(h: DaemonHarness) -> None:
    """Both players send back the example of their latest mail, from the ballot to the
    1903 movement (as test_every_mail_of_a_tournament_match)."""
    welcome = h.run()
    latest = {name: h.body(to(welcome, name)) for name in ("Anna", "Bert")}
    while h.phase("g") < 6:
        for name in latest:
            example = latest[name].split("Beispiel:", 1)[1].strip().split("\n\n")[0]
            mails = send(h, name, f"Spiel: g\n{example}")
            accepted(mails, "de")
            for mail in mails:
                latest[next(n for n in latest if PLAYERS[n][0] in mail["To"])] = h.body(mail)


DRUNTER_TURNS = 24  # hands dealt, cannons built and fired: every private kind of item


def _drunter_drueber(h: DaemonHarness) -> None:
    """Each player on turn plays the example of his latest mail, for ``DRUNTER_TURNS``
    turns (the whole game takes a hundred; Kreuzer-Quer is played to its end)."""
    welcome = h.run()
    latest = {n: h.body(to(welcome, n)) for n in PLAYERS}
    while not h.finished("g") and h.phase("g") <= DRUNTER_TURNS:
        turn = h.phase("g")
        name = next(n for n in PLAYERS if "Beispiel:" in latest[n])
        example = latest[name].split("Beispiel:", 1)[1].splitlines()[0].strip()
        for mail in send(h, name, f"Zug: {turn}\n{example}"):
            latest[next(n for n, (e, _) in PLAYERS.items() if e in mail["To"])] = h.body(mail)


TOURNAMENT = (
    "resolve_early = true\n[games.deadlines]\n"
    'ballot = "72h"\nsetup = "72h"\ngrace = "48h"\nmovement = "72h"\n'
    'retreats = "24h"\nadjustments = "48h"\n'
    "[games.options]\ntournament = true\nmatch_max_year = 1902\n"
)
DRUNTER = '[games.deadlines]\nturn = "48h"\n[games.options]\nvariant = "drunter-drueber"\n'

Play = Callable[[DaemonHarness], None]
KINDS: dict[str, tuple[str, str, int, Play]] = {
    kind: (kind, settings, seats, lambda h, play=play: play(h, "de", _ignore))
    for kind, (settings, play, seats) in GAMES.items()
}
KINDS["highlander-tournament"] = ("highlander", TOURNAMENT, 2, _tournament)
KINDS["hornberg-drunter-drueber"] = ("hornberg", DRUNTER, 3, _drunter_drueber)


def played(name: str, root: Path) -> SiteHarness:
    """Play one game of ``KINDS`` in ``root``; the site is checked after every run."""
    kind, settings, seats, play = KINDS[name]
    (root / "boards").mkdir(parents=True, exist_ok=True)
    shutil.copy(BOARDS / "turm.txt", root / "boards" / "turm.txt")
    h = SiteHarness(root, games_toml(kind, "de", settings, seats), extra_toml=site_toml(root))
    play(h)
    return h
