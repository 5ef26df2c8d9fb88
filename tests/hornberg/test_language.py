"""Colours by meaning, shown in the game's language (docs/games/hornberg.md, "Colours"):
the config names a colour in either language, the state keeps one code, an English mail
shows English codes and the player can order with exactly what his mail shows."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.options import Options


@pytest.mark.parametrize(
    "written",
    [["ro", "ge", "bl", "gr"], ["re", "ye", "bl", "gr"], ["red", "Yellow", "blau", "Grün"]],
)
def test_colours_are_configured_by_meaning(written: list[str]) -> None:
    assert Options(variant="kq", colours=written).colours == ("ro", "ge", "bl", "gr")


def test_an_unknown_or_repeated_colour_is_refused() -> None:
    with pytest.raises(ValidationError, match="unknown colours"):
        Options(variant="kq", colours=["ro", "mauve"])
    with pytest.raises(ValidationError, match="different"):
        Options(variant="kq", colours=["ro", "red"])  # the same colour twice


@pytest.mark.parametrize(
    ("code", "de", "en"),
    [("ro4", "ro4", "re4"), ("ge3/2", "ge3/2", "ye3/2"), ("sw1", "sw1", "bk1"),
     ("ws6/0", "ws6/0", "wh6/0"), ("bl2", "bl2", "bl2"), ("B5", "B5", "B5"), ("H7", "H7", "H7")],
)  # fmt: skip
def test_codes_are_shown_in_the_mail_language(code: str, de: str, en: str) -> None:
    assert cards.shown(code, "de") == de
    assert cards.shown(code, "en") == en


def test_every_shown_code_reads_back_as_its_colour() -> None:
    for colour in cards.PALETTE:
        for lang in ("de", "en"):
            assert cards.colour_code(cards.colour_shown(colour, lang)) == colour
