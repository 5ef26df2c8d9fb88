"""Three-player games of both variants through the real daemon (Maildir, injected clock).

The players read their mails as people would: the player on turn takes a play from the
"Sie sind am Zug … Möglich:" part of his latest mail (a duke or beer when he has one, which
ends rounds sooner, else the example given) and sends it with the turn number. On the way
the test sends an illegal play (rejected, the player stays on turn and is told what he could
play), lets one turn pass without a mail (reminder, then the NMR auto-play), has the next
player send a PLAN out of turn, and sends one play with the previous turn number (stale).
Afterwards no mail to one player may show another's hand.

The decks are made smaller by options (four colours, fewer beers) to keep the games short.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest

from tests.daemon_harness import DaemonHarness

PLAYERS = {
    "Anna": ("anna@players.test", "ANNA-1111"),
    "Bert": ("bert@players.test", "BERT-2222"),
    "Carla": ("carla@players.test", "CARLA-3333"),
}
OPTIONS = {
    "drunter-drueber": 'colours = ["ro", "ge", "bl", "gr"]\n'
    "beer_counts = [1, 1, 2, 2, 2, 2, 2, 1, 1]",
    "kreuzer-quer": 'colours = ["ro", "ge", "bl", "gr"]\nkq_target = 40',
}
HAND = re.compile(r"^Ihre Hand \(\d+\): .*$", re.MULTILINE)
ILLEGAL_AT, PLAN_AT, NMR_AT, STALE_AT = 2, 4, 7, 9  # turns where special things happen


def games_toml(variant: str) -> str:
    players = "".join(
        f'\n[[games.players]]\nname = "{name}"\nemail = "{email}"\ncode = "{code}"\n'
        for name, (email, code) in PLAYERS.items()
    )
    return (
        f'[[games]]\nid = "hb"\nkind = "hornberg"\nlanguage = "de"\nseed = "hornberg-{variant}"\n'
        f'reminder = "24h"\n\n[games.deadlines]\nturn = "48h"\n\n'
        f'[games.options]\nvariant = "{variant}"\n{OPTIONS[variant]}\n{players}'
    )


@dataclass
class Table:
    """What the test knows: every mail, and the latest public state attached to a result."""

    h: DaemonHarness
    state: dict[str, Any] = field(default_factory=dict)
    seen: dict[str, set[str]] = field(default_factory=dict)  # hand lines each player got

    def name_of(self, seat: str) -> str:
        return next(s["name"] for s in self.state["seats"] if s["id"] == seat)

    def mover(self) -> str:
        return self.name_of(self.state["to_move"]) if self.state else self.first_mover

    def latest(self, name: str) -> str:
        mails = [m for m in self.h.mails_to(PLAYERS[name][0]) if "Ihre Hand" in self.h.body(m)]
        return self.h.body(mails[-1])

    def hand(self, name: str) -> list[str]:
        line = HAND.findall(self.latest(name))[-1]
        return line.split(": ", 1)[1].split()

    def run(self) -> list[EmailMessage]:
        self.h.advance(minutes=5)  # players take a few minutes; keeps under the rate limit
        mails = self.h.run()
        for mail in mails:
            self._note(mail)
        return mails

    def _note(self, mail: EmailMessage) -> None:
        body = self.h.body(mail)
        to = next(n for n, (e, _) in PLAYERS.items() if e in mail["To"])
        self.seen.setdefault(to, set()).update(HAND.findall(body))
        for name, data in self.h.attachments(mail).items():
            if name.endswith(".json"):
                self.state = json.loads(data)["state"]

    def send(self, name: str, text: str) -> list[EmailMessage]:
        email, code = PLAYERS[name]
        self.h.send(email, f"Code: {code}\nZug: {self.h.phase('hb')}\n{text}\n", subject="[hb]")
        return self.run()

    first_mover: str = ""


def choose(private: str) -> str:
    """A play from the turn notice: finish a K&Q line, else a beer, else the example."""
    options = private.split("Möglich:", 1)[1]
    duke = re.search(r"^  Herzog H(\d)[^→]*→ auf (\w+) \((Zeile|Spalte)", options, re.MULTILINE)
    if duke:
        return f"Herzog {duke[1]} auf {duke[2]} {duke[3]}"
    beer = re.search(r"^  Bier B(\d)[^→]*→ auf (\w+)", options, re.MULTILINE)
    if beer:
        return f"Bier {beer[1]} auf {beer[2]}"
    shorten = re.search(r"^  Herzog H(\d) →.*; verkürzt (I+)", options, re.MULTILINE)
    if shorten:
        return f"Herzog {shorten[1]} verkürzt Reihe {shorten[2]}"
    return re.search(r"Beispiel: (.*)", options)[1]  # type: ignore[index]


def plan_for(table: Table, name: str, variant: str) -> str:
    """Plan candidates a player could write from his hand and the public table."""
    hand = table.hand(name)
    lines = ["PLAN:"]
    on_table = [s["cannon"] for r in table.state["table"]["rows"] for s in r["stacks"]]
    on_table += [c["cannon"] for c in table.state["table"]["cells"]]
    for card in hand:
        if card[0] == "H" and variant == "drunter-drueber":
            lines.append(f"Herzog {card[1]} verlängert Reihe I")
        elif card[0] == "B":
            lines += [f"Bier {card[1]} auf {cannon}" for cannon in on_table]
        elif card[0] != "H" and variant == "drunter-drueber":
            lines += [f"{card} an Reihe {row}" for row in ("I", "II", "III")]
        elif card[0] != "H":
            lines += [f"{card} {d} von {c}" for c in on_table for d in ("O", "W", "S", "N")]
    return "\n".join(lines)


def illegal_play(table: Table, name: str) -> str:
    """A beer on a cannon that is in the player's own hand, so not on the table."""
    hand = table.hand(name)
    beer = next(c for c in hand if c[0] == "B")
    cannon = next(c for c in hand if c[0] not in "BH")
    return f"Bier {beer[1]} auf {cannon}"


