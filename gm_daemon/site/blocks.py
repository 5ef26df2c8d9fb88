"""A mail's text as a page shows it: tables and boards in monospace, prose as paragraphs.

The mails are wrapped at 78 columns for a mail client; in one ``<pre>`` a phone showed a
third of each prose line and hid the rest behind a sideways scroll. Blocks (parted by blank
lines) holding a table row, an indented line (not the indented rest of a folded prose line)
or only lines that fit a phone stay preformatted; the other blocks are prose, and their
lines broken only by the 78-column wrapping are joined again, so the browser wraps them at
the screen's width. A line the writer broke on purpose (an order of an example, a list
item) stays a line of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gm_daemon.games.kit.layout import WIDTH, is_table_line

# A line this long fits a phone's screen in the site's monospace font.
PHONE = 44


@dataclass(frozen=True)
class Block:
    kind: Literal["pre", "prose"]
    lines: list[str]


def blocks(text: str, width: int = WIDTH) -> list[Block]:
    out: list[Block] = []
    for chunk in text.strip("\n").split("\n\n"):
        here: list[Block] = []
        for kind, lines in _runs(chunk.strip("\n").split("\n"), width):
            if here and here[-1].kind == kind == "pre":
                here[-1].lines.extend(lines)  # a short heading stays with its table
            elif kind == "prose":
                here.append(Block("prose", _unwrapped(lines, width)))
            else:
                here.append(Block("pre", list(lines)))
        out += here
    return out


def _runs(lines: list[str], width: int) -> list[tuple[str, list[str]]]:
    """A block's lines in runs of prose and of preformatted lines (table rows, indented
    lines other than a list item's continuation or the rest of a folded line); prose that
    fits a phone anyway is kept preformatted, as a heading above a table."""
    runs: list[tuple[str, list[str]]] = []
    bullet, above = False, ""  # ``above``: the line before, when it was prose
    for line in lines:
        lead = len(line) - len(line.lstrip())
        continues = (bullet and lead == 2) or _folded(above, line, width)
        kind = "pre" if is_table_line(line) or (lead and not continues) else "prose"
        bullet = kind == "prose" and (line.startswith("- ") or (bullet and continues))
        above = line if kind == "prose" else ""
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(line)
        else:
            runs.append((kind, [line]))
    return [
        ("pre" if kind == "prose" and all(len(x) <= PHONE for x in run) else kind, run)
        for kind, run in runs
        if any(x.strip() for x in run)
    ]


def _folded(above: str, line: str, width: int) -> bool:
    """``line`` is the indented rest of the prose line ``above``, folded for the mail
    (``layout.fold``: Hornberg's "Zug 2 · Bert: … – nimmt das" over "    Fass ws"): its
    first word would not have fitted behind it. A line ending in a colon introduces an
    indented example instead."""
    words = line.split()
    return (
        bool(above and words) and not above.endswith(":") and len(above) + 1 + len(words[0]) > width
    )


def _unwrapped(lines: list[str], width: int) -> list[str]:
    """Lines joined where the mail's wrapping broke them: the first word of a line would
    not have fitted behind the line above."""
    out: list[str] = []
    above = ""
    for line in lines:
        words = line.split()
        wrapped = (
            out and words and not line.startswith("- ") and len(above) + 1 + len(words[0]) > width
        )
        if wrapped:
            out[-1] = f"{out[-1]} {line.strip()}"
        else:
            out.append(line)
        above = line
    return out
