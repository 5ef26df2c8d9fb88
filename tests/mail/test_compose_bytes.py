"""The fast writer of text-only mails gives the same mail as the email package's one."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone
from email import message_from_bytes
from email.errors import MessageError
from email.message import EmailMessage
from email.policy import default
from email.quoprimime import body_encode
from email.utils import formataddr
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from gm_daemon.games.protocol import Attachment
from gm_daemon.mail import compose as compose_module
from gm_daemon.mail.compose import (
    _quoted_printable,
    _references,
    _Tokens,
    compose,
    compose_bytes,
    is_own_message_id,
    new_message_id,
)

BASE: dict[str, Any] = {
    "sender": "gm@gm.test",
    "sender_name": "Spielleiter",
    "to": "anna@players.test",
    "subject": "[hn1] Befehle angenommen",
    "body": "Hallo Anna,\n\nangenommen.\n",
    "message_id": "<hn1.accepted.anna.1.0123456789ab@gm.test>",
    "date": datetime(2026, 12, 1, 11, 0, tzinfo=UTC),
}
CASES = {
    "plain": {},
    "umlauts everywhere": {
        "sender_name": "Spielleiter Müller",
        "subject": "[hn1] Grüße – Runde 3",
        "body": "Zwölf Bären = 12\n\u00e9t\u00e9 \u2013 \U0001f3b2\n",
    },
    "long subject and long lines": {
        "subject": "[hn1] " + "sehr lang " * 20,
        "body": ("x" * 200 + "\n") * 3 + ".\nFrom here\n  trailing spaces   \n\ttab\n",
    },
    "a reply in a game thread": {
        "game_id": "hn1",
        "in_reply_to": "<" + "y" * 70 + "@players.test>",
        "references": ["<a@x>", "<b@x>"],
    },
    "windows line ends and no final one": {"body": "a\r\nb\r\n\r\nc"},
}


def _parsed(data: bytes) -> EmailMessage:
    return message_from_bytes(data, policy=default)  # type: ignore[return-value]


@pytest.mark.parametrize("case", CASES)
def test_same_headers_and_text_as_the_email_package(case: str) -> None:
    kwargs = {**BASE, **CASES[case]}
    ours, theirs = _parsed(compose_bytes(**kwargs)), _parsed(bytes(compose(**kwargs)))
    assert sorted(ours.keys()) == sorted(theirs.keys())
    for name in theirs:
        assert str(ours[name]).strip() == str(theirs[name]).strip(), name
    assert ours.get_content() == theirs.get_content()
    assert ours.get_content_type() == "text/plain" and ours.get_content_charset() == "utf-8"


@pytest.mark.parametrize("case", CASES)
def test_seven_bit_crlf_lines_within_the_limit(case: str) -> None:
    data = compose_bytes(**{**BASE, **CASES[case]})
    data.decode("ascii")
    lines = data.split(b"\r\n")
    assert b"\n" not in b"".join(lines) and all(len(line) <= 998 for line in lines)
    body = data.split(b"\r\n\r\n", 1)[1]
    assert all(len(line) <= 76 for line in body.split(b"\r\n"))


def test_a_line_break_in_a_header_is_refused_as_before() -> None:
    for field in ("subject", "to"):
        with pytest.raises(ValueError):
            compose_bytes(**{**BASE, field: "a\nBcc: all@example.org"})
        with pytest.raises(ValueError):
            compose(**{**BASE, field: "a\nBcc: all@example.org"})


def test_mails_with_attachments_are_the_email_package_s() -> None:
    files = [Attachment("a.json", "application/json", b"{}\n")]
    kwargs = {**BASE, "game_id": "hn1", "attachments": files}
    assert compose_bytes(**kwargs) == bytes(compose(**kwargs))


# --- mails with attachments: written directly when the email package would write them as
# they stand, byte for byte the same; otherwise left to it ------------------------------------

_PRINTABLE = st.characters(min_codepoint=32, max_codepoint=126)
_ANY = st.characters(blacklist_categories=("Cs",))
_WORDS = st.lists(
    st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1), max_size=12
)
_texts = st.one_of(
    _WORDS.map(" ".join),  # mostly what the direct writer takes
    st.text(_PRINTABLE, max_size=90),
    st.text(_ANY, max_size=40),
)
_names = st.one_of(
    st.sampled_from(["hn1-3.json", "hornberg-2-5.png", "bild.png", "a", "Karte 1.png"]),
    st.text("abcXYZ019._-", min_size=1, max_size=70),
    st.text(_PRINTABLE, min_size=1, max_size=80),
    st.text(_ANY, min_size=1, max_size=12),
)
_attachments = st.lists(
    st.builds(
        Attachment,
        _names,
        st.sampled_from(
            ["application/json", "image/png", "text/plain", "Image/PNG", "x/y z", "a/" + "b" * 70]
        ),
        st.binary(max_size=300),
    ),
    min_size=1,
    max_size=3,
)
_bodies = st.one_of(
    st.text(_ANY, max_size=300),
    st.lists(
        st.sampled_from(["x" * 90, "Grüße", "", "  ", "=", ".", "From x", "a\tb "]), max_size=8
    ).map("\n".join),
)


# How the email package refuses a header: a line break (ValueError), an address it cannot
# parse (HeaderParseError). On some nonsense addresses ("<", ".:") it fails by a fault of its
# own instead; there is no answer to compare then, and the daemon never writes to an address
# that has not passed address_problem.
REFUSALS = (ValueError, MessageError)
PACKAGE_FAULTS = (AttributeError, IndexError, TypeError)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sender_name=st.one_of(st.sampled_from(["Spielleiter", "", "GM 2"]), _texts),
    to=st.one_of(
        st.sampled_from(["anna@players.test", "x.y+z@a-b.example", "a..b@x", "a@b@c"]), _texts
    ),
    subject=st.one_of(st.sampled_from(["[hn1] Ergebnis: Runde 3", "=?utf-8?q?x?="]), _texts),
    body=_bodies,
    game_id=st.one_of(st.none(), st.sampled_from(["hn1", "s0001", "a" * 60])),
    in_reply_to=st.one_of(st.none(), st.sampled_from(["<r@players.test>", "<" + "y" * 70 + "@p>"])),
    offset=st.sampled_from([0, 1, -5, 5.5]),
    attachments=_attachments,
)
def test_mails_with_attachments_are_byte_for_byte_the_email_package_s(
    sender_name: str,
    to: str,
    subject: str,
    body: str,
    game_id: str | None,
    in_reply_to: str | None,
    offset: float,
    attachments: list[Attachment],
) -> None:
    kwargs = {
        **BASE,
        "sender_name": sender_name,
        "to": to,
        "subject": subject,
        "body": body,
        "game_id": game_id,
        "in_reply_to": in_reply_to,
        "date": datetime(2026, 3, 29, 1, 30, tzinfo=timezone(timedelta(hours=offset))),
        "attachments": attachments,
    }
    try:
        expected = bytes(compose(**kwargs))
    except REFUSALS:  # the email package refuses it: so must we
        with pytest.raises(REFUSALS):
            compose_bytes(**kwargs)
        return
    except PACKAGE_FAULTS:
        reject()
    assert compose_bytes(**kwargs) == expected


_plain_words = st.lists(st.text("abcXYZ019[]:.!-'/", min_size=1, max_size=12), max_size=6)
_subjects = st.one_of(
    _plain_words.map(" ".join),
    st.lists(st.text("abcXYZ019[]:.!-'/äöß–é=?\t ", min_size=1, max_size=14), max_size=14).map(
        " ".join
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sender_name=st.sampled_from(["Spielleiter", "", "GM 2"]),
    subject=_subjects,
    body=_bodies,
    game_id=st.one_of(st.none(), st.text("abc019-", min_size=1, max_size=40)),
    attachments=st.lists(
        st.builds(
            Attachment,
            st.text("abcXYZ019._-", min_size=1, max_size=50),
            st.sampled_from(["application/json", "image/png", "text/plain"]),
            st.binary(max_size=200),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_plain_mails_with_attachments_are_written_directly_as_the_email_package_would(
    sender_name: str, subject: str, body: str, game_id: str | None, attachments: list[Attachment]
) -> None:
    kwargs = {
        **BASE,
        "sender_name": sender_name,
        "subject": subject,
        "body": body,
        "game_id": game_id,
        "attachments": attachments,
    }
    assert compose_bytes(**kwargs) == bytes(compose(**kwargs))


def test_a_game_s_result_mail_is_written_directly() -> None:
    files = [Attachment("hn1-3.json", "application/json", b'{"a": 1}\n' * 40)]
    for subject in ("[hn1] Ergebnis: Runde 3", "[s0000] High Noon: Runde 1 – Ergebnisse"):
        kwargs = {**BASE, "game_id": "hn1", "subject": subject, "attachments": files}
        assert _mixed_written(kwargs) == bytes(compose(**kwargs))


def _mixed_written(kwargs: dict[str, Any]) -> bytes | None:
    from gm_daemon.mail.compose import _mixed

    return _mixed(
        kwargs["sender"], kwargs["sender_name"], kwargs["to"], kwargs["subject"],
        kwargs["body"], kwargs["message_id"], kwargs["date"], kwargs.get("game_id"),
        kwargs.get("in_reply_to"), kwargs.get("references", ()), kwargs["attachments"],
    )  # fmt: skip


_read_back_subjects = st.lists(
    st.text("abcXYZ019[]:.!-'/&()äöüßÄÖÜ–„“é…", min_size=1, max_size=16), min_size=1, max_size=14
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(subject=_read_back_subjects, with_attachment=st.booleans())
def test_the_subject_reads_back_as_written(subject: str, with_attachment: bool) -> None:
    """The email package's own folding of Python 3.11 dropped the space between two encoded
    words: "Stammtisch Häberle" arrived as "StammtischHäberle" in a long result subject."""
    files = [Attachment("hb1-1.json", "application/json", b"{}")] if with_attachment else []
    kwargs = {**BASE, "subject": subject, "attachments": files}
    for data in (compose_bytes(**kwargs), bytes(compose(**kwargs))):
        assert str(_parsed(data)["Subject"]) == subject


def test_a_long_hornberg_result_subject_keeps_its_spaces() -> None:
    subject = (
        "[hb1] Hornberg Drunter & Drüber – Stammtisch Häberle: Zug 1 (Jörg Häberle) – Ergebnisse"
    )
    files = [Attachment("hb1-1.json", "application/json", b"{}")]
    data = compose_bytes(**{**BASE, "subject": subject, "attachments": files})
    assert str(_parsed(data)["Subject"]) == subject


def _quoted_whole(body: str) -> str:
    """The text part as ``body_encode`` quotes the whole body at once (what the writer did
    before it quoted line by line)."""
    text = "\n".join(body.splitlines()) + "\n"
    encoded = body_encode(text.encode("utf-8").decode("latin-1"), 76, eol="\r\n")
    return encoded if encoded.endswith("\r\n") else encoded + "\r\n"


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        _bodies,
        st.text(max_size=400),
        st.lists(
            st.sampled_from(
                ["x" * 75, "y" * 76, "z" * 77, "ä" * 30, "a ", "b\t", "\x85", "\u2028"]
            ),
            max_size=8,
        ).map("\n".join),
    )
)
def test_a_body_quoted_line_by_line_is_the_body_quoted_whole(body: str) -> None:
    assert _quoted_printable(body) == _quoted_whole(body)


def test_bodies_quoted_from_kept_lines_when_the_kept_ones_overflow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lines kept, forgotten when ``BODY_LINES_KEPT`` are, and quoted again: every body
    is the body quoted whole, whether its lines were kept, partly kept or not at all."""
    monkeypatch.setattr(compose_module, "BODY_LINES_KEPT", 5)
    monkeypatch.setattr(compose_module, "_BODY_LINES", {})
    lines = ["Hallo Anna,", "", "Runde 1: „angenommen“.", "x" * 80, "a ", "= ä", "Gruß"]
    for first in range(len(lines)):
        for size in range(1, 5):
            body = "\n".join(lines[first : first + size] + lines[:first])
            assert _quoted_printable(body) == _quoted_whole(body)
            assert len(compose_module._BODY_LINES) <= 5


