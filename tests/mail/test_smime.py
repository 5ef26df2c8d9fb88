"""The BER path to an opaque-signed S/MIME mail's content: real blobs made by openssl, and
hostile bytes, which give None and never raise or take long."""

from __future__ import annotations

import time
from pathlib import Path

from gm_daemon.mail.smime import ENVELOPED_DATA, SIGNED_DATA, content_type, signed_content

BLOBS = Path(__file__).parents[1] / "mail_corpus" / "smime"


def blob(name: str) -> bytes:
    return (BLOBS / f"{name}.p7m").read_bytes()


def test_der_and_chunked_ber_signed_data_give_the_signed_entity() -> None:
    plain = signed_content(blob("opaque_plain"))
    assert plain is not None and plain.startswith(b"Content-Type: text/plain; charset=utf-8\r\n")
    assert plain.endswith(b"Egon M=C3=BCller\r\n")
    multi = signed_content(blob("opaque_multipart_ber"))
    assert multi is not None and multi.startswith(b"Content-Type: multipart/alternative")
    assert multi.endswith(b"--inner--\r\n")
    assert content_type(blob("opaque_plain")) == SIGNED_DATA


def test_enveloped_data_has_no_signed_content() -> None:
    assert content_type(blob("enveloped")) == ENVELOPED_DATA
    assert signed_content(blob("enveloped")) is None


def test_every_truncation_and_garbage_gives_none_quickly() -> None:
    data = blob("opaque_multipart_ber")
    start = time.process_time()
    for cut in range(len(data) - 1):
        signed_content(data[:cut])  # may find the content early, must never raise
        content_type(data[:cut])
    hostile = [
        b"",
        b"\x30",
        b"\x30\x84\xff\xff\xff\xff",  # a length far past the end
        b"\x30\x89" + b"\x01" * 9,  # a length field of nine bytes
        b"\x30\x80" + b"\x30\x80" * 5000,  # nesting without end
        b"\x30\x80" + b"\x30\x00" * 500_000 + b"\x00\x00",  # a million empty elements
        b"\x04\x80\x04\x00\x00\x00",  # indefinite length on a primitive type
        b"\x06\x00",
        b"\x1f\xff\xff\xff\xff\xff\x00",  # a tag number that never ends
    ]
    for data in hostile:
        assert signed_content(data) is None
        assert content_type(data) is None
    assert time.process_time() - start < 5
