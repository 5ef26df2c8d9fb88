"""The analysed LALR parsers kept on disk (``gm_daemon.grammar.build``).

A parser loaded from the cache must be the parser built from the grammar: the same parse
table, terminals and rules, and the same trees, positions and errors for every line. And the
cache must never be a way to fail or to read the wrong thing: a stale, damaged, foreign or
missing file, or a folder that cannot be written, means the grammar is built as before.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from gm_daemon import grammar
from gm_daemon.diplomacy import reader as diplomacy_reader
from gm_daemon.games.highnoon import by_grammar as highnoon_grammar
from gm_daemon.games.hornberg import reading as hornberg_reading
from tests.core.cache_damage import damages

# Every grammar the project reads with LALR, with the options it is built with.
LALR: dict[str, dict[str, Any]] = {
    "highnoon": {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False},
    "hornberg": {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False},
    "hexenhalma": {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False},
    "diplomacy": {"parser": "lalr", "maybe_placeholders": False},
}

# Lines read and refused: the games' own lists of mistakes plus lines that read.
MISTAKES: dict[str, dict[str, list[str]]] = {
    "highnoon": highnoon_grammar._MISTAKES,
    "hornberg": hornberg_reading._MISTAKES,
    "hexenhalma": {"any": ["Hexe 1:", "Hexe 1: B7 |", "Hexe: B7 | N", "Witch 1 B7 N+"]},
    "diplomacy": diplomacy_reader._MISTAKES,
}
READ: dict[str, list[str]] = {
    "highnoon": [
        "Herausforderungen: H. Glück, V.Pech",
        "Duelle:",
        "H. Glück 19, 15, 8, 4",
        "vs Pech: 3 2 1",
        "Spieler: Müller",
        "Glück: keine",
    ],
    "hornberg": ["bier auf b4", "herzog 2 verlaengert", "kanone ro 4 auf b4", "pass"],
    "hexenhalma": [
        "Hexe 1: B7 | N, N+M, N, @E3, N5",
        "Hexe 2: D7 | N, N+B>E5, N, BZ:E3, W",
        "Witch 1: B7 | N+banish>C3, N5",
        "Hexe 1: B7-B6-B5[K]~E3-E2-D2-D1",
    ],
    "diplomacy": ["A PAR - BUR", "F LON S F NTH - ENG", "F NTH C A YOR - NWY", "A MUN H"],
}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "gm-daemon" / "grammars"


def _files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def _numbering(parser: Lark) -> dict[int, int]:
    """LALR states numbered in the order a walk from the start states finds them, tokens in
    sorted order: two builds of one grammar number their states differently (Lark's sets
    follow the objects' hashes), the same automaton is numbered the same way here."""
    table = parser.parser.parser.parser.parse_table
    order: dict[int, int] = {}
    queue = [table.start_states[s] for s in sorted(table.start_states)]
    while queue:
        state = queue.pop(0)
        if state in order:
            continue
        order[state] = len(order)
        for token in sorted(table.states[state]):
            kind, arg = table.states[state][token]
            if str(kind) == "Shift":
                queue.append(arg)
    assert len(order) == len(table.states)
    return order


def _table(parser: Lark) -> dict[str, Any]:
    """The analysed parser as plain data: what parsing and lexing depend on."""
    table = parser.parser.parser.parser.parse_table
    number = _numbering(parser)

    def action(value: tuple[Any, Any]) -> tuple[str, object]:
        kind, arg = value
        return (str(kind), number[arg] if isinstance(arg, int) else _rule(arg))

    return {
        "states": {
            number[state]: {token: action(v) for token, v in actions.items()}
            for state, actions in table.states.items()
        },
        "start": {k: number[v] for k, v in table.start_states.items()},
        "end": {k: number[v] for k, v in table.end_states.items()},
        "rules": sorted(_rule(r) for r in parser.rules),
        "terminals": [
            (t.name, type(t.pattern).__name__, t.pattern.value, sorted(t.pattern.flags), t.priority)
            for t in parser.terminals
        ],
        "ignore": list(parser.lexer_conf.ignore),
        "options": {k: v for k, v in parser.options.options.items() if k != "import_paths"},
    }


def _rule(rule: Any) -> tuple[object, ...]:
    return (
        rule.origin.name,
        tuple(s.name for s in rule.expansion),
        rule.order,
        rule.alias,
        rule.options.keep_all_tokens,
        rule.options.expand1,
        rule.options.priority,
        rule.options.empty_indices,
    )


def _outcome(parser: Lark, text: str, mistakes: dict[str, list[str]]) -> object:
    """The tree with every node's position, or the error with its place and label."""
    try:
        tree = parser.parse(text)
    except UnexpectedInput as exc:
        label = exc.match_examples(parser.parse, mistakes, use_accepts=True)
        state = getattr(getattr(exc, "state", None), "position", None)
        where = None if state is None else _numbering(parser)[state]
        return (type(exc).__name__, exc.column, where, label)
    return [(str(t.data), [_child(c) for c in t.children], _meta(t)) for t in tree.iter_subtrees()]


def _child(child: object) -> object:
    """A token with its type and place; a subtree by its rule (a built parser names it by a
    ``Token`` of type RULE, a loaded one by the plain string: both equal the rule's name)."""
    if isinstance(child, Token):
        return (child.type, str(child), child.line, child.column, child.end_column)
    return str(child.data) if isinstance(child, Tree) else child


def _meta(tree: Tree[Any]) -> tuple[object, ...]:
    meta = tree.meta
    if getattr(meta, "empty", True):
        return ()
    return (meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos)


@pytest.mark.parametrize("name", LALR)
def test_a_loaded_parser_is_the_built_one(cache: Path, name: str) -> None:
    built = grammar.build(name, **LALR[name])
    [kept] = _files(cache)
    loaded = grammar.build(name, **LALR[name])
    assert built.source_path != "<deserialized>"  # the first was built
    assert loaded.source_path == "<deserialized>"  # the second read from the file
    assert _files(cache) == [kept]
    assert _table(loaded) == _table(built)
    assert loaded.source_grammar == built.source_grammar  # what quick readers check
    mistakes = MISTAKES[name]
    lines = READ[name] + [line for examples in mistakes.values() for line in examples]
    for text in lines:
        assert _outcome(loaded, text, mistakes) == _outcome(built, text, mistakes), text
    assert any(not isinstance(_outcome(built, t, mistakes), tuple) for t in READ[name])


def test_the_cache_follows_the_grammar_and_the_options(cache: Path) -> None:
    """Other options, another file: a parser is never loaded for the wrong build."""
    grammar.build("highnoon", **LALR["highnoon"])
    grammar.build("highnoon", **{**LALR["highnoon"], "propagate_positions": False})
    grammar.build("hornberg", **LALR["hornberg"])
    assert len(_files(cache)) == 3
    assert len({p.name.rsplit("-", 1)[1] for p in _files(cache)}) == 3


def test_a_changed_grammar_file_is_built_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "grammars"
    folder.mkdir()
    (folder / "g.lark").write_text('start: "a" NAME\n%import common.CNAME -> NAME\n%ignore " "\n')
    monkeypatch.setattr(grammar, "grammar_dir", lambda: folder)
    first = grammar.build("g", parser="lalr")
    (folder / "g.lark").write_text('start: "b" NAME\n%import common.CNAME -> NAME\n%ignore " "\n')
    second = grammar.build("g", parser="lalr")
    assert second.source_path != "<deserialized>"
    assert second.parse("b x") and len(_files(cache)) == 2
    with pytest.raises(UnexpectedInput):
        second.parse("a x")
    assert first.parse("a x")
    # a grammar it may import changed: built again too
    (folder / "other.lark").write_text("X: /x/\n")
    assert grammar.build("g", parser="lalr").source_path != "<deserialized>"


@pytest.mark.parametrize(
    "spoil",
    damages(b"cache", tail=40),
)
def test_a_damaged_file_is_built_again_and_replaced(cache: Path, spoil: Any) -> None:
    built = grammar.build("highnoon", **LALR["highnoon"])
    [kept] = _files(cache)
    kept.write_bytes(spoil(kept.read_bytes()))
    again = grammar.build("highnoon", **LALR["highnoon"])
    assert again.source_path != "<deserialized>"
    assert _table(again) == _table(built)
    assert _files(cache) == [kept]  # written anew, no temporary file left
    assert grammar.build("highnoon", **LALR["highnoon"]).source_path == "<deserialized>"


def test_a_file_others_can_write_is_not_loaded(cache: Path) -> None:
    """Unpickling runs code: only a file this user alone can write is read."""
    grammar.build("hornberg", **LALR["hornberg"])
    [kept] = _files(cache)
    kept.chmod(0o666)
    assert grammar.build("hornberg", **LALR["hornberg"]).source_path != "<deserialized>"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # replaced by a file of our own


@pytest.mark.parametrize("where", ["under a file", "relative"])
def test_no_usable_folder_builds_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    """A read-only system (ProtectSystem= without a CacheDirectory=), a full disk or a bad
    setting: the parser is built in memory and nothing is said above debug."""
    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("")
    if where == "relative":  # XDG: a relative path is ignored, ~/.cache used instead
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
        monkeypatch.setenv("HOME", str(blocker))
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.chdir(tmp_path)
    built = grammar.build("hexenhalma", **LALR["hexenhalma"])
    assert built.parse(READ["hexenhalma"][0])
    assert not (tmp_path / "relative").exists()
    assert [r for r in caplog.records if r.levelname != "DEBUG"] == []


def test_systemd_cache_directory_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CACHE_DIRECTORY", f"{tmp_path / 'service'}:{tmp_path / 'second'}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert grammar.cache_dir() == tmp_path / "service" / "grammars"
    monkeypatch.delenv("CACHE_DIRECTORY")
    assert grammar.cache_dir() == tmp_path / "xdg" / "gm-daemon" / "grammars"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert grammar.cache_dir() == tmp_path / "home" / ".cache" / "gm-daemon" / "grammars"


def test_a_folder_read_only_to_us_is_read(cache: Path) -> None:
    """Under ProtectSystem= a cache made before may be readable and not writable: it is
    loaded all the same, and nothing is written beside it."""
    grammar.build("diplomacy", **LALR["diplomacy"])
    before = {p: p.stat().st_mtime_ns for p in _files(cache)}
    cache.chmod(0o500)
    try:
        loaded = grammar.build("diplomacy", **LALR["diplomacy"])
    finally:
        cache.chmod(0o700)
    assert loaded.source_path == "<deserialized>"
    assert {p: p.stat().st_mtime_ns for p in _files(cache)} == before
    assert os.access(cache, os.W_OK)
