"""The whole single game and the whole match of ``scenarios/game-*.toml`` through the real
daemon (Maildir, injected clock): each player's mail sent as written, with his code; a phase
resolves when every owed player has sent, or at its deadline for the silent one (NMR). On
the way: a stale phase header, a rejected build, secrecy of the ballot before both lists are
in, the map command, and the final result mail."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.daemon_harness import DaemonHarness
from tests.scenarios import load_scenario

HERE = Path(__file__).parent
PLAYERS = {"P1": ("Anna", "anna@players.test", "ANNA-1111"),
           "P2": ("Bert", "bert@players.test", "BERT-2222")}  # fmt: skip


def games_toml(tournament: bool) -> str:
    players = "".join(
        f'\n[[games.players]]\nname = "{name}"\nemail = "{email}"\ncode = "{code}"\n'
        for name, email, code in PLAYERS.values()
    )
    deadlines = "\n".join(
        f'{kind} = "{length}"'
        for kind, length in [("ballot", "72h"), ("setup", "72h"), ("grace", "48h"),
                             ("movement", "72h"), ("retreats", "24h"), ("adjustments", "48h")]
    )  # fmt: skip
    options = "tournament = true\n" if tournament else ""
    return (
        '[[games]]\nid = "hl"\nkind = "highlander"\nlanguage = "de"\nseed = "highlander"\n'
        "resolve_early = true\n\n"
        f"[games.deadlines]\n{deadlines}\n\n[games.options]\n{options}{players}"
    )


def send(h: DaemonHarness, seat: str, text: str) -> None:
    """The mail as the spec prints it, its game line naming this test's game id."""
    _, email, code = PLAYERS[seat]
    text = re.sub(r"^(Spiel|Game): .*$", r"\1: hl", text, flags=re.MULTILINE)
    h.send(email, f"Code: {code}\n{text}", subject="[hl] Befehle")


def run(h: DaemonHarness) -> list[Any]:
    h.advance(minutes=5)
    return h.run()


@pytest.mark.parametrize("name", ["game-single", "game-tournament"])
def test_whole_game_through_the_daemon(tmp_path: Path, name: str) -> None:
    scenario = load_scenario(HERE / "scenarios" / f"{name}.toml")
    h = DaemonHarness(tmp_path, games_toml(bool(scenario.get("options", {}).get("tournament"))))
    welcome = h.run()
    assert len(welcome) == 2 and all("Highlander" in h.body(m) for m in welcome)
    steps = [s for s in scenario["step"] if "mail" not in s]
    for number, step in enumerate(steps, start=1):
        phase = h.phase("hl")
        assert phase == number, f"step {number}: phase {phase}"
        for seat, text in step.get("mails", {}).items():
            send(h, seat, text)
            acks = run(h)
            if number == 1 and seat == "P1":
                _ballot_is_secret(h, acks)
        run(h)  # all owed orders in: the phase resolves without waiting for the deadline
        if h.phase("hl") == phase:  # someone stays silent: the deadline resolves (NMR)
            assert set(step.get("mails", {})) != {"P1", "P2"}, f"step {number} waits"
            h.advance(days=4)
            h.run()
        assert h.phase("hl") == phase + 1 or h.finished("hl"), f"step {number} not resolved"
    assert h.finished("hl")
    last = h.mails_to(PLAYERS["P1"][1])[-1]
    pictures = [data for name, data in h.attachments(last).items() if name.endswith(".png")]
    assert len(pictures) == (2 if name == "game-tournament" else 1)
    assert all(data.startswith(b"\x89PNG") for data in pictures)
    final = h.body(last)
    assert "Spielende: Anna gewinnt." in final
    if name == "game-tournament":
        assert "Match: Sieg Anna" in final and "(31 : 30)" in final
    else:
        assert "Anna besitzt 18 Versorgungszentren und gewinnt." in final


def _ballot_is_secret(h: DaemonHarness, acks: list[Any]) -> None:
    """HL-3: the acknowledgement of P1's list goes to P1 only; Bert learns nothing of it."""
    to_bert = [m for m in acks if PLAYERS["P2"][1] in m["To"]]
    assert not any("LVP" in h.body(m) for m in to_bert)
    to_anna = [m for m in acks if PLAYERS["P1"][1] in m["To"]]
    assert to_anna and "LVP" in h.body(to_anna[-1])


def test_stale_header_rejected_build_and_map(tmp_path: Path) -> None:
    h = DaemonHarness(tmp_path, games_toml(False))
    h.run()
    steps = load_scenario(HERE / "scenarios" / "game-single.toml")["step"]
    for step in steps[:2]:
        for seat, text in step["mails"].items():
            send(h, seat, text)
            run(h)
        run(h)
    assert h.phase("hl") == 3
    send(h, "P1", "Phase: 1905 Bewegung\nA Lon - Yor")
    stale = h.body(run(h)[-1])
    assert "1901 Bewegung" in stale
    send(h, "P1", "A Lon - Mün")
    warned = h.body(run(h)[-1])
    assert "LON" in warned and "MUN" in warned
    send(h, "P1", "KARTE")
    answer = run(h)[-1]
    assert "1901 Bewegung" in h.body(answer)
    assert list(h.attachments(answer)) == ["hl-1901-bewegung.png"]
