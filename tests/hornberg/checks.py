"""What a scenario step may expect, one small function per key of ``[step.expect]``.

Each check gets the step's outcome and the expected value from the data file and asserts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gm_daemon.games.hornberg import GAME, cards, dd, kq, rules
from gm_daemon.games.hornberg.deal import hand_deck, new_game
from gm_daemon.games.hornberg.model import SeatInfo, State
from gm_daemon.games.hornberg.report import played_text
from gm_daemon.games.hornberg.tables import line_name
from gm_daemon.games.hornberg.window import window
from gm_daemon.games.protocol import Problem

from .position import seat_id


@dataclass
class Outcome:
    before: State
    after: State
    events: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    carried: dict[str, Any] = field(default_factory=dict)
    lang: str = "de"

    @property
    def last_round(self) -> Any:
        return self.after.history[-1]

    def seat(self, name: str) -> str:
        return seat_id(name)


Check = Callable[[Outcome, Any], None]
CHECKS: dict[str, Check] = {}


def check(name: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        CHECKS[name] = fn
        return fn

    return register


def _row_index(name: str) -> int:
    return dd.ROW_NAMES.index(name)


# --- acceptance ---------------------------------------------------------------------------
@check("rejected")
def _rejected(out: Outcome, kind: str) -> None:
    assert out.problems, "expected a rejection"
    assert out.problems[0].kind.value == kind, out.problems


@check("message")
def _message(out: Outcome, text: str) -> None:
    assert any(text in p.message for p in out.problems), [p.message for p in out.problems]


@check("hint")
def _hint(out: Outcome, text: str) -> None:
    assert any(text in p.hint for p in out.problems), [p.hint for p in out.problems]


@check("fix")
def _fix(out: Outcome, text: str) -> None:
    """The line the reply offers to send instead ("Richtig wäre: …")."""
    assert any(p.fix and p.fix.right == text for p in out.problems), [p.fix for p in out.problems]


@check("problem_lines")
def _problem_lines(out: Outcome, numbers: list[int | None]) -> None:
    assert [p.line for p in out.problems] == numbers


@check("headers")
def _headers(out: Outcome, expected: dict[str, str]) -> None:
    """How the engine reads phase header lines now ("current", "other" or "none")."""
    for line, meaning in expected.items():
        header = GAME.read_header(line, out.after)
        assert (header.value if header else "none") == meaning, line


@check("warning")
def _warning(out: Outcome, text: str) -> None:
    assert any(text in w.message for w in out.warnings), out.warnings


@check("carried")
def _carried(out: Outcome, names: list[str]) -> None:
    assert sorted(out.carried) == sorted(seat_id(n) for n in names)


# --- D&D table ----------------------------------------------------------------------------
@check("row_len")
def _row_len(out: Outcome, lengths: dict[str, int]) -> None:
    for name, length in lengths.items():
        assert out.after.table.rows[_row_index(name)].length == length, name


@check("complete_rows")
def _complete_rows(out: Outcome, names: list[str]) -> None:
    assert [dd.ROW_NAMES[i] for i in dd.complete_rows(out.after.table)] == names


@check("row")
def _row(out: Outcome, rows: dict[str, str]) -> None:
    for name, text in rows.items():
        row = out.after.table.rows[_row_index(name)]
        assert " ".join(dd.stack_text(s.cannon, s.beer) for s in row.stacks) == text


# --- K&Q table ----------------------------------------------------------------------------
@check("finishable")
def _finishable(out: Outcome, names: list[str]) -> None:
    win = window(out.after.table)
    found = sorted(
        line_name(win, ln.kind, ln.index, out.lang) for ln in kq.finishable(out.after.table)
    )
    assert found == sorted(names)


@check("blocked")
def _blocked(out: Outcome, names: list[str]) -> None:
    win = window(out.after.table)
    found = sorted(
        line_name(win, ln.kind, ln.index, out.lang) for ln in kq.blocked(out.after.table)
    )
    assert found == sorted(names)


@check("cell_legal")
def _cell_legal(out: Outcome, cells_: dict[str, bool]) -> None:
    for text, legal in cells_.items():
        x, y = (int(v) for v in text.split(","))
        assert (kq.cell_refusal(out.after.table, (x, y)) is None) == legal, text


@check("legal_cells")
def _legal_cells(out: Outcome, labels: list[str]) -> None:
    win = window(out.after.table)
    assert [win.label(xy) for xy in kq.legal_cells(out.after.table)] == labels


@check("at")
def _at(out: Outcome, where: dict[str, str]) -> None:
    """``{"bl5" = "0,0"}``: the cannon lies on that absolute cell; "-" = not on the table."""
    for cannon, text in where.items():
        found = kq.find(out.after.table, cannon)
        if text == "-":
            assert found is None, cannon
        else:
            assert found is not None and found.xy == tuple(int(v) for v in text.split(","))


@check("dukes")
def _dukes(out: Outcome, dukes: dict[str, str]) -> None:
    for name, text in dukes.items():
        assert out.after.table.dukes.get(seat_id(name), []) == text.split()


@check("collected")
def _collected(out: Outcome, points: dict[str, int]) -> None:
    for name, total in points.items():
        won = out.after.table.collected.get(seat_id(name), [])
        assert sum(cards.value(c) for c in won) == total, name


@check("duke_sum")
def _duke_sum(out: Outcome, total: int) -> None:
    assert kq.duke_sum(out.after.table) == total


# --- both ---------------------------------------------------------------------------------
@check("kegs")
def _kegs(out: Outcome, kegs: dict[str, str]) -> None:
    for colour, name in kegs.items():
        assert out.after.table.kegs.get(colour) == seat_id(name), colour


@check("to_move")
def _to_move(out: Outcome, name: str) -> None:
    assert out.after.to_move == seat_id(name)


@check("can_play")
def _can_play(out: Outcome, names: dict[str, bool]) -> None:
    for name, expected in names.items():
        assert rules.can_play(out.after, seat_id(name)) == expected, name


@check("out")
def _out(out: Outcome, names: list[str]) -> None:
    assert out.after.out == [seat_id(n) for n in names]


@check("revealed")
def _revealed(out: Outcome, hands: dict[str, str]) -> None:
    shown = {e["seat"]: e["hand"] for e in out.events if e["event"] == "out"}
    for name, text in hands.items():
        assert sorted(shown[seat_id(name)]) == sorted(text.split())


@check("hand")
def _hand(out: Outcome, hands: dict[str, str]) -> None:
    for name, text in hands.items():
        assert sorted(out.after.hands[seat_id(name)]) == sorted(text.split()), name


@check("hand_size")
def _hand_size(out: Outcome, sizes: dict[str, int]) -> None:
    for name, size in sizes.items():
        assert len(out.after.hands[seat_id(name)]) == size, name


@check("pile_size")
def _pile_size(out: Outcome, size: int) -> None:
    assert len(out.after.pile) == size


@check("played")
def _played(out: Outcome, texts: list[str]) -> None:
    plays = [e for e in out.events if e["event"] == "play"]
    assert [played_text(out.after, e, out.lang) for e in plays] == texts


@check("how")
def _how(out: Outcome, how: str) -> None:
    assert [e["how"] for e in out.events if e["event"] == "play"][:1] == [how]


@check("events")
def _events(out: Outcome, kinds: list[str]) -> None:
    assert [e["event"] for e in out.events] == kinds


@check("turn")
def _turn(out: Outcome, number: int) -> None:
    assert out.after.turn == number


# --- round and game end -------------------------------------------------------------------
@check("round_ended")
def _round_ended(out: Outcome, reason: str) -> None:
    ends = [e for e in out.events if e["event"] == "round_end"]
    assert ends and ends[-1]["reason"] == reason, out.events


@check("round_continues")
def _round_continues(out: Outcome, expected: bool) -> None:
    assert (out.after.round == out.before.round) == expected


@check("round_scores")
def _round_scores(out: Outcome, totals: dict[str, int]) -> None:
    scores = {s.seat: s.total for s in out.last_round.scores}
    assert scores == {seat_id(n): t for n, t in totals.items()}


@check("score_items")
def _score_items(out: Outcome, items: dict[str, list[str]]) -> None:
    """``{P2 = ["collected +21", "dukes +13", "ge -9", "sw -14 x2"]}``"""
    for name, expected in items.items():
        score = next(s for s in out.last_round.scores if s.seat == seat_id(name))
        shown = [
            f"{i.colour or i.what} {i.points:+d}" + (" x2" if i.doubled else "")
            for i in score.items
        ]
        assert shown == expected, name


@check("totals")
def _totals(out: Outcome, totals: dict[str, int]) -> None:
    assert out.after.totals == {seat_id(n): t for n, t in totals.items()}


@check("finished")
def _finished(out: Outcome, expected: bool) -> None:
    assert out.after.finished == expected


@check("ranking")
def _ranking(out: Outcome, ranks: list[list[str]]) -> None:
    assert out.after.ranking == [[seat_id(n) for n in rank] for rank in ranks]


# --- the box (TC-HB-7) --------------------------------------------------------------------
@check("deck_sizes")
def _deck_sizes(out: Outcome, sizes: dict[str, int]) -> None:
    for variant, size in sizes.items():
        options = out.after.options.model_copy(update={"variant": variant})
        assert len(hand_deck(options)) == size, variant


@check("pile_after_deal")
def _pile_after_deal(out: Outcome, piles: dict[str, int]) -> None:
    """Deal a fresh game for five players in each variant and count the pile."""
    seats = [SeatInfo(id=f"p{i}", name=f"P{i}") for i in range(1, 6)]
    for variant, size in piles.items():
        options = out.after.options.model_copy(update={"variant": variant})
        state = new_game(options, seats, random.Random(7))
        assert len(state.pile) == size, variant
        assert all(len(h) == options.hand_size for h in state.hands.values())


@check("beer_table")
def _beer_table(out: Outcome, table: dict[str, Any]) -> None:
    beers = cards.beers(out.after.options.beer_counts)
    counts = {str(v): n for v, n in Counter(cards.value(b) for b in beers).items()}
    assert len(beers) == table["cards"]
    assert sum(cards.value(b) for b in beers) == table["sum"]
    assert counts == table["counts"]
