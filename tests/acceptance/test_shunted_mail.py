"""A mail whose handling fails is set aside, its sender told, and the daemon goes on: other
mails are answered and deadlines resolve, also when the sender's first game has left the
config."""

from __future__ import annotations

from unittest import mock

from gm_daemon.games.highnoon.game import HighNoon
from tests.acceptance.conftest import GAME, START
from tests.acceptance.test_which_game import SECOND
from tests.daemon_harness import DaemonHarness


def test_a_failing_mail_is_set_aside_and_the_game_goes_on(tmp_path) -> None:
    # E. Müller plays in hn2 (first in the database) and hn1; the GM drops hn2 from the config
    h = DaemonHarness(tmp_path, SECOND + GAME, now=START)
    h.run()
    h.write_config(GAME)
    h.send("egon@example.org", "Code: EGON-1234\nLangsam: 19\n", subject="[hn1] Befehle")
    h.send("hans@example.org", "Code: HANS-5678\nLangsam: 19\n", subject="[hn1] Befehle")
    real = HighNoon.read_orders

    def failing_for_egon(self, lines, state, seat, lang, on_file=None):  # type: ignore[no-untyped-def]
        if seat == "e-mueller":
            raise RuntimeError("engine bug")
        return real(self, lines, state, seat, lang)

    with mock.patch.object(HighNoon, "read_orders", failing_for_egon):
        notice, ack = h.run()
    assert notice["To"] == "egon@example.org" and "Interner Fehler" in notice["Subject"]
    assert ack["To"] == "hans@example.org" and "Befehle angenommen" in ack["Subject"]
    _code, status = h.cli("status")
    assert "set aside (shunted) mail #" in status and "RuntimeError: engine bug" in status
    h.advance(days=3, minutes=1)
    results = h.run()
    assert sum("Ergebnisse" in m["Subject"] for m in results) == 4
