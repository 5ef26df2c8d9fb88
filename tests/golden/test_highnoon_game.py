"""A whole High Noon game through the daemon: orders, NMR players, the end and the seed."""

from __future__ import annotations

import hashlib
import json
import re

from tests.daemon_harness import DaemonHarness
from tests.golden.test_highnoon_mails import PLAYERS, games_toml, opponents


def test_a_game_runs_to_its_end_with_nmr_players(tmp_path):
    h = DaemonHarness(tmp_path, games_toml("de"))
    welcome = h.run()
    commitment = re.search(r"sha256 des Spiel-Seeds:\s+(\w+)", h.body(welcome[0]))[1]
    rounds = 0
    while not h.finished("hn1"):
        rounds += 1
        assert rounds < 20, "the game must end"
        first = opponents(h, "e-mueller")
        if first:  # Müller plays; everybody else never sends orders
            shots = ", ".join(str(k) for k in (19, 12))
            h.send(
                "egon@players.test",
                f"Code: EGON-1111\nDuelle\n{first[0]}: {shots}\n"
                f"Herausforderungen: {', '.join(n for n, _ in PLAYERS[1:])}",
            )
            (ack,) = h.run()
            assert "angenommen" in ack["Subject"], h.body(ack)
        h.advance(days=3, seconds=1)
        results = [m for m in h.run() if "Ergebnisse" in m["Subject"]]
        assert len(results) == len(PLAYERS)
        body = h.body(results[0])
        assert "Zwischenstand" in body or "beendet" in body
    final = h.body(results[0])
    seed = re.search(r"Spiel-Seed: (\S+)", final)[1]
    assert seed == "golden-seed-1"
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    state = json.loads(h.attachments(results[0])[f"hn1-{rounds}.json"])
    assert state["finished"] is True
    h.send("vera@players.test", "Code: VERA-3333\nDuelle")
    (late,) = h.run()
    assert "beendet" in h.body(late)
