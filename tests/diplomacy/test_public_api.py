"""The adjudicator is a library of its own: its users outside the package (Highlander, the
benchmarks) import the names ``gm_daemon.diplomacy`` exports, never a module behind them, so
the package may rearrange its insides without breaking a game; the exported names exist."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gm_daemon.diplomacy as diplomacy
from gm_daemon.diplomacy import alias_sections, standard_board

ROOT = Path(__file__).resolve().parents[2]
# The command dispatcher starts the package's own command module; everything else is a user.
USERS = sorted(
    p
    for p in [*(ROOT / "gm_daemon").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    if "diplomacy" not in p.relative_to(ROOT).parts[:2] and p != ROOT / "gm_daemon" / "cli.py"
)


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, a.name, []) for a in node.names)
    return found


@pytest.mark.parametrize("path", USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_users_import_the_public_names_only(path: Path) -> None:
    for line, module, names in _imports(path):
        if module.startswith("gm_daemon.diplomacy."):
            pytest.fail(f"{path.name}:{line} imports {module}; use gm_daemon.diplomacy")
        if module == "gm_daemon.diplomacy":
            hidden = [n for n in names if n not in diplomacy.__all__]
            assert not hidden, f"{path.name}:{line}: {hidden} are not in __all__"


def test_every_exported_name_exists() -> None:
    assert all(hasattr(diplomacy, name) for name in diplomacy.__all__)


def test_alias_sections_name_known_provinces_in_the_files_sections() -> None:
    board = standard_board()
    sections = alias_sections()
    assert [s.split(" (")[0] for s in sections] == [
        "alternative abbreviations",
        "English spellings",
        "German names",
        "German short forms",
    ]
    for spellings in sections.values():
        for alias, place in spellings:
            assert board.lookup(alias) == board.loc(place), alias
    assert ("Adria", "ADR") in sections["German names (Highlander players write these)"]
