"""Everything Hexenhalma writes for players: the board announcement, the acknowledgement,
fates, the result mail and the step log. Words come from ``phrases.toml``; layout from
kit.layout. Fields are always shown in the reader's own frame (his S at the bottom)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from gm_daemon.games.hexenhalma.board import GOAL, Board, parse_board
from gm_daemon.games.hexenhalma.check import budget, walk_fields
from gm_daemon.games.hexenhalma.model import Cast, Orders, RoundRecord, State, WitchOrder
from gm_daemon.games.hexenhalma.rounds import FateRow, Played, Side, View, ranking
from gm_daemon.games.hexenhalma.simulate import SPELL_LETTERS, Fate
from gm_daemon.games.hexenhalma.words import say
from gm_daemon.games.kit import layout
from gm_daemon.games.protocol import Lang

WITCH_WORD = {"de": "Hexe", "en": "Witch"}


# --- the board ------------------------------------------------------------------------
def announcement(board: Board, round_no: int, lang: Lang) -> str:
    """§3's board announcement: title, numbers, allowances, the grid, the legend."""
    spells = board.allowance_text() or say(lang, "no_spells")
    scope = "board_spells_team" if board.scope == "team" else "board_spells_witch"
    lines = [
        say(lang, "board_title", n=round_no, name=board.name),
        say(
            lang,
            "board_numbers",
            witches=board.witches,
            min=board.min_steps,
            max=board.max_steps,
            sleep=board.sleep,
        ),
        say(lang, scope, spells=spells),
        *board.grid_lines(),
        say(lang, "board_legend"),
    ]
    return "\n".join(lines)


# --- orders ---------------------------------------------------------------------------
def step_word(board: Board, g: int, field: int, witch: WitchOrder, lang: Lang) -> str:
    step = witch.steps[g - 1]
    name = ("~" if step.jump else "") + board.field_name(field)
    if step.spell:
        name += f"[B>{step.bann}]" if step.spell == "B" else f"[{step.spell}]"
    if board.kind(field) == GOAL:
        name += " " + say(lang, "goal_mark")
    return f"▸{g} {name}"


def witch_lines(board: Board, witch: WitchOrder, lang: Lang) -> list[str]:
    """``Hexe 2: D7 ▸1 D6[I] ▸2 D5 … ▸6 D1 (Ziel)``, wrapped at 78 columns."""
    prefix = f"{WITCH_WORD.get(lang, 'Witch')} {witch.number}: "
    if witch.void is not None:
        reason = say(lang, witch.void.reason, **witch.void.values)
        text = say(lang, "not_starting", number=witch.number, reason=reason)
        return layout.flow(text.removeprefix(prefix).split(" "), prefix=prefix)
    fields = walk_fields(board, witch)
    words = [board.field_name(fields[0])]
    words += [step_word(board, g, f, witch, lang) for g, f in enumerate(fields[1:], 1)]
    return layout.flow(words, prefix=prefix)


def describe(board: Board | None, orders: Orders, lang: Lang) -> str:
    if board is None or not orders.witches:
        return say(lang, "no_witches")
    lines = [line for w in orders.witches for line in witch_lines(board, w, lang)]
    used = budget(board, orders)
    if board.scope == "team":
        parts = [f"{s} {used[s]}/{n}" for s, n in board.allowance]
    else:
        parts = [f"{s} {used[s]}" for s, _ in board.allowance]
    lines.append(say(lang, "budget", used="  ".join(parts)))
    if any(w.void for w in orders.witches) and orders.starting():
        lines.append(say(lang, "rest_plays"))
    return "\n".join(lines)


def compact(orders: Orders, lang: Lang) -> str:
    """The canonical relative form (what ``example`` sends), one line per witch."""
    return "\n".join(_compact_witch(w, lang) for w in orders.witches)


def _compact_witch(witch: WitchOrder, lang: Lang) -> str:
    parts: list[str] = []
    run = 0
    for i, step in enumerate(witch.steps):
        if step.jump:
            parts.append(f"@{step.jump}" + _spell_suffix(step.spell, step.bann))
            continue
        run += 1
        nxt = witch.steps[i + 1] if i + 1 < len(witch.steps) else None
        if nxt is not None and nxt.walk == step.walk and not step.spell:
            continue
        walk = direction_word(step.walk or "", lang)
        parts.append(f"{walk}{run if run > 1 else ''}" + _spell_suffix(step.spell, step.bann))
        run = 0
    return f"{WITCH_WORD.get(lang, 'Witch')} {witch.number}: {witch.start} | {', '.join(parts)}"


