"""Every phrase catalogue of the project is complete in both languages, its fields agree
between languages, and each game has one (the one text format of the toolkit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm_daemon.games.kit.phrases import Phrases

ROOT = Path(__file__).resolve().parent.parent / "gm_daemon"
CATALOGUES = sorted(ROOT.rglob("phrases.toml"))


def test_every_game_has_its_catalogue() -> None:
    games = {p.parent.name for p in CATALOGUES}
    assert {"highnoon", "primtraktor", "hornberg"} <= games


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_is_complete(path: Path) -> None:
    phrases = Phrases.load(path)
    assert phrases.check() == []
    assert set(phrases.languages) == {"de", "en"}
