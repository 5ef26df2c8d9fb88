"""A season with a club (issue 21 items 1, 7 and 12), through the daemon on Maildir, in
German and English: absences announced by mail move the deadlines of phases that begin
after them; a game starts at its configured moment and not before; the GM hears of a player
who keeps missing his orders, and of a game nobody plays any more, once each."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import shlex
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from gm_daemon import gm_notices
from gm_daemon.absences import AbsenceProblem, read_request, shift
from gm_daemon.cli import main as cli_main
from gm_daemon.daemon import Daemon
from gm_daemon.store import AbsenceRow
from tests.daemon_harness import DaemonHarness, until

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)  # Tue 12:00 in Berlin; deadlines every 2 days
ANNA, BERT = "anna@players.test", "bert@players.test"
BOSS = "boss@club.test"


def game(lang: str, extra: str = "", absences: str = "") -> str:
    return f"""
[[games]]
id = "g1"
kind = "guess"
language = "{lang}"
{extra}
options = {{ rounds = 6 }}

[games.deadlines]
every = "2d"
{absences}
[[games.players]]
name = "Anna Alt"
email = "{ANNA}"
code = "ANNA-1111"

[[games.players]]
name = "Bert Bär"
email = "{BERT}"
code = "BERT-2222"
"""


def harness(tmp_path, lang: str, **kw: str) -> DaemonHarness:
    h = DaemonHarness(tmp_path, game(lang, **kw), now=NOW, extra_toml=f'gm_address = "{BOSS}"\n')
    h.run()  # the welcomes
    return h


WORD = {"de": "ABWESEND", "en": "ABSENT"}
TO = {"de": "bis", "en": "to"}
CANCEL = {"de": "LOESCHEN", "en": "CANCEL"}
MOVED = {"de": "wegen einer angemeldeten Abwesenheit", "en": "because of an announced absence"}
# the usage's example: a week from today (NOW), a week long (the default max_days is 14)
USAGE = {"de": "ABWESEND 2026-12-08 bis 2026-12-14", "en": "ABSENT 2026-12-08 to 2026-12-14"}
TAKEN = {"de": "ist eingetragen", "en": "is noted"}


def absent(h: DaemonHarness, lang: str, args: str = "", who: str = ANNA) -> str:
    """One ABWESEND mail from ``who``; the body of the answer."""
    code = "ANNA-1111" if who == ANNA else "BERT-2222"
    h.send(who, f"Code: {code}\n{WORD[lang]} {args}".rstrip(), subject="[g1] absent")
    (answer,) = h.run()
    assert answer["To"] == who and "[g1]" in answer["Subject"]
    return h.prose(answer)


def deadline(h: DaemonHarness) -> str:
    return json.loads(h.cli("status", "--json", "--game", "g1")[1])["games"][0]["deadline"]


# --- absences: the pure rules ---------------------------------------------------------------
def row(first: str, last: str, n: int = 1) -> AbsenceRow:
    return AbsenceRow(
        n, "g1", "anna", date.fromisoformat(first), date.fromisoformat(last), NOW, None
    )


@pytest.mark.parametrize(
    ("deadline_local", "absences", "moved_to"),
    [
        ("2026-12-05T18:00", [("2026-12-04", "2026-12-06")], "2026-12-07T18:00"),
        ("2026-12-05T18:00", [("2026-12-06", "2026-12-08")], "2026-12-05T18:00"),  # before it
        ("2026-12-04T18:00", [("2026-12-04", "2026-12-04")], "2026-12-05T18:00"),  # one day
        # a second absence catches the moved deadline: it moves on
        ("2026-12-05T18:00", [("2026-12-04", "2026-12-06"), ("2026-12-07", "2026-12-09")],
         "2026-12-10T18:00"),
        # the local time stays across the change to summer time
        ("2027-03-27T18:00", [("2027-03-27", "2027-03-28")], "2027-03-29T18:00"),
    ],
)  # fmt: skip
def test_a_deadline_inside_an_absence_moves_to_the_same_time_the_day_after(
    deadline_local: str, absences: list[tuple[str, str]], moved_to: str
) -> None:
    rows = [row(first, last, n) for n, (first, last) in enumerate(absences, 1)]
    planned = datetime.fromisoformat(deadline_local).replace(tzinfo=BERLIN)
    moved, causes = shift(planned.astimezone(UTC), rows, BERLIN)
    assert moved.astimezone(BERLIN).replace(tzinfo=None) == datetime.fromisoformat(moved_to)
    assert bool(causes) == (moved_to != deadline_local)


@pytest.mark.parametrize(
    ("args", "action", "first", "last"),
    [
        ("", "list", None, None),
        ("LÖSCHEN", "cancel", None, None),
        ("loeschen", "cancel", None, None),
        ("Cancel", "cancel", None, None),
        ("2026-12-20 bis 2027-01-06", "add", "2026-12-20", "2027-01-06"),
        ("2026-12-20 to 2027-01-06", "add", "2026-12-20", "2027-01-06"),
        ("20.12.2026 - 6.1.2027", "add", "2026-12-20", "2027-01-06"),
        ("2026-12-24", "add", "2026-12-24", "2026-12-24"),
    ],
)
def test_the_absence_line_is_read(args: str, action: str, first: str | None, last: str | None):
    request = read_request(args)
    assert request.action == action
    assert str(request.first) == str(first) and str(request.last) == str(last)


@pytest.mark.parametrize(
    ("args", "key"),
    [
        ("2026-12-32 bis 2027-01-02", "absence_bad_date"),
        ("nächste Woche", "absence_malformed"),
        ("2026-12-20 und 2027-01-06", "absence_malformed"),
    ],
)
def test_a_malformed_absence_line_is_named(args: str, key: str) -> None:
    with pytest.raises(AbsenceProblem) as caught:
        read_request(args)
    assert caught.value.key == key


# --- absences through the daemon ---------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_absence_moves_the_next_phase_only_and_every_player_is_told_why(tmp_path, lang):
    h = harness(tmp_path, lang)
    first_deadline = deadline(h)
    assert first_deadline == "2026-12-03T12:00:00+01:00"
    answer = absent(h, lang, f"2026-12-02 {TO[lang]} 2026-12-06")
    assert "2026-12-02" in answer and "2026-12-06" in answer
    # the running phase began before the absence was known: its deadline stays, and he is told
    assert "Do 2026-12-03 12:00" in answer if lang == "de" else "Thu 2026-12-03 12:00" in answer
    assert deadline(h) == first_deadline
    h.advance(days=2)
    results = [m for m in h.run() if m["To"] != BOSS]  # the GM hears nobody played
    assert sorted(m["To"] for m in results) == [ANNA, BERT]
    # the next deadline would be Sat 12-05 12:00, inside the absence: Mon 12-07 12:00
    assert deadline(h) == "2026-12-07T12:00:00+01:00"
    for mail in results:
        text = h.prose(mail)
        assert MOVED[lang] in text
        assert "2026-12-05 12:00" in text and "2026-12-07 12:00" in text
        assert "Anna Alt (2026-12-02" not in text  # whose absence is not said
    # STAND/STATUS says so too
    h.send(BERT, f"Code: BERT-2222\n{'STAND' if lang == 'de' else 'STATUS'}", subject="[g1]")
    (status,) = h.run()
    assert MOVED[lang] in h.prose(status)
    # a reload keeps the moved deadline (the absence was known when the phase began)
    h.advance(hours=1)
    assert h.run() == [] and deadline(h) == "2026-12-07T12:00:00+01:00"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_public_absence_names_the_absent_player(tmp_path, lang):
    h = harness(tmp_path, lang, absences="\n[games.absences]\npublic = true\n")
    absent(h, lang, f"2026-12-04 {TO[lang]} 2026-12-06")
    h.advance(days=2)
    for mail in h.run()[:2]:
        assert f"Anna Alt (2026-12-04 {TO[lang]} 2026-12-06)" in h.prose(mail)


BAD = [
    # (args, German answer, English answer): what was wrong and what would be right
    ("2026-12-20 {to} 2026-12-10", "endet (2026-12-10) vor ihrem Beginn (2026-12-20)",
     "ends (2026-12-10) before it begins (2026-12-20)"),
    ("2026-12-02 {to} 2026-12-30", "höchstens 14 Tage erlaubt, ab dem 2026-12-02 also bis zum "
     "2026-12-15", "at most 14, so from 2026-12-02 until 2026-12-15"),
    ("2026-11-20 {to} 2026-11-25", "Der 2026-11-20 liegt in der Vergangenheit; eine Abwesenheit "
     "beginnt frühestens heute (2026-12-01)", "2026-11-20 has passed; an absence begins today "
     "(2026-12-01) at the earliest"),
    ("2026-12-32 {to} 2027-01-02", "„2026-12-32“ ist kein Datum", '"2026-12-32" is not a date'),
    ("nächste Woche", "„ABWESEND nächste Woche“ habe ich nicht verstanden",
     'I did not understand "ABSENT nächste Woche"'),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("args", "de", "en"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_absence_is_answered_with_what_would_be_right(tmp_path, lang, args, de, en):
    h = harness(tmp_path, lang)
    answer = absent(h, lang, args.format(to=TO[lang]))
    assert (de if lang == "de" else en) in answer
    assert USAGE[lang] in answer
    assert h.cli("absences", "--game", "g1")[1].endswith("0 absence(s) announced in g1\n")
    # the usage's example, sent back as it stands, is taken
    assert TAKEN[lang] in absent(h, lang, USAGE[lang].removeprefix(WORD[lang]))


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("max_days", "example"), [(14, "2026-12-08 {to} 2026-12-14"),
                                                   (3, "2026-12-08 {to} 2026-12-10"),
                                                   (1, "2026-12-08 {to} 2026-12-08")])  # fmt: skip
def test_the_usage_example_fits_the_games_limit(tmp_path, lang, max_days, example):
    h = harness(tmp_path, lang, absences=f"\n[games.absences]\nmax_days = {max_days}\n")
    listed = absent(h, lang)
    example = example.format(to=TO[lang])
    assert f"{WORD[lang]} {example}" in listed and "8.12.2026" in listed
    assert TAKEN[lang] in absent(h, lang, example)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_absences_are_listed_limited_and_cancelled(tmp_path, lang):
    h = harness(tmp_path, lang, absences="\n[games.absences]\nmax_per_player = 2\n")
    assert ("keine Abwesenheit" if lang == "de" else "no absence") in absent(h, lang)
    absent(h, lang, f"2026-12-10 {TO[lang]} 2026-12-12")
    absent(h, lang, "2026-12-24")
    listed = absent(h, lang)
    assert f"2026-12-10 {TO[lang]} 2026-12-12" in listed and "2026-12-24" in listed
    assert CANCEL[lang] in listed.replace("LÖSCHEN", "LOESCHEN")  # how to drop them
    too_many = absent(h, lang, "2026-12-28")
    assert ("schon 2 Abwesenheiten" if lang == "de" else "announced 2 absences") in too_many
    assert "2026-12-28" not in absent(h, lang)
    cancelled = absent(h, lang, CANCEL[lang])
    assert "2026-12-10" in cancelled and "2026-12-24" in cancelled
    assert ("keine Abwesenheit" if lang == "de" else "no absence") in absent(h, lang)
    assert "2026-12-10" not in absent(h, lang, "LÖSCHEN" if lang == "de" else "cancel")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_absences_switched_off(tmp_path, lang):
    h = harness(tmp_path, lang, absences="\n[games.absences]\nmax_days = 0\n")
    assert WORD[lang] not in h.body(h.mails_to(ANNA)[0])  # not offered in the welcome
    for args in ("2026-12-10", "", CANCEL[lang]):
        answer = absent(h, lang, args)
        assert ("keine Abwesenheiten vorgesehen" if lang == "de" else "has no absences") in answer
        assert USAGE[lang] not in answer  # no how-to for a command the game does not offer
    h.advance(days=2)
    h.run()
    assert deadline(h) == "2026-12-05T12:00:00+01:00"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_gm_lists_and_drops_an_absence_and_its_player_is_told(tmp_path, lang, capsys):
    h = harness(tmp_path, lang)
    absent(h, lang, f"2026-12-04 {TO[lang]} 2026-12-06")
    code, out = h.cli("absences", "--game", "g1")
    assert code == 0
    assert "#1 Anna Alt" in out and "2026-12-04 to 2026-12-06 (announced 2026-12-01 12:00)" in out
    assert h.cli("absences", "--game", "g1", "--drop", "7")[0] == 1
    assert "no running absence #7 (running: #1" in capsys.readouterr().err
    assert h.cli("absences", "--game", "g1", "--drop", "1") == (
        0,
        "g1: absence #1 dropped; its player is told\n",
    )
    (told,) = h.run()
    assert told["To"] == ANNA and "2026-12-04" in h.prose(told)
    assert ("gestrichen" if lang == "de" else "has struck") in h.prose(told)
    h.advance(days=2)
    h.run()
    assert deadline(h) == "2026-12-05T12:00:00+01:00"  # the dropped absence moves nothing


def test_dropping_an_absence_reaches_a_running_daemon_within_a_second(tmp_path):
    now = datetime.now(UTC)
    h = DaemonHarness(tmp_path, game("en"), now=now)
    h.run()
    first = (now + timedelta(days=5)).astimezone(BERLIN).date()
    absent(h, "en", f"{first} to {first + timedelta(days=2)}")

    async def scenario() -> float:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(0.5)  # the loop is waiting now
        code, out = await asyncio.to_thread(h.cli, "absences", "--game", "g1", "--drop", "1")
        assert code == 0, out
        took = await until(lambda: h.count_sent("Absence") >= 2)
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)
        return took

    assert asyncio.run(scenario()) < 1.5


# --- a scheduled start ----------------------------------------------------------------------
START = 'start = "2026-12-07T18:00"'
BEGINS = {"de": "Mo 2026-12-07 18:00 CET", "en": "Mon 2026-12-07 18:00 CET"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_game_starts_at_its_moment_and_not_before(tmp_path, lang, capsys):
    h = DaemonHarness(tmp_path, game(lang, extra=START), now=NOW)
    assert h.run() == []  # nothing before the start
    _, out = h.cli("status")
    assert "g1 (guess): starts Mon 2026-12-07 18:00 CET (UTC+01:00)" in out
    assert h.cli("pause", "--game", "g1")[0] == 1
    assert "g1 has not begun: it starts Mon 2026-12-07 18:00" in capsys.readouterr().err
    # a player who writes is told when it begins, once per period, not that he is unknown
    h.send(ANNA, "42", subject="[g1]")
    (early,) = h.run()
    assert BEGINS[lang] in h.prose(early) and "[g1]" in early["Subject"]
    h.send(ANNA, "42", subject="[g1]")
    assert h.run() == []
    # the daemon's clock knows the moment; a restart before it changes nothing
    daemon = Daemon(h.config_path, clock=h.clock)
    daemon.referee.sync()
    assert daemon.referee.next_moment() == datetime(2026, 12, 7, 17, 0, tzinfo=UTC)
    asyncio.run(daemon.close())
    h.now = datetime(2026, 12, 7, 16, 59, tzinfo=UTC)
    assert h.run() == []
    h.now = datetime(2026, 12, 7, 17, 0, tzinfo=UTC)
    welcomes = h.run()
    assert sorted(m["To"] for m in welcomes) == [ANNA, BERT]
    assert all("2026-12-09 18:00" in h.prose(m) for m in welcomes)  # counted from the start
    assert deadline(h) == "2026-12-09T18:00:00+01:00"
    h.advance(minutes=5)
    assert h.run() == []  # a restart after the start: no second welcome
    assert "g1 (guess): starts" not in h.cli("status")[1]


def test_a_daemon_down_at_the_start_counts_the_first_deadline_from_it(tmp_path):
    h = DaemonHarness(tmp_path, game("de", extra=START), now=datetime(2026, 12, 8, 9, tzinfo=UTC))
    assert len(h.run()) == 2
    assert deadline(h) == "2026-12-09T18:00:00+01:00"
    (tmp_path / "late").mkdir()
    late = DaemonHarness(
        tmp_path / "late", game("de", extra=START), now=datetime(2026, 12, 10, 9, tzinfo=UTC)
    )
    assert len(late.run()) == 2
    assert deadline(late) == "2026-12-12T10:00:00+01:00"  # from now: the first had passed


def test_check_warns_of_a_start_that_passed_before_the_game_began(tmp_path):
    h = DaemonHarness(tmp_path, game("de", extra=START), now=datetime(2026, 12, 8, tzinfo=UTC))
    code, out = h.cli("check")
    assert code == 0
    assert "warning: game g1: start = 2026-12-07T18:00 has passed and the game has not begun" in out
    h.run()
    assert "warning" not in h.cli("check")[1]
    h.write_config(game("de", extra='start = "2026-12-07T18:00+01:00"'))
    assert "leave out the offset" in h.cli("check")[1] + _err(h)


def _err(h: DaemonHarness) -> str:
    """What ``check`` writes to stderr: a config it refuses."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        h.cli("check")
    return err.getvalue()


