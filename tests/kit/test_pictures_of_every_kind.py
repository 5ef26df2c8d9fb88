"""Every kind's pictures, as players get them, drawn with real letters, in one language, with
no text on top of another.

Four kinds draw pictures (High Noon has none): Hexenhalma (the board, a pairing), Highlander
(the map, the empty board before the set-up), Hornberg (the table), Primtraktor (the board).
Each is rendered through its engine with the players "Jörg Müller" and "Zoë Weiß-Öztürk"
(and, where a picture has a title, a title with „ “ – …), while a spy on Pillow's
``ImageDraw.text`` writes down every text drawn, its font and where it went. Then:

- every character drawn has a glyph in the shipped font's character map (fontTools), so no
  letter comes out as the font's missing-glyph box; the check itself is shown to catch a
  character the font lacks;
- every text is drawn with the kit's font, and the names are drawn as they are spelt;
- no word of the other language is drawn;
- no two texts drawn overlap (the marks of a picture are laid out by ``kit.picture``).
"""

from __future__ import annotations

import ast
import io
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import ImageDraw, ImageFont

from gm_daemon.games.hexenhalma import GAME as HEXENHALMA
from gm_daemon.games.hexenhalma.engine import PICTURE
from gm_daemon.games.hexenhalma.options import Options as HexenhalmaOptions
from gm_daemon.games.hexenhalma.picture import board_png
from gm_daemon.games.highlander import GAME as HIGHLANDER
from gm_daemon.games.highlander import picture as highlander_picture
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit, MapView
from gm_daemon.games.hornberg import GAME as HORNBERG
from gm_daemon.games.hornberg.options import Options as HornbergOptions
from gm_daemon.games.kit import picture
from gm_daemon.games.primtraktor import GAME as PRIMTRAKTOR
from gm_daemon.games.primtraktor.model import Options as PrimtraktorOptions
from gm_daemon.games.protocol import Line, Report, Seat

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Jörg Müller", "Zoë Weiß-Öztürk")
SEATS = [Seat("joerg", NAMES[0]), Seat("zoe", NAMES[1])]
TITLE = "Highlander – 1903 „Bewegung“ … Zoë Weiß-Öztürk"
KREUZ = (ROOT / "config" / "boards" / "kreuz.txt").read_text(encoding="utf-8")
# Words that must not appear in a picture of the other language.
FOREIGN = {
    "de": {"move", "support", "convoy", "retreat", "hold", "failed", "dislodged", "round",
           "board", "path", "you", "turn", "cells", "out"},
    "en": {"Zug", "Unterstützung", "Konvoi", "Rückzug", "Halten", "gescheitert", "vertrieben",
           "Runde", "Brett", "Weg", "Sie", "Felder", "ausgeschieden"},
}  # fmt: skip


@dataclass(frozen=True)
class Drawn:
    text: str
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont | None
    box: picture.Box


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    drawn: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(font, ImageFont.FreeTypeFont) and text.strip():
            left, top, right, bottom = font.getbbox(text, anchor=anchor or "la")
            box = (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)
        else:
            box = (0.0, 0.0, 0.0, 0.0)
        drawn.append(Drawn(text, font, box))
        return original(self, xy, text, fill, font, anchor, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


# --- each kind's pictures ---------------------------------------------------------------


def _pngs(report: Report) -> list[bytes]:
    pngs = [a.data for a in report.attachments if a.content_type == "image/png"]
    assert pngs
    return pngs


def _hexenhalma(lang: str) -> Iterator[str]:
    options = HexenhalmaOptions(boards=[KREUZ, KREUZ])
    state = HEXENHALMA.start(options, SEATS, random.Random(1))
    yield "board"
    board_png.cache_clear()  # drawn again, not taken from an earlier test's welcome
    _pngs(HEXENHALMA.welcome(state, "joerg", lang))
    orders = {
        "joerg": "Hexe 1: C7 | N+K, N4, E, N\nHexe 2: D7 | N, E+M, N5\nHexe 3: E7 | N5, W2+K, N",
        "zoe": "Hexe 1: C7 | N, N+B>D4, N3, E, N\nHexe 2: D7 | N+M, E, N5\n"
        "Hexe 3: E7 | N+K, N4, W2, N",
    }
    read = {
        seat: HEXENHALMA.read_orders(_lines(text), state, seat, "de").orders
        for seat, text in orders.items()
    }
    after = HEXENHALMA.resolve(state, read, random.Random(0), frozenset()).state
    yield "pairing"
    _pngs(PICTURE.run(after, "joerg", "Zoë", lang))


def _highlander(lang: str) -> Iterator[str]:
    state = HIGHLANDER.start(HIGHLANDER.Options(), SEATS, random.Random(1))
    (command,) = HIGHLANDER.commands
    yield "empty board"
    _pngs(command.run(state, "joerg", "", lang))
    yield "map"
    owners: dict[str, int | None] = {"LON": 0, "PAR": 0, "MUN": 1, "VEN": 1, "ROM": 1}
    view = MapView(
        title=TITLE,
        players=NAMES,
        owners=owners,
        units=(MapUnit(0, "F", "LON"), MapUnit(1, "A", "MUN"), MapUnit(1, "A", "VEN")),
        arrows=(
            MapArrow("move", "ROM", "VEN"),
            MapArrow("move", "TYR", "MUN"),
            MapArrow("hold", "MUN", "MUN", failed=True),
            MapArrow("hold", "LON", "LON"),
        ),
        dislodged=(MapUnit(0, "A", "MUN"),),
        notes=(("Brett „A“ – 1 : 0" if lang == "de" else "Board “A” – 1 : 0"),),
        lang=lang,
    )
    highlander_picture.render_map(view)


def _hornberg(lang: str) -> Iterator[str]:
    options = HornbergOptions(variant="kreuzer-quer", colours=("ro", "ge", "bl", "gr"))
    state = HORNBERG.start(options, SEATS, random.Random(1))
    yield "table"
    _pngs(HORNBERG.welcome(state, "joerg", lang))


def _primtraktor(lang: str) -> Iterator[str]:
    state = PRIMTRAKTOR.start(PrimtraktorOptions(board=25), SEATS, random.Random(1))
    yield "board"
    _pngs(PRIMTRAKTOR.welcome(state, "joerg", lang))


def _lines(text: str) -> list[Line]:
    return [Line(no, line) for no, line in enumerate(text.splitlines(), 1)]


KINDS = {
    "hexenhalma": _hexenhalma,
    "highlander": _highlander,
    "hornberg": _hornberg,
    "primtraktor": _primtraktor,
}
CASES = [(kind, lang) for kind in KINDS for lang in ("de", "en")]


def rendered(kind: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Drawn]]:
    """The texts of each picture of the kind, by picture: each kind's steps name a picture
    (yield), then render it, so what is drawn until the next name belongs to it."""
    drawn = _spy(monkeypatch)
    pictures: dict[str, list[Drawn]] = {}
    name = ""
    for step in KINDS[kind](lang):
        pictures[name] = drawn[:]
        drawn.clear()
        name = step
    pictures[name] = drawn[:]
    del pictures[""]
    for name, texts in pictures.items():
        assert texts, f"{kind} {name}: nothing drawn"
    return pictures


