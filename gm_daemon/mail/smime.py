"""S/MIME bodies (RFC 8551) as far as the daemon reads them: the text inside an opaque-signed
mail, and whether a mail is encrypted.

An opaque-signed mail (``application/pkcs7-mime; smime-type=signed-data``, Outlook's
``application/x-pkcs7-mime``) carries the signed MIME entity inside a CMS ``SignedData``
structure (RFC 5652), DER or BER encoded. The entity is taken out as it stands; the signature
is not checked: the player's code is what proves who wrote, as for every other mail. An
``EnvelopedData`` (encrypted) body cannot be read without the player's key.

The reader here walks just the few BER elements on the way to the content (BER: lengths may
be indefinite and an OCTET STRING may come in chunks, as ``openssl cms -stream`` and Outlook
write it). Every length is checked against the data, and nesting is bounded, so hostile bytes
give None, never an exception or a long loop.
"""

from __future__ import annotations

from dataclasses import dataclass

SIGNED_DATA = "1.2.840.113549.1.7.2"
ENVELOPED_DATA = "1.2.840.113549.1.7.3"
AUTH_ENVELOPED_DATA = "1.2.840.113549.1.9.16.1.23"
ENCRYPTED = frozenset({ENVELOPED_DATA, AUTH_ENVELOPED_DATA})

_MAX_DEPTH = 24  # BER nesting on the way to the content; real structures use under ten
_SEQUENCE, _OID, _OCTET_STRING = 0x10, 0x06, 0x04


class _Bad(ValueError):
    """The bytes are not the BER structure expected."""


@dataclass(frozen=True)
class _Element:
    tag: int  # the tag number
    cls: int  # 0 universal, 2 context-specific
    constructed: bool
    start: int  # first content byte
    end: int  # one past the last content byte (before an end-of-contents marker)
    next: int  # where the following element starts


def content_type(data: bytes) -> str | None:
    """The content type OID of a CMS ContentInfo, or None when ``data`` is not one."""
    reader = _Reader(data)
    try:
        return reader.oid(reader.children(reader.read(0))[0])
    except (_Bad, IndexError):
        return None


def signed_content(data: bytes) -> bytes | None:
    """The encapsulated content of a CMS SignedData (the signed MIME entity), or None when
    ``data`` is no SignedData or carries no content (a detached signature)."""
    reader = _Reader(data)
    try:
        info = reader.children(reader.read(0))
        if reader.oid(info[0]) != SIGNED_DATA or info[1].cls != 2:
            return None
        signed = reader.children(reader.only_child(info[1]))
        encapsulated = reader.children(signed[2])  # version, digestAlgorithms, encapContent
        if len(encapsulated) < 2 or encapsulated[1].cls != 2:
            return None
        return reader.octets(reader.only_child(encapsulated[1]))
    except (_Bad, IndexError):
        return None


class _Reader:
    """BER elements of one blob. Each element read costs one unit of a budget no real CMS
    structure comes near (certificates included, a few hundred), so a hostile blob of a
    million empty elements is refused quickly."""

    def __init__(self, data: bytes, budget: int = 20_000) -> None:
        self.data = data
        self.budget = budget

    def read(self, pos: int, depth: int = 0) -> _Element:
        """The element starting at ``pos``."""
        self.budget -= 1
        if depth > _MAX_DEPTH or self.budget < 0:
            raise _Bad("nested too deep or too many elements")
        data = self.data
        first = self.byte(pos)
        cls, constructed, tag = first >> 6, bool(first & 0x20), first & 0x1F
        pos += 1
        if tag == 0x1F:  # high tag number: base-128 digits
            tag = 0
            for _ in range(4):
                octet = self.byte(pos)
                pos += 1
                tag = tag << 7 | octet & 0x7F
                if not octet & 0x80:
                    break
            else:
                raise _Bad("tag number too long")
        length = self.byte(pos)
        pos += 1
        if length == 0x80:  # indefinite: the children run up to an end-of-contents marker
            if not constructed:
                raise _Bad("indefinite length on a primitive element")
            child = pos
            while data[child : child + 2] != b"\0\0":
                child = self.read(child, depth + 1).next
            return _Element(tag, cls, constructed, pos, child, child + 2)
        if length & 0x80:
            count = length & 0x7F
            if count > 4 or pos + count > len(data):
                raise _Bad("length field too long")
            length = int.from_bytes(data[pos : pos + count], "big")
            pos += count
        if pos + length > len(data):
            raise _Bad("element runs past the end")
        return _Element(tag, cls, constructed, pos, pos + length, pos + length)

    def byte(self, pos: int) -> int:
        if pos >= len(self.data):
            raise _Bad("truncated")
        return self.data[pos]

    def children(self, element: _Element) -> list[_Element]:
        if not element.constructed:
            raise _Bad("not constructed")
        found, pos = [], element.start
        while pos < element.end:
            child = self.read(pos)
            found.append(child)
            pos = child.next
        return found

    def only_child(self, element: _Element) -> _Element:
        """The element inside an EXPLICIT context tag ([0])."""
        children = self.children(element)
        if len(children) != 1:
            raise _Bad("explicit tag without exactly one element")
        return children[0]

    def octets(self, element: _Element, depth: int = 0) -> bytes:
        """An OCTET STRING's bytes; BER may split it into a constructed string of chunks."""
        if element.tag != _OCTET_STRING or element.cls != 0:
            raise _Bad("not an OCTET STRING")
        if not element.constructed:
            return self.data[element.start : element.end]
        if depth > _MAX_DEPTH:
            raise _Bad("nested too deep")
        return b"".join(self.octets(chunk, depth + 1) for chunk in self.children(element))

    def oid(self, element: _Element) -> str:
        if element.tag != _OID or element.cls != 0 or element.constructed:
            raise _Bad("not an OBJECT IDENTIFIER")
        raw = self.data[element.start : element.end]
        if not raw or raw[-1] & 0x80 or len(raw) > 64:
            raise _Bad("malformed OBJECT IDENTIFIER")
        numbers, value = [], 0
        for octet in raw:
            value = value << 7 | octet & 0x7F
            if not octet & 0x80:
                numbers.append(value)
                value = 0
        first = min(numbers[0] // 40, 2)
        return ".".join(map(str, [first, numbers[0] - 40 * first, *numbers[1:]]))