# The directions as the help of each language names them ("Richtungen N, O, S, W").
_DIRECTION_WORD = {"de": {"E": "O"}}


def direction_word(walk: str, lang: Lang) -> str:
    return _DIRECTION_WORD.get(lang, {}).get(walk, walk)


def absolute(board: Board, witch: WitchOrder, lang: Lang) -> str:
    """A walking witch in the absolute form ("Hexe 2: D7-D6[I]-D5"), field by field."""
    cell = board.find(witch.start)
    assert cell is not None, witch.start
    fields = [witch.start]
    for step in witch.steps:
        dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[step.walk or "N"]
        cell += dx + dy * board.stride
        spell = f"[{step.spell}]" if step.spell and step.spell != "B" else ""
        fields.append(board.field_name(cell) + spell)
    return f"{WITCH_WORD.get(lang, 'Witch')} {witch.number}: {'-'.join(fields)}"


def _spell_suffix(spell: str | None, bann: str | None) -> str:
    if spell is None:
        return ""
    return f"+B>{bann}" if spell == "B" else f"+{spell}"


# --- fates ----------------------------------------------------------------------------
def step_text(t: int, lang: Lang) -> str:
    return say(lang, "step_short", t=t)


def fate_text(board: Board, fate: Fate | None, lang: Lang) -> str:
    """E.g. "gebannt nach A3 (S4), ins Aus auf A1 (S6)"."""
    if fate is None:
        return say(lang, "fate_absent")
    notes = [_at(lang, f"note_{what}", board.field_name(cell), t) for what, cell, t in fate.notes]
    key = f"fate_{fate.kind}"
    if fate.kind == "out":
        inside = board.find(board.field_name(fate.cell)) is not None
        key = (
            "fate_out_start"
            if board.kind(fate.cell) in "SZ"
            else ("fate_out" if inside else "fate_out_edge")
        )
    notes.append(_at(lang, key, board.field_name(fate.cell), fate.t))
    return ", ".join(notes)


@lru_cache(maxsize=4096)
def _at(lang: Lang, key: str, field: str, t: int) -> str:
    """What happened where and when ("gebannt nach A3 (Schritt 4)"): a round of 200
    players writes the same few hundred of these some 50,000 times."""
    return say(lang, key, field=field, step=step_text(t, lang))


def pairing_lines(
    v: View, names: Mapping[str, str], orders: Mapping[str, Orders], lang: Lang
) -> list[str]:
    return PairingWriter(names, orders, lang).lines(v)


