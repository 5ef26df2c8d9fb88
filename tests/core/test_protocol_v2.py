"""Every hook of protocol v2 through the real daemon (Maildir, injected clock), on the
throwaway kind of ``hookgame.py``: an engine-owned phase header, per-phase help, deadlines per
phase type, defaulted seats, options fed on reload with a phase that waits for the GM, and a
game command that answers with a PNG."""

from __future__ import annotations

import pytest

from gm_daemon import games
from gm_daemon.config import ConfigError, load_config
from tests.daemon_harness import DaemonHarness


@pytest.fixture(autouse=True)
def hooks_kind(monkeypatch):
    monkeypatch.setitem(games._KINDS, "hooks", "tests.core.hookgame:GAME")


def games_toml(fields: str, deadlines: str = 'saat = "24h"\nernte = "48h"') -> str:
    return f"""
[[games]]
id = "h1"
kind = "hooks"
language = "en"

[games.options]
years = 2
fields = [{fields}]

[games.deadlines]
{deadlines}

[[games.players]]
name = "Anna Alt"
email = "anna@players.test"
code = "ANNA-1111"

[[games.players]]
name = "Bert Bär"
email = "bert@players.test"
code = "BERT-2222"
"""


GM = '\ngm_address = "boss@gm.test"\n'


def started(tmp_path) -> DaemonHarness:
    h = DaemonHarness(tmp_path, games_toml('"Acker"'), extra_toml=GM)
    welcome = h.run()
    assert len(welcome) == 2
    assert "BILD" not in h.body(welcome[0])  # an English game lists the English names
    assert "PICTURE <name>" in h.body(welcome[0])
    return h


