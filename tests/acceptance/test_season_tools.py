"""A season's GM tools on the club's High Noon game, through the daemon on the Maildir
transport, in German and English (issue 21 items 8-11): preview and publish, discarding a
preview, resigning by mail, and every command acting on a running daemon within a second."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gm_daemon.daemon import Daemon
from gm_daemon.texts import phrase
from tests.acceptance.conftest import GAME, START
from tests.acceptance.test_season_every_kind import send_examples, status
from tests.daemon_harness import DaemonHarness, until
from tests.scenarios import check_golden
from tests.test_every_mail import GAMES, GOLDEN, games_toml, problems

BOSS = "boss@club.test"
WORDS = {
    "de": {
        "preview": "VORSCHAU",
        "in_preview": "Ergebnis wird geprüft",
        "result": "Ergebnisse",
        "reason": "Begründung des Spielleiters: „Würfel geprüft“",
        "rolled_back": "Spiel zurückgesetzt",
        "resign": "AUFGEBEN",
        "confirm": "AUFGEBEN BESTÄTIGT",
        "asked": "Aufgeben bestätigen",
        "confirmed": "Sie haben aufgegeben",
        "left": "Ein Spieler hat das Spiel verlassen",
        "help": "HILFE",
        "status": "STAND",
    },
    "en": {
        "preview": "PREVIEW",
        "in_preview": "Result being checked",
        "result": "results",
        "reason": 'The GM\'s reason: "Würfel geprüft"',
        "rolled_back": "Game rolled back",
        "resign": "RESIGN",
        "confirm": "RESIGN CONFIRMED",
        "asked": "Confirm your resignation",
        "confirmed": "You have resigned",
        "left": "A player has left the game",
        "help": "HELP",
        "status": "STATUS",
    },
}
PLAYERS = ["egon@example.org", "hans@example.org", "vera@example.org", "anna@example.org"]


def club(tmp_path: Path, lang: str, *, preview: bool, now: datetime = START) -> DaemonHarness:
    game = GAME.replace('language = "de"', f'language = "{lang}"')
    if preview:
        game = game.replace("resolve_early = true", "resolve_early = true\npreview = true")
    h = DaemonHarness(tmp_path, game, now=now, extra_toml=f'gm_address = "{BOSS}"')
    h.run()
    return h


def previewed(tmp_path: Path, lang: str) -> tuple[DaemonHarness, list[EmailMessage]]:
    """The club's game with ``preview = true`` after every player sent his example: the
    last orders complete the round (resolve_early), and the run's mails are the preview."""
    h = club(tmp_path, lang, preview=True)
    send_examples(h, "highnoon", lang, "hn1")
    return h, h.run()


def subjects(mails: list[EmailMessage], to: str) -> list[str]:
    return [m["Subject"] for m in mails if to in m["To"]]


def game_row(h: DaemonHarness) -> dict[str, object]:
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        db.row_factory = sqlite3.Row
        return dict(db.execute("SELECT * FROM games WHERE id = 'hn1'").fetchone())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_preview_goes_to_the_gm_only_and_publish_sends_it_with_a_new_deadline(
    tmp_path: Path, lang: str
) -> None:
    words = WORDS[lang]
    h, mails = previewed(tmp_path, lang)
    previews = [m for m in mails if m["To"] == BOSS]
    assert len(previews) == 4 and all(words["preview"] in m["Subject"] for m in previews)
    assert not [m for m in mails if m["To"] != BOSS and words["result"] in m["Subject"]]
    row = game_row(h)
    assert row["preview_of"] == 1 and row["deadline_at"] is None and row["phase"] == 2
    shown = h.cli("status")[1]
    assert "PREVIEW: the result of phase 1" in shown
    assert "OWES ORDERS" not in shown  # nobody can send orders before the publish
    assert not any(p["owes_orders"] for p in status(h, "hn1")["players"])
    assert f"publish --config {h.config_path} --game hn1" in h.body(previews[0])

    # orders, STATUS and game commands are answered that the result is being checked
    code = h.code("hn1", "H. Glück")
    h.send("hans@example.org", f"Code: {code}\n{words['status']}", subject="[hn1]")
    h.send("hans@example.org", f"{words['help']}", subject="[hn1]")
    answers = h.run()
    assert answers[0]["Subject"] == f"[hn1] {words['in_preview']}"
    assert words["in_preview"] not in answers[1]["Subject"]  # HELP is answered as ever

    h.advance(days=5)  # no deadline, no reminder while the GM checks
    assert h.run() == []
    assert h.cli("resolve", "--game", "hn1")[0] == 1

    code, out = h.cli("publish", "--game", "hn1", "--reason", "Würfel geprüft")
    assert code == 0, out
    published = h.run()
    results = [m for m in published if words["result"] in m["Subject"]]
    assert sorted(m["To"] for m in results) == sorted(PLAYERS)
    for mail in results:
        assert words["reason"] in h.prose(mail)
        preview = next(p for p in previews if mail["To"] in h.body(p))
        report = h.body(mail).split("\n\n")[1]  # the first paragraph after the greeting
        assert report in h.body(preview)
    row = game_row(h)
    assert row["preview_of"] is None
    assert all(p["owes_orders"] for p in status(h, "hn1")["players"])  # phase 2 has begun
    assert datetime.fromisoformat(str(row["phase_started_at"])) == h.now
    assert datetime.fromisoformat(str(row["deadline_at"])) >= h.now + timedelta(days=2)


