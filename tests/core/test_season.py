"""A GM's season tools through the daemon on Maildir (issue 21, items 2-6): several
reminders, a language per player, observers, announcements and the GM's reasons, each in
German and English, on the test-only "guess" game. The same tools on every real game kind:
``tests/test_season_kinds.py``."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest

from gm_daemon.daemon import Daemon
from tests.core import guessgame
from tests.daemon_harness import DaemonHarness, until

ANNA, BERT, CARL, OLGA = (
    "anna@players.test",
    "bert@players.test",
    "carl@players.test",
    "olga@watch.test",
)


def games(
    lang: str = "de",
    reminder: str = '"12h"',
    anna: str = "",
    observers: str = "",
    game_id: str = "g1",
) -> str:
    """A three-player guess game; ``anna`` and ``observers`` add TOML to Anna's table and
    after the players."""
    return f"""
[[games]]
id = "{game_id}"
kind = "guess"
language = "{lang}"
reminder = {reminder}

[games.deadlines]
every = "3d"

[[games.players]]
name = "Anna Alt"
email = "{ANNA}"
code = "ANNA-1111"
{anna}

[[games.players]]
name = "Bert Bär"
email = "{BERT}"
code = "BERT-2222"

[[games.players]]
name = "Carl Cäsar"
email = "{CARL}"
code = "CARL-3333"
{observers}
"""


OBSERVER = f"""
[[games.observers]]
name = "Olga Obacht"
email = "{OLGA}"
"""

# What each language says, as the phrase catalogue and the templates have it.
WORDS = {
    "de": {
        "reminder": "Erinnerung",
        "welcome": "Willkommen",
        "results": "Ergebnisse",
        "accepted": "angenommen",
        "announcement": "Mitteilung des Spielleiters",
        "reason": "Begründung des Spielleiters: „{}“",
        "observer": "Beobachter senden keine Befehle",
        "paused_mails": "Mails, die während der Pause kamen, habe ich nicht ausgewertet",
        "yours": "Von Ihnen kamen in der Pause {} solche Mails.",
        "yours_one": "Von Ihnen kam in der Pause eine solche Mail.",
        "deadline_moved": "Neuer Abgabetermin",
        "replaced_others": "Der Spielleiter hat für Carl Cäsar eine neue Adresse eingetragen",
        "hello": "Hallo",
    },
    "en": {
        "reminder": "Reminder",
        "welcome": "Welcome",
        "results": "results",
        "accepted": "accepted",
        "announcement": "A message from the game master",
        "reason": 'The GM\'s reason: "{}"',
        "observer": "Observers send no orders",
        "paused_mails": "Mails that came during the pause were not read",
        "yours": "{} such mails came from you during the pause.",
        "yours_one": "One such mail came from you during the pause.",
        "deadline_moved": "New deadline",
        "replaced_others": "The game master has given Carl Cäsar a new address",
        "hello": "Hello",
    },
}
OTHER = {"de": "en", "en": "de"}
LANGS = ["de", "en"]


def deadline(h: DaemonHarness, game_id: str = "g1") -> datetime:
    _, out = h.cli("status", "--json", "--game", game_id)
    return datetime.fromisoformat(json.loads(out)["games"][0]["deadline"])


def to(mails: list[EmailMessage]) -> list[str]:
    return sorted(m["To"] for m in mails)


# --- 2. several reminders ----------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_each_reminder_goes_once_to_those_who_still_owe_orders(tmp_path, lang: str) -> None:
    h = DaemonHarness(tmp_path, games(lang, reminder='["48h", "6h"]'))
    h.run()
    end = deadline(h)
    h.send(BERT, "Code: BERT-2222\n5")
    h.run()
    h.now = end - timedelta(hours=48, minutes=1)
    assert h.run() == []
    h.now = end - timedelta(hours=48) + timedelta(minutes=1)
    first = h.run()  # every run is a new daemon: what was sent is in the store
    assert to(first) == [ANNA, CARL]
    assert all(WORDS[lang]["reminder"] in m["Subject"] for m in first)
    assert h.run() == []
    h.send(CARL, "Code: CARL-3333\n7")
    assert [m["To"] for m in h.run()] == [CARL]  # the acknowledgement
    h.now = end - timedelta(hours=6, minutes=1)
    assert h.run() == []
    h.now = end - timedelta(hours=6) + timedelta(minutes=1)
    second = h.run()
    assert to(second) == [ANNA]
    assert h.run() == []
    h.now = end + timedelta(seconds=1)
    assert all(WORDS[lang]["results"] in m["Subject"] for m in h.run())


def test_reminders_due_together_make_one_mail_and_a_new_phase_has_its_own(tmp_path) -> None:
    h = DaemonHarness(tmp_path, games("de", reminder='["48h", "6h"]'))
    h.run()
    end = deadline(h)
    h.now = end - timedelta(hours=5)  # the daemon was down over both moments
    assert to(h.run()) == [ANNA, BERT, CARL]
    assert h.run() == []
    h.now = end + timedelta(seconds=1)
    h.run()
    end = deadline(h)
    h.now = end - timedelta(hours=47)
    assert to(h.run()) == [ANNA, BERT, CARL]  # round 2's first reminder


def test_a_moved_deadline_moves_the_reminders_not_yet_sent(tmp_path) -> None:
    h = DaemonHarness(tmp_path, games("en", reminder='["48h", "6h"]'))
    h.run()
    end = deadline(h)
    h.now = end - timedelta(hours=47)
    assert len(h.run()) == 3
    assert h.cli("extend", "--game", "g1", "--by", "2d")[0] == 0
    assert len(h.run()) == 3  # the notices of the new deadline
    h.now = end + timedelta(hours=1)  # the first reminder's lead before the new deadline
    assert h.run() == []  # it was sent for this phase already
    h.now = end + timedelta(days=2, hours=-6, minutes=1)
    assert to(h.run()) == [ANNA, BERT, CARL]


# --- 3. a language per player ------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_a_player_gets_every_mail_in_his_own_language(tmp_path, lang: str, monkeypatch) -> None:
    own = OTHER[lang]
    h = DaemonHarness(tmp_path, games(lang, anna=f'language = "{own}"'))
    welcome = {m["To"]: m for m in h.run()}
    assert WORDS[own]["welcome"] in welcome[ANNA]["Subject"]
    assert WORDS[lang]["welcome"] in welcome[BERT]["Subject"]
    assert h.body(welcome[ANNA]).startswith(WORDS[own]["hello"] + " Anna Alt")

    h.send(ANNA, "HILFE" if own == "de" else "HELP")
    (help_mail,) = h.run()
    assert help_mail["To"] == ANNA and h.body(help_mail).startswith(WORDS[own]["hello"])
    h.send(ANNA, "Code: ANNA-1111\n17")
    (ack,) = h.run()
    assert WORDS[own]["accepted"] in ack["Subject"]
    h.send(ANNA, "Code: ANNA-1111\nzwölf")
    (rejected,) = h.run()
    assert ("keine Zahl" if own == "de" else "not a number") in h.body(rejected)
    h.send(ANNA, "Code: FALSCH\n17")
    (bad_code,) = h.run()
    assert ("nicht Ihr persönlicher Code" if own == "de" else "not your personal code") in h.body(
        bad_code
    )

    h.advance(days=2, hours=12, minutes=1)
    assert to(h.run()) == [BERT, CARL]  # the reminders: Anna's orders are in
    calls: list[str] = []
    report = guessgame.GuessGame.report

    def counted(self, before, resolution, lang):  # type: ignore[no-untyped-def]
        calls.append(lang)
        return report(self, before, resolution, lang)

    monkeypatch.setattr(guessgame.GuessGame, "report", counted)
    h.advance(days=1)
    results = {m["To"]: m for m in h.run()}
    assert WORDS[own]["results"] in results[ANNA]["Subject"]
    assert WORDS[lang]["results"] in results[BERT]["Subject"]
    assert WORDS[lang]["results"] in results[CARL]["Subject"]
    assert sorted(calls) == sorted([lang, own])  # once per language, not once per player


def test_the_reminder_speaks_the_players_language(tmp_path) -> None:
    h = DaemonHarness(tmp_path, games("de", anna='language = "en"'))
    h.run()
    h.advance(days=2, hours=12, minutes=1)
    reminders = {m["To"]: m for m in h.run()}
    assert "Reminder" in reminders[ANNA]["Subject"]
    assert "Erinnerung" in reminders[BERT]["Subject"]


# --- 4. observers ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_an_observer_follows_the_game_and_sees_nothing_private(tmp_path, lang: str) -> None:
    h = DaemonHarness(tmp_path, games(lang, observers=OBSERVER))
    welcome = {m["To"]: m for m in h.run()}
    assert set(welcome) == {ANNA, BERT, CARL, OLGA}
    olga = h.body(welcome[OLGA])
    assert WORDS[lang]["welcome"] in welcome[OLGA]["Subject"] and "Olga Obacht" in olga
    assert "Code" not in olga and "secret for" not in olga
    assert "ANNA-1111" not in olga and "Anna Alt" in olga and "Carl Cäsar" in olga
    assert "sha256" in olga  # the same promise as the players'

    h.send(OLGA, "17", subject="[g1] Tipp")
    (answer,) = h.run()
    assert answer["To"] == OLGA and WORDS[lang]["observer"] in answer["Subject"]
    h.send(OLGA, "Code: ANNA-1111\n17", subject="Re: [g1] Ergebnisse")
    assert h.run() == []  # told once, not on every mail

    h.send(ANNA, "Code: ANNA-1111\n17")
    h.run()
    h.advance(days=3, minutes=1)
    results = {m["To"]: m for m in h.run()}
    assert set(results) == {ANNA, BERT, CARL, OLGA}
    assert WORDS[lang]["results"] in results[OLGA]["Subject"]
    public = h.body(results[OLGA])
    assert "target" in public and "Anna Alt: " in public
    assert set(h.attachments(results[OLGA])) == {"g1-1.json"}
    assert h.phase("g1") == 2  # Olga's mails were no orders


def test_an_observer_in_his_own_language_and_one_added_later(tmp_path) -> None:
    late = OBSERVER.replace("Olga Obacht", "Otto Spät").replace(OLGA, "otto@watch.test")
    h = DaemonHarness(tmp_path, games("de", observers=OBSERVER + 'language = "en"\n'))
    (olga,) = [m for m in h.run() if m["To"] == OLGA]
    assert "Welcome" in olga["Subject"] and "observer" in h.body(olga)
    h.write_config(games("de", observers=OBSERVER + 'language = "en"\n' + late))
    (otto,) = h.run()
    assert otto["To"] == "otto@watch.test" and "Willkommen" in otto["Subject"]
    assert h.run() == []  # welcomed once


def test_an_address_cannot_play_and_observe(tmp_path, capsys) -> None:
    h = DaemonHarness(tmp_path, games(observers=OBSERVER.replace(OLGA, BERT)))
    assert h.cli("check")[0] == 78  # EX_CONFIG, as every config problem
    err = capsys.readouterr().err
    assert f"games[0].observers: observers[0]: {BERT} plays in this game" in err


# --- 5. announcements ----------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_an_announcement_reaches_every_player_and_observer_in_the_thread(
    tmp_path, lang: str
) -> None:
    h = DaemonHarness(tmp_path, games(lang, anna=f'language = "{OTHER[lang]}"', observers=OBSERVER))
    h.run()
    text = "Wegen der Feiertage gilt ab Runde 2 ein Abgabetermin am Montag.\nGrüße, Jörg"
    code, out = h.cli("announce", "--game", "g1", "--text", text)
    assert code == 0 and "g1: message queued for 4 recipient(s)" in out
    mails = {m["To"]: m for m in h.run()}
    assert set(mails) == {ANNA, BERT, CARL, OLGA}
    for address, mail in mails.items():
        mail_lang = OTHER[lang] if address == ANNA else lang
        assert mail["Subject"] == f"[g1] {WORDS[mail_lang]['announcement']}"
        assert "<game.g1@gm.test>" in mail["References"]  # in the game's thread
        assert text in h.body(mail)
    assert h.run() == []


def test_announce_from_a_file_and_to_every_running_game(tmp_path) -> None:
    both = games("de") + games("en", game_id="g2").replace("@players.test", "@two.test")
    h = DaemonHarness(tmp_path, both)
    h.run()
    message = tmp_path / "message.txt"
    message.write_text("Das Clubtreffen fällt aus.\n", encoding="utf-8")
    code, out = h.cli("announce", "--all", "--file", str(message))
    assert code == 0 and "g1: message" in out and "g2: message" in out
    mails = h.run()
    assert len(mails) == 6
    assert {m["Subject"] for m in mails} == {
        "[g1] Mitteilung des Spielleiters",
        "[g2] A message from the game master",
    }
    assert all("Das Clubtreffen fällt aus." in h.body(m) for m in mails)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "g1", "--text", "  "], "the message is empty"),
        (["--game", "g1", "--file", "/nonexistent/m.txt"], "cannot read /nonexistent/m.txt"),
        (["--game", "g9", "--text", "Hallo"], "no game 'g9'"),
    ],
)
def test_announce_refuses_what_it_cannot_send(tmp_path, capsys, args, message) -> None:
    h = DaemonHarness(tmp_path, games())
    h.run()
    assert h.cli("announce", *args)[0] == 1
    assert message in capsys.readouterr().err
    assert h.run() == []


def test_a_running_daemon_sends_an_announcement_within_a_second(tmp_path) -> None:
    h = DaemonHarness(tmp_path, games("en", observers=OBSERVER), now=datetime.now(UTC))

    async def scenario() -> float:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        await until(lambda: h.count_sent("Welcome") >= 4)
        await asyncio.sleep(0.5)  # the loop is waiting now
        code, _ = await asyncio.to_thread(h.cli, "announce", "--game", "g1", "--text", "Hi")
        assert code == 0
        took = await until(lambda: h.count_sent("A message from") >= 4)
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)
        return took

    assert asyncio.run(scenario()) < 1.5


# --- 6. the GM's reasons -------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_every_override_quotes_the_gms_reason(tmp_path, lang: str) -> None:
    h = DaemonHarness(tmp_path, games(lang, observers=OBSERVER))
    h.run()
    quoted = WORDS[lang]["reason"]

    assert h.cli("extend", "--game", "g1", "--by", "1d", "--reason", "Weihnachtsferien")[0] == 0
    moved = h.run()
    assert to(moved) == [ANNA, BERT, CARL, OLGA]
    assert all(WORDS[lang]["deadline_moved"] in m["Subject"] for m in moved)
    assert all(quoted.format("Weihnachtsferien") in h.prose(m) for m in moved)

    assert h.cli("pause", "--game", "g1", "--reason", "Serverumzug")[0] == 0
    assert all(quoted.format("Serverumzug") in h.prose(m) for m in h.run())
    h.send(ANNA, "Code: ANNA-1111\n17")
    h.send(ANNA, "Code: ANNA-1111\n18")
    h.send(BERT, "Code: BERT-2222\n19")
    assert len(h.run()) == 3  # each refused: the game is paused
    assert h.cli("resume", "--game", "g1", "--reason", "Server läuft wieder")[0] == 0
    resumed = {m["To"]: h.prose(m) for m in h.run()}
    assert set(resumed) == {ANNA, BERT, CARL, OLGA}
    for address, body in resumed.items():
        assert quoted.format("Server läuft wieder") in body
        assert (WORDS[lang]["paused_mails"] in body) == (address != OLGA)  # he sends no orders
        assert (WORDS[lang]["yours"].format(2) in body) == (address == ANNA)
        assert (WORDS[lang]["yours_one"] in body) == (address == BERT)

    new = "carl@new.test"
    code, _ = h.cli(
        "replace-player", "--game", "g1", "--player", "Carl", "--email", new, "--reason", "Umzug"
    )
    assert code == 0
    replaced = {m["To"]: h.prose(m) for m in h.run()}
    assert set(replaced) == {ANNA, BERT, new, OLGA}
    assert "CARL-3333" in replaced[new] and quoted.format("Umzug") in replaced[new]
    for address in (ANNA, BERT, OLGA):
        assert WORDS[lang]["replaced_others"] in replaced[address]
        assert quoted.format("Umzug") in replaced[address] and new not in replaced[address]


def test_without_a_reason_the_notice_says_none(tmp_path) -> None:
    h = DaemonHarness(tmp_path, games("de"))
    h.run()
    assert h.cli("extend", "--game", "g1", "--by", "1d", "--reason", "   ")[0] == 0
    mails = h.run()
    assert len(mails) == 3 and not any("Begründung" in h.body(m) for m in mails)
    assert (
        h.cli("replace-player", "--game", "g1", "--player", "Carl", "--email", "c@n.test")[0] == 0
    )
    assert [m["To"] for m in h.run()] == ["c@n.test"]  # no reason: only he is written to


@pytest.mark.parametrize(
    ("address", "said"),
    [
        (BERT.upper(), f"{BERT} is Bert Bär's address in g1; every player needs his own"),
        (OLGA, f"{OLGA} observes g1 (Olga Obacht); an address cannot play and observe"),
    ],
    ids=["another player's", "an observer's"],
)
def test_replace_player_keeps_the_configs_rules_for_addresses(
    tmp_path, capsys, address: str, said: str
) -> None:
    """As the config refuses two players with one address, or a player who observes, so
    does ``replace-player``: one mail would be the orders of two seats."""
    h = DaemonHarness(tmp_path, games("de", observers=OBSERVER))
    h.run()
    assert h.cli("replace-player", "--game", "g1", "--player", "Anna", "--email", address)[0] == 1
    assert said in capsys.readouterr().err
    assert h.run() == []  # nobody told of anything
    assert ANNA in h.cli("status")[1]