# --- notices to the GM ----------------------------------------------------------------------
GM_MISSED = {"de": "Bert Bär hat zweimal nacheinander keine Befehle geschickt",
             "en": "Bert Bär sent no orders twice in a row"}  # fmt: skip
GM_SILENT = {"de": "niemand hat Befehle geschickt", "en": "nobody sent orders"}


def play_round(h: DaemonHarness, *senders: str) -> list:
    for who in senders:
        code = "ANNA-1111" if who == ANNA else "BERT-2222"
        h.send(who, f"Code: {code}\n42", subject="[g1] orders")
    h.run()
    h.advance(days=2)
    return [m for m in h.run() if m["To"] == BOSS]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_gm_hears_once_of_a_player_who_missed_two_phases_in_a_row(tmp_path, lang):
    h = harness(tmp_path, lang)
    assert play_round(h, ANNA) == []  # one miss is no news
    (notice,) = play_round(h, ANNA)
    assert GM_MISSED[lang] in notice["Subject"]
    command = (
        f'gm-daemon replace-player --config {h.config_path} --game g1 --player "Bert Bär" '
        "--email NEW@ADDRESS"
    )
    assert command in h.body(notice)
    assert play_round(h, ANNA) == []  # once, not every round
    assert not any("replace-player" in h.body(m) for m in h.sent if m["To"] != BOSS)
    # the command he is given works as it stands, with a real address for NEW@ADDRESS
    argv = shlex.split(command.replace("NEW@ADDRESS", "berta@players.test"))
    assert argv[0] == "gm-daemon" and cli_main(argv[1:]) == 0
    (handed_on,) = h.run()
    assert handed_on["To"] == "berta@players.test" and "BERT-2222" in h.body(handed_on)


