"""Report layout the games share: tables, shared places, name lists."""

from __future__ import annotations

import pytest

from gm_daemon.games.kit.layout import name_list, places, ranking_lines, table


def test_table_aligns_columns_and_strips_trailing_space() -> None:
    rows = [["Anna", "D=3", "L=7"], ["Bertram", "D=10", "L=12"]]
    assert table(rows) == ["Anna     D=3   L=7", "Bertram  D=10  L=12"]
    assert table(rows, right={1}) == ["Anna      D=3  L=7", "Bertram  D=10  L=12"]
    assert table([["A. Langsam", "V. Pech"], ["H. Glück", "E. Müller"]], gap=" --- ") == [
        "A. Langsam --- V. Pech",
        "H. Glück   --- E. Müller",
    ]
    assert table([]) == []


def test_shared_places_skip_the_places_they_take() -> None:
    assert places([["a"], ["b", "c"], ["d"]]) == [(1, ["a"]), (2, ["b", "c"]), (4, ["d"])]
    assert ranking_lines([["a"], ["b", "c"]], str.upper) == ["  1. A", "  2. B", "     C"]


@pytest.mark.parametrize(
    ("names", "lang", "expected"),
    [
        ([], "de", ""),
        (["Anna"], "de", "Anna"),
        (["Anna", "Bert", "Cora"], "de", "Anna, Bert und Cora"),
        (["Anna", "Bert"], "en", "Anna and Bert"),
    ],
)
def test_name_list(names: list[str], lang: str, expected: str) -> None:
    assert name_list(names, lang) == expected
