"""Reply and report templates, one folder per language, kept as data (``templates/<lang>/``).

A template file is a whole mail: a ``Subject:`` line, a blank line, then the body; ``$name``
placeholders are filled with ``string.Template``. The short phrases live in the one phrase
catalogue format every game uses (``templates/phrases.toml``, read by ``games.kit.phrases``).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from string import Template
from typing import NamedTuple

from gm_daemon.games.kit.layout import WIDTH, fit, fold
from gm_daemon.games.kit.phrases import Phrases
from gm_daemon.games.protocol import Problem, ProblemKind

_DIR = Path(__file__).resolve().parent / "templates"
LANGUAGES = ("de", "en")


class Text(NamedTuple):
    subject: str
    body: str
    lang: str = ""  # "" for the bilingual notes (strangers, the GM)


class _Form(NamedTuple):
    """A template split once into its text and its placeholders: filling it is a join, not
    a regular expression's substitution with a call per placeholder (every reply fills two
    templates). The same text ``Template.substitute`` gives; a template it would refuse
    (a ``$`` not followed by a name) is left to it, so it raises as before."""

    parts: tuple[str, ...]  # text, name, text, name, …, text
    template: Template

    @classmethod
    def of(cls, text: str) -> _Form:
        template = Template(text)
        parts, literal, start = [], "", 0
        for found in template.pattern.finditer(text):
            literal += text[start : found.start()]
            start = found.end()
            name = found.group("named") or found.group("braced")
            if name is not None:
                parts += [literal, name]
                literal = ""
            elif found.group("escaped") is not None:
                literal += template.delimiter
            else:
                return cls((), template)
        return cls((*parts, literal + text[start:]), template)

    def fill(self, values: Mapping[str, object]) -> str:
        if not self.parts:
            return self.template.substitute(values)
        filled = list(self.parts)
        filled[1::2] = [str(values[name]) for name in self.parts[1::2]]
        return "".join(filled)


@cache
def _template(lang: str, name: str) -> tuple[_Form, _Form]:
    raw = (_DIR / lang / f"{name}.txt").read_text(encoding="utf-8")
    head, _, body = raw.partition("\n\n")
    if not head.startswith("Subject: "):
        raise ValueError(f"templates/{lang}/{name}.txt must start with a Subject: line")
    return _Form.of(head.removeprefix("Subject: ").strip()), _Form.of(body)


PHRASES = Phrases.load(_DIR / "phrases.toml")
# The core's phrases: the catalogue's call itself, bound once (a reply says ~9 of them, and a
# wrapper's frame and second dict of values cost more than a phrase without values itself).
phrase = PHRASES.__call__


def render(lang: str, template: str, /, **values: object) -> Text:
    """Fill a template and sign it as a person would sign a letter (every template is a
    whole mail to a player); a missing value is a programming error and raises KeyError."""
    subject, body = _template(lang, template)
    text = f"{body.fill(values).rstrip()}\n\n{phrase(lang, 'sign_off')}"
    return Text(subject.fill(values), fit(_tidy(text)), lang)


def _tidy(text: str) -> str:
    """Collapse runs of blank lines left by empty sections; end with one newline. (The
    lines' trailing blanks dropped and joined, then each run of blank lines made one and
    those at the start dropped: a pattern over the text, not a step per line.)"""
    joined = "\n".join([line.rstrip() for line in text.rstrip().splitlines()])
    return _BLANK_LINES.sub("\n\n", joined).lstrip("\n") + "\n"


_BLANK_LINES = re.compile(r"\n\n\n+")


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


def refusal_text(problems: list[Problem], warnings: list[Problem], lang: str) -> str:
    """A refusal's problems, then its notes: a block each, with a blank line between, as
    between the problems' own groups, so "Hinweise:" does not read as one more problem."""
    notes = warnings_text(warnings, lang).strip("\n")
    return "\n\n".join(block for block in (problems_text(problems, lang), notes) if block)


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
    the player (the order stands and fails) or how to put it right. Remembered when short:
    mail after mail carries the same few notes (the greetings skipped, on the same lines),
    and a ``Problem`` is frozen."""
    if not warnings:
        return ""
    if len(warnings) <= _REMEMBERED_NOTES:
        return _remembered_warnings(tuple(warnings), lang)
    return _warnings_text(warnings, lang)


_REMEMBERED_NOTES = 4


def _warnings_text(warnings: Sequence[Problem], lang: str) -> str:
    lines = [phrase(lang, "warnings")]
    for warning in warnings[:MAX_LISTED]:
        where = f"{phrase(lang, 'line')} {warning.line}: " if warning.line is not None else ""
        lines += _prose(f"- {where}{warning.message}", "  ")
        if warning.hint:
            lines += _prose(f"  {warning.hint}", "  ")
    if len(warnings) > MAX_LISTED:
        lines.append("- " + phrase(lang, "more_listed", count=len(warnings) - MAX_LISTED))
    return "\n" + "\n".join(lines) + "\n"


_remembered_warnings = lru_cache(maxsize=1024)(_warnings_text)


def _prose(text: str, indent: str) -> tuple[str, ...]:
    """One part of a note wrapped at the mail width, its own lines under its own indent (the
    hint is not run into the note above it). A part that fits on a line, as most do, is
    what ``textwrap`` would make of it without asking it (it only drops trailing spaces);
    the others are wrapped once per text: the same notes come back in mail after mail."""
    if len(text) <= WIDTH and text.isprintable() and text.strip(" "):
        return (text.rstrip(" "),)  # isprintable: no tab or line break to turn into spaces
    return _wrapped(text, indent)


@lru_cache(maxsize=1024)
def _wrapped(text: str, indent: str) -> tuple[str, ...]:
    lines = textwrap.wrap(
        text,
        width=WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return tuple(lines) or (text,)


def with_warnings(lang: str, warnings: list[Problem]) -> str:
    """The subject's addition when an acceptance carries notes: ", mit Hinweisen"."""
    return phrase(lang, "with_warnings") if warnings else ""
