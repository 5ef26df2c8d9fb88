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


WITCHES = Phrases(
    {
        "de": {"w": {"one": "nur Hexe 1", "two": "die Hexen 1 und 2", "other": "1 bis {count}"}},
        "en": {"w": {"one": "witch 1", "two": "witches 1 and 2", "other": "1 to {count}"}},
    }
)


@pytest.mark.parametrize(
    ("lang", "count", "said"),
    [
        ("de", 1, "nur Hexe 1"),
        ("de", 2, "die Hexen 1 und 2"),
        ("de", 3, "1 bis 3"),
        ("en", 2, "witches 1 and 2"),
        ("en", 4, "1 to 4"),
    ],
)
def test_a_two_form_is_said_for_two_and_only_there(lang: str, count: int, said: str) -> None:
    """ "1 bis 2" reads wrong: a table may name two on its own; without it "other" holds."""
    assert WITCHES(lang, "w", count=count) == said
    assert WITCHES.check() == []
    assert PHRASES(lang, "cells", count=2).startswith("2 ")  # no two form: "other"


def test_an_unknown_language_falls_back_to_english() -> None:
    assert PHRASES("fr", "hi", name="Anna") == "Hello Anna"


def test_check_finds_missing_keys_and_other_fields() -> None:
    broken = Phrases({"de": {"hi": "Hallo {nam}"}, "en": {"hi": "Hello {name}", "bye": "Bye"}})
    assert sorted(broken.check()) == ["de: 'hi' has other fields than en", "de: missing 'bye'"]
    assert PHRASES.check() == []


PLAIN = Phrases(
    {
        "de": {"bye": "Tschüss", "braces": "{{Feld}}", "cells": {"one": "ein", "other": "viele"}},
        "en": {"bye": "Bye", "braces": "{{cell}}", "cells": {"one": "one", "other": "many"}},
    }
)


@pytest.mark.parametrize(
    ("lang", "key", "said"),
    [
        ("de", "bye", "Tschüss"),
        ("en", "bye", "Bye"),
        ("fr", "bye", "Bye"),  # the fallback, remembered under the language asked for
        ("de", "braces", "{Feld}"),  # filled as with values: "{{" says "{"
    ],
)
def test_a_phrase_without_values_is_said_the_same_every_time(
    lang: str, key: str, said: str
) -> None:
    """Said once and then remembered (``Phrases._plain``): the first and every later call
    give what ``str.format`` makes of the entry."""
    assert [PLAIN(lang, key) for _ in range(3)] == [said] * 3


def test_a_plural_without_count_raises_every_time() -> None:
    """Nothing is remembered for a call that raised: the second raises too."""
    for _ in range(2):
        with pytest.raises(TypeError):
            PLAIN("de", "cells")
    assert PLAIN("de", "cells", count=1) == "ein"
