"""Report layout the games share: tables, shared places, name lists."""

from __future__ import annotations

import pytest

from gm_daemon.games.kit.layout import fold, name_list, places, ranking_lines, table


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


def test_fold_continues_a_long_line_indented_and_keeps_a_short_one() -> None:
    cells = "Felder " + ", ".join(f"{row}{col}" for row in "ABC" for col in range(1, 9))
    folded = fold("  Kanone ro1, ro6 → " + cells, indent=4).splitlines()
    assert len(folded) == 2 and all(len(line) <= 78 for line in folded)
    assert folded[1].startswith("    ") and not folded[1].startswith("     ")
    assert fold("  short line  ") == "  short line  "