def test_the_engine_owns_its_phase_header(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\nPhase: 1901 Saat\n3")
    h.send("bert@players.test", "Code: BERT-2222\nPhase: 1902 Ernte\n3")
    anna, bert = h.run()
    assert "accepted" in anna["Subject"]
    assert "Wrong round" in bert["Subject"] or "stale" in h.body(bert).lower()
    assert "1902 Ernte" in h.body(bert)


def test_help_follows_the_phase_and_lists_the_game_commands(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "HELP")
    (reply,) = h.run()
    body = h.body(reply)
    assert "saat on Acker" in body
    assert "PICTURE <name>" in body and "the picture of a field" in body
    assert "WITHDRAW" in body


def test_a_game_command_answers_with_a_picture(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\nPICTURE Bär")
    h.send("anna@players.test", "Code: ANNA-1111\nbild zorro")
    replies = h.run()
    picture = next(m for m in replies if "refused" not in m["Subject"].lower())
    refused = next(m for m in replies if m is not picture)
    files = h.attachments(picture)
    assert list(files) == ["h1-bild-bert-baer.png"]  # the game's id in front of every file
    assert files["h1-bild-bert-baer.png"].startswith(b"\x89PNG")
    assert "Bert Bär: 1" in h.body(picture)
    assert (
        picture["Subject"] == "[h1] Sow and Reap: PICTURE Bär"
    )  # the engine gives none: the request
    assert "No player 'zorro'" in h.body(refused) and "PICTURE <name>" in h.body(refused)


def test_deadlines_per_phase_type_and_defaulted_seats(tmp_path):
    h = started(tmp_path)
    h.advance(hours=25)  # saat = 24h
    h.run()
    assert h.phase("h1") == 2
    h.send("anna@players.test", "Code: ANNA-1111\n2")
    h.advance(hours=47)  # ernte = 48h: not yet
    assert h.run() == [] or h.phase("h1") == 2
    h.advance(hours=2)
    results = h.run()
    to_anna = next(m for m in results if m["To"] == "anna@players.test")
    body = h.body(to_anna)
    assert "Anna Alt: 5" in body  # 1 + 2 * 2
    assert "Bert Bär: 0" in body  # defaulted: the engine was told
    assert "secret anna-alt" in body and "secret bert-baer" not in body


def test_a_phase_without_what_it_needs_waits_for_the_gm(tmp_path):
    h = started(tmp_path)
    h.advance(hours=25)
    h.run()
    h.advance(hours=49)
    results = h.run()  # 1901 Ernte resolved; 1902 has no field
    assert h.phase("h1") == 3
    gm = [m for m in results if m["To"] == "boss@gm.test"]
    told = " ".join(h.body(gm[0]).split())  # a sentence with what to do, wrapped
    assert len(gm) == 1 and "1902 Saat cannot start until you supply the field for 1902." in told
    assert "reload the daemon (systemctl reload gm-daemon, or SIGHUP)" in told
    to_anna = next(m for m in results if m["To"] == "anna@players.test")
    assert "The game master is still preparing 1902 Saat;" in " ".join(h.body(to_anna).split())
    _, out = h.cli("status")
    assert "WAITING FOR THE GM: the field for 1902" in out
    assert "OWES ORDERS" not in out  # orders are refused until the GM supplies it
    h.send("anna@players.test", "Code: ANNA-1111\n4")
    (refused,) = h.run()
    assert "the field for 1902 is missing" in h.body(refused)
    h.send("anna@players.test", "Code: ANNA-1111\nSTATUS")
    (status,) = h.run()  # the deadline line says why there is none
    said = " ".join(h.body(status).split())
    assert "Deadline: none yet – 1902 Saat waits for the field for 1902 from the" in said
    assert "paused or over" not in said
    h.advance(days=30)  # no deadline runs, no reminder, the GM is not told again
    assert h.run() == []
    assert h.phase("h1") == 3
    assert h.cli("extend", "--game", "h1", "--by", "1d")[0] == 1  # no deadline to move
    assert h.run() == []  # and nobody is told of one

    h.write_config(games_toml('"Acker", "Wiese"'), extra_toml=GM)
    ready = h.run()  # the reload feeds the new field: the phase starts now
    assert sorted(m["To"] for m in ready) == ["anna@players.test", "bert@players.test"]
    assert "Anna Alt: 1 seeds" in h.body(ready[0]) or "Anna Alt" in h.body(ready[0])
    assert "Deadline" in h.body(ready[0]) or "deadline" in h.body(ready[0]).lower()
    h.advance(hours=23)
    assert h.phase("h1") == 3 and h.run() == []
    h.advance(hours=2)
    h.run()
    assert h.phase("h1") == 4


def test_options_the_engine_refuses_keep_the_game_and_tell_the_gm(tmp_path):
    h = started(tmp_path)
    h.write_config(games_toml('"Weide"'), extra_toml=GM)
    (gm,) = h.run()
    assert gm["To"] == "boss@gm.test" and "cannot change" in h.body(gm)
    h.send("anna@players.test", "HELP")
    (reply,) = h.run()
    assert "saat on Acker" in h.body(reply)


def test_check_validates_deadline_keys_against_the_phase_types(tmp_path):
    path = tmp_path / "gm.toml"
    base = '[mail]\naddress = "gm@gm.test"\n'
    path.write_text(base + games_toml('"Acker"', 'saat = "24h"\nernet = "48h"'))
    with pytest.raises(ConfigError) as typo:
        load_config(path)
    assert "deadlines.ernet" in str(typo.value) and "saat, ernte" in str(typo.value)
    path.write_text(base + games_toml('"Acker"', 'saat = "24h"'))
    with pytest.raises(ConfigError) as missing:
        load_config(path)
    assert "no length for the phase type(s) ernte" in str(missing.value)
    path.write_text(base + games_toml('"Acker"', 'every = "3d"'))
    assert load_config(path).games[0].deadlines.every == "3d"


def test_show_renders_a_past_phase_again_from_the_record(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\n3")
    h.run()
    h.advance(hours=25)
    results = h.run()
    to_anna = next(m for m in results if m["To"] == "anna@players.test")
    code, shown = h.cli("show", "--game", "h1", "--phase", "1")
    assert code == 0
    assert "h1: 1901 Saat (deadline" in shown
    assert "Anna Alt: 1\nBert Bär: 1" in shown and "Anna Alt: 1\nBert Bär: 1" in h.body(to_anna)
    assert "--- only for Anna Alt ---\nsecret anna-alt" in shown
    assert h.cli("show", "--game", "h1", "--phase", "7")[0] == 1
