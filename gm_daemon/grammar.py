"""Loading the Lark grammars in ``grammars/``, from a source checkout or the installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark

_HERE = Path(__file__).resolve().parent


def grammar_dir() -> Path:
    """The wheel ships grammars inside the package; a checkout has them at the top level."""
    packaged = _HERE / "grammars"
    return packaged if packaged.is_dir() else _HERE.parent / "grammars"


def grammar_path(name: str) -> Path:
    return grammar_dir() / f"{name}.lark"


@cache
def parser(name: str, start: str = "start", parser_kind: str = "earley") -> Lark:
    """A cached parser for ``grammars/<name>.lark``; other grammars there can be imported."""
    return Lark(
        grammar_path(name).read_text(encoding="utf-8"),
        start=start,
        parser=parser_kind,
        import_paths=[grammar_dir()],
        propagate_positions=True,
        maybe_placeholders=False,
    )
