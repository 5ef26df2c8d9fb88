"""Protocol point 6, extended to every reply: whatever the daemon suggests is accepted when a
player sends it back (issue 20). Checked for every registered kind, German and English, in
every phase a game played on its own examples reaches, for every seat that may write then:

- typical mistakes are made from the seat's example (a word misspelt, a letter lost, a
  number off by one, a line cut short, a line of gibberish, the case of a line changed);
  every ``Problem.fix`` of the refusal is put into its line and the mail sent again for the
  same seat in the same state: it is accepted, or (a fix that cannot mend every line) the
  fixed lines are no longer at fault;
- a hint is a form or a question, never both: one that asks ("Meinten Sie MAR?") carries
  its guess as a fix, and a form shown as "Richtig wäre: …" asks nothing;
- every phase label the daemon writes into a subject is read back as the current phase's
  header, bare or after "Phase:", as a player copies it;
- a kind with the optional ``orders_after_header`` reads the example written on the label's
  line ("Runde 3: N+, O+") as the example alone; the label alone, with a name in brackets or
  a colon after it, holds no orders; another phase's label stays a header (the mail stale).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from gm_daemon import games
from gm_daemon.games.protocol import Header, Line, OrdersRejected, Problem
from gm_daemon.texts import problems_text
from tests.conformance.test_conformance import KINDS, lines, play, test_kinds  # noqa: F401

LANGS = ("de", "en")


def _misspelt(word: str) -> Iterator[str]:
    """A letter lost, two letters swapped, a letter doubled, a letter wrong: in a word of
    letters long enough to be a name or a keyword."""
    if len(word) < 3 or not word.isalpha():
        return
    yield word[:-1]
    yield word[0] + word[2] + word[1] + word[3:]
    yield word + word[-1]
    yield word[:-1] + ("x" if word[-1] != "x" else "y")


def _miscounted(word: str) -> Iterator[str]:
    """A number off by one or a nine for it: a card not in the hand, a field off the board,
    a position out of range."""
    digits = [i for i, c in enumerate(word) if c.isdigit()]
    if not digits:
        return
    last = digits[-1]
    for digit in {str((int(word[last]) + 1) % 10), "9"} - {word[last]}:
        yield word[:last] + digit + word[last + 1 :]


def mistakes(example: str) -> Iterator[list[str]]:
    """Typical mistakes, each a whole mail made of the example with one fault."""
    rows = [row for row in example.splitlines() if row.strip()]
    for i, row in enumerate(rows):
        words = row.split(" ")
        for j, word in enumerate(words):
            bare = word.strip(",;:")
            for wrong in [*_misspelt(bare), *_miscounted(bare)]:
                written = word.replace(bare, wrong)
                yield [*rows[:i], " ".join([*words[:j], written, *words[j + 1 :]]), *rows[i + 1 :]]
        if len(words) > 1:
            yield [*rows[:i], " ".join(words[:-1]), *rows[i + 1 :]]
        yield [*rows[:i], row.lower(), *rows[i + 1 :]]
    yield [*rows, "xyzzy 42 plugh"]


def _mail(rows: Sequence[str]) -> list[Line]:
    return [Line(no, text) for no, text in enumerate(rows, start=1)]


def _fixed(rows: Sequence[str], problems: Sequence[Problem]) -> list[str]:
    fixed = list(rows)
    for problem in problems:
        if problem.fix is not None and problem.line is not None:
            fixed[problem.line - 1] = problem.fix.applied(fixed[problem.line - 1])
    return fixed


def _states(kind: str) -> Iterator[tuple[Any, BaseModel]]:
    engine = games.find_game(kind)
    for step in play(kind):
        yield engine, step.state


def _check_fixes(engine: Any, state: BaseModel, seat: str, lang: str, rows: list[str]) -> int:
    """The mistake's refusal, its fixes put in, sent again; the number of fixes checked."""
    try:
        engine.read_orders(_mail(rows), state, seat, lang)
        return 0
    except OrdersRejected as refused:
        problems = refused.problems
    _check_hints(problems, lang)
    fixes = [p for p in problems if p.fix is not None and p.line is not None]
    if not fixes:
        return 0
    again = _fixed(rows, problems)
    where = f"{engine.kind} {lang} {seat} {engine.phase_label(state, lang)}: {rows} -> {again}"
    try:
        engine.read_orders(_mail(again), state, seat, lang)
    except OrdersRejected as still:
        if len(fixes) == len(problems):
            raise AssertionError(f"{where}\n{problems_text(still.problems, lang)}") from None
        mended = {p.line for p in fixes}
        assert not mended & {p.line for p in still.problems}, where
    return len(fixes)


