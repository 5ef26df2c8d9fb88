import pytest

from gm_daemon import games


@pytest.fixture(autouse=True)
def guess_kind(monkeypatch):
    """Register the test-only kind "guess" (tests/core/guessgame.py) for these tests."""
    monkeypatch.setitem(games._KINDS, "guess", "tests.core.guessgame:GAME")