@pytest.mark.parametrize(
    ("kept", "phase", "streak"),
    [
        (None, 3, (3, 3)),  # the first miss
        ("3 3", 4, (3, 4)),  # the next phase: two in a row
        ("3 4", 4, (3, 4)),  # phase 4 again after a rollback: still two
        ("3 4", 3, (3, 3)),  # back to phase 3: one
        ("5 6", 3, (3, 3)),  # back before the streak began
        ("1", 5, (4, 5)),  # an older version's count: the phase before this one
    ],
)
def test_a_streak_of_misses_counts_phases_not_resolutions(kept, phase, streak):
    assert gm_notices._streak(kept, phase) == streak


def test_a_phase_played_again_after_a_rollback_is_not_a_second_miss(tmp_path):
    """Bert misses round 1; the GM rolls it back and Bert misses it again: one phase, not
    two in a row. Round 2 missed as well is the second, and the GM hears of it then."""
    h = harness(tmp_path, "en")
    assert play_round(h, ANNA) == []
    assert h.cli("rollback", "--game", "g1", "--to-phase", "1")[0] == 0
    h.run()
    assert play_round(h, ANNA) == []  # round 1 again
    (notice,) = play_round(h, ANNA)  # round 2
    assert GM_MISSED["en"] in notice["Subject"] and "Round 2" in h.body(notice)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_gm_hears_once_of_a_game_where_nobody_sent_orders(tmp_path, lang):
    h = harness(tmp_path, lang)
    (notice,) = play_round(h)
    assert GM_SILENT[lang] in notice["Subject"]
    body = h.body(notice)
    assert f"gm-daemon pause --config {h.config_path} --game g1" in body
    assert '--player "Anna Alt"' in body and '--player "Bert Bär"' in body
    assert play_round(h) == []  # not again, nor once per player
    assert play_round(h, ANNA, BERT) == []  # orders again: the slate is clean
    (again,) = play_round(h)
    assert GM_SILENT[lang] in again["Subject"]


