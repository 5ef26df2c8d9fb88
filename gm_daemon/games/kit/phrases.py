"""The phrase catalogue: every sentence a game (or the core) says, per language, as data.

One API for all: ``catalogue(lang, key, count=None, **values)``. Texts use ``str.format``
fields (``{name}``). One fallback rule: a language the catalogue lacks is answered in English;
a key missing in one language is a defect that ``check`` (run by the tests) finds. Plurals: an
entry may be a table ``{one = "…", other = "…"}``, chosen by ``count`` (which is also
available as ``{count}``); a ``two`` form, where a table has one, is said for two ("die Hexen
1 und 2", not "1 bis 2").

A catalogue lives in a TOML file beside the game, with one table per language::

    [de]
    round = "Runde {n}"
    shots = { one = "{count} Schuss", other = "{count} Schüsse" }
    [en]
    round = "Round {n}"
    shots = { one = "{count} shot", other = "{count} shots" }
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from pathlib import Path

from gm_daemon.disk_cache import parsed_toml

FALLBACK = "en"
Entry = str | Mapping[str, str]


class Phrases:
    def __init__(self, tables: Mapping[str, Mapping[str, Entry]]):
        if FALLBACK not in tables:
            raise ValueError(f"a phrase catalogue needs the fallback language {FALLBACK!r}")
        self.tables = tables
        # The phrases said without values, by language and key: the same few ("Viele
        # Grüße", "keine") close or fill every reply, and such a text is the same each time.
        self._plain: dict[tuple[str, str], str] = {}

    @classmethod
    def load(cls, path: Path) -> Phrases:
        """The catalogue in a TOML file, parsed once per version of the file (``disk_cache``:
        the three a High Noon start reads took ~10 ms to parse)."""
        text = path.read_bytes().decode()
        return cls(parsed_toml(text, path))

    @classmethod
    def beside(cls, module_file: str, name: str = "phrases.toml") -> Phrases:
        """The catalogue file next to a module: ``Phrases.beside(__file__)``."""
        return cls.load(Path(module_file).resolve().parent / name)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self.tables)

    def __call__(self, lang: str, key: str, /, count: int | None = None, **values: object) -> str:
        plain = count is None and not values
        if plain:
            said = self._plain.get((lang, key))
            if said is not None:
                return said
        table = self.tables.get(lang) or self.tables[FALLBACK]
        entry = table[key]
        if not isinstance(entry, str):
            if count is None:
                raise TypeError(f"phrase {key!r} has plural forms: pass count=")
            entry = _form(entry, count)
        if count is not None:
            values.setdefault("count", count)
        said = entry.format(**values)
        if plain:
            self._plain[lang, key] = said
        return said

    def per_language(self, key: str) -> dict[str, str]:
        """The phrase in every language of the catalogue, for a game's class attribute that
        the daemon reads per language (``leave_means``)."""
        return {lang: self(lang, key) for lang in self.languages}

    def has(self, key: str) -> bool:
        return key in self.tables[FALLBACK]

    def check(self) -> list[str]:
        """Defects: keys missing in a language, and placeholders that differ between languages
        (a German text without the ``{name}`` the English one fills)."""
        problems = []
        reference = self.tables[FALLBACK]
        for lang, table in self.tables.items():
            for key in reference.keys() - table.keys():
                problems.append(f"{lang}: missing {key!r}")
            for key in table.keys() - reference.keys():
                problems.append(f"{lang}: {key!r} is not in {FALLBACK}")
            for key in table.keys() & reference.keys():
                if _fields(table[key]) != _fields(reference[key]):
                    problems.append(f"{lang}: {key!r} has other fields than {FALLBACK}")
        return problems


def _form(entry: Mapping[str, str], count: int) -> str:
    if count == 1:
        return entry["one"]
    if count == 2 and "two" in entry:
        return entry["two"]
    return entry["other"]


def _fields(entry: Entry) -> set[str]:
    texts = [entry] if isinstance(entry, str) else list(entry.values())
    found = set()
    for text in texts:
        for _, name, _, _ in string.Formatter().parse(text):
            if name:
                found.add(name.split(".")[0].split("[")[0])
    return found - {"count"}
