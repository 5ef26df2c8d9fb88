"""Every game's order reader under hypothesis: whatever lines a mail holds, ``read_orders``
accepts them or rejects them with OrdersRejected (which the daemon turns into an answer), never
anything else, and never takes a second.

Lines are drawn from the words the game itself shows the player (its welcome texts: names,
rules, keywords, an example order, numbers), recombined, cut and mixed with arbitrary text, so the
grammar is reached deep rather than failing on the first character. ``read_orders`` is called
positionally with four arguments (protocol v2 adds an optional ``on_file``). The dedicated run:

    .venv/bin/pytest -m slow tests/mail_corpus/test_fuzz_orders.py    (100 000 per game)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_daemon.games import find_game
from gm_daemon.games.protocol import Accepted, Game, Line, OrdersRejected, Seat
from tests.mail_corpus.cpu import within_limit

QUICK = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(QUICK, max_examples=100_000)
SEATS = [Seat("anna", "A. Langsam"), Seat("bert", "V. Pech"), Seat("egon", "E. Müller"),
         Seat("hans", "H. Glück")]  # fmt: skip


@dataclass(frozen=True)
class Table:
    """One game at its start: the engine, the state and the words its texts use."""

    label: str
    game: Game[Any, Any, Any]
    state: Any
    seats: tuple[str, ...]
    words: tuple[str, ...]
    lines: tuple[str, ...]


def table(kind: str, **options: str) -> Table:
    game = find_game(kind)
    state = game.start(game.Options(**options), SEATS, random.Random(1))
    seats = tuple(sorted(game.participants(state)))
    texts = []
    for seat, lang in ((seat, lang) for seat in seats for lang in ("de", "en")):
        welcome = game.welcome(state, seat, lang)
        texts += [welcome.public, welcome.private.get(seat, "")]
    lines = tuple(sorted({ln.strip() for text in texts for ln in text.splitlines() if ln.strip()}))
    words = tuple(
        sorted({w for line in lines for w in re.split(r"[\s,]+", line) if 0 < len(w) < 25})
    )
    label = "-".join([kind, *options.values()])
    return Table(label, game, state, seats, words, lines)


TABLES = [
    table("highnoon"),
    table("primtraktor"),
    table("hornberg", variant="dd"),
    table("hornberg", variant="kq"),
]


def order_line(t: Table) -> st.SearchStrategy[str]:
    """A line the game might see: one of its own lines, cut, addressed to another player or
    recombined; its words in any order with numbers and punctuation; or any text at all."""
    names = [seat.name for seat in SEATS]
    token = st.sampled_from(t.words) | st.integers(-3, 99).map(str) | st.sampled_from(",:;-.()→")
    tokens = st.lists(token, min_size=1, max_size=8).map(" ".join)
    own = st.sampled_from(t.lines)
    cut = st.tuples(own, st.integers(0, 80), st.integers(0, 80)).map(_cut)
    renamed = st.tuples(st.sampled_from(names), own).map(lambda x: f"{x[0]}: {_tail(x[1])}")
    spliced = st.tuples(own, tokens).map(" ".join)
    return own | renamed | tokens | cut | spliced | st.text(max_size=60)


def _cut(drawn: tuple[str, int, int]) -> str:
    line, start, length = drawn
    return line[start : start + length]


def _tail(line: str) -> str:
    return line.split(":", 1)[-1].strip()


@st.composite
def submission(draw: st.DrawFn, t: Table) -> tuple[list[Line], str, str]:
    """Mostly one to three lines (one bad line rejects a whole mail, so short submissions
    reach the checks behind the syntax), sometimes a dozen."""
    count = draw(st.integers(0, 3) | st.integers(0, 12))
    texts = draw(st.lists(order_line(t).filter(str.strip), min_size=count, max_size=count))
    numbers = sorted(draw(st.sets(st.integers(1, 200), min_size=count, max_size=count)))
    lines = [Line(no, text.strip()) for no, text in zip(numbers, texts, strict=True)]
    return lines, draw(st.sampled_from(t.seats)), draw(st.sampled_from(["de", "en"]))


def check_reading(t: Table, lines: list[Line], seat: str, lang: str) -> None:
    outcome = within_limit(lambda: _read(t, lines, seat, lang))
    assert isinstance(outcome, Accepted) or outcome.problems  # a rejection says what is wrong


def _read(t: Table, lines: list[Line], seat: str, lang: str) -> Accepted[Any] | OrdersRejected:
    try:
        return t.game.read_orders(lines, t.state, seat, lang)
    except OrdersRejected as rejected:
        return rejected


@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.label)
def test_order_reader_accepts_or_rejects(t: Table) -> None:
    @QUICK
    @given(submission(t))
    def run(drawn: tuple[list[Line], str, str]) -> None:
        check_reading(t, *drawn)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.label)
def test_order_reader_hundred_thousand(t: Table) -> None:
    @LONG
    @given(submission(t))
    def run(drawn: tuple[list[Line], str, str]) -> None:
        check_reading(t, *drawn)

    run()


@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.label)
def test_the_drawn_lines_reach_the_accepting_path(t: Table) -> None:
    """Not a vacuous fuzz: some single line the strategy draws (one of the game's own lines,
    or one addressed to a player) is accepted for some seat, so both outcomes are reached."""
    names = [seat.name for seat in SEATS]
    candidates = [*t.lines, *(f"{name}: {_tail(line)}" for name in names for line in t.lines)]
    assert any(_accepted(t, text, seat) for text in candidates for seat in t.seats)


def _accepted(t: Table, text: str, seat: str) -> bool:
    try:
        t.game.read_orders([Line(1, text)], t.state, seat, "de")
    except OrdersRejected:
        return False
    return True