def test_a_notice_made_by_a_gm_command_names_the_config_too(tmp_path):
    """``gm-daemon resolve`` resolves in its own process: the commands in the notice it
    makes name the config it was given, as the daemon's do (they said "CONFIG")."""
    h = harness(tmp_path, "en")
    assert h.cli("resolve", "--game", "g1")[0] == 0
    (notice,) = [m for m in h.run() if m["To"] == BOSS]
    assert GM_SILENT["en"] in notice["Subject"]
    assert f"gm-daemon pause --config {h.config_path.absolute()} --game g1" in h.body(notice)


def test_each_player_reads_about_absences_and_the_start_in_his_own_language(tmp_path):
    toml = game("de", extra=START).replace(
        'name = "Bert Bär"\n', 'name = "Bert Bär"\nlanguage = "en"\n'
    )
    h = DaemonHarness(tmp_path, toml, now=NOW, extra_toml=f'gm_address = "{BOSS}"\n')
    h.run()
    h.send(BERT, "42", subject="[g1]")
    (early,) = h.run()
    assert BEGINS["en"] in h.prose(early)
    h.now = datetime(2026, 12, 7, 17, 0, tzinfo=UTC)
    h.run()  # the welcomes; the first deadline is Wed 12-09 18:00
    assert "announced no absence" in absent(h, "en", who=BERT)
    absent(h, "de", "2026-12-10 bis 2026-12-11")
    h.advance(days=2)
    mails = {m["To"]: h.prose(m) for m in h.run() if m["To"] != BOSS}
    assert MOVED["de"] in mails[ANNA] and MOVED["en"] in mails[BERT]
    assert h.cli("absences", "--game", "g1", "--drop", "1")[0] == 0
    (told,) = h.run()
    assert told["To"] == ANNA and "gestrichen" in h.prose(told)
