"""A host name that is ASCII already is checked without the IDNA codec (``_ascii_name``): it
must answer as the codec does for every such name — the same refusals, the same name."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gm_daemon.mail.address import _ascii_name, _domain_problem, address_problem


def _by_codec(domain: str) -> str | None:
    try:
        return domain.encode("idna").decode("ascii").lower()
    except (UnicodeError, ValueError):
        return None


# Labels around the codec's limits (0, 1, 63, 64 characters), dots anywhere, any case
_LABELS = st.one_of(
    st.sampled_from(["", "a", "A", "x" * 62, "x" * 63, "x" * 64, "x" * 70, "-", "ex_ample"]),
    st.text(alphabet="aZ09-_.", max_size=70),
)


@given(st.lists(_LABELS, max_size=5).map(".".join))
@example("")
@example(".")
@example("example.com.")
@example("a..b.test")
@example("x" * 63 + ".test")
@example("x" * 64 + ".test")
@example("test." + "x" * 63)
@example("test." + "x" * 64)
def test_an_ascii_name_is_read_as_the_codec_reads_it(domain: str) -> None:
    assert _ascii_name(domain) == _by_codec(domain)


@pytest.mark.parametrize(
    ("domain", "problem"),
    [
        ("a..b.test", "is not a valid host name"),
        ("x" * 64 + ".test", "is not a valid host name"),
        ("example.com.", "has an empty label"),
        ("EXAMPLE.ORG", None),
        ("müller.example", None),
        ("xn--mller-kva.example", None),
    ],
)
def test_the_answers_stay_the_codecs(domain: str, problem: str | None) -> None:
    _domain_problem.cache_clear()
    got = address_problem(f"egon@{domain}")
    assert got is None if problem is None else problem in (got or "")
