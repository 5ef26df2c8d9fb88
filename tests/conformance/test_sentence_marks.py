"""A hurried player ends his order lines like sentences ("Ost+, Nord+.", "Bier 5 auf ws1!"):
every kind reads them as the lines without the mark, in every phase its examples reach,
German and English. Before, three of the five games refused such a line ("„.“ nicht
verstanden") and offered another play as the correction."""

from __future__ import annotations

import pytest

from gm_daemon import games
from gm_daemon.games.text import without_full_stop
from tests.conformance.test_conformance import lines
from tests.conformance.test_suggestions import LANGS, _states

# the kinds players play: the test kinds of the conformance suite read no notation
KINDS = sorted(games.available_kinds())


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("Ost+, Nord+.", "Ost+, Nord+"),
        ("Bier 5 auf ws1!", "Bier 5 auf ws1"),
        ("Hexe 1: B7 | N6 ...", "Hexe 1: B7 | N6"),
        ("  A. Langsam 19, 15 . ", "  A. Langsam 19, 15"),
        ("Duelle", "Duelle"),
    ],
)
def test_the_mark_is_dropped_and_nothing_else(written: str, read: str) -> None:
    assert without_full_stop(written) == read


def _ended(row: str, mark: str) -> str:
    """The row as a sentence ends; a row that goes on in the next (a list wrapped after its
    comma) gets no mark."""
    return row if not row.strip() or row.rstrip().endswith((",", ";", ":")) else row + mark


@pytest.mark.parametrize("mark", [".", "!"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_an_example_ended_like_a_sentence_is_read_as_the_example(
    kind: str, lang: str, mark: str
) -> None:
    checked = 0
    for engine, state in _states(kind):
        for seat in sorted(engine.participants(state)):
            example = engine.example(state, seat, lang)
            if not example:
                continue
            marked = "\n".join(_ended(row, mark) for row in example.splitlines())
            as_given = engine.read_orders(lines(example), state, seat, lang).orders
            as_sentences = engine.read_orders(lines(marked), state, seat, lang).orders
            assert as_sentences == as_given, (kind, seat, marked)
            checked += 1
    assert checked, f"{kind}: no example to end with {mark!r}"
