"""Golden files of the mails a High Noon game sends, in German and English.

A fixed seed, fixed codes and the harness clock make every mail reproducible; only
Message-IDs are random, and they are numbered in order of appearance. To accept new output
after a deliberate change: ``GM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/golden`` and review the
diff of ``tests/golden/highnoon/``.
"""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.daemon_harness import DaemonHarness
from tests.scenarios import check_golden

GOLDEN = Path(__file__).parent / "highnoon"
PLAYERS = [("E. Müller", "egon"), ("H. Glück", "hans"), ("V. Pech", "vera"), ("A. Langsam", "anna")]


def games_toml(lang: str) -> str:
    players = "".join(
        f'\n[[games.players]]\nname = "{name}"\nemail = "{mail}@players.test"\n'
        f'code = "{mail.upper()}-{n}{n}{n}{n}"\n'
        for n, (name, mail) in enumerate(PLAYERS, start=1)
    )
    return f"""
[[games]]
id = "hn1"
kind = "highnoon"
title = "High Noon – Golden"
language = "{lang}"
seed = "golden-seed-1"
[games.deadlines]
every = "3d"
{players}"""


def normalise(message: EmailMessage, ids: dict[str, str]) -> str:
    return DaemonHarness.golden_text(message, ids)


def check(name: str, text: str) -> None:
    check_golden(GOLDEN / name, text)


def opponents(h: DaemonHarness, seat: str) -> list[str]:
    state = json.loads(h.cli("status", "--json")[1])["games"][0]["state"]
    names = {p["id"]: p["name"] for p in state["players"]}
    return [names[b if a == seat else a] for a, b in state["pairings"] if seat in (a, b)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_highnoon_mails(tmp_path, lang):
    h = DaemonHarness(tmp_path, games_toml(lang))
    ids: dict[str, str] = {}
    welcome = h.run()
    check(f"{lang}/welcome.txt", normalise(welcome[0], ids))

    first, second = opponents(h, "e-mueller")
    duels, challenges = ("Duelle", "Herausforderungen") if lang == "de" else ("SHOTS", "CHALLENGES")
    order = f"Code: EGON-1111\n{duels}\n{first}: 19, 15\n{second}: 4, 1\n{challenges}\n{first}\n"
    h.send("egon@players.test", order, subject="Re: [hn1]")
    (accepted,) = h.run()
    check(f"{lang}/accepted.txt", normalise(accepted, ids))

    bad = f"Code: EGON-1111\n{duels}\n{first}: 19, 15, 8, 4, 3\nNiemand: 2\n{second}: 25\n"
    h.send("egon@players.test", bad, subject="Re: [hn1]")
    (rejected,) = h.run()
    check(f"{lang}/rejected.txt", normalise(rejected, ids))

    h.advance(days=3, seconds=1)
    results = h.run()
    assert len(results) == len(PLAYERS)
    check(f"{lang}/result.txt", normalise(results[0], ids))
