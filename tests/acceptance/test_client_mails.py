"""Real client mails (fixtures/*.eml) from a player, each answered as fixtures/cases.toml says:
quoted welcome mails, HTML-only mails, old charsets, phones, attachments, auto-replies."""

from __future__ import annotations

import sqlite3
import tomllib
from contextlib import closing

import pytest

from tests.acceptance.conftest import FIXTURES, fixture_bytes
from tests.daemon_harness import DaemonHarness

CASES = tomllib.loads((FIXTURES / "cases.toml").read_text(encoding="utf-8"))


def verdicts(h: DaemonHarness) -> list[str]:
    with closing(sqlite3.connect(h.database)) as db:
        return [row[0] for row in db.execute("SELECT verdict FROM inbox ORDER BY id")]


def test_every_fixture_has_a_case() -> None:
    files = {path.stem for path in FIXTURES.glob("*.eml")}
    assert files == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_client_mail_is_answered_as_expected(club: DaemonHarness, name: str) -> None:
    case = CASES[name]
    club.send_raw(fixture_bytes(f"{name}.eml"))
    replies = club.run()
    (verdict,) = verdicts(club)
    assert verdict.startswith(case["verdict"]), verdict
    if "subject_has" not in case:
        assert replies == []
        return
    (reply,) = replies
    assert reply["To"] == "hans@example.org"
    assert reply["Subject"].startswith("[hn1]")
    assert case["subject_has"] in reply["Subject"]
    body = club.body(reply)
    for text in case.get("reply_has", []):
        assert text in body
    for text in case.get("reply_lacks", []):
        assert text not in body
    # answered once: the same mail again (same Message-ID) gets no second reply
    club.send_raw(fixture_bytes(f"{name}.eml"))
    assert club.run() == []
