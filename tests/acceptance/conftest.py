"""Acceptance tests: the club's High Noon game driven over Maildir, as its players and GM
see it. Mails that stand for a real client are .eml files in ``fixtures/``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.daemon_harness import DaemonHarness

FIXTURES = Path(__file__).parent / "fixtures"

# The example config's game: the seed fixes the first pairings, so the fixture mails can name
# real opponents. E. Müller and H. Glück face A. Langsam and V. Pech in round 1.
GAME = """
[[games]]
id = "hn1"
kind = "highnoon"
title = "High Noon – Clubrunde"
language = "de"
reminder = "24h"
resolve_early = true
seed = "example-seed"

[games.deadlines]
every = "3d"

[[games.players]]
name = "E. Müller"
email = "egon@example.org"
code = "EGON-1234"

[[games.players]]
name = "H. Glück"
email = "hans@example.org"
code = "HANS-5678"

[[games.players]]
name = "V. Pech"
email = "vera@example.org"
code = "VERA-9012"

[[games.players]]
name = "A. Langsam"
email = "anna@example.org"
code = "ANNA-3456"
"""

START = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


@pytest.fixture
def club(tmp_path: Path) -> DaemonHarness:
    """The club game, started: the welcome mails are sent (and in ``h.sent``)."""
    h = DaemonHarness(tmp_path, GAME, now=START)
    h.run()
    return h


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()
