"""Reply and report templates, one folder per language, kept as data (``templates/<lang>/``).

A template file is a whole mail: a ``Subject:`` line, a blank line, then the body; ``$name``
placeholders are filled with ``string.Template``. The short phrases live in the one phrase
catalogue format every game uses (``templates/phrases.toml``, read by ``games.kit.phrases``).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from gm_daemon.games.kit.layout import WIDTH, fit, fold
from gm_daemon.games.kit.phrases import Phrases
from gm_daemon.games.protocol import Problem, ProblemKind

_DIR = Path(__file__).resolve().parent / "templates"
LANGUAGES = ("de", "en")


@dataclass(frozen=True)
class Text:
    subject: str
    body: str
    lang: str = ""  # "" for the bilingual notes (strangers, the GM)


@cache
def _template(lang: str, name: str) -> tuple[Template, Template]:
    raw = (_DIR / lang / f"{name}.txt").read_text(encoding="utf-8")
    head, _, body = raw.partition("\n\n")
    if not head.startswith("Subject: "):
        raise ValueError(f"templates/{lang}/{name}.txt must start with a Subject: line")
    return Template(head.removeprefix("Subject: ").strip()), Template(body)


PHRASES = Phrases.load(_DIR / "phrases.toml")


def phrase(lang: str, key: str, **values: object) -> str:
    return PHRASES(lang, key, **values)


def render(lang: str, template: str, /, **values: object) -> Text:
    """Fill a template and sign it as a person would sign a letter (every template is a
    whole mail to a player); a missing value is a programming error and raises KeyError."""
    subject, body = _template(lang, template)
    text = f"{body.substitute(values).rstrip()}\n\n{phrase(lang, 'sign_off')}"
    return Text(subject.substitute(values), fit(_tidy(text)), lang)


def _tidy(text: str) -> str:
    """Collapse runs of blank lines left by empty sections; end with one newline."""
    lines = text.rstrip().splitlines()
    tidy: list[str] = []
    for line in lines:
        line = line.rstrip()
        if line or (tidy and tidy[-1]):
            tidy.append(line)
    return "\n".join(tidy) + "\n"


_KIND_ORDER = (ProblemKind.SYNTAX, ProblemKind.ILLEGAL, ProblemKind.AMBIGUOUS)
# A pasted novel or a 2 MB mail must not come back as a 2 MB reply: each list shows this many
# entries and counts the rest.
MAX_LISTED = 15


def problems_text(problems: list[Problem], lang: str) -> str:
    """Problems grouped as not understood / not allowed / ambiguous, each with its line,
    the line as written, what is wrong and what would be right. Problems of the whole mail
    (no line) come first in their group and are always listed."""
    blocks = []
    given_at: dict[str, int | None] = {}  # a hint already given, and the line it was given at
    for kind in _KIND_ORDER:
        chosen = [p for p in problems if p.kind == kind]
        if not chosen:
            continue
        lines = [phrase(lang, f"kind_{kind.value}") + ":"]
        ordered = sorted(chosen, key=lambda p: p.line or 0)
        shown = ordered[: max(MAX_LISTED, sum(p.line is None for p in ordered))]
        for problem in shown:
            lines.extend(_problem_lines(problem, lang, given_at))
            given_at.setdefault(problem.hint, problem.line)
        if len(ordered) > len(shown):
            lines.append("- " + phrase(lang, "more_listed", count=len(ordered) - len(shown)))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# A hint this long (a list of all centres, of all spells) is given once; a line with the same
# fault points back to it instead of repeating it.
LONG_HINT = 60


def _problem_lines(problem: Problem, lang: str, given_at: dict[str, int | None]) -> list[str]:
    """The quoted line, what is wrong, what would be right: three parts a reader tells apart
    at a glance, so a quote too long for a line (a ZENTREN list) is folded on its own."""
    where = (
        f"{phrase(lang, 'line')} {problem.line}: "
        + phrase(lang, "quoted", text=problem.source.strip())
        if problem.line is not None
        else phrase(lang, "whole_mail")
    )
    lines = [fold(f"- {where}", indent=4), f"  {problem.message}"]
    hint = problem.hint or (problem.fix.right if problem.fix else "")
    if _part_of_the_line(problem, hint):
        assert problem.fix is not None
        hint = phrase(lang, "right_instead", right=hint, wrong=problem.fix.wrong)
    if len(hint) >= LONG_HINT and given_at.get(hint) is not None:
        hint = phrase(lang, "right_as_above", line=given_at[hint])
    if hint and problem.fix is not None and problem.fix.guess:
        lines.append(f"  {hint}")  # "Meinten Sie MAR?" is a question, not a form
    elif hint:
        lines.append(f"  {phrase(lang, 'right')}: {hint}")
    return lines


def _part_of_the_line(problem: Problem, hint: str) -> bool:
    """A fix of one entry of a longer line ("A BUD" for "F BUD" in a list of fifteen): said
    with what it replaces, or it reads as the whole line to send."""
    fix = problem.fix
    return (
        fix is not None
        and not fix.guess
        and bool(fix.wrong.strip())
        and hint == fix.right
        and problem.source.strip() != fix.wrong.strip()
    )


def warnings_text(warnings: list[Problem], lang: str) -> str:
    """The notes of an acceptance (or refusal), each with its hint: what the note means for
    the player (the order stands and fails) or how to put it right."""
    if not warnings:
        return ""
    lines = [phrase(lang, "warnings")]
    for warning in warnings[:MAX_LISTED]:
        where = f"{phrase(lang, 'line')} {warning.line}: " if warning.line is not None else ""
        lines += _prose(f"- {where}{warning.message}", "  ")
        if warning.hint:
            lines += _prose(f"  {warning.hint}", "  ")
    if len(warnings) > MAX_LISTED:
        lines.append("- " + phrase(lang, "more_listed", count=len(warnings) - MAX_LISTED))
    return "\n" + "\n".join(lines) + "\n"


def _prose(text: str, indent: str) -> list[str]:
    """One part of a note wrapped at the mail width, its own lines under its own indent (the
    hint is not run into the note above it)."""
    return textwrap.wrap(
        text,
        width=WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [text]


def with_warnings(lang: str, warnings: list[Problem]) -> str:
    """The subject's addition when an acceptance carries notes: ", mit Hinweisen"."""
    return phrase(lang, "with_warnings") if warnings else ""
