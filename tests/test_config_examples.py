"""The example configs a GM starts from (``config/examples/``, one per game and variant): each
is valid as shipped, passes ``gm-daemon check``, keeps its own database and Maildirs, and
plays its first phase through the real daemon on its Maildir transport — every player who
owes orders sends the example his welcome mail quotes, the phase resolves, and every player
gets the result. ``scripts/run-example KIND`` knows exactly these kinds, and the README's
walkthrough (E. Müller, ``Code: EGON-1234``) works on the High Noon example."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from gm_daemon.cli import main as cli_main
from gm_daemon.config import load_config
from tests.daemon_harness import DaemonHarness

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "config" / "examples"
NAMES = sorted(path.stem for path in EXAMPLES.glob("*.toml"))
CLI = [sys.executable, "-c", "import sys; from gm_daemon.cli import main; sys.exit(main())"]


def example(name: str) -> Path:
    return EXAMPLES / f"{name}.toml"


def test_there_is_an_example_of_every_kind_and_variant() -> None:
    kinds = {}
    for name in NAMES:
        game = load_config(example(name)).games[0]
        options = game.parsed_options()
        variant = getattr(options, "variant", None) or (
            "tournament" if getattr(options, "tournament", False) else None
        )
        kinds[name] = (game.kind, variant)
    assert sorted(kinds.values(), key=str) == sorted(
        [("highnoon", None), ("primtraktor", None), ("hornberg", "dd"), ("hornberg", "kq"),
         ("hexenhalma", None), ("highlander", None), ("highlander", "tournament")],
        key=str,
    )  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_the_example_is_one_seeded_game_on_its_own_maildir(name: str) -> None:
    config = load_config(example(name))
    assert config.mail.transport == "maildir"
    assert config.daemon.database == Path(f"var/{name}/gm.sqlite")
    assert config.mail.maildir.inbox == Path(f"var/{name}/mail/inbox")
    assert config.mail.maildir.outbox == Path(f"var/{name}/mail/outbox")
    [game] = config.games
    assert game.seed, "the example fixes its seed, so a GM trying it sees what the README says"
    text = example(name).read_text(encoding="utf-8")
    seed_line = next(line for line in text.splitlines() if line.startswith("seed = "))
    assert "leave" in seed_line, "the seed's comment says a real game leaves it out"
    assert any(ch in "äöüÄÖÜß" for player in game.players for ch in player.name)
    assert "docs/config.md" in text


@pytest.mark.parametrize("name", NAMES)
def test_check_accepts_the_example(name: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli_main(["check", "--config", str(example(name))])
    assert code == 0
    assert out.getvalue().endswith(f"{example(name)}: OK\n")


def test_check_as_a_process_finds_the_boards_next_to_the_config(tmp_path: Path) -> None:
    """The Hexenhalma boards are files named relative to the config, not to the directory
    the GM runs ``check`` in."""
    done = subprocess.run(
        [*CLI, "check", "--config", str(example("hexenhalma"))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "hx1: hexenhalma, 4 players, language de" in done.stdout
    boards = load_config(example("hexenhalma")).games[0].parsed_options().parsed()  # type: ignore[attr-defined]
    assert [board.name for board in boards] == ["Turm", "Kreuz"]


@pytest.mark.parametrize("name", NAMES)
def test_the_production_block_can_be_uncommented_as_it_stands(tmp_path: Path, name: str) -> None:
    text = example(name).read_text(encoding="utf-8")
    head, block = text.split("# --- production mail", 1)
    head = head.replace('transport = "maildir"', 'transport = "imap"', 1)
    block = "\n".join(re.sub(r"^# ?(?=\[|[a-z_]+ = )", "", line) for line in block.splitlines()[2:])
    path = tmp_path / "gm.toml"
    path.write_text(head.replace('"../boards/', f'"{EXAMPLES.parent}/boards/') + block, "utf-8")
    config = load_config(path)
    assert config.mail.imap is not None and config.mail.imap.host == "imap.example.org"
    assert config.mail.smtp is not None and config.mail.smtp.port == 587


def test_run_example_names_its_kinds_for_an_unknown_one() -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "run-example"), "schach"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "schach" in done.stderr
    listed = re.findall(r"^  (\S+)", done.stderr, re.M)
    assert sorted(listed) == NAMES
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [name for name in NAMES if f"`{name}`" not in readme] == []


# --- the first phase through the daemon --------------------------------------------------
# What each welcome mail quotes as the example its recipient may send back, and the header
# line in front of it (the game's phase header, as a player replying would write it).
Example = Callable[[str], str]


def _after(marker: str, header: str = "", first_line: bool = False) -> Example:
    def take(body: str) -> str:
        rest = body.split(marker, 1)[1].strip()
        text = rest.splitlines()[0].strip() if first_line else rest.split("\n\n")[0]
        return f"{header}\n{text}" if header else text

    return take


def _highnoon(body: str) -> str:
    return body.split("So sieht ein Zug aus:", 1)[1].split("\n\n")[1]


WELCOME_EXAMPLE: dict[str, Example] = {
    "highnoon": _highnoon,
    "primtraktor": _after("Beispiel:", "Runde: 1", first_line=True),
    "hornberg": _after("Beispiel:", "Zug: 1", first_line=True),
    "hexenhalma": _after("Beispiel für dieses Brett:", "Runde: 1"),
    "highlander": _after("Beispiel:"),
}


def status(h: DaemonHarness) -> dict[str, Any]:
    code, out = h.cli("status", "--json")
    assert code == 0
    [game] = json.loads(out)["games"]
    return game  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", NAMES)
def test_the_example_plays_its_first_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)  # the example's var/ paths count from here
    config = load_config(example(name))
    [game] = config.games
    h = DaemonHarness.on_config(example(name))
    assert h.database.is_relative_to(tmp_path)
    welcome = {m["To"]: m for m in h.run()}
    addresses = {p.email for p in game.players}
    assert set(welcome) == addresses
    assert h.phase(game.id) == 1

    first = status(h)
    deadline = datetime.fromisoformat(first["deadline"])
    assert deadline - h.now >= timedelta(hours=24), "a phase gets a day at least"
    debtors = [p for p in first["players"] if p["owes_orders"]]
    assert debtors
    if game.kind == "hornberg":
        assert len(debtors) == 1, "one player is on turn"
    mails: list[EmailMessage] = []
    for player in debtors:
        assert h.phase(game.id) == 1, "the phase waits for every player who owes orders"
        text = WELCOME_EXAMPLE[game.kind](h.body(welcome[player["email"]]))
        h.send(player["email"], f"Code: {player['code']}\n{text}\n", subject=f"Re: [{game.id}]")
        h.advance(minutes=7)
        mails = h.run()
        assert mails and "angenommen" in mails[0]["Subject"], [h.body(m) for m in mails]
        assert mails[0]["To"] == player["email"]

    # Every example ends a phase when its orders are in: resolve_early, or (Hornberg) each
    # play carried out as it arrives; the results leave in the run of the last order.
    results = [m for m in mails if "Ergebnisse" in m["Subject"]]
    assert sorted(m["To"] for m in results) == sorted(addresses), [m["Subject"] for m in mails]
    assert h.phase(game.id) == 2
    assert not h.finished(game.id)


def test_the_readme_walkthrough_works_on_the_high_noon_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E. Müller's order mail exactly as the README writes it, dropped where the README
    says: accepted, with the opponents the README promises."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    walkthrough = readme.split("## Trying the example", 1)[1].split("\n## ", 1)[0]
    configs = set(re.findall(r"--config (\S+)", walkthrough))
    assert configs == {"config/examples/highnoon.toml"}
    order = walkthrough.split("<<'MAIL'\n", 1)[1].split("\nMAIL\n", 1)[0]
    inbox = re.search(r"cp /tmp/order\.eml (\S+)/new/order-1\.eml", walkthrough)
    assert inbox is not None
    monkeypatch.chdir(tmp_path)
    h = DaemonHarness.on_config(ROOT / "config/examples/highnoon.toml")
    assert h.inbox_dir == tmp_path / inbox.group(1)
    h.run()
    h.send_raw(order.replace("\n", "\r\n").encode())
    [ack] = h.run()
    assert ack["To"] == "egon@example.org"
    assert "angenommen" in ack["Subject"], h.body(ack)
    assert "Duell gegen A. Langsam: 19, 15" in h.body(ack)
    assert "Duell gegen V. Pech: 4, 1" in h.body(ack)
