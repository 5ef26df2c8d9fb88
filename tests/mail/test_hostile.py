"""The defects issue 12 found in mail decoding, one test each, and the guards that keep one bad
mail from stopping intake: parse_incoming never raises and says what it could not read."""

from __future__ import annotations

import pytest

from gm_daemon.mail import message
from gm_daemon.mail.address import address_problem
from gm_daemon.mail.armour import strip_armour
from gm_daemon.mail.compose import is_own_message_id
from gm_daemon.mail.message import (
    MAX_DEPTH,
    MAX_LINES,
    decode_bytes,
    order_lines,
    parse_incoming,
)

OWN = "gm@gm.test"


def _texts(raw: bytes) -> list[str]:
    return [line.text for line in order_lines(parse_incoming(raw, OWN).text)]


# --- sender --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        b"=?utf-8?q?Egon_M=C3=BCller_<egon@example.org>?=",
        b"=?utf-8?q?Egon_M=C3=BCller_=3Cegon=40example=2Eorg=3E?=",
        b"=?utf-8?b?RWdvbiBNw7xsbGVyIDxlZ29uQGV4YW1wbGUub3JnPg==?=",
        b"=?ISO-8859-1?B?RWdvbiBN/GxsZXIgPGVnb25AZXhhbXBsZS5vcmc+?=",
    ],
)
def test_from_encoded_as_one_word_keeps_name_and_address(header: bytes) -> None:
    got = parse_incoming(b"From: " + header + b"\n\nGEHE NACH Saloon\n", OWN)
    assert (got.sender, got.display_name, got.sender_problem) == (
        "egon@example.org",
        "Egon Müller",
        None,
    )


@pytest.mark.parametrize(
    "address",
    [
        "@evil.test",
        "a@evil..test",
        "mal lory@evil.test",
        '"mal lory"@evil.test',
        "a@-evil-.test",
        "x" * 5000 + "@evil.test",
        "x" * 65 + "@evil.test",
        "a@localhost",
        "a@[192.0.2.1]",
        "a@192.0.2.1",
        "a..b@evil.test",
        "a@b@evil.test",
        "a@evil_host.test",
    ],
)
def test_invalid_sender_addresses_are_recognised(address: str) -> None:
    got = parse_incoming(f"From: {address}\n\nGEHE NACH Saloon\n".encode(), OWN)
    assert got.sender_problem is not None
    assert address_problem(address) is not None


@pytest.mark.parametrize(
    "address",
    [
        "egon@example.org",
        "e.mueller+pbm@mail.example.co.uk",
        "jürgen@müller.example",
        "x" * 64 + "@a.de",
    ],
)
def test_plain_mailboxes_are_valid(address: str) -> None:
    assert address_problem(address) is None


def test_mail_without_any_address_has_a_sender_problem() -> None:
    got = parse_incoming(b"From: Egon\n\nx\n", OWN)
    assert (got.sender, got.sender_problem) == ("", "no sender address")


def test_line_breaks_in_names_and_subjects_are_flattened() -> None:
    raw = b"From: =?utf-8?q?Egon=0D=0ABcc=3A_x=40y=2Ez?= <egon@example.org>\n"
    raw += b"Subject: =?utf-8?q?Hallo=0D=0ABcc:_victim@example.org=00?=\n\nx\n"
    got = parse_incoming(raw, OWN)
    assert (got.display_name, got.subject) == ("Egon Bcc: x@y.z", "Hallo Bcc: victim@example.org")


def test_a_malformed_encoded_name_never_yields_a_usable_foreign_address() -> None:
    """Unencoded ":" and "@" inside a word make the header a group; whatever address comes
    out, it is either the real one or marked as not to be written to."""
    raw = b"From: =?utf-8?q?Egon=0D=0ABcc:_x@y.z?= <egon@example.org>\n\nx\n"
    got = parse_incoming(raw, OWN)
    assert got.sender == "egon@example.org" or got.sender_problem is not None
    assert "\n" not in got.display_name + got.sender


# --- Message-ID ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "want"),
    [
        (b"Message-ID:\n 20261122.1234.egon@host.example\n", "<20261122.1234.egon@host.example>"),
        (
            b"Message-ID: 20261122.1234\r\n\t.egon@host.example\r\n",
            "<20261122.1234.egon@host.example>",
        ),
        (b"Message-ID: <abc@host.example\n", "<abc@host.example>"),
        (b"Message-ID: \n", None),
    ],
)
def test_message_id_without_brackets_is_unfolded_and_bracketed(
    header: bytes, want: str | None
) -> None:
    assert parse_incoming(b"From: a@b.de\n" + header + b"\nx\n", OWN).message_id == want


