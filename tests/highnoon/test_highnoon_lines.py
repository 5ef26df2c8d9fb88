"""The line kinds (``lines.Word``) behave as the frozen dataclasses they were: equal to their
own kind only, hashed, printed, matched, copied and refusing changes alike."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle
from typing import Any

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
    _refused_alike(word, before, [lambda o: setattr(o, "x", 1), lambda o: delattr(o, "x")])


def _refused_alike(now: object, then: object, changes: list[Any]) -> None:
    """Each change is refused on both objects with the same FrozenInstanceError text."""
    for change in changes:
        with pytest.raises(dataclasses.FrozenInstanceError) as refused_now:
            change(now)
        with pytest.raises(dataclasses.FrozenInstanceError) as refused_then:
            change(then)
        assert str(refused_now.value) == str(refused_then.value)


def test_words_of_two_kinds_differ_and_share_a_set_only_with_their_own() -> None:
    for one, other in itertools.combinations(WORDS, 2):
        assert one() != other()
    assert len({kind() for kind in WORDS for _ in range(3)}) == len(WORDS)


# Each kind with content, its fields as the frozen dataclass declared them, and values.
FIELDS: list[tuple[type, list[tuple[str, Any]], tuple[Any, ...]]] = [
    (lines.ChallengesHeading, [("names", ())], (("Anna", "Bert"),)),
    (lines.DuelLine, [("name", None), ("positions", ())], ("Anna", (3, 1, 4))),
    (lines.NameList, [("names", None)], (("Anna",),)),
    (lines.PlayerLine, [("name", None)], ("E. Müller",)),
]


def _as_fielded_dataclass(kind: type, fields: list[tuple[str, Any]]) -> type:
    """The kind as it was written before: a frozen dataclass of the same name and fields."""
    specs = [(name, object) if default is None else (name, object, default)
             for name, default in fields]  # fmt: skip
    return dataclasses.make_dataclass(kind.__name__, specs, frozen=True)


@pytest.mark.parametrize(
    ("kind", "fields", "values"), FIELDS, ids=lambda x: getattr(x, "__name__", "")
)
def test_a_line_with_content_behaves_as_its_frozen_dataclass(
    kind: type, fields: list[tuple[str, Any]], values: tuple[Any, ...]
) -> None:
    before_kind = _as_fielded_dataclass(kind, fields)
    line, before = kind(*values), before_kind(*values)
    by_name = kind(**{name: value for (name, _), value in zip(fields, values, strict=True)})
    assert repr(line) == repr(before) and repr(by_name) == repr(line)
    assert hash(line) == hash(before)
    assert line == by_name and (line != by_name) is False
    assert line != before and line != values
    assert kind.__match_args__ == before_kind.__match_args__
    for (name, default), value in zip(fields, values, strict=True):
        assert getattr(line, name) == value
        if default is not None:
            assert getattr(kind(*values[:-1]), name) == getattr(before_kind(*values[:-1]), name)
    assert copy.copy(line) == line == copy.deepcopy(line) == pickle.loads(pickle.dumps(line))
    changes = [
        lambda o: setattr(o, fields[0][0], 1),
        lambda o: delattr(o, fields[0][0]),
        lambda o: setattr(o, "x", 1),
    ]
    _refused_alike(line, before, changes)


def test_lines_of_two_kinds_with_the_same_content_differ() -> None:
    """A heading with names and a list of those names are two things (a tuple of the same
    values would be equal to both)."""
    names = ("Anna", "Bert")
    assert lines.ChallengesHeading(names) != lines.NameList(names)
    assert len({lines.ChallengesHeading(names), lines.NameList(names)}) == 2
    assert lines.DuelLine("Anna") != lines.PlayerLine("Anna")
