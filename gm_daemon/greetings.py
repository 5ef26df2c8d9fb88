"""Greeting and closing lines a person writes around his orders ("Hallo", "Danke!",
"Viele Grüße, Anna", "Best regards").

Engines read every line as an order, so such a line would sink the whole mail and cost the
player a round trip. Intake asks this module only about lines an engine has already refused:
a line the game accepts is an order, whatever it looks like. The pattern list is small on
purpose; a line it does not know stays a problem the player is told about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from gm_daemon.games.protocol import Accepted, Line, OrdersRejected, Problem, ProblemKind
from gm_daemon.games.text import fold, introduces_orders
from gm_daemon.loaded import AnyGame, passes_over
from gm_daemon.patterns import on_first_use
from gm_daemon.texts import phrase

# Folded (lower case, umlauts as ae/oe/ue, ß as ss) openings of a greeting or a closing.
_OPENINGS = (
    "hallo", "hello", "hi", "hey", "moin", "servus", "guten tag", "guten morgen",
    "guten abend", "liebe", "lieber", "dear", "danke", "vielen dank", "besten dank",
    "thanks", "thank you", "many thanks", "cheers", "gruss", "gruesse", "viele gruesse",
    "liebe gruesse", "beste gruesse", "herzliche gruesse", "freundliche gruesse",
    "mit freundlichen gruessen", "schoene gruesse", "lg", "vg", "mfg", "best", "regards",
    "best regards", "kind regards", "best wishes", "all the best", "yours", "ciao", "tschuess",
    "bis bald", "bye",
)  # fmt: skip
_GREETING = re.compile(
    r"^(?:" + "|".join(re.escape(o) for o in sorted(_OPENINGS, key=len, reverse=True)) + r")"
    r"(?![a-z])[\s,.!:;)(-]*(?P<rest>.*)$"
)
# Openings that greet rather than close: a lone line under one of these is the start of the
# orders ("Hallo," then "Kanone ge2"), never a signature. "Liebe Grüße" closes, though.
_SALUTATIONS = on_first_use(
    r"^(?:hallo|hello|hi|hey|moin|servus|guten|liebe|lieber|dear)(?![a-z])(?!\s+gruss|\s+gruesse)"
)
# What may follow the opening on the same line: a name or two ("Viele Grüße, Anna",
# "Hallo Spielleiter"), nothing with digits or order signs.
_WORD = r"[^\W\d_](?:[^\W\d]|[.'’-])*"
_NAME = on_first_use(rf"^{_WORD}(?:\s+{_WORD}){{0,2}}[\s,.!]*$")


def is_introduction(text: str) -> bool:
    """Whether a whole line introduces the orders below it ("Hier meine Befehle:",
    "Korrektur:", "My new orders:") and says nothing itself; a heading a game reads
    ("Duelle:", "ZENTREN:", "PLAN:") is never asked about."""
    return len(text) <= _REMEMBERED_LENGTH and introduces_orders(text)


def is_greeting(text: str) -> bool:
    """Whether a whole line reads as a greeting or closing, optionally with a name."""
    return _is_greeting(text) if len(text) <= _REMEMBERED_LENGTH else _greets(text)


# Lines up to this long have their answers remembered: the same "Hallo," and "Gruß" close
# mail after mail, and the answer depends on the text alone; a long line is no greeting
# worth remembering (nor memory worth spending).
_REMEMBERED_LENGTH = 80


@lru_cache(maxsize=1024)
def _is_greeting(text: str) -> bool:
    return _greets(text)


def _greets(text: str) -> bool:
    match = _GREETING.match(fold(text).strip())
    if match is None:
        return False
    rest = match["rest"].strip()
    return not rest or _NAME.match(rest) is not None


def _is_name(text: str) -> bool:
    return _NAME.match(fold(text).strip()) is not None


def greeting_lines(lines: Sequence[Line], refused: set[int]) -> list[Line]:
    """The refused lines that are greetings or introductions ("Hier meine Befehle:"), with
    a lone name right under a closing line ("Viele Grüße," then "Anna") counted as part of
    it. (``lines`` are one mail's, each its own object and number: a line is found or left
    by what it is, not by an equal one.)"""
    found: list[Line] = []
    for index, line in enumerate(lines):
        if line.no not in refused:
            continue
        above = lines[index - 1] if index > 0 else None
        signed = (
            above is not None
            and bool(found)
            and found[-1] is above  # found in order: only the last can be the line above
            and not _SALUTATIONS.match(fold(above.text).strip())
            and not is_introduction(above.text)
            and _is_name(line.text)
        )
        if signed or is_greeting(line.text) or is_introduction(line.text):
            found.append(line)
    return found


class OnlyGreetings(Exception):
    """Every line of the mail is a greeting or a closing ("Hallo", "Danke!", "Gruß, Anna"):
    there are no orders in it. Left to a game, an empty list reads as orders of nothing
    (High Noon: no shots, no challenges) and would replace the orders on file; the mail is
    answered as one without order lines instead."""


def read_orders(
    engine: AnyGame, lines: list[Line], state: Any, seat: str, lang: str, on_file: object = None
) -> Accepted[Any]:
    """The engine's ``read_orders``; when it refuses lines that read as a greeting or a
    closing ("Hallo", "Danke!", "Viele Grüße, Anna"), the mail is read again without them
    and each is noted in the reply (a mail of nothing else raises ``OnlyGreetings``). A
    line the engine accepts is never dropped: it may be an order. When the mail is refused
    even so, the greetings are left out of the problems and noted below them. An engine
    that skips such a line itself with a warning of its own ("„Hallo“ is no player") gets
    that warning said the same way as everywhere else; one that says so beforehand
    (``passes_over``) is not given the line at all, since its warning would be replaced
    anyway (a greeting and a closing in nearly every mail cost High Noon more than its
    orders)."""
    passed = _passed_over(engine, lines, state, seat)
    given = [line for line in lines if line.no not in passed] if passed else lines
    try:
        accepted = _read_past_greetings(engine, lines, given, state, seat, lang, on_file)
    except OrdersRejected as refused:
        refused.warnings = _said_as_greetings(refused.warnings, lines, lang, passed)
        raise
    if accepted.warnings:
        accepted.warnings = _said_as_greetings(accepted.warnings, lines, lang, passed)
        only_greetings = _nothing_but_greetings(lines, accepted.warnings, lang)
    else:  # the usual mail: orders, a greeting and a closing the engine passes over
        accepted.warnings = _passed_over_notes(lines, passed, lang)
        only_greetings = _nothing_but(lines, passed)
    if only_greetings:
        raise OnlyGreetings()
    return accepted


def _passed_over_notes(lines: list[Line], passed: set[int], lang: str) -> list[Problem]:
    """``_said_as_greetings`` of no warnings of the engine's: the notes of the lines passed
    over, in their order (each of them is a greeting, so ``greeting_lines`` finds them all
    and nothing else; nothing to sort or to replace)."""
    return _greeting_notes([line for line in lines if line.no in passed], lang) if passed else []


def _nothing_but(lines: list[Line], passed: set[int]) -> bool:
    """``_nothing_but_greetings`` of ``_passed_over_notes``: every written line passed over."""
    written = {line.no for line in lines if line.text.strip()}
    return bool(written) and written <= passed


def _nothing_but_greetings(lines: list[Line], warnings: list[Problem], lang: str) -> bool:
    """Whether every written line of the mail got the greeting note (the engine read none
    of them as an order)."""
    written = {line.no for line in lines if line.text.strip()}
    noted = {w.line for w in warnings if w == _greeting_note(w.line or 0, w.source, lang)}
    return bool(written) and written <= noted


def _passed_over(engine: AnyGame, lines: list[Line], state: Any, seat: str) -> set[int]:
    """The greeting lines the engine would only warn about, by number: what it would say
    of them is replaced by the greeting note, so they are left out of its reading (exactly:
    by the hook's promise they change nothing else) and counted as warned."""
    return {
        line.no
        for line in lines
        if is_greeting(line.text) and passes_over(engine, line.text, state, seat)
    }


def _read_past_greetings(
    engine: AnyGame,
    lines: list[Line],
    given: list[Line],
    state: Any,
    seat: str,
    lang: str,
    on_file: object,
) -> Accepted[Any]:
    """``given``: ``lines`` less those passed over. Greetings are looked for among all of
    ``lines``, as the line above a name decides whether it signs a closing."""
    try:
        return engine.read_orders(given, state, seat, lang, on_file)
    except OrdersRejected as rejected:
        refused = {p.line for p in rejected.problems if p.line is not None}
        greetings = greeting_lines(lines, refused)
        if not greetings:
            raise
    taken = {id(line) for line in greetings}
    rest = [line for line in given if id(line) not in taken]
    if not any(line.text.strip() for line in rest):
        raise OnlyGreetings()
    notes = _greeting_notes(greetings, lang)
    try:
        accepted = engine.read_orders(rest, state, seat, lang, on_file)
    except OrdersRejected as again:
        raise OrdersRejected(again.problems, [*notes, *again.warnings]) from None
    accepted.warnings = [*notes, *accepted.warnings]
    return accepted


def _greeting_notes(greetings: list[Line], lang: str) -> list[Problem]:
    return [_greeting_note(g.no, g.text, lang) for g in greetings]


def _greeting_note(no: int, text: str, lang: str) -> Problem:
    """ "„Hallo,“ read as a greeting and skipped": remembered for short lines, as
    ``is_greeting`` is (the same few greetings open and close mail after mail, mostly on
    the same lines; a ``Problem`` is frozen, so one object serves every mail)."""
    if len(text) <= _REMEMBERED_LENGTH:
        return _remembered_note(no, text, lang)
    return _note(no, text, lang)


def _note(no: int, text: str, lang: str) -> Problem:
    quoted = phrase(lang, "quoted", text=text.strip())
    key = "introduction_skipped" if is_introduction(text) else "greeting_skipped"
    return Problem(no, text, ProblemKind.SYNTAX, phrase(lang, key, text=quoted))


_remembered_note = lru_cache(maxsize=1024)(_note)


def _said_as_greetings(
    warnings: list[Problem], lines: list[Line], lang: str, passed: set[int]
) -> list[Problem]:
    """Warnings an engine gave on greeting lines (or would have given: ``passed``, by
    number), replaced by the one greeting note; by line."""
    warned = {w.line for w in warnings if w.line is not None}
    warned.update(passed)
    greetings = greeting_lines(lines, warned)
    numbers = {g.no for g in greetings}
    kept = [w for w in warnings if w.line not in numbers]
    return sorted([*_greeting_notes(greetings, lang), *kept], key=_line)


def _line(problem: Problem) -> int:
    return problem.line or 0
