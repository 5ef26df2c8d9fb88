"""Observers and a player's own language on every game kind, through the daemon on Maildir:
each example config (``config/examples/``) with one player switched to the other language
and an observer added. The English player gets his welcome, his HELP and his result in
English while the others read German; the observer gets a welcome without a code and the
public result only — no line of any player's private part, as ``gm-daemon show`` lists them.
The season tools themselves, in detail: ``tests/core/test_season.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm_daemon.config import load_config
from tests.daemon_harness import DaemonHarness

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "config" / "examples"
# One example per kind (the variants share their kind's mail handling).
KINDS = ["highnoon", "primtraktor", "hornberg-kreuz-quer", "hexenhalma", "highlander"]
OBSERVER = "olga@watch.test"


def season_config(name: str, target: Path) -> tuple[Path, str]:
    """The example with its last player speaking English and an observer; the English
    player's address."""
    text = (EXAMPLES / f"{name}.toml").read_text(encoding="utf-8")
    text = text.replace('"../boards/', f'"{EXAMPLES.parent}/boards/')
    head, sep, last = text.rpartition("[[games.players]]\n")
    text = head + sep + 'language = "en"\n' + last
    text += '\n[[games.observers]]\nname = "Olga Obacht"\nemail = "' + OBSERVER + '"\n'
    path = target / "gm.toml"
    path.write_text(text, encoding="utf-8")
    return path, load_config(path).games[0].players[-1].email


def private_lines(shown: str) -> list[str]:
    """The lines of every seat's private part in ``gm-daemon show`` output that the public
    part does not also have (a heading such as "Ihre Karten:" may be in both)."""
    public, *parts = re.split(r"^--- only for .* ---$", shown, flags=re.M)
    lines = {line.strip() for part in parts for line in part.splitlines()}
    known = {line.strip() for line in public.splitlines()}
    return sorted(line for line in lines - known if len(line) >= 12)


@pytest.mark.parametrize("name", KINDS)
def test_observer_and_player_language_on_every_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path, english = season_config(name, tmp_path)
    [game] = load_config(path).games
    h = DaemonHarness.on_config(path)
    welcome = {m["To"]: m for m in h.run()}
    assert set(welcome) == {p.email for p in game.players} | {OBSERVER}
    assert "Welcome" in welcome[english]["Subject"]
    assert all("Willkommen" in m["Subject"] for a, m in welcome.items() if a != english)
    observer_welcome = h.body(welcome[OBSERVER])
    assert "Beobachter" in observer_welcome and "Code" not in observer_welcome
    assert all(p.name in observer_welcome for p in game.players)

    h.send(english, "HELP", subject=f"[{game.id}] help")
    (help_mail,) = h.run()
    assert help_mail["To"] == english and h.body(help_mail).startswith("Hello ")
    h.send(OBSERVER, "Code: 1234\nStand", subject=f"Re: [{game.id}]")
    (told,) = h.run()
    assert told["To"] == OBSERVER and "Beobachter senden keine Befehle" in told["Subject"]

    code, out = h.cli("resolve", "--game", game.id)
    assert code == 0, out
    results = {
        m["To"]: m for m in h.run() if "rgebnisse" in m["Subject"] or "results" in m["Subject"]
    }
    assert set(results) == {p.email for p in game.players} | {OBSERVER}
    assert "results" in results[english]["Subject"]
    assert all("Ergebnisse" in m["Subject"] for a, m in results.items() if a != english)

    code, shown = h.cli("show", "--game", game.id, "--phase", "1")
    assert code == 0
    seen = h.body(results[OBSERVER])
    leaked = [line for line in private_lines(shown) if line in seen]
    assert leaked == [], f"private lines in the observer's result: {leaked}"
    public = shown.split("\n\n", 1)[1].split("\n--- only for")[0]
    assert " ".join(public.split()[:40]) in h.prose(results[OBSERVER])
    for player in game.players:
        assert player.code is None or player.code not in seen