@pytest.mark.parametrize("count", [1, _Tokens.BATCH, 3 * _Tokens.BATCH + 5])
def test_message_ids_are_unique_and_our_own_across_batches(count: int) -> None:
    """Tokens come from the system's random source a batch at a time: every id has the one
    shape ``is_own_message_id`` knows, and none repeats, also across batches."""
    tokens = _Tokens()
    ids = [new_message_id("gm.test", "hn1", "accepted", "anna", "1") for _ in range(count)]
    taken = [tokens.take() for _ in range(count)]
    assert len(set(ids)) == count and len(set(taken)) == count
    assert all(is_own_message_id(i, "gm.test") for i in ids)
    assert all(len(t) == 12 and set(t) <= set("0123456789abcdef") for t in taken)


def test_tokens_taken_by_threads_at_once_are_each_their_own() -> None:
    """The tokens wait in a deque without a lock: threads taking at once, across several
    batches, never get the same one."""
    tokens = _Tokens()
    start = threading.Barrier(8)

    def take(_: int) -> list[str]:
        start.wait()
        return [tokens.take() for _ in range(_Tokens.BATCH)]

    with ThreadPoolExecutor(8) as pool:
        taken = [token for part in pool.map(take, range(8)) for token in part]
    assert len(taken) == 8 * _Tokens.BATCH == len(set(taken))


