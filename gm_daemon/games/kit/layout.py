"""Report layout every game shares: plain-text tables, rankings, name lists, mail width.

Mail clients show text in a fixed width more often than not, so tables are aligned with
spaces and prose is wrapped at ``WIDTH`` (78) characters; tables may be wider.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

from gm_daemon.patterns import on_first_use

WIDTH = 78
_AND = {"de": "und", "en": "and"}


def table(
    rows: Sequence[Sequence[str]],
    *,
    header: Sequence[str] | None = None,
    right: set[int] = frozenset(),  # type: ignore[assignment]
    gap: str = "  ",
) -> list[str]:
    """Rows as aligned lines; columns in ``right`` are right-aligned (numbers)."""
    body = [list(map(str, row)) for row in rows]
    every = ([list(header)] if header else []) + body
    if not every:
        return []
    widths = [max(len(row[i]) for row in every if i < len(row)) for i in range(len(every[0]))]

    def line(row: Sequence[str]) -> str:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        return gap.join(cells).rstrip()

    lines = [line(row) for row in every]
    if header:
        lines.insert(1, gap.join("-" * w for w in widths))
    return lines


def places(ranking: Sequence[Sequence[str]]) -> list[tuple[int, list[str]]]:
    """Ranks with shared places: [[a], [b, c], [d]] → (1, [a]), (2, [b, c]), (4, [d])."""
    result, place = [], 1
    for group in ranking:
        result.append((place, list(group)))
        place += len(group)
    return result


def ranking_lines(ranking: Sequence[Sequence[str]], describe: Callable[[str], str]) -> list[str]:
    """ "1. Anna (…)", shared places numbered once: "2. Bert (…)" / "   Carla (…)"."""
    lines = []
    for place, group in places(ranking):
        for i, seat in enumerate(group):
            number = f"{place}." if i == 0 else ""
            lines.append(f"{number:>4} {describe(seat)}")
    return lines


def name_list(names: Sequence[str], lang: str) -> str:
    """ "Anna, Bert und Carla" / "Anna, Bert and Carla"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {_AND.get(lang, 'and')} {names[-1]}"


def hanging(label: str, items: Sequence[str], indent: int = 2, width: int = WIDTH) -> list[str]:
    """ "Anna (3): BEL, BER, KIE" as lines of at most ``width`` characters, continuation lines
    indented under the first item, so a long list stays readable as one block. An item is
    never split ("A MUN" stays on one line)."""
    head = " " * indent + label
    text = ", ".join(item.replace(" ", "\0") for item in items)
    lines = textwrap.wrap(
        text,
        width=width,
        initial_indent=head,
        subsequent_indent=" " * len(head),
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace("\0", " ") for line in lines] or [head.rstrip()]


