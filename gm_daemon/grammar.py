"""Loading the Lark grammars in ``grammars/``, from a source checkout or the installed wheel.

An LALR parser is analysed from its grammar once and kept on disk (Lark's ``save``/``load``):
building High Noon's took ~0.1 s of every start, loading it takes a few milliseconds. The
cache is a convenience only: whatever is wrong with it (no folder, a read-only or full disk,
a stale, damaged or foreign file) means the grammar is built as before, quietly.

Lark itself is imported when a parser is built or loaded, not with this module: a quick
reader needs the grammar's file (``grammar_path``) and not its parser for the lines it reads
(High Noon's, ~25 ms of the first mail of ``run --once``).
"""

from __future__ import annotations

import hashlib
import io
import logging
import sys
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_daemon import disk_cache

if TYPE_CHECKING:
    from lark import Lark

_HERE = Path(__file__).resolve().parent
# The first line of a cache file, followed by the SHA-256 of the rest (the pickled parser)
_MAGIC = b"gm-daemon lark cache 1 "

log = logging.getLogger(__name__)


def grammar_dir() -> Path:
    """The wheel ships grammars inside the package; a checkout has them at the top level."""
    packaged = _HERE / "grammars"
    return packaged if packaged.is_dir() else _HERE.parent / "grammars"


def grammar_path(name: str) -> Path:
    return grammar_dir() / f"{name}.lark"


@cache
def parser(name: str, start: str = "start", parser_kind: str = "earley") -> Lark:
    """A cached parser for ``grammars/<name>.lark``; other grammars there can be imported."""
    return build(
        name,
        start=start,
        parser=parser_kind,
        propagate_positions=True,
        maybe_placeholders=False,
    )


def build(name: str, **options: Any) -> Lark:
    """``Lark`` on ``grammars/<name>.lark`` with these options (and the grammar folder for
    its imports); an LALR parser comes from the disk cache when it holds this very one."""
    from lark import Lark

    text = grammar_path(name).read_text(encoding="utf-8")
    options = {"import_paths": [grammar_dir()], **options}
    folder = cache_dir()
    if options.get("parser") != "lalr" or folder is None:  # Lark saves LALR parsers only
        return Lark(text, **options)
    path = folder / f"{name}-{_key(text, options)}.pickle"
    loaded = _load(path, text)
    if loaded is not None:
        return loaded
    built = Lark(text, **options)
    _save(built, path)
    return built


def cache_dir() -> Path | None:
    """Where analysed parsers are kept (``disk_cache.cache_dir``)."""
    return disk_cache.cache_dir("grammars")


def _key(text: str, options: dict[str, Any]) -> str:
    """What the analysed parser depends on: its grammar, every grammar it could import from
    the folder, the options, Lark's and Python's versions. A file under another key is never
    read, so an edited grammar or an upgrade cannot load a stale parser."""
    import lark

    digest = hashlib.sha256()
    parts = [text, repr(sorted(options.items())), lark.__version__, sys.version]
    parts += [p.read_text(encoding="utf-8") for p in sorted(grammar_dir().glob("*.lark"))]
    for part in parts:
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()[:32]


def _load(path: Path, text: str) -> Lark | None:
    """The parser kept at ``path``, or None. Unpickling runs code: ``disk_cache.read`` gives
    only a whole, undamaged file of this user's that nobody else can write."""
    from lark import Lark

    payload = disk_cache.read(path, _MAGIC)
    if payload is None:
        return None
    try:
        loaded = Lark.load(io.BytesIO(payload))
    except Exception:  # whatever a Lark of another make left: build it as if none were there
        log.debug("grammar cache %s: unreadable, built again", path, exc_info=True)
        return None
    loaded.source_grammar = text  # what ``built_from`` compares; not part of the saved data
    return loaded


def _save(built: Lark, path: Path) -> None:
    buffer = io.BytesIO()
    built.save(buffer)
    disk_cache.write(path, _MAGIC, buffer.getvalue())


def built_from(parser: Lark, sha256: str) -> bool:
    """Whether ``parser`` was built from the grammar text with this digest: a quick reader
    checked against one grammar turns itself off when the grammar file changes."""
    return hashlib.sha256(parser.source_grammar.encode("utf-8")).hexdigest() == sha256


def literal_terminals(parser: Lark, rules: Collection[str]) -> Iterator[tuple[str, str, str]]:
    """(rule, terminal, text) for every plain-string terminal the named rules expand to: the
    keywords and symbols a quick reader takes from the compiled grammar itself."""
    from lark.lexer import PatternStr

    terminals = {t.name: t for t in parser.terminals}
    for rule in parser.rules:
        rule_name = str(rule.origin.name)
        if rule_name not in rules:
            continue
        for symbol in rule.expansion:
            term = terminals.get(symbol.name)
            if term is not None and isinstance(term.pattern, PatternStr):
                yield rule_name, symbol.name, term.pattern.value