class PairingWriter:
    """Writes pairings with every witch's fate, for the many pairings of one round in one
    language. A witch's line is kept by seat, number and fate: fates repeat (a witch nobody
    hindered ends alike in every pairing, and every reader sees the other teams in the same
    frame, turned), so a round of 200 players writes each once, not 80,000 times."""

    def __init__(self, names: Mapping[str, str], orders: Mapping[str, Orders], lang: Lang):
        self.names = names
        self.orders = orders
        self.lang = lang
        self._numbers: dict[str, set[int]] = {}
        self._lines: dict[tuple[str, int, Fate | None], list[str]] = {}
        self._teams: dict[tuple[str, tuple[FateRow, ...], bool], list[str]] = {}
        self._rows: dict[tuple[str, int, FateRow | None, bool], list[str]] = {}

    def lines(self, v: View) -> list[str]:
        names = self.names
        score = f"{sum(f.kind == 'goal' for f in v.mine.values())}:" + str(
            sum(f.kind == "goal" for f in v.theirs.values())
        )
        lines = [f"{names.get(v.me, v.me)} – {names.get(v.other, v.other)} {score}"]
        for seat, fates in ((v.me, v.mine), (v.other, v.theirs)):
            for number in sorted(self._witches(seat) | fates.keys()):
                lines += self._witch(v.board, seat, number, fates.get(number))
        return lines

    def side_lines(self, board: Board, me: str, side: Side) -> list[str]:
        """``lines`` for a pairing read straight from its event (``Played.sides``), with no
        ``View`` and no fates made on the way: a team's lines are kept by seat, the fates as
        the event holds them and the frame, since a team that nobody hindered ends alike in
        most of its pairings."""
        names, other = self.names, side.other
        lines = [f"{names.get(me, me)} – {names.get(other, other)} "
                 f"{side.score_mine}:{side.score_theirs}"]  # fmt: skip
        lines += self._team(board, me, side.mine, side.turned)
        lines += self._team(board, other, side.theirs, side.turned)
        return lines

    def _team(self, board: Board, seat: str, rows: tuple[FateRow, ...], turned: bool) -> list[str]:
        key = (seat, rows, turned)
        lines = self._teams.get(key)
        if lines is None:
            by_number = {row[0]: row for row in rows}
            lines = self._teams[key] = []
            for number in sorted(self._witches(seat) | by_number.keys()):
                lines += self._row(board, seat, number, by_number.get(number), turned)
        return lines

    def _row(
        self, board: Board, seat: str, number: int, row: FateRow | None, turned: bool
    ) -> list[str]:
        """A witch's lines by her fate as the event holds it; the fate in the reader's
        frame (``_witch``) is made only for a row not met before."""
        key = (seat, number, row, turned)
        lines = self._rows.get(key)
        if lines is None:
            fate = None
            if row is not None:
                _, kind, cell, t, notes = row
                turn = board.rot if turned else _same
                fate = Fate(kind, turn(cell), t, tuple((w, turn(c), s) for w, c, s in notes))
            lines = self._rows[key] = self._witch(board, seat, number, fate)
        return lines

    def _witches(self, seat: str) -> set[int]:
        numbers = self._numbers.get(seat)
        if numbers is None:
            numbers = self._numbers[seat] = {w.number for w in self.orders[seat].witches}
        return numbers

    def _witch(self, board: Board, seat: str, number: int, fate: Fate | None) -> list[str]:
        key = (seat, number, fate)
        lines = self._lines.get(key)
        if lines is None:
            name = self.names.get(seat, seat)
            label = f"  {name}, {WITCH_WORD.get(self.lang, 'Witch')} {number}: "
            text = fate_text(board, fate, self.lang)
            lines = self._lines[key] = layout.flow(text.split(" "), prefix=label)
        return lines


def _same(cell: int) -> int:
    return cell


# --- standings ------------------------------------------------------------------------
def standings(state: State, lang: Lang) -> list[str]:
    totals = state.totals()
    league = state.scoring == "league"
    header = [
        "",
        say(lang, "col_player"),
        *([say(lang, "col_points")] if league else []),
        say(lang, "col_arrivals"),
        say(lang, "col_conceded"),
        say(lang, "col_difference"),
        say(lang, "col_won"),
        say(lang, "col_drawn"),
        say(lang, "col_lost"),
    ]
    rows, names = [], state.names()
    for place, group in layout.places(ranking(state)):
        for i, seat in enumerate(group):
            t = totals[seat]
            rows.append(
                [
                    f"{place}." if i == 0 else "",
                    names.get(seat, seat),
                    *([str(t.league)] if league else []),
                    str(t.arrivals),
                    str(t.conceded),
                    f"{t.difference:+d}" if t.difference else "0",
                    str(t.wins),
                    str(t.draws),
                    str(t.losses),
                ]
            )
    right = set(range(2, len(header))) | {0}
    note = say(lang, "scoring_note_league" if league else "scoring_note_arrivals")
    return [*layout.table(rows, header=header, right=right), note]


MATRIX_LIMIT = 12  # beyond this many players the matrix no longer fits a mail


def matrix(state: State, record: RoundRecord, lang: Lang) -> list[str]:
    seats = [s.id for s in state.seats if s.id in record.orders]
    if len(seats) > MATRIX_LIMIT:
        return [say(lang, "matrix_too_big")]
    scores = {}
    for p in record.pairings:
        scores[(p.a, p.b)] = f"{p.score_a}:{p.score_b}"
        scores[(p.b, p.a)] = f"{p.score_b}:{p.score_a}"
    header = ["", *(state.name(s) for s in seats)]
    rows = [[state.name(r), *(scores.get((r, c), "–") for c in seats)] for r in seats]
    return [say(lang, "matrix"), *layout.table(rows, header=header, right=set(range(1, 99)))]