def fold(line: str, indent: int = 4, width: int = WIDTH) -> str:
    """One line too long for a mail folded at spaces, the continuation lines indented by
    ``indent`` (a list of cells or cards stays one block); a word is never split, and a
    line that fits is returned as it is."""
    if len(line) <= width:
        return line
    return "\n".join(
        _release(part)
        for part in textwrap.wrap(
            _hold(line),
            width=width,
            subsequent_indent=" " * indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
    )


# A score ("30 : 30") and a name with its initial ("A. Langsam") are read as one thing:
# wrapping never splits them ("A." alone at a line's end reads as a sentence's end). Their
# spaces are held by a character textwrap does not break at, of the same width, and given
# back after wrapping.
_SCORE = on_first_use(r"(?<=\d) : (?=\d)")
_INITIAL = on_first_use(r"(?<![\w.])([A-ZÄÖÜ]\.) (?=[A-ZÄÖÜ][a-zäöüß])")
_HELD = "\x00"


def _hold(text: str) -> str:
    return _INITIAL.sub(rf"\1{_HELD}", _SCORE.sub(f"{_HELD}:{_HELD}", text))


def _release(text: str) -> str:
    return text.replace(_HELD, " ")


def wrap(text: str, width: int = WIDTH) -> str:
    """Wrap prose paragraph by paragraph; lines that start with a space, a dash list item
    continuation or look like a table are left as they are."""
    out = []
    for line in text.splitlines():
        if len(line) <= width or line.startswith(("  ", "|")) or is_table_line(line):
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        bullet = "  " if line.lstrip().startswith(("- ", "* ")) else ""
        wrapped = textwrap.wrap(
            _hold(line),
            width=width,
            subsequent_indent=indent + bullet,
            break_long_words=False,
            break_on_hyphens=False,
        )
        out.extend(_release(part) for part in wrapped or [""])
    return "\n".join(out)


def flow(words: Sequence[str], prefix: str = "", width: int = WIDTH) -> list[str]:
    """Words joined by single spaces into lines of at most ``width``, never breaking inside
    a word (``▸3 D5[K]`` stays whole when given as one word); the first line starts with
    ``prefix``, the following ones are indented by its length."""
    lines, current = [], prefix.rstrip()
    indent = " " * len(prefix)
    for word in words:
        candidate = f"{current} {word}" if current.strip() else f"{current}{word}"
        if len(candidate) > width and current.strip():
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    lines.append(current)
    return lines


TABLE_LINE = on_first_use(r"\S {2,}\S|^\s*(\||\+-)")


def is_table_line(line: str) -> bool:
    """A line of aligned columns (two spaces or more between two cells) or a ruled table:
    such lines may be wider than ``WIDTH``."""
    return bool(TABLE_LINE.search(line))


def fit(text: str, width: int = WIDTH) -> str:
    """A whole mail body made to fit ``width`` where the text allows: a prose line too
    long is wrapped on its own (lines are never joined, so a line's meaning stays); a
    "- " list item whose first line is too long is reflowed with its hanging indent;
    indented lines (examples, lists of cells) are folded; table lines stay as they are.
    A text whose every line fits (most replies) is returned as it is, unsplit."""
    if max(map(len, text.split("\n"))) <= width:
        return text
    blocks = text.split("\n\n")
    return "\n\n".join(_fit_block(block, width) for block in blocks)


def _fit_block(block: str, width: int) -> str:
    lines = block.split("\n")
    if max(map(len, lines)) <= width:  # most blocks: no line to look at more closely
        return block
    if all(len(line) <= width or is_table_line(line) for line in lines):
        return block
    items: list[list[str]] = []  # each: [kind, first line, continuation lines...]
    for line in lines:
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        bullet = stripped.startswith(("- ", "* ", "• "))
        previous = items[-1] if items else None
        if is_table_line(line) or (indent >= 2 and not bullet and not _continues(previous, indent)):
            items.append(["keep", line])
        elif bullet:
            items.append(["bullet", line])
        elif previous and previous[0] == "bullet" and indent >= 2:
            previous.append(stripped)
        else:
            items.append(["prose", line])
    out: list[str] = []
    for kind, *parts in items:
        if kind == "keep":
            line = parts[0]
            lead = len(line) - len(line.lstrip())
            out.append(fold(line, indent=lead + 2, width=width))
            continue
        first = parts[0]
        if kind == "bullet" and len(first) <= width:  # lines of their own: "richtig wäre: …"
            lead = len(first) - len(first.lstrip())
            out.append(first)
            out.extend(fold(" " * (lead + 2) + p, indent=lead + 4, width=width) for p in parts[1:])
            continue
        lead = " " * (len(first) - len(first.lstrip()))
        joined = " ".join([first.rstrip(), *(p.strip() for p in parts[1:])])
        hang = lead + ("  " if kind == "bullet" else "")
        wrapped = textwrap.wrap(
            _hold(joined),
            width=width,
            initial_indent="",
            subsequent_indent=hang,
            break_long_words=False,
            break_on_hyphens=False,
            drop_whitespace=True,
        )
        out.extend([_release(part) for part in wrapped] or [first])
    return "\n".join(out)


def _continues(previous: list[str] | None, indent: int) -> bool:
    """An indented line that continues a "- " list item above it."""
    return bool(previous and previous[0] == "bullet" and indent == _lead(previous[1]) + 2)


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip())
