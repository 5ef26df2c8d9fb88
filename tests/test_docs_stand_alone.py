"""The docs stand on their own: every relative link and every project file they name in
backticks exists in the project, so a reader never meets a file only the authors had.

Which backticked text names a project file is one small rule (``names_a_project_path``):
a relative path that starts with ``../`` or with a top-level entry of the project
(``config/examples/highnoon.toml``, ``gm_daemon/store.py``), or a path with a directory ending in a
file extension (``highlander/mapview.py``), or a bare source or doc file name
(``model.py``, ``ARCHITECTURE.md``); anything under ``../`` or ``shared/``, where the
notes the project grew from lay. Left alone: what the daemon makes at run time
(``var/…``), absolute paths (``/etc/…``), dot names (``.venv/``), and text that merely has
a slash (``STP/NC``, ``Nord/North``, ``j/s``). Fenced code blocks are examples (commands,
config files, mails) and are not read. ``{de,en}`` in a path stands for each choice.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([*(ROOT / "docs").rglob("*.md"), ROOT / "README.md", ROOT / "systemd" / "README.md"])
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "var",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
}
RUNTIME = ("var/",)  # made by the daemon where it runs, never part of the project
OUTSIDE = ("../", "shared/")  # where the founding notes lay: always checked, so never named
EXTENSIONS = {"py", "md", "toml", "lark", "txt", "csv", "json", "service", "sh", "png", "eml"}
BARE_EXTENSIONS = {"py", "md", "toml", "lark"}  # a bare "befehle.txt" is a player's file
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
PATH = re.compile(r"^(\.\./)*[A-Za-z_][\w.-]*(/[\w.-]+)*/?$")
BRACES = re.compile(r"\{([^{}]*)\}")


def project_paths() -> set[str]:
    """Every file and directory of the project, relative to its root."""
    found: set[str] = set()
    stack = [ROOT]
    while stack:
        for entry in stack.pop().iterdir():
            if entry.name in SKIPPED_DIRS or entry.name.endswith(".egg-info"):
                continue
            found.add(entry.relative_to(ROOT).as_posix())
            if entry.is_dir():
                stack.append(entry)
    return found


PROJECT = project_paths()
TOP_LEVEL = {path for path in PROJECT if "/" not in path}


def prose(doc: Path) -> str:
    return FENCE.sub("", doc.read_text(encoding="utf-8"))


def expand(span: str) -> list[str]:
    """``tests/golden/mails/highlander-{de,en}/`` -> both directories."""
    match = BRACES.search(span)
    if match is None:
        return [span]
    head, tail = span[: match.start()], span[match.end() :]
    return [path for choice in match.group(1).split(",") for path in expand(head + choice + tail)]


def names_a_project_path(span: str) -> bool:
    if not PATH.match(span) or span.startswith(RUNTIME):
        return False
    bare = span.rstrip("/")
    extension = bare.rsplit(".", 1)[-1] if "." in bare.rsplit("/", 1)[-1] else ""
    if span.startswith(OUTSIDE) or bare.split("/", 1)[0] in TOP_LEVEL:
        return True
    if "/" in bare:
        return extension in EXTENSIONS
    return extension in BARE_EXTENSIONS


def exists(doc: Path, path: str) -> bool:
    """From the doc's directory, from the project root, or as the end of a project path
    (modules are named inside their package: ``highlander/mapview.py``, ``model.py``)."""
    bare = path.rstrip("/")
    for base in (doc.parent, ROOT):
        target = (base / bare).resolve()
        if target.is_relative_to(ROOT) and target.exists():
            return True
    if bare.startswith("../"):
        return False
    return any(p == bare or p.endswith("/" + bare) for p in PROJECT)


def named_paths(doc: Path) -> Iterator[str]:
    for span in CODE_SPAN.findall(prose(doc)):
        for path in expand(span.strip()):
            if names_a_project_path(path):
                yield path


def relative_links(doc: Path) -> Iterator[str]:
    for target in LINK.findall(prose(doc)):
        if re.match(r"^[a-z][a-z+.-]*:", target) or target.startswith("#"):
            continue  # a URL or an anchor on the same page
        yield target.split("#", 1)[0]


def label(doc: Path) -> str:
    return doc.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("doc", DOCS, ids=label)
def test_every_relative_link_exists(doc):
    broken = [t for t in relative_links(doc) if not (doc.parent / t).resolve().exists()]
    assert not broken, f"{label(doc)} links to files that are not in the project: {broken}"


@pytest.mark.parametrize("doc", DOCS, ids=label)
def test_every_file_named_in_backticks_exists(doc):
    missing = sorted({p for p in named_paths(doc) if not exists(doc, p)})
    assert not missing, (
        f"{label(doc)} names files that are not in the project: {missing}. Name a file of "
        "the project, or write what the outside file says into the doc itself."
    )


@pytest.mark.parametrize(
    ("span", "checked"),
    [
        ("config/examples/highnoon.toml", True),
        ("gm_daemon/store.py", True),
        ("highlander/mapview.py", True),
        ("model.py", True),
        ("ARCHITECTURE.md", True),
        ("../shared/rules/highlander.md", True),
        ("shared/reference/diplomacy/map/", True),
        ("docs/", True),
        ("var/mail/outbox/new/", False),
        ("/etc/gm-daemon/gm.toml", False),
        (".venv/", False),
        ("STP/NC", False),
        ("Nord/North", False),
        ("j/s", False),
        ("application/x-pkcs7-mime", False),
        ("befehle.txt", False),
        ("A LON", False),
    ],
)
def test_the_rule_for_what_names_a_project_file(span, checked):
    assert names_a_project_path(span) is checked


def test_braces_stand_for_each_choice():
    assert expand("tests/golden/mails/highlander-{de,en}/") == [
        "tests/golden/mails/highlander-de/",
        "tests/golden/mails/highlander-en/",
    ]


def test_the_walk_sees_the_docs_and_the_project():
    assert len(DOCS) >= 10
    assert {"gm_daemon/store.py", "pyproject.toml", "docs/daemon.md"} <= PROJECT
    assert not any(p.startswith((".git/", ".venv/")) for p in PROJECT)
    assert list(itertools.islice(named_paths(ROOT / "README.md"), 1)), "README names no file?"


# --- the rules specifications stayed outside the project: what a game doc cites, it states --

GAME_DOCS = sorted((ROOT / "docs" / "games").glob("*.md"))
RULE_ID = re.compile(r"(?<![\w-])((?:HN|HL|HB|DD|KQ|PT|HH|A)-\d+|§\d+(?:\.\d+)*(?!\.?\w))")
CITED_SECTION = re.compile(r"^## The rules cited\n(.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)
DEFINITION = re.compile(r"^- \*\*([^*]+)\*\*", re.MULTILINE)
TEST_CASE = re.compile(r"\bTC-[A-Z]+-\d+\b")


def defined_rules(text: str) -> set[str]:
    section = CITED_SECTION.search(text)
    if section is None:
        return set()
    return {
        rule.strip() for entry in DEFINITION.findall(section.group(1)) for rule in entry.split(",")
    }


@pytest.mark.parametrize("doc", GAME_DOCS, ids=label)
def test_every_rule_and_decision_a_game_doc_cites_is_stated_in_it(doc):
    text = doc.read_text(encoding="utf-8")
    cited = set(RULE_ID.findall(text))
    missing = sorted(cited - defined_rules(text), key=lambda r: (r[0], len(r), r))
    assert not missing, (
        f"{label(doc)} cites {missing} of the rules specification, which is not part of the "
        "project: state each under '## The rules cited' as '- **ID** what it says'"
    )


@pytest.mark.parametrize("doc", GAME_DOCS, ids=label)
def test_every_acceptance_case_a_game_doc_names_is_a_test(doc):
    tests = "\n".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in (ROOT / "tests").rglob("*")
        if path.is_file() and path.suffix in {".py", ".json", ".toml", ".txt", ".yaml"}
    )
    named = set(TEST_CASE.findall(doc.read_text(encoding="utf-8")))
    assert not {case for case in named if case not in tests}, f"{label(doc)}: {sorted(named)}"


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("rules HN-15 and A-13 (TC-HL-6)", {"HN-15", "A-13"}),
        ("SHA-256, UTF-8, K-9", set()),
        ("follows §6.4. Then", {"§6.4"}),
        ("DATC §5.B", set()),
        ("range HH-8 … HH-10", {"HH-8", "HH-10"}),
    ],
)
def test_what_counts_as_a_cited_rule(text, cited):
    assert set(RULE_ID.findall(text)) == cited