@pytest.mark.parametrize(
    "command",
    [
        ["extend", "--by", "1d"],  # the next deadline is counted from the publication
        ["extend", "--until", "2026-12-24T18:00"],
        ["remove-player", "--player", "Pech"],
        ["end"],
        ["resolve"],
    ],
)
def test_while_a_preview_waits_what_would_tell_the_players_a_new_state_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    h, _ = previewed(tmp_path, "de")
    before = game_row(h)
    code, out = h.cli(command[0], "--game", "hn1", *command[1:])
    assert code == 1
    assert "publish" in out + capsys.readouterr().err  # what to do instead
    assert h.run() == []
    assert game_row(h) == before


@pytest.mark.parametrize("lang", ["de", "en"])
def test_discarding_a_preview_goes_back_to_the_phase_with_or_without_its_orders(
    tmp_path: Path, lang: str
) -> None:
    words = WORDS[lang]
    h, _ = previewed(tmp_path, lang)
    # kept orders complete the round again at once (resolve_early): the same preview
    assert h.cli("rollback", "--game", "hn1")[0] == 0
    mails = h.run()
    assert len(subjects(mails, BOSS)) == 4 and game_row(h)["preview_of"] == 1
    assert len([m for m in mails if words["rolled_back"] in m["Subject"]]) == 4

    code, out = h.cli("rollback", "--game", "hn1", "--drop-orders", "--reason", "Würfel geprüft")
    assert code == 0, out
    notices = h.run()
    assert sorted(m["To"] for m in notices) == sorted(PLAYERS)
    assert all(words["reason"] in h.prose(m) for m in notices)
    row = game_row(h)
    assert row["phase"] == 1 and row["preview_of"] is None and row["deadline_at"] is not None
    assert not any(p["orders_in"] for p in status(h, "hn1")["players"])
    show = h.cli("show", "--game", "hn1", "--phase", "1")[1]
    assert show.count("VOID: rolled back to phase 1") == 2


@pytest.mark.parametrize("lang", ["de", "en"])
def test_resigning_takes_a_confirmation_within_a_day(tmp_path: Path, lang: str) -> None:
    words = WORDS[lang]
    h = club(tmp_path, lang, preview=False)
    code = h.code("hn1", "A. Langsam")

    def anna(text: str) -> list[EmailMessage]:
        h.send("anna@example.org", f"Code: {code}\n{text}", subject="[hn1]")
        return h.run()

    (asked,) = anna(words["resign"])
    assert words["asked"] in asked["Subject"] and words["confirm"] in h.body(asked)
    h.advance(hours=25)
    (late,) = anna(words["confirm"])  # too late: nothing happens
    assert words["asked"] in late["Subject"] and not h.finished("hn1")
    assert words["resign"] in h.body(late)
    anna(words["resign"])
    h.advance(hours=2)
    mails = anna(words["confirm"])
    assert subjects(mails, "anna@") == [f"[hn1] {words['confirmed']}"]
    left = [m for m in mails if words["left"] in m["Subject"]]
    assert sorted(m["To"] for m in left) == sorted(PLAYERS[:3])
    assert "A. Langsam" in h.prose(left[0])
    assert status(h, "hn1")["players"][3]["owes_orders"]  # High Noon: out from the next round
    assert h.cli("resolve", "--game", "hn1")[0] == 0
    h.run()
    assert not status(h, "hn1")["players"][3]["owes_orders"]
    (refused,) = anna(words["resign"])  # out now: nothing to resign from
    assert words["asked"] not in refused["Subject"]