# --- automated or not ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "subject",
    ["Abwesend: 3.-10. März, Befehle anbei", "Abwesend", "Out of office next week", "Urlaub"],
)
def test_human_subjects_about_absence_are_not_auto_replies(subject: str) -> None:
    raw = f"From: egon@example.org\nSubject: {subject}\n\nGEHE NACH Saloon\n".encode()
    assert parse_incoming(raw, OWN).automated is None


def test_abwesend_with_auto_reply_headers_is_automated() -> None:
    raw = b"From: egon@example.org\nSubject: Abwesend: x\nAuto-Submitted: auto-replied\n\nweg\n"
    assert "Auto-Submitted" in (parse_incoming(raw, OWN).automated or "")


@pytest.mark.parametrize(
    "subject",
    [
        "Out of Office AutoReply: [hn1] Runde 1",
        "Automatische Antwort: [hn1] Runde 1",
        "Automatic reply: [hn1] Runde 1",
        "AutoReply: x",
        "Réponse automatique : x",
    ],
)
def test_client_auto_reply_subjects_are_automated(subject: str) -> None:
    raw = f"From: egon@example.org\nSubject: {subject}\n\nIch bin nicht da.\n".encode()
    assert parse_incoming(raw, OWN).automated == "auto-reply subject"


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ("X-GM-Game: hn1\n", "X-GM-Game"),
        ("Message-ID: <hn1.accepted.egon.1.0a1b2c3d4e5f@gm.test>\n", "one of ours"),
        ("Message-ID: <game.hn1@gm.test>\n", "one of ours"),
        ("X-MS-Exchange-Inbox-Rules-Loop: egon@example.org\n", "Inbox-Rules-Loop"),
        ("X-Loop: egon@example.org\n", "X-Loop"),
        ("Resent-From: egon@example.org\nFrom: Spielleiter <gm@gm.test>\n", "own address"),
    ],
)
def test_our_own_mail_sent_back_by_a_rule_is_automated(headers: str, reason: str) -> None:
    raw = f"{headers}From: egon@example.org\nSubject: [hn1] Runde 1\n\nBefehle angenommen\n"
    assert reason in (parse_incoming(raw.encode(), OWN).automated or "")


def test_players_sharing_our_domain_are_not_taken_for_us() -> None:
    raw = b"From: egon@gm.test\nMessage-ID: <3f1c2a9e-5b7d-4c1e-9a8f-2d6e1b0c7a41@gm.test>\n\nx\n"
    assert parse_incoming(raw, OWN).automated is None
    assert not is_own_message_id("<20261122.a1b2c3d4e5f6.x@gm.test>", "gm.test")


FORWARD_ATTACHED = (
    b"From: egon@example.org\nSubject: WG: [hn1] Runde 1\n"
    b"Content-Type: multipart/mixed; boundary=F\n\n--F\nContent-Type: text/plain\n\n{own}\n"
    b"--F\nContent-Type: message/rfc822\n\nFrom: Spielleiter <gm@gm.test>\nX-GM-Game: hn1\n"
    b"Subject: [hn1] Runde 1\n\nBefehle angenommen.\n--F--\n"
)


def test_a_forward_of_our_mail_without_own_text_is_automated() -> None:
    raw = FORWARD_ATTACHED.replace(b"{own}", b"")
    assert "forward of our own mail" in (parse_incoming(raw, OWN).automated or "")
    inline = (
        b"From: egon@example.org\nSubject: Fwd: [hn1] Runde 1\n\n"
        b"---------- Forwarded message ---------\nVon: Spielleiter <gm@gm.test>\n"
        b"Betreff: [hn1] Runde 1\n\nBefehle angenommen.\n"
    )
    assert "forward of our own mail" in (parse_incoming(inline, OWN).automated or "")


def test_a_forward_with_a_question_is_a_human_mail() -> None:
    raw = FORWARD_ATTACHED.replace(b"{own}", b"Warum wurde das abgelehnt?")
    assert parse_incoming(raw, OWN).automated is None


# --- the order text ------------------------------------------------------------------------