def _references_in_general(
    sender: str, game_id: str | None, in_reply_to: str | None, references: list[str]
) -> list[str]:
    """What ``_references`` did for every mail before the mailer's case (no references)
    was taken apart: the thread root first, the mail replied to last, each once."""
    refs = list(references)
    if game_id is not None:
        refs.insert(0, f"<game.{game_id}@{sender.split('@', 1)[1]}>")
    if in_reply_to and in_reply_to not in refs:
        refs.append(in_reply_to)
    return list(dict.fromkeys(refs))


_IDS = ["<a@players.test>", "<game.hn1@gm.test>", "<game.hn2@gm.test>", ""]


@given(
    st.sampled_from(["gm@gm.test", "gm@other.test"]),
    st.sampled_from([None, "hn1", "hn2"]),
    st.sampled_from([None, *_IDS]),
    st.lists(st.sampled_from(_IDS), max_size=3),
)
def test_references_without_any_given_are_those_of_the_general_way(
    sender: str, game_id: str | None, in_reply_to: str | None, references: list[str]
) -> None:
    assert _references(sender, game_id, in_reply_to, references) == _references_in_general(
        sender, game_id, in_reply_to, references
    )
    assert _references(sender, game_id, in_reply_to, ()) == _references_in_general(
        sender, game_id, in_reply_to, []
    )


