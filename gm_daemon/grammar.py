"""Loading the Lark grammars in ``grammars/``, from a source checkout or the installed wheel."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path

from lark import Lark
from lark.lexer import PatternStr

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


def built_from(parser: Lark, sha256: str) -> bool:
    """Whether ``parser`` was built from the grammar text with this digest: a quick reader
    checked against one grammar turns itself off when the grammar file changes."""
    return hashlib.sha256(parser.source_grammar.encode("utf-8")).hexdigest() == sha256


def literal_terminals(parser: Lark, rules: Collection[str]) -> Iterator[tuple[str, str, str]]:
    """(rule, terminal, text) for every plain-string terminal the named rules expand to: the
    keywords and symbols a quick reader takes from the compiled grammar itself."""
    terminals = {t.name: t for t in parser.terminals}
    for rule in parser.rules:
        rule_name = str(rule.origin.name)
        if rule_name not in rules:
            continue
        for symbol in rule.expansion:
            term = terminals.get(symbol.name)
            if term is not None and isinstance(term.pattern, PatternStr):
                yield rule_name, symbol.name, term.pattern.value
