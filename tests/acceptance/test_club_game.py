"""A whole club game over mail, as the players and the GM live it: orders every round from
three players, one who never writes (reminders, NMR), a withdrawal, eliminations, the end,
and mails after the end. Every mail goes out once; the GM's status follows along."""

from __future__ import annotations

import json
from collections import Counter

from tests.daemon_harness import DaemonHarness

EMAIL = {
    "e-mueller": "egon@example.org",
    "h-glueck": "hans@example.org",
    "v-pech": "vera@example.org",
    "a-langsam": "anna@example.org",
}
CODE = {
    "e-mueller": "EGON-1234",
    "h-glueck": "HANS-5678",
    "v-pech": "VERA-9012",
    "a-langsam": "ANNA-3456",
}
SILENT = "e-mueller"  # never sends orders


def state(h: DaemonHarness) -> dict:
    return json.loads(h.cli("status", "--json")[1])["games"][0]["state"]


def orders_for(game: dict, seat: str) -> str:
    """Shoot close in (high hit chance) with all cartridges, challenge everyone active."""
    players = {p["id"]: p for p in game["players"]}
    opponents = [b if a == seat else a for a, b in game["pairings"] if seat in (a, b)]
    budget = players[seat]["cartridges"]
    lines = [f"Code: {CODE[seat]}", "Duelle"]
    for i, opponent in enumerate(opponents):
        share = budget // len(opponents) + (1 if i < budget % len(opponents) else 0)
        shots = ", ".join(str(k) for k in range(min(share, 19), 0, -1)) or "keine"
        lines.append(f"{players[opponent]['name']}: {shots}")
    active = [p["name"] for p in game["players"] if p["eliminated_in_round"] is None]
    lines.append("Herausforderungen: " + ", ".join(n for n in active if n != players[seat]["name"]))
    return "\n".join(lines) + "\n"


def test_a_club_game_to_the_end(club: DaemonHarness) -> None:
    welcome = Counter(m["To"] for m in club.sent)
    assert welcome == Counter(EMAIL.values())

    # round 1: Hans sends, thinks better of it, withdraws, sends again
    game = state(club)
    club.send(EMAIL["h-glueck"], orders_for(game, "h-glueck"), subject="[hn1] Befehle")
    club.send(EMAIL["h-glueck"], "Code: HANS-5678\nZURÜCKZIEHEN\n", subject="[hn1]")
    withdrawn = club.run()[-1]
    assert "Befehle zurückgezogen" in withdrawn["Subject"]
    assert "gilt zum Termin:\nDuell gegen A. Langsam: keine\n" in club.body(withdrawn)

    results_per_round = []
    rounds = 0
    while not club.finished("hn1"):
        rounds += 1
        assert rounds <= 20, "the game does not end"
        game = state(club)
        active = [p["id"] for p in game["players"] if p["eliminated_in_round"] is None]
        for seat in active:
            if seat != SILENT:
                club.send(EMAIL[seat], orders_for(game, seat), subject="Re: [hn1] Befehle")
        mails = club.run()
        acks = [m for m in mails if "Befehle angenommen" in m["Subject"]]
        assert len(acks) == len([s for s in active if s != SILENT])
        if SILENT in active:
            assert acks == mails
            _code, status = club.cli("status")
            assert "OWES ORDERS" in status
            # a day before the deadline the silent player, and only he, is reminded
            club.advance(days=2, minutes=1)
            (reminder,) = club.run()
            assert reminder["To"] == EMAIL[SILENT]
            assert "Erinnerung" in reminder["Subject"]
            assert "Ohne Befehle gilt:\nDuell gegen" in club.body(reminder)
            club.advance(days=3)
            results = club.run()
        else:  # all orders in: resolved at once (resolve_early)
            results = mails[len(acks) :]
        results_per_round.append(results)
        # one result mail per player, eliminated ones included
        assert sorted(m["To"] for m in results) == sorted(EMAIL.values())
        body = club.body(results[0])
        if SILENT in active:
            assert "Ohne Befehle (NMR), Standard angewendet:\n- E. Müller:" in body

    final = club.body(results_per_round[-1][0])
    assert "Das Spiel ist beendet." in final and "Spiel-Seed: example-seed" in final
    assert "Sieger:" in final and "Endstand" in final

    # after the end: orders are refused politely, STAND still answers, nothing resolves
    eliminated = [p["id"] for p in state(club)["players"] if p["eliminated_in_round"]]
    assert eliminated
    club.send(EMAIL["h-glueck"], "Code: HANS-5678\nLangsam: 1\n", subject="[hn1] Befehle")
    club.send(EMAIL["v-pech"], "Code: VERA-9012\nSTAND\n", subject="[hn1]")
    refused, standing = club.run()
    assert "Keine Befehle möglich" in refused["Subject"]
    assert "Das Spiel ist beendet; Befehle nimmt es nicht mehr an." in club.body(refused)
    assert "Runde" not in club.body(refused)  # not "in Runde 7", a round that never was
    assert "Endstand" in club.body(standing)
    club.advance(days=30)
    assert club.run() == []
    _code, status = club.cli("status")
    assert "hn1 (highnoon): finished\n" in status and "OWES ORDERS" not in status

    # nothing was sent twice
    ids = [m["Message-ID"] for m in club.sent]
    assert len(ids) == len(set(ids))


def test_an_eliminated_player_is_told_so(club: DaemonHarness) -> None:
    """E. Müller never writes; once he is out, his orders are refused with the reason."""
    for _ in range(20):
        players = {p["id"]: p for p in state(club)["players"]}
        if players[SILENT]["eliminated_in_round"] or club.finished("hn1"):
            break
        club.advance(days=3, minutes=1)
        club.run()
    assert players[SILENT]["eliminated_in_round"]
    club.send(EMAIL[SILENT], "Code: EGON-1234\nHerausforderungen: Pech\n", subject="[hn1]")
    (reply,) = club.run()
    assert "Keine Befehle möglich" in reply["Subject"]
    body = club.body(reply)
    assert "ausgeschieden" in body or "beendet" in body