_BREAKS = [
    *("a\nb", "a\rb", "a\r\nb", "a\r\n b", "a\r\n\tb", "a\r", "a\r\n", "a\n "),
    *("\r\n a", "a\r\r\n b", "a b"),
]
_BROKEN_FIELDS = {  # argument: the header it is written in
    "to": "To",
    "message_id": "Message-ID",
    "game_id": "X-GM-Game",
    "in_reply_to": "In-Reply-To",
    "sender_name": "From",
}


@pytest.mark.parametrize("field", sorted(_BROKEN_FIELDS))
@pytest.mark.parametrize("value", _BREAKS, ids=repr)
def test_a_line_break_in_a_header_is_refused_by_name_and_a_fold_is_not(
    field: str, value: str
) -> None:
    """The head is asked for line breaks once, whole: exactly a value holding a line break
    other than a fold (CRLF and a blank) is refused, naming its header, as when each value
    was asked on its own."""
    kwargs = {**BASE, field: value}
    name = _BROKEN_FIELDS[field]
    header = formataddr((value, BASE["sender"])) if field == "sender_name" else value
    unfolded = header.replace("\r\n ", " ")
    if "\n" in unfolded or "\r" in unfolded:
        with pytest.raises(ValueError, match=f"header {name} may not contain a line break"):
            compose_bytes(**kwargs)
    else:
        assert f"{name}: {header}\r\n".encode() in compose_bytes(**kwargs)


_MOMENT = datetime(2026, 11, 28, 10, 0, 5, 999_999, tzinfo=UTC)


@pytest.mark.parametrize(
    "date",
    [
        _MOMENT,
        _MOMENT.replace(microsecond=1),  # the same second: the same text
        _MOMENT.astimezone(timezone(timedelta(hours=1))),  # the same moment, its own offset
        _MOMENT.astimezone(timezone(timedelta(hours=-9, minutes=-30))),
        _MOMENT + timedelta(seconds=1),
        _MOMENT.replace(tzinfo=None),  # no zone: "-0000"
    ],
    ids=str,
)
def test_the_date_header_is_the_email_package_s_in_any_order(date: datetime) -> None:
    """``_date`` keeps the texts it wrote by second and offset: each date, asked after
    every other of the list (the kept texts of the others in place), is written as
    ``format_datetime`` writes it to the second."""
    from email.utils import format_datetime

    from gm_daemon.mail.compose import _date

    others = [_MOMENT, _MOMENT.astimezone(timezone(timedelta(hours=1)))]
    for other in others:
        _date(other)
    expected = format_datetime(date.replace(microsecond=0))
    assert _date(date) == expected
    assert f"Date: {expected}\r\n".encode() in compose_bytes(**{**BASE, "date": date})
