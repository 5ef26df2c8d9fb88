"""Whether a sender address is one the daemon may ever write to.

RFC 5322 allows far more than any mailbox really uses (quoted local parts with spaces, address
literals, comments). The daemon answers mail in the GM's name, so it writes only to the plain
shape every provider hands out: a dot-atom local part of at most 64 characters, an ``@`` and a
host name of at least two labels. Anything else is a forgery, a broken script or an attack,
and gets no answer at all: one reply to a made-up address is one bounce, or one mail to a
victim, in the GM's name.
"""

from __future__ import annotations

import re
from functools import lru_cache

# atext of RFC 5322, plus any non-ASCII character (RFC 6531 lets providers hand out "jürgen@").
_ATOM = r"(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7f])+"
_DOT_ATOM = re.compile(rf"{_ATOM}(?:\.{_ATOM})*")
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
# Two or more dot-separated labels: one match for the whole host name, not one per label.
_LABELS = re.compile(rf"{_LABEL}(?:\.{_LABEL})+")
_TLD = re.compile(r"[a-z]{2,63}|xn--[a-z0-9-]{1,59}")


def address_problem(address: str) -> str | None:
    """Why ``address`` must never be written to, or None when it is a plain mailbox."""
    if not address:
        return "no sender address"
    if len(address) > 254:
        return f"address longer than 254 characters ({len(address)})"
    # " " is the one white-space character that counts as printable (a test checks every one)
    if " " in address or not address.isprintable():
        return "space or control character in the address"
    local, at, domain = address.rpartition("@")
    if not at or not local:
        return "no local part before the @"
    return _local_problem(local) or _domain_problem(domain)


def _local_problem(local: str) -> str | None:
    if len(local) > 64:
        return f"local part longer than 64 characters ({len(local)})"
    if not _DOT_ATOM.fullmatch(local):
        return f"local part {_short(local)} is not a plain name (quotes, @, empty dot parts)"
    return None


def _ascii_name(domain: str) -> str | None:
    """``domain.encode("idna")`` in lower case, or None where the codec refuses it. A name
    that is ASCII already is all but every sender's: for it the codec only checks the label
    lengths (every label but the last 1–63 characters, the last under 64), done here as
    there, so its module (with ``stringprep``) is imported for the first name that needs it
    (~5 M instructions of a start)."""
    if domain.isascii():
        *labels, last = domain.split(".")
        if len(last) >= 64 or not all(0 < len(label) < 64 for label in labels):
            return None
        return domain.lower()
    try:
        return domain.encode("idna").decode("ascii").lower()
    except (UnicodeError, ValueError):
        return None


@lru_cache(maxsize=1024)
def _domain_problem(domain: str) -> str | None:
    """Remembered: a few domains send nearly every mail, and the IDNA codec is the dearest
    step of the check (the answer depends on the domain alone)."""
    ascii_domain = _ascii_name(domain)
    if ascii_domain is None:
        return f"domain {_short(domain)} is not a valid host name"
    labels = ascii_domain.split(".")
    if len(labels) < 2:
        return f"domain {_short(domain)} has no dot"
    if not _LABELS.fullmatch(ascii_domain):  # there are two or more labels (above)
        return f"domain {_short(domain)} has an empty label or a label with a bad character"
    if not _TLD.fullmatch(labels[-1]):
        return f"domain {_short(domain)} ends in {_short(labels[-1])}, not a top-level domain"
    return None


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")