def _with_attachment(body: str, attachment: bytes, headers: str = "") -> bytes:
    return (
        (
            "From: Egon Müller <egon@example.org>\nContent-Type: multipart/mixed; boundary=A\n\n"
            f"--A\nContent-Type: text/plain; charset=utf-8\n\n{body}\n"
            "--A\nContent-Type: text/plain; name=befehle.txt\n"
            f"Content-Disposition: attachment; filename=befehle.txt\n{headers}\n"
        ).encode()
        + attachment
        + b"\n--A--\n"
    )


ATTACHED = b"Duelle\nA. Langsam 19, 15\nHerausforderungen\nH. Gl\xc3\xbcck\n"


@pytest.mark.parametrize(
    "body",
    [
        "",
        "Hallo,\nanbei meine Befehle.\n\nGruß\nEgon",
        "Befehle im Anhang.\n-- \nEgon Müller\nTel. 0123",
        "Hi GM,\nmeine Befehle für Runde 3\nViele Grüße, Egon",
    ],
)
def test_orders_in_an_attached_text_file_are_read_when_the_body_is_a_cover_note(
    body: str,
) -> None:
    got = parse_incoming(_with_attachment(body, ATTACHED), OWN)
    assert got.text_from == "attachment befehle.txt"
    assert [line.text for line in order_lines(got.text)] == [
        "Duelle",
        "A. Langsam 19, 15",
        "Herausforderungen",
        "H. Glück",
    ]


def test_the_code_in_the_cover_note_is_kept_ahead_of_the_attachment() -> None:
    got = parse_incoming(_with_attachment("Hallo,\nCode: EGON-1234\nanbei.", ATTACHED), OWN)
    assert [(line.no, line.text) for line in order_lines(got.text)][:2] == [
        (1, "Code: EGON-1234"),
        (2, "Duelle"),
    ]


def test_orders_in_the_body_win_over_an_attachment() -> None:
    got = parse_incoming(_with_attachment("Code: X\nGEHE NACH Saloon", ATTACHED), OWN)
    assert (got.text_from, _texts(_with_attachment("GEHE NACH Saloon", ATTACHED))) == (
        "body",
        ["GEHE NACH Saloon"],
    )


def test_a_notepad_utf16_attachment_is_read() -> None:
    data = "\ufeffDuelle\r\nA. Langsam 19, 15\r\n".encode("utf-16-le")
    raw = _with_attachment(
        "anbei", __import__("base64").encodebytes(data), "Content-Transfer-Encoding: base64\n"
    )
    assert _texts(raw) == ["Duelle", "A. Langsam 19, 15"]


CLEARSIGNED = (
    "Hallo,\n"
    "-----BEGIN PGP SIGNED MESSAGE-----\n"
    "Hash: SHA256\n"
    "\n"
    "Code: EGON-1234\n"
    "GEHE NACH Saloon\n"
    "- -Strich bleibt\n"
    "- -- \n"
    "Egon\n"
    "-----BEGIN PGP SIGNATURE-----\n"
    "\n"
    "iQEzBAEBCAAdFiEE0123456789abcdefghijklmnopqrstuvwxyz=\n"
    "=AbCd\n"
    "-----END PGP SIGNATURE-----\n"
)


def test_inline_clear_signed_orders_are_read_with_their_line_numbers() -> None:
    got = parse_incoming(f"From: egon@example.org\n\n{CLEARSIGNED}".encode(), OWN)
    assert [(line.no, line.text) for line in order_lines(got.text)] == [
        (1, "Hallo,"),
        (5, "Code: EGON-1234"),
        (6, "GEHE NACH Saloon"),
        (7, "-Strich bleibt"),
    ]


def test_armour_blocks_become_blank_lines() -> None:
    text = "a\n-----BEGIN PGP MESSAGE-----\n\nhQEMA\n-----END PGP MESSAGE-----\nb"
    assert strip_armour(text) == "a\n\n\n\n\nb"
    assert strip_armour("- no armour here") == "- no armour here"


@pytest.mark.parametrize(
    "label", ["iso-8859-15", "iso-8859-1", "us-ascii", "windows-1252", "koi8-r"]
)
def test_utf8_bytes_under_any_8bit_label_are_read_as_utf8(label: str) -> None:
    body = "GEHE NACH Grüße € – ŝ".encode()
    raw = f"From: a@b.de\nContent-Type: text/plain; charset={label}\n\n".encode() + body
    assert parse_incoming(raw, OWN).text == "GEHE NACH Grüße € – ŝ"