@pytest.mark.parametrize(
    ("command", "expect"),
    [
        (["publish", "--reason", "ok"], "Ergebnisse"),
        (["rollback", "--drop-orders"], "Spiel zurückgesetzt"),
        (["remove-player", "--player", "Langsam"], "Ein Spieler hat das Spiel verlassen"),
        (["end", "--reason", "Saisonende"], "Spiel beendet"),
    ],
)
def test_every_season_command_acts_on_a_running_daemon_within_a_second(
    tmp_path: Path, command: list[str], expect: str
) -> None:
    h = club(tmp_path, "de", preview=command[0] in ("publish", "rollback"), now=datetime.now(UTC))
    if h.database.exists() and command[0] in ("publish", "rollback"):
        send_examples(h, "highnoon", "de", "hn1")
        h.run()
        assert game_row(h)["preview_of"] == 1

    async def scenario() -> float:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(0.5)  # the loop is waiting now
        before = h.count_sent(expect, "@example.org")
        code, out = await asyncio.to_thread(h.cli, command[0], "--game", "hn1", *command[1:])
        assert code == 0, out
        took = await until(lambda: h.count_sent(expect, "@example.org") > before)
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)
        return took

    assert asyncio.run(scenario()) < 1.5


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_season_mails_are_golden_fit_in_78_columns_and_speak_one_language(
    tmp_path: Path, lang: str
) -> None:
    """One of each new mail, as its recipient reads it: the preview the GM gets, the notice
    of a rollback, the question and the confirmation of a resignation, the notice to the
    others, and the end of the game."""
    words = WORDS[lang]
    h, mails = previewed(tmp_path, lang)
    kept: dict[str, EmailMessage] = {}
    kept["preview"] = next(m for m in mails if m["To"] == BOSS)
    h.cli("rollback", "--game", "hn1", "--drop-orders", "--reason", "Würfel geprüft")
    kept["rolled-back"] = h.run()[0]
    code = h.code("hn1", "A. Langsam")
    h.send("anna@example.org", f"Code: {code}\n{words['resign']}", subject="[hn1]")
    (kept["resign-asked"],) = h.run()
    h.send("anna@example.org", f"Code: {code}\n{words['confirm']}", subject="[hn1]")
    mails = h.run()
    kept["resigned"] = next(m for m in mails if "anna@" in m["To"])
    kept["player-left"] = next(m for m in mails if "egon@" in m["To"])
    h.cli("end", "--game", "hn1", "--reason", "Saisonende")
    kept["ended"] = next(m for m in h.run() if "egon@" in m["To"])
    for label, message in kept.items():
        assert problems(message, lang) == [], label
        path = GOLDEN / f"season-{lang}" / f"{label}.txt"
        text = h.golden_text(message, {}).replace(str(h.config_path), "/etc/gm-daemon/gm.toml")
        check_golden(path, text)


