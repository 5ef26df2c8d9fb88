"""S/MIME and PGP mails from a player through the daemon: opaque-signed orders are read (the
signature is not checked: the code is the proof), an encrypted mail gets a clear answer in
the game's language that it cannot be read. The mails are the corpus's (tests/mail_corpus/),
sent by E. Müller with his code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acceptance.conftest import GAME, START
from tests.acceptance.test_client_mails import verdicts
from tests.daemon_harness import DaemonHarness

CORPUS = Path(__file__).parents[1] / "mail_corpus"


def corpus(name: str) -> bytes:
    return (CORPUS / f"{name}.eml").read_bytes()


@pytest.mark.parametrize("name", ["smime_opaque_signed_plain", "smime_opaque_signed_multipart"])
def test_opaque_signed_orders_are_read(club: DaemonHarness, name: str) -> None:
    club.send_raw(corpus(name))
    (ack,) = club.run()
    assert ack["To"] == "egon@example.org"
    assert "Befehle angenommen" in ack["Subject"]
    assert "Duell gegen A. Langsam: 19, 15" in club.body(ack)


ENCRYPTED = {
    "smime_encrypted": "S/MIME",
    "smime_encrypted_outlook_no_smime_type": "S/MIME",
    "pgp_mime_encrypted": "PGP",
    "pgp_inline_encrypted": "PGP",
}


@pytest.mark.parametrize("name", sorted(ENCRYPTED))
def test_an_encrypted_mail_is_answered_that_it_cannot_be_read(
    club: DaemonHarness, name: str
) -> None:
    club.send_raw(corpus(name))
    (reply,) = club.run()
    assert reply["To"] == "egon@example.org"
    assert reply["Subject"] == "[hn1] Verschlüsselte Mail nicht lesbar"
    prose = club.prose(reply)
    assert f"Ihre Mail ist verschlüsselt ({ENCRYPTED[name]})" in prose
    assert "unverschlüsselt" in prose and "Code" not in prose
    assert verdicts(club) == [f"not read: encrypted ({ENCRYPTED[name]})"]


def test_the_answer_is_in_the_players_language(tmp_path: Path) -> None:
    english = DaemonHarness(tmp_path, GAME.replace('language = "de"', 'language = "en"'), START)
    english.run()
    english.send_raw(corpus("smime_encrypted"))
    (reply,) = english.run()
    assert reply["Subject"] == "[hn1] Encrypted mail cannot be read"
    assert "Please send your orders unencrypted" in english.prose(reply)