def test_real_latin9_is_still_latin9() -> None:
    assert decode_bytes("Grüße €".encode("iso-8859-15"), "iso-8859-15") == "Grüße €"
    assert decode_bytes("Grüße".encode("utf-16"), "us-ascii") == "Grüße"


@pytest.mark.parametrize("label", ["unicode_escape", "raw-unicode-escape", "idna", "punycode"])
def test_python_only_codecs_are_no_charsets(label: str) -> None:
    """Found by the fuzzer: "\\" + NUL under unicode_escape warns (an error in the tests)."""
    assert decode_bytes(b"\\\x00 Gl\xc3\xbcck", label) == "\\\x00 Glück"


def test_order_lines_read_at_most_max_lines() -> None:
    lines = order_lines("x\n" * (MAX_LINES + 50))
    assert (len(lines), lines[-1].no) == (MAX_LINES, MAX_LINES)


# --- mails that cannot be read -------------------------------------------------------------


def nested_multipart(levels: int) -> bytes:
    """A mail of ``levels`` multiparts inside each other (1 000 levels are about 60 kB)."""
    head = b"From: Mallory <mallory@example.org>\nSubject: deep\nMessage-ID: <deep@x.example>\n"
    parts = [head + b"Content-Type: multipart/mixed; boundary=b0\n\n"]
    parts += [
        b"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n" % (i, i + 1)
        for i in range(levels)
    ]
    parts.append(b"--b%d\nContent-Type: text/plain\n\nGEHE NACH Saloon\n" % levels)
    parts += [b"--b%d--\n" % i for i in range(levels, -1, -1)]
    return b"".join(parts)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 150, 1000, 5000])
def test_deeply_nested_mail_is_unreadable_but_keeps_its_headers(levels: int) -> None:
    raw = nested_multipart(levels)
    got = parse_incoming(raw, OWN)
    assert got.unreadable is not None
    assert (got.sender, got.message_id, got.text) == ("mallory@example.org", "<deep@x.example>", "")


def test_the_thousand_level_mail_of_the_issue_is_about_60_kb() -> None:
    assert 50_000 < len(nested_multipart(1000)) < 70_000


def test_nesting_within_the_limit_is_read() -> None:
    got = parse_incoming(nested_multipart(MAX_DEPTH - 2), OWN)
    assert (got.unreadable, got.text.strip()) == (None, "GEHE NACH Saloon")


def test_too_many_parts_are_unreadable() -> None:
    parts = b"--B\nContent-Type: text/plain\n\nx\n" * 1200
    raw = b"From: a@b.de\nContent-Type: multipart/mixed; boundary=B\n\n" + parts + b"--B--\n"
    assert "MIME parts" in (parse_incoming(raw, OWN).unreadable or "")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00" * 100,
        b"\xff\xfe\xfd",
        b"From:\n\n",
        b":\n:\n\n",
        b"Content-Type: multipart/x\n\n--",
    ],
)
def test_junk_never_raises(raw: bytes) -> None:
    got = parse_incoming(raw, OWN)
    assert got.sender_problem is not None


def test_a_decoder_bug_costs_one_mail_and_keeps_the_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last guard: a bug below parse_incoming marks the mail unreadable instead of
    stopping intake, and the sender is still known for the GM's log."""

    def broken(*_: object) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(message, "strip_armour", broken)  # on the quick and the slow way
    got = parse_incoming(b"From: Egon <egon@example.org>\nMessage-ID: <x@y.z>\n\nx\n", OWN)
    assert (got.unreadable, got.sender, got.message_id, got.text) == (
        "decoder error: RuntimeError",
        "egon@example.org",
        "<x@y.z>",
        "",
    )


def test_a_nul_in_an_rfc2231_file_name_is_no_decoder_error():
    """Found by the 100 000-mail fuzz run: ``filename*=<NUL>''`` made the email package hand
    a NUL charset to the codec, which raised; the mail was set aside as a decoder error."""
    raw = (
        b":\nContent-type: multipart/;boundary= b\x00 \n--b\x00\n:\n"
        b"Content-Disposition: ;filename*=\x00''"
    )
    assert not (parse_incoming(raw, "gm@gm.test").unreadable or "").startswith("decoder error")