def result_public(state: State, record: RoundRecord, lang: Lang) -> str:
    board = parse_board(record.board)
    lines = [say(lang, "result_title", n=record.round, name=board.name), ""]
    lines += matrix(state, record, lang)
    if record.defaulted:
        names = layout.name_list([state.name(s) for s in record.defaulted], lang)
        count = len(record.defaulted)
        lines += ["", say(lang, "nmr_teams", count=count, names=names)]
    if state.finished:
        lines += ["", say(lang, "final", count=record.round)]
    else:
        lines += ["", say(lang, "standings", n=record.round)]
    lines += standings(state, lang)
    lines += lot_lines(state, record, lang)
    lines.append("")
    if state.finished and state.lots_drawn:
        lines.append(say(lang, "lot_seed", count=state.lots_drawn, seed=state.lot_seed))
    elif state.finished:
        lines.append(say(lang, "no_lots"))
    else:
        nxt = state.board()
        lines.append(say(lang, "next_round"))
        if nxt is None:
            lines.append(say(lang, "waiting_note", n=state.round))
        else:
            lines.append(announcement(nxt, state.round, lang))
    return layout.wrap("\n".join(lines)) + "\n"


LOTS_LISTED = 12  # a big round may draw many; the pictures show the rest


def lot_lines(state: State, record: RoundRecord, lang: Lang) -> list[str]:
    """What each lot of the round decided (HH-15), so nobody has to take it on trust."""
    if not record.lots:
        return []

    def cast(c: Cast) -> str:
        return say(lang, "lot_cast", name=state.name(c.seat), witch=c.witch, spell=c.spell)

    lines = ["", say(lang, "lots_title")]
    for lot in record.lots[:LOTS_LISTED]:
        casters = layout.name_list([cast(c) for c in lot.casters], lang)
        a, b = state.name(lot.a), state.name(lot.b)
        text = say(lang, "lot_line", a=a, b=b, step=lot.step, field=lot.field,
                   casters=casters, winner=cast(lot.winner))  # fmt: skip
        lines.append(f"- {text}")
    if len(record.lots) > LOTS_LISTED:
        lines.append("- " + say(lang, "lots_more", count=len(record.lots) - LOTS_LISTED))
    return lines


def result_private(writer: PairingWriter, views: list[View], lang: Lang) -> str:
    lines = [say(lang, "your_pairings"), ""]
    for v in views:
        lines += writer.lines(v)
    lines += ["", say(lang, "picture_hint")]
    return layout.wrap("\n".join(lines)) + "\n"


def played_private(writer: PairingWriter, played: Played, seat: str, lang: Lang) -> str:
    """``result_private`` from the round's events (``Played.sides``). A witch's lines
    start with two spaces and are flowed to the width already, and ``layout.wrap`` leaves
    such lines as they are: only the other lines are given to it, the same text in a
    fraction of the time (a player of 200 reads 199 pairings, some 1,000 lines)."""
    board = played.board
    lines = [say(lang, "your_pairings"), ""]
    for side in played.sides(seat):
        block = writer.side_lines(board, seat, side)
        lines.append(layout.wrap(block[0]))
        lines += block[1:]
    lines += ["", layout.wrap(say(lang, "picture_hint"))]
    lines[0] = layout.wrap(lines[0])
    return "\n".join(lines) + "\n"


# --- the step log (BILD / PICTURE) ------------------------------------------------------
def log_lines(v: View, state: State, lang: Lang) -> list[str]:
    board, names = v.board, (state.name(v.me), state.name(v.other))
    lines, current = [say(lang, "cmd_log")], 0
    for t, team, number, what, cell, extra in v.traced.log or []:
        if t != current:
            lines.append(say(lang, "cmd_step", t=t))
            current = t
        if what == "cast" and extra == 4:
            what = "cast_immune"
        text = say(
            lang,
            f"log_{what}",
            field=board.field_name(cell),
            spell=SPELL_LETTERS.get(extra, ""),
            extra=extra,
        )
        lines.append(f"  {names[team]} H{number} {text}")
    return lines
