"""A whole 13-round Primtraktorrennen through the real daemon (Maildir, injected clock).

Anna orders every round, Bert every round but two (NMR), Dora only in round 1 (NMR from then
on) and Cora never (round-1 NMR: out with her start cell). Orders are worked out from the
public JSON state attached to each result mail, as a careful player would: a leg whose cells
are free and out of reach of every other tractor this round.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gm_daemon.games.primtraktor.model import Direction
from gm_daemon.games.primtraktor.torus import distance, path
from tests.daemon_harness import DaemonHarness

GAMES = """
[[games]]
id = "pt1"
kind = "primtraktor"
language = "de"
seed = "primtraktor-durch-den-daemon"

[games.deadlines]
round = "72h"

[games.options]
start_min_dist = 12
"""
PLAYERS = {
    "Anna Alt": ("anna@players.test", "ANNA-1111"),
    "Bert Bär": ("bert@players.test", "BERT-2222"),
    "Cora Cramer": ("cora@players.test", "CORA-3333"),
    "Dora Dorn": ("dora@players.test", "DORA-4444"),
}
GERMAN = {"N": "Nord", "E": "Ost", "S": "Süd", "W": "West"}
BERT_NMR_ROUNDS = {4, 9}
REACH = 4  # nobody here drives faster than 3: a cell 4 away is out of everyone's reach


def games_toml() -> str:
    players = "".join(
        f'\n[[games.players]]\nname = "{name}"\nemail = "{email}"\ncode = "{code}"\n'
        for name, (email, code) in PLAYERS.items()
    )
    return GAMES + players


def careful_leg(state: dict[str, Any], name: str) -> str:
    """One leg at the same speed: straight on if safe, else the next safe turn clockwise."""
    me = next(t for t in state["tractors"] if t["name"] == name)
    occupied = {tuple(cell) for t in state["tractors"] for cell in t["trail"]}
    others = [tuple(t["position"]) for t in state["tractors"] if t["active"] and t is not me]
    direction = Direction(me["direction"])
    for _ in range(4):
        cells = path(tuple(me["position"]), direction, me["speed"], state["board"])
        free = not any(c in occupied for c in cells)
        if free and all(distance(c, o, state["board"]) >= REACH for c in cells for o in others):
            return f"{GERMAN[direction.value]}="
        direction = direction.clockwise()
    raise AssertionError(f"{name} has no careful leg left")


def send_orders(h: DaemonHarness, name: str, round_no: int, orders: str) -> str:
    email, code = PLAYERS[name]
    h.send(email, f"Code: {code}\nRunde: {round_no}\n{orders}\n", subject="[pt1] Züge")
    (ack,) = h.run()
    return f"{ack['Subject']}\n{h.body(ack)}"


def play_round(h: DaemonHarness, round_no: int, state: dict[str, Any] | None) -> list[Any]:
    if state is None:  # round 1: everybody far apart, accelerate
        orders = {"Anna Alt": "Anna Alt: O+, O+", "Bert Bär": "Süd+", "Dora Dorn": "N+"}
    else:
        racing = {t["name"] for t in state["tractors"] if t["active"]}
        orders = {
            name: careful_leg(state, name) for name in ("Anna Alt", "Bert Bär") if name in racing
        }
        if round_no in BERT_NMR_ROUNDS:
            orders.pop("Bert Bär", None)
    for name, text in orders.items():
        assert "Befehle angenommen" in send_orders(h, name, round_no, text)
    h.advance(hours=72, seconds=1)
    return h.run()


def state_of(h: DaemonHarness, result: Any, round_no: int) -> dict[str, Any]:
    return json.loads(h.attachments(result)[f"pt1-{round_no}.json"])["state"]


def check_acknowledgements_of_round_2(h: DaemonHarness, state: dict[str, Any]) -> None:
    """A leg back into the own trail is accepted with a warning; six legs are refused, naming
    the line; the careful orders sent afterwards replace both."""
    anna = next(t for t in state["tractors"] if t["name"] == "Anna Alt")
    back = {"N": "Süd", "E": "West", "S": "Nord", "W": "Ost"}[anna["direction"]]
    warned = send_orders(h, "Anna Alt", 2, f"{back}=")
    assert "Befehle angenommen" in warned
    assert "WARNUNG: Teilzug 1" in warned and "die eigene Spur" in warned
    refused = send_orders(h, "Bert Bär", 2, "Süd=\nS=, S=, S=, S=, S=")
    assert "NICHT angenommen" in refused
    assert "Zeile 4: „S=, S=, S=, S=, S=“" in refused and "6 Teilzüge, erlaubt sind 1–5" in refused


def check_every_move_listed_once(body: str, state: dict[str, Any], round_no: int) -> None:
    """Each player's part of the round is told once: his legs in the table of legs (an NMR
    leg marked there), or, for a tractor out without a leg, one line under "Ausgeschieden";
    no second NMR list, neither the game's nor the daemon's."""
    assert "Ohne Befehle (NMR)" not in body and "kein Zug erhalten)" not in body
    told = re.split("SPIELENDE|Stand nach Runde", body)[0]
    for tractor in state["tractors"]:
        who = f"{tractor['letter']} {tractor['name']}"
        lines = [line for line in told.splitlines() if who in line]
        legs = [line for line in lines if re.search(r"^  [a-e]  ", line)]
        assert len(set(lines)) == len(lines), lines  # no line twice
        out = tractor["eliminated"]
        out_now = out is not None and out["round"] == round_no
        if out_now and not legs:  # out before driving: one line says why
            assert len(lines) == 1, lines
        elif out_now:  # out on a leg: the leg, and why under "Ausgeschieden"
            assert len(lines) == len(legs) + 1, lines
        else:
            assert len(lines) == len(legs), lines


def test_whole_game_of_13_rounds_with_orders_and_nmr(tmp_path):
    h = DaemonHarness(tmp_path, games_toml())
    welcome = h.run()
    assert len(welcome) == 4
    assert "pt1-start.png" in h.attachments(welcome[0])
    assert "Sie fahren Traktor A (Anna Alt)" in h.body(welcome[0])

    state = None
    for round_no in range(1, 14):
        if round_no == 2:
            check_acknowledgements_of_round_2(h, state)
        results = play_round(h, round_no, state)
        assert len(results) == 4, f"round {round_no}: one result mail per player"
        body = h.body(results[0])
        assert f"Auswertung Runde {round_no}" in body
        assert f"pt1-runde-{round_no:02d}.png" in h.attachments(results[0])
        state = state_of(h, results[0], round_no)
        active = {t["name"] for t in state["tractors"] if t["active"]}
        assert {"Anna Alt", "Bert Bär"} <= active, f"round {round_no}: {body}"
        if round_no == 1:
            assert "C Cora Cramer, Phase a: ohne Zug (NMR); in Runde 1 gibt es keinen" in body
        nmr_leg = re.compile(r"B Bert Bär +(Nord|Ost|Süd|West)= \(2\) +\(\d+,\d+\) → .*NMR")
        assert bool(nmr_leg.search(body)) == (round_no in BERT_NMR_ROUNDS), body
        if round_no > 1:
            assert re.search(r"D Dora Dorn +(Nord|Ost|Süd|West)[=-] \(2\) .*NMR", body), body
        check_every_move_listed_once(body, state, round_no)
        if round_no < 13:
            assert h.phase("pt1") == round_no + 1 and not h.finished("pt1")

    assert h.finished("pt1")
    final = h.body(results[0])
    assert "SPIELENDE: Runde 13 war die letzte Runde." in final
    assert "Endwertung" in final and "Sieger: Anna Alt" in final
    assert "primtraktor-durch-den-daemon" in final  # the seed, revealed by the daemon
    assert state["finished"] is True
    scores = {s["seat"]: s for s in state["scores"]}
    for tractor in state["tractors"]:
        score = scores[tractor["seat"]]
        assert score["total"] == tractor["cells"] + score["bonus"]
    cora = next(t for t in state["tractors"] if t["name"] == "Cora Cramer")
    assert cora["cells"] == 1 and cora["eliminated"]["reason"] == "nmr"
    assert scores[cora["seat"]]["bonus"] == 0
    assert sum(s["bonus"] for s in scores.values()) == 39  # three survivors share 19+13+7
    assert state["ranking"][-1] == [cora["seat"]]


# Orders on the round's header line, one mail each in round 1: (sender, body, subject and
# what the reply says). The line keeps its number: a refusal quotes it as written.
ON_THE_HEADER_LINE = [
    ("Anna Alt", "Runde 1: Anna Alt: O+, O+", "Befehle angenommen", ["Ost+ (2) → (7,25)"]),
    ("Dora Dorn", "Round 1 - N+\nFERTIG", "Befehle angenommen", ["Nord+ (2) → (6,6)"]),
    ("Cora Cramer", "Runde 1 (Cora Cramer):\nN+", "Befehle angenommen", ["Nord+ (2)"]),
    ("Bert Bär", "Runde 1 – Bert Bär\nSüd+", "Befehle angenommen", ["Süd+ (2)"]),  # a name
    (
        "Bert Bär",
        "Runde 1: S=, S=, S=, S=, S=, S=",
        "Befehle NICHT angenommen",
        ["Zeile 2: „Runde 1: S=, S=, S=, S=, S=, S=“", "6 Teilzüge, erlaubt sind 1–5"],
    ),
    ("Bert Bär", "Runde 2: Süd+", "Falsche Runde", ["Die Mail nennt Runde 2: Süd+"]),
]


def test_orders_on_the_round_header_line_are_read_when_the_round_is_current(tmp_path):
    h = DaemonHarness(tmp_path, games_toml())
    h.run()
    for name, body, subject, said in ON_THE_HEADER_LINE:
        email, code = PLAYERS[name]
        h.send(email, f"Code: {code}\n{body}\n", subject="[pt1] Züge")
        (reply,) = h.run()
        text = h.body(reply)
        assert subject in reply["Subject"], (body, text)
        for part in said:
            assert part in " ".join(text.split()), (body, part, text)
    assert h.phase("pt1") == 1


def test_parse_reads_the_header_line_as_the_daemon_does(tmp_path):
    """``gm-daemon parse`` (the GM's check of an order text) takes the same header step."""
    h = DaemonHarness(tmp_path, games_toml())
    h.run()
    order = tmp_path / "order.txt"
    order.write_text("Runde 1: S=, S=, S=, S=, S=, S=\n")
    code, out = h.cli("parse", "--game", "pt1", "--player", "Bert Bär", str(order))
    assert code == 1 and "Zeile 1: „Runde 1: S=, S=, S=, S=, S=, S=“" in out, out
    order.write_text("Runde 1 – Süd+\n")
    code, out = h.cli("parse", "--game", "pt1", "--player", "Bert Bär", str(order))
    assert code == 0 and out.startswith("Süd+ (2)"), out