def test_the_season_notices_speak_each_players_language_and_reach_observers(
    tmp_path: Path,
) -> None:
    """A German game with one English player and an English observer: rollback, a player
    leaving and the end reach everyone, each in his language; the observer never gets a
    player's private part (his hand, his budget), only what happened and the deadline."""
    game = (
        GAME.replace('email = "anna@example.org"', 'email = "anna@example.org"\nlanguage = "en"')
        + '\n[[games.observers]]\nname = "Chronist"\nemail = "chronik@club.test"\nlanguage = "en"\n'
    )
    h = DaemonHarness(tmp_path, game, now=START)
    h.run()
    assert h.cli("resolve", "--game", "hn1")[0] == 0
    h.run()
    steps = [
        (["rollback", "--to-phase", "1"], "Spiel zurückgesetzt", "Game rolled back"),
        (["remove-player", "--player", "Pech"], "Ein Spieler hat", "A player has left the game"),
        (["end"], "Spiel beendet", "Game over"),
    ]  # fmt: skip
    for command, german, english in steps:
        assert h.cli(command[0], "--game", "hn1", *command[1:])[0] == 0
        mails = {m["To"]: m for m in h.run()}
        assert german in mails["egon@example.org"]["Subject"]
        assert english in mails["anna@example.org"]["Subject"]
        observed = mails["chronik@club.test"]
        assert english in observed["Subject"]
        assert "Your budget" not in h.body(observed) and "Ihr Budget" not in h.body(observed)
        assert "orders" not in h.prose(observed).lower()  # he sends none: nothing said of them
        if command[0] == "remove-player":  # status says why he is still listed
            (pech,) = [line for line in h.cli("status")[1].splitlines() if "V. Pech" in line]
            assert pech.endswith("(left: removed in phase 1)"), pech
        if command[0] == "rollback":
            assert "Befehle, die Sie für" in h.prose(mails["egon@example.org"])
            assert "Orders you had sent" in h.prose(mails["anna@example.org"])
    assert phrase("en", "ranking") in h.body(observed)  # the end tells the observer the ranking
    assert "V. Pech" in h.body(observed)  # who left stays in it


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_player_the_gm_renames_is_read_and_reported_by_his_new_name(
    tmp_path: Path, lang: str
) -> None:
    """The config's new name, the player's id kept (docs/config.md: name and address may
    change): the status names him so, and after a rollback to a phase stored with his old
    name (round 1, resolved before the rename) orders naming him so are taken and the
    results name him so."""
    h = club(tmp_path, lang, preview=False)
    assert h.cli("resolve", "--game", "hn1")[0] == 0
    h.run()
    game = GAME.replace('language = "de"', f'language = "{lang}"')
    renamed = game.replace('name = "V. Pech"', 'name = "V. Pech-Meier"\nid = "v-pech"')
    h.write_config(renamed, extra_toml=f'gm_address = "{BOSS}"')
    h.run()
    assert "V. Pech-Meier" in h.cli("status")[1]
    assert h.cli("rollback", "--game", "hn1", "--to-phase", "1")[0] == 0
    stored = json.loads(h.cli("status", "--json", "--game", "hn1")[1])["games"][0]["state"]
    assert "V. Pech-Meier" in [p["name"] for p in stored["players"]]
    h.run()
    code = h.code("hn1", "H. Glück")
    h.send("hans@example.org", f"Code: {code}\nPech-Meier: 4, 1", subject="[hn1]")
    (answer,) = h.run()
    assert "V. Pech-Meier: 4, 1" in h.prose(answer).replace("vs ", "").replace("gegen ", "")
    assert h.cli("resolve", "--game", "hn1")[0] == 0
    results = [m for m in h.run() if m["To"] != BOSS]
    assert len(results) == 4
    assert all("V. Pech-Meier" in h.body(m) and "V. Pech\n" not in h.body(m) for m in results)


def test_the_player_a_turn_passes_to_when_one_leaves_gets_a_turns_time(tmp_path: Path) -> None:
    """Hornberg skips a player who leaves at once: when he was on turn, the next player's
    turn begins now, with the whole 48 h, not the hour the other had left."""
    settings, _play, seats = GAMES["hornberg"]
    h = DaemonHarness(tmp_path, games_toml("hornberg", "de", settings, seats))
    h.run()
    (on_turn,) = [p for p in status(h, "g")["players"] if p["owes_orders"]]
    h.advance(hours=47)
    assert h.cli("remove-player", "--game", "g", "--player", on_turn["name"])[0] == 0
    game = status(h, "g")
    (next_on_turn,) = [p["name"] for p in game["players"] if p["owes_orders"]]
    assert next_on_turn != on_turn["name"]
    deadline = datetime.fromisoformat(game["deadline"])
    assert deadline - h.clock() == timedelta(hours=48)
    told = [m for m in h.run() if "Ein Spieler hat das Spiel verlassen" in m["Subject"]]
    assert told and all(
        f"{deadline.astimezone(ZoneInfo('Europe/Berlin')):%Y-%m-%d %H:%M}" in h.prose(m)
        for m in told
    )
