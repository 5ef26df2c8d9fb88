"""The line kinds without content (``lines.Word``) behave as the frozen dataclasses they were:
equal to their own kind only, hashed, printed and refusing changes alike."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from gm_daemon.games.highnoon import lines

WORDS = [lines.DuelsHeading, lines.Done, lines.Nothing, lines.BudgetNote]


def _as_dataclass(kind: type) -> type:
    """The kind as it was written before: a frozen dataclass of the same name, no fields."""
    return dataclasses.dataclass(frozen=True)(type(kind.__name__, (), {}))


@pytest.mark.parametrize("kind", WORDS, ids=lambda kind: kind.__name__)
def test_a_word_behaves_as_its_frozen_dataclass(kind: type) -> None:
    word, before = kind(), _as_dataclass(kind)()
    assert repr(word) == repr(before) == f"{kind.__name__}()"
    assert hash(word) == hash(before)
    assert word == kind()
    assert (word != kind()) is False  # __ne__ from __eq__, as the dataclass had it
    assert word != before  # another class, as two dataclasses of one name were unequal
    assert word != lines.ChallengesHeading() and word != ()
    for change in (lambda o: setattr(o, "x", 1), lambda o: delattr(o, "x")):
        with pytest.raises(dataclasses.FrozenInstanceError) as now:
            change(word)
        with pytest.raises(dataclasses.FrozenInstanceError) as then:
            change(before)
        assert str(now.value) == str(then.value)


def test_words_of_two_kinds_differ_and_share_a_set_only_with_their_own() -> None:
    for one, other in itertools.combinations(WORDS, 2):
        assert one() != other()
    assert len({kind() for kind in WORDS for _ in range(3)}) == len(WORDS)
