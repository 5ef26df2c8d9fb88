"""The example config a new GM starts from: valid as shipped, valid with its production mail
block uncommented as it stands, and its deadlines at a sensible hour."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from gm_daemon.config import load_config
from gm_daemon.deadlines import next_deadline

EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "example.toml"


def test_the_example_config_is_valid() -> None:
    config = load_config(EXAMPLE)
    assert [g.id for g in config.games] == ["hn1"]


def test_the_production_block_can_be_uncommented_as_it_stands(tmp_path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    head, block = text.split("# --- production mail", 1)
    head = head.replace('transport = "maildir"', 'transport = "imap"', 1)
    block = "\n".join(re.sub(r"^# ?(?=\[|[a-z_]+ = )", "", line) for line in block.splitlines()[2:])
    path = tmp_path / "gm.toml"
    path.write_text(head + block, encoding="utf-8")
    config = load_config(path)
    assert config.mail.imap is not None and config.mail.imap.host == "imap.example.org"
    assert config.mail.smtp is not None and config.mail.smtp.port == 587


def test_the_example_deadlines_fall_at_six_in_the_evening() -> None:
    config = load_config(EXAMPLE)
    game, tz = config.games[0], config.daemon.tz
    for start in (
        datetime(2026, 12, 1, 3, 17, tzinfo=UTC),
        datetime(2027, 7, 9, 22, 5, tzinfo=UTC),
    ):
        deadline = next_deadline(game.deadlines, "round", start, tz).astimezone(tz)
        assert (deadline.hour, deadline.minute) == (18, 0)
        assert (deadline - start).total_seconds() >= 24 * 3600