@pytest.fixture(scope="module")
def cmap() -> set[int]:
    font = TTFont(io.BytesIO(picture.font_bytes()))
    return set(font.getBestCmap())


def _missing(text: str, cmap: set[int]) -> list[str]:
    return [c for c in text if not c.isspace() and ord(c) not in cmap]


# --- the tests ----------------------------------------------------------------------------


def test_the_glyph_check_catches_a_character_the_font_lacks(cmap: set[int]) -> None:
    assert _missing("Jörg Müller „–“ … Ł ş ğ ı ō", cmap) == []
    assert _missing("Jörg \u4e2d \ue000", cmap) == ["\u4e2d", "\ue000"]


def test_the_font_has_every_letter_a_club_writes(cmap: set[int]) -> None:
    letters = "äöüßÄÖÜẞ„“”‚‘’–—…×·▸éèêáàçñøåëïōşğıŁłčžšÉÈÇÑØÅæœÆŒ"
    assert _missing(letters, cmap) == []


@pytest.mark.parametrize(("kind", "lang"), CASES)
def test_every_character_drawn_has_a_glyph_in_the_kits_font(
    kind: str, lang: str, cmap: set[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, drawn in rendered(kind, lang, monkeypatch).items():
        for d in drawn:
            assert d.font is not None and d.font.getname() == ("DejaVu Sans", "Book"), d.text
            assert _missing(d.text, cmap) == [], f"{kind} {name}: {d.text!r}"


@pytest.mark.parametrize(("kind", "lang"), [c for c in CASES if c[0] != "hornberg"])
def test_the_names_are_drawn_as_they_are_spelt(
    kind: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hornberg's table shows cards only, no names."""
    texts = " ".join(d.text for drawn in rendered(kind, lang, monkeypatch).values() for d in drawn)
    assert all(name in texts for name in NAMES), texts


@pytest.mark.parametrize(("kind", "lang"), CASES)
def test_a_picture_speaks_the_games_language_only(
    kind: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, drawn in rendered(kind, lang, monkeypatch).items():
        words = {w.strip('()„“",.:') for d in drawn for w in d.text.split()}
        assert words & FOREIGN[lang] == set(), f"{kind} {name}"


@pytest.mark.parametrize(("kind", "lang"), CASES)
def test_no_text_is_drawn_over_another(
    kind: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, drawn in rendered(kind, lang, monkeypatch).items():
        boxes = {f"{i} {d.text}": d.box for i, d in enumerate(drawn)}
        assert picture.clashes(boxes) == [], f"{kind} {name}"


def test_no_transliteration_is_left() -> None:
    """Names are drawn as written: no helper spells them in ASCII or Latin-1 for a font."""
    assert not hasattr(picture, "ascii_text") and not hasattr(picture, "latin1")
    found = []
    for path in sorted((ROOT / "gm_daemon" / "games").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name | ast.alias | ast.Attribute):
                name = getattr(node, "id", None) or getattr(node, "name", None)
                name = name or getattr(node, "attr", None)
                if name in ("ascii_text", "latin1", "GERMAN_LETTERS", "load_default"):
                    found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == []
