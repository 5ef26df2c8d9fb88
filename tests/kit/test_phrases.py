"""The phrase catalogue: one call, plurals by count, one fallback rule, check()."""

from __future__ import annotations

import pytest

from gm_daemon.games.kit.phrases import Phrases

PHRASES = Phrases(
    {
        "de": {"cells": {"one": "{count} Feld", "other": "{count} Felder"}, "hi": "Hallo {name}"},
        "en": {"cells": {"one": "{count} cell", "other": "{count} cells"}, "hi": "Hello {name}"},
    }
)


def test_plurals_are_chosen_by_count() -> None:
    assert PHRASES("de", "cells", count=1) == "1 Feld"
    assert PHRASES("de", "cells", count=7) == "7 Felder"
    with pytest.raises(TypeError):
        PHRASES("de", "cells")


def test_an_unknown_language_falls_back_to_english() -> None:
    assert PHRASES("fr", "hi", name="Anna") == "Hello Anna"


def test_check_finds_missing_keys_and_other_fields() -> None:
    broken = Phrases({"de": {"hi": "Hallo {nam}"}, "en": {"hi": "Hello {name}", "bye": "Bye"}})
    assert sorted(broken.check()) == ["de: 'hi' has other fields than en", "de: missing 'bye'"]
    assert PHRASES.check() == []
