"""Every mail of the corpus gets its documented reaction (expected.toml), none raises, none
takes a second; three 10 MB mails are built at test time instead of being committed."""

from __future__ import annotations

import email
import email.policy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gm_daemon.mail.message import Incoming, order_lines, parse_incoming
from tests.mail_corpus import make_corpus
from tests.mail_corpus.build import ORDER_LINES, ORDERS, eml, head, html, multipart, part, text
from tests.mail_corpus.cpu import within_limit

HERE = Path(__file__).parent
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads((HERE / "expected.toml").read_text("utf-8"))
OWN = "Spielleiter <gm@gm.test>"
REACTIONS = {"read", "no-orders", "ignored", "no-reply", "set-aside", "encrypted"}


def decode(raw: bytes, against_email_package: bool = False) -> tuple[Incoming, list[str]]:
    def run() -> tuple[Incoming, list[str]]:
        incoming = parse_incoming(raw, OWN)
        return incoming, [line.text for line in order_lines(incoming.text)]

    return within_limit(run, email_package_reading(raw) if against_email_package else None)


def email_package_reading(raw: bytes) -> Callable[[], None]:
    """The standard library reading the same bytes: parsed, every leaf part decoded."""

    def run() -> None:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        for leaf in message.walk():
            if not leaf.is_multipart():
                leaf.get_payload(decode=True)

    return run


def check(incoming: Incoming, lines: list[str], want: dict[str, Any]) -> None:
    """The documented reaction, field by field (see the header of expected.toml)."""
    reaction = want["reaction"]
    assert incoming.sender == want["sender"]
    assert incoming.text_from == want.get("text_from", "" if reaction == "set-aside" else "body")
    if reaction == "set-aside":
        assert want["unreadable"] in (incoming.unreadable or "")
        assert incoming.text == ""
        return
    assert incoming.unreadable is None
    if reaction == "no-reply":
        assert want["sender_problem"] in (incoming.sender_problem or "")
        return
    assert incoming.sender_problem is None or reaction == "ignored"
    if reaction == "ignored":
        assert want["automated"] in (incoming.automated or "")
        return
    assert incoming.automated is None
    assert lines == want.get("orders", [])
    assert (reaction == "read") == bool(lines)
    assert incoming.encrypted == (want["encrypted"] if reaction == "encrypted" else None)


def test_corpus_is_big_enough_and_every_mail_is_documented() -> None:
    mails = sorted(p.stem for p in HERE.glob("*.eml"))
    assert len(mails) >= 150
    assert mails == sorted(EXPECTED)
    assert {want["reaction"] for want in EXPECTED.values()} == REACTIONS


def test_committed_corpus_is_what_make_corpus_writes() -> None:
    cases = list(make_corpus.all_cases())
    assert (HERE / "expected.toml").read_text("utf-8") == make_corpus.expected_toml(cases)
    for case in cases:
        assert (HERE / f"{case.name}.eml").read_bytes() == case.raw, case.name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mail_gets_its_documented_reaction(name: str) -> None:
    incoming, lines = decode((HERE / f"{name}.eml").read_bytes())
    check(incoming, lines, EXPECTED[name])


# --- 10 MB mails, generated ----------------------------------------------------------------

TEN_MB = 10 * 1024 * 1024


def photo_beside_orders() -> bytes:
    photo = part(
        'image/jpeg; name="stammtisch.jpg"',
        bytes(range(256)) * (TEN_MB // 256 // 4 * 3),
        "base64",
        'Content-Disposition: attachment; filename="stammtisch.jpg"\n',
    )
    return eml(head(), multipart("mixed", text(ORDERS), photo))


def text_body() -> bytes:
    filler = "Ein Roman, den ich versehentlich eingefügt habe, Kapitel um Kapitel.\n"
    return eml(head(), text(ORDERS + filler * (TEN_MB // len(filler.encode()) + 1)))


def html_body() -> bytes:
    rows = "<tr><td>Zeile</td><td>mit <b>viel</b> Markup</td></tr>\n" * (TEN_MB // 52)
    return eml(head(), html("<br>".join(ORDER_LINES) + f"<table>{rows}</table>"))


def base64_text_attachment() -> bytes:
    data = (ORDERS + "GEHE NACH Saloon\n" * (TEN_MB // 17)).encode()
    befehle = part(
        "text/plain; charset=utf-8",
        data,
        "base64",
        "Content-Disposition: attachment; filename=b.txt\n",
    )
    return eml(head(), multipart("mixed", text("anbei"), befehle))


@pytest.mark.parametrize(
    "build",
    [photo_beside_orders, text_body, html_body, base64_text_attachment],
    ids=lambda f: f.__name__,
)
def test_ten_megabyte_mails_are_read_within_a_second(
    build: Callable[[], bytes], tmp_path: Path
) -> None:
    path = tmp_path / "big.eml"
    path.write_bytes(build())
    assert path.stat().st_size >= TEN_MB
    incoming, lines = decode(path.read_bytes(), against_email_package=True)
    assert (incoming.unreadable, incoming.automated) == (None, None)
    assert lines[: len(ORDER_LINES)] == ORDER_LINES