def check_privacy(table: Table) -> None:
    for name, lines in table.seen.items():
        for other, theirs in table.seen.items():
            if other != name:
                assert not (lines & theirs), f"{other}'s hand in a mail to {name}"
    for mail in table.h.sent:
        for attachment, data in table.h.attachments(mail).items():
            if attachment.endswith(".json"):
                state = json.loads(data)["state"]
                assert "hands" not in state and "pile" not in state


@pytest.mark.parametrize("variant", ["drunter-drueber", "kreuzer-quer"])
def test_three_player_game_to_its_end(tmp_path: Any, variant: str) -> None:
    table = Table(DaemonHarness(tmp_path, games_toml(variant)))
    welcome = table.run()
    assert len(welcome) == 3 and all("hb-zug-1.png" in table.h.attachments(m) for m in welcome)
    table.first_mover = next(n for n in PLAYERS if "Sie sind am Zug (Zug 1)" in table.latest(n))
    events = {"rejected": 0, "nmr": 0, "plan": 0, "reminder": 0, "stale": 0}
    while not table.h.finished("hb"):
        turn, mover = table.h.phase("hb"), table.mover()
        if turn == NMR_AT:
            events["reminder"] += _miss_the_deadline(table, mover)
            events["nmr"] += 1
            continue
        if turn >= ILLEGAL_AT and not events["rejected"] and "B" in "".join(table.hand(mover)):
            events["rejected"] += _rejected(table, mover)
        if turn == PLAN_AT:
            _plan(table, variant)
            events["plan"] += 1
        if turn == STALE_AT:
            events["stale"] += _stale_labels(table, mover)
        results = table.send(mover, choose(table.latest(mover)))
        assert "angenommen" in results[0]["Subject"], table.h.body(results[0])
        assert turn < 400, "the game does not end"
    assert events == {"rejected": 1, "nmr": 1, "plan": 1, "reminder": 1, "stale": 1}
    assert any("(aus PLAN)" in table.h.body(m) for m in table.h.sent), "the plan was played"
    final = table.h.body(table.h.sent[-1])
    assert "Endstand" in final and f"hornberg-{variant}" in final  # ranking and the seed
    assert table.state["finished"] and table.state["ranking"]
    _, status = table.h.cli("status")  # a finished game owes nothing and has no orders in
    assert "finished" in status and "orders in" not in status and "OWES" not in status
    rounds = len(table.state["history"])
    assert rounds == 3 if variant == "drunter-drueber" else rounds >= 1
    check_privacy(table)


def _rejected(table: Table, mover: str) -> int:
    (reply,) = table.send(mover, illegal_play(table, mover))
    body = table.h.body(reply)
    assert "liegt nicht auf dem Tisch" in body and "Sie sind weiterhin am Zug" in body, body
    assert "eine dieser Karten" in body and "Beispiel:" in body
    return 1


def _stale_labels(table: Table, mover: str) -> int:
    """An order written for the previous print is refused by the daemon as stale."""
    email, code = PLAYERS[mover]
    stale = table.h.phase("hb") - 1
    table.h.send(email, f"Code: {code}\nZug: {stale}\n{choose(table.latest(mover))}\n")
    (reply,) = table.run()
    assert "Falsche Runde" in reply["Subject"] and f"Zug: {stale}" in table.h.body(reply)
    return 1


def _plan(table: Table, variant: str) -> None:
    following = table.name_of(_left_of(table.state, table.state["to_move"]))
    (ack,) = table.send(following, plan_for(table, following, variant))
    assert "angenommen" in ack["Subject"], table.h.body(ack)


def _left_of(state: dict[str, Any], seat: str) -> str:
    ids = [s["id"] for s in state["seats"]]
    return ids[(ids.index(seat) + 1) % len(ids)]


def _miss_the_deadline(table: Table, mover: str) -> int:
    table.h.advance(hours=25)
    reminders = table.run()
    assert [m["To"] for m in reminders] == [PLAYERS[mover][0]]
    table.h.advance(hours=24)
    results = table.run()
    assert len(results) == 3
    assert "(NMR – automatisch)" in table.h.body(results[0])
    return len(reminders)