def _check_hints(problems: Sequence[Problem], lang: str) -> None:
    """A question carries its guess as data; a form asks nothing."""
    for problem in problems:
        asks = problem.hint.rstrip().endswith("?")
        guess = problem.fix is not None and problem.fix.guess
        assert asks == guess or not problem.hint, (problem.hint, problem.fix)
        if guess:
            assert problems_text([problem], lang).count(problem.hint) == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_fix_of_a_typical_mistake_is_accepted_when_sent_back(kind: str, lang: str) -> None:
    checked = 0
    seen: set[tuple[str, str]] = set()
    for engine, state in _states(kind):
        for seat in sorted(engine.participants(state)):
            example = engine.example(state, seat, lang)
            if not example or (seat, example) in seen:
                continue
            seen.add((seat, example))
            for rows in mistakes(example):
                checked += _check_fixes(engine, state, seat, lang, rows)
    # a kind whose replies suggest nothing a player could send back passes trivially; the
    # games the issue names make such suggestions and must show them here
    if kind in ("highlander", "hornberg"):
        assert checked, f"{kind}: no reply to a typical mistake carried a fix"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_phase_label_is_read_as_the_current_header(kind: str, lang: str) -> None:
    for engine, state in _states(kind):
        label = engine.phase_label(state, lang)
        read = {engine.read_header(form, state) for form in (label, f"Phase: {label}")}
        assert Header.CURRENT in read, f"{kind}: {label!r} is not read as this phase's header"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_example_on_the_header_line_is_read_as_the_example(kind: str, lang: str) -> None:
    engine = games.find_game(kind)
    if not hasattr(engine, "orders_after_header"):
        pytest.skip(f"{kind} has no orders_after_header")
    checked = 0
    for engine, state in _states(kind):
        label = engine.phase_label(state, lang)
        for alone in (label, f"{label}:", f"{label} (Anna Alt)", f"{label} –"):
            assert engine.orders_after_header(alone, state) is None, (kind, alone)
        for seat in sorted(engine.participants(state)):
            first, *rest = lines(engine.example(state, seat, lang)) or [None]
            if first is None:
                continue
            written = f"{label}: {first.text.strip()}"
            assert engine.read_header(written, state) is Header.CURRENT, (kind, written)
            after = engine.orders_after_header(written, state)
            assert after == first.text.strip(), (kind, written, after)
            read = engine.read_orders([Line(first.no, after), *rest], state, seat, lang)
            alone = engine.read_orders([first, *rest], state, seat, lang)
            assert read.orders == alone.orders, (kind, written)
            number = engine.phase_number(state)
            other = label.replace(str(number), str(number + 1), 1)
            assert engine.read_header(f"{other}: {first.text.strip()}", state) is Header.OTHER
            checked += 1
    assert checked, f"{kind}: no example was written on the header line"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_example_a_mail_shows_is_accepted_in_every_phase(kind: str, lang: str) -> None:
    """HILFE and STAND quote the seat's example ("Beispiel: …", "Ein PLAN wäre etwa: …") in
    every phase, in both languages; sent back as it stands, it is accepted."""
    for engine, state in _states(kind):
        for seat in sorted(engine.participants(state)):
            example = engine.example(state, seat, lang)
            if not example:
                continue
            engine.read_orders(lines(example), state, seat, lang)
            assert example in engine.help(state, seat, lang), (kind, seat, example)
