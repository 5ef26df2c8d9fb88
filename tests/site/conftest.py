"""One played game of each kind per test session, shared by the site's tests (playing
them is what costs; every test reads the same sites)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.site.played import SiteHarness, played


@pytest.fixture(scope="session")
def played_game(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], SiteHarness]:
    cache: dict[str, SiteHarness] = {}

    def get(name: str) -> SiteHarness:
        if name not in cache:
            root: Path = tmp_path_factory.mktemp(f"site-{name}")
            cache[name] = played(name, root)
        return cache[name]

    return get
