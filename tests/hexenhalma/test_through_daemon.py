"""A three-player Hexenhalma game through the real daemon (Maildir, injected clock): two
rounds on two boards, the second board added by the GM after round 1 by rewriting the config
(a reload), Carla NMR in round 1, a BILD command, and the GM told while round 2 waits."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.daemon_harness import DaemonHarness

BOARDS = Path(__file__).resolve().parents[2] / "config" / "boards"
PLAYERS = {
    "Anna": ("anna@players.test", "ANNA-1111"),
    "Bert": ("bert@players.test", "BERT-2222"),
    "Carla": ("carla@players.test", "CARLA-3333"),
}
E1 = "Hexe 1: B7 | N, N+M, N, N, N, N\nHexe 2: D7 | N+I, N5"
E2 = "Hexe 1: B7 | N, N+K, @E3, N, W, N\nHexe 2: D7 | N, N+B>E5, N, N, W, N, N, W"


def games_toml(boards: list[str]) -> str:
    files = ", ".join(f'{{ file = "boards/{b}.txt" }}' for b in boards)
    players = "".join(
        f'\n[[games.players]]\nname = "{n}"\nemail = "{e}"\ncode = "{c}"\n'
        for n, (e, c) in PLAYERS.items()
    )
    return (
        '[[games]]\nid = "hx"\nkind = "hexenhalma"\nlanguage = "de"\nseed = "hexen"\n\n'
        '[games.deadlines]\nround = "72h"\n\n'
        f"[games.options]\nrounds = 2\nboards = [{files}]\n{players}"
    )


def send(h: DaemonHarness, name: str, text: str) -> list:
    email, code = PLAYERS[name]
    h.send(email, f"Code: {code}\nSpiel: hx\n{text}\n", subject="[hx] Befehle")
    h.advance(minutes=5)
    return h.run()


def body_to(h: DaemonHarness, mails: list, name: str) -> str:
    return "\n".join(h.body(m) for m in mails if PLAYERS[name][0] in m["To"])


def test_two_rounds_second_board_by_reload_one_nmr(tmp_path):
    (tmp_path / "boards").mkdir()
    for name in ("turm", "kreuz"):
        shutil.copy(BOARDS / f"{name}.txt", tmp_path / "boards" / f"{name}.txt")
    gm = '\ngm_address = "boss@gm.test"\n'
    h = DaemonHarness(tmp_path, games_toml(["turm"]), extra_toml=gm)
    welcome = h.run()
    anna_welcome = body_to(h, welcome, "Anna")
    assert "Brett „Turm“" in anna_welcome and "Weg: 6 bis 10 Schritte" in anna_welcome
    assert any(n.endswith(".png") for m in welcome for n in h.attachments(m))

    ack = body_to(h, send(h, "Anna", "Runde: 1\n" + E1), "Anna")
    assert "Hexe 2: D7 ▸1 D6[I] ▸2 D5" in ack and "▸6 D1 (Ziel)" in ack
    assert "Zauber verbraucht: K 0/2  M 1/2" in ack
    ack = body_to(h, send(h, "Bert", "Runde: 1\n" + E2 + "\nHexe 3: B7 | N6"), "Bert")
    assert "keine Hexe 3" in ack  # rejected whole: the mail names the line and the fix
    ack = body_to(h, send(h, "Bert", "Runde: 1\n" + E2), "Bert")
    assert "Hexe 1: B7 ▸1 B6 ▸2 B5[K] ▸3 ~E3" in ack

    h.advance(days=3)
    results = h.run()
    anna = body_to(h, results, "Anna")
    assert "Ergebnis der Runde 1" in anna
    flowing = " ".join(anna.split())  # the mail wraps its prose
    assert "Von Carla kamen keine gültigen Befehle: Das Team ist in dieser Runde" in flowing
    assert "Ohne Befehle (NMR)" not in anna  # the result says it once (reports_nmr)
    assert "Anna, Hexe 1: gebannt nach A3 (Schritt 4), ins Aus auf A1 (Schritt 6)" in flowing
    assert "Das Brett für Runde 2 gibt die Spielleitung noch bekannt" in anna
    assert any("boss@gm.test" in m["To"] for m in results), "the GM is told round 2 waits"
    assert h.phase("hx") == 2

    waiting = body_to(h, send(h, "Anna", "Runde: 2\n" + E1), "Anna")
    assert "Brett für Runde 2" in waiting
    status = " ".join(body_to(h, send(h, "Anna", "STAND"), "Anna").split())
    assert "Abgabetermin: noch keiner – Runde 2 wartet auf das Brett für Runde 2" in status

    picture = send(h, "Anna", "BILD Bert")
    (subject,) = [m["Subject"] for m in picture if "anna" in m["To"].lower()]
    assert subject == "[hx] Hexenhalma: Bild von Runde 1, Anna gegen Bert"
    assert "Protokoll (1. gehen, 2. Zauber erleiden, 3. zaubern):" in body_to(h, picture, "Anna")
    assert any(n.endswith(".png") for m in picture for n in h.attachments(m))

    h.write_config(games_toml(["turm", "kreuz"]), extra_toml=gm)
    h.advance(minutes=5)
    notices = h.run()
    for name in PLAYERS:
        assert "Brett „Kreuz“" in body_to(h, notices, name), name

    for name in PLAYERS:
        notice = body_to(h, notices, name)
        example = re.search(r"Beispiel für dieses Brett:\n((?:Hexe .*\n)+)", notice)
        assert example, name
        assert "angenommen" in body_to(h, send(h, name, "Runde: 2\n" + example[1]), name).lower()
    h.advance(days=3)
    final = body_to(h, h.run(), "Anna")
    assert "Ergebnis der Runde 2 (Brett „Kreuz“)" in final
    assert "Endstand nach 2 Runden:" in final
    assert h.finished("hx")
    over = body_to(h, send(h, "Anna", "STAND"), "Anna")  # no orders to speak of any more
    assert "Abgabetermin: keiner mehr, das Spiel ist beendet" in over
    assert "Ihre Befehle" not in over and "Das Spiel ist zu Ende." in over
