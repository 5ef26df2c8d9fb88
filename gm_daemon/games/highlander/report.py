"""The texts of results and status, like a good judge's (spec §3.3): every order with its
result and reason, dislodged units with their retreat options, centre ownership with counts
and changes, the units, what happened to the game, and the next phase (the core adds its
deadline). A tournament report has both boards and a match status line.

Everything is rendered from the stored state and its ``Record`` of the last resolution, so
``gm-daemon show`` can render a past phase again.
"""

from __future__ import annotations

import textwrap

from gm_daemon.games.highlander import boards, decide
from gm_daemon.games.highlander.labels import phase_label, step_label
from gm_daemon.games.highlander.model import BoardRecord, BoardState, Record, State
from gm_daemon.games.highlander.wording import PHRASES, order, say
from gm_daemon.games.kit.layout import WIDTH, fold, hanging, name_list, table, wrap


class _Writer:
    """One report in one language: the state it describes and the lines written so far."""

    def __init__(self, state: State, lang: str):
        self.state = state
        self.lang = lang
        self.lines: list[str] = []

    def say(self, key: str, **values: object) -> str:
        return PHRASES(self.lang, key, **values)

    def para(self, text: str) -> None:
        self.lines += [wrap(text), ""]

    def heading(self, text: str) -> None:
        self.lines += [text, "-" * len(text)]

    def name(self, seat: str | None) -> str:
        return self.state.name(seat)

    def text(self) -> str:
        while self.lines and not self.lines[-1]:
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


def result_text(before: State, after: State, lang: str) -> str:
    record = after.last
    assert record is not None
    w = _Writer(after, lang)
    label = step_label(record.step, record.year, record.ballot, lang)
    if record.grace:
        label = PHRASES(lang, "grace", label=label)
    w.lines += [w.say("result_title", label=label), ""]
    if after.options.tournament and after.boards:
        w.lines += [match_line(after, lang), ""]
    if record.step == "ballot":
        _ballot(w, before, record)
    elif record.step == "setup":
        _placements(w, record)
    _events(w, record, early=True)
    if (after.boards and record.step != "ballot") or (record.step == "ballot" and after.boards):
        for board in after.boards:
            _board(w, board, _record(record, board.name))
    _events(w, record, early=False)
    _end(w)
    return w.text()


def _record(record: Record, name: str) -> BoardRecord | None:
    return next((b for b in record.boards if b.name == name), None)


def _ballot(w: _Writer, before: State, record: Record) -> None:
    if not record.ballots or "grace" in record.events:
        return
    w.heading(w.say("ballots"))
    for seat, centres in record.ballots.items():
        w.lines += hanging(f"{w.name(seat)}: ", centres)
    w.lines.append("")


def _placements(w: _Writer, record: Record) -> None:
    if not record.placements:
        return
    w.heading(w.say("placements"))
    for seat, units in record.placements.items():
        w.lines += hanging(f"{w.name(seat)}: ", units)
    w.lines.append("")


def _board(w: _Writer, board: BoardState, record: BoardRecord | None) -> None:
    if w.state.options.tournament:
        title = w.say("board", name=board.name)
        w.lines += ["=" * len(title), title, "=" * len(title), ""]
    if record is not None and record.orders:
        _orders(w, record)
    if record is not None and record.dislodged:
        _dislodged(w, record)
    _centres(w, board, record)
    if board.units:
        _units(w, board)


def _adjusting(w: _Writer, board: BoardState) -> None:
    """How many builds or removals each side has in the adjustments now open (HL-11)."""
    w.heading(w.say("adjusting", year=w.state.year))
    for seat in w.state.seats:
        count, name = boards.balance(board, seat), w.name(seat)
        if count > 0:
            sites = ", ".join(boards.free_sites(board, seat)) or "–"
            text = w.say("adjust_builds", count=count, name=name, sites=sites)
        elif count < 0:
            text = w.say("adjust_removals", count=-count, name=name)
        else:
            text = w.say("adjust_none", name=name)
        w.lines.append(fold("  " + text, indent=4))
    w.lines.append("")


def _orders(w: _Writer, record: BoardRecord) -> None:
    w.heading(w.say("orders"))
    names = dict(zip(w.state.seats, w.state.names, strict=True))
    for seat in w.state.seats:
        rows, held = [], []
        for line in record.orders:
            if line.seat != seat:
                continue
            if line.result == "succeeds" and line.reason == "no order":  # the engine's hold
                held.append(line.text.removesuffix(" H"))
                continue
            outcome = w.say(f"res_{line.result}")
            if line.reason:
                outcome += ": " + say(line.reason, w.lang, names)
            rows.append(["  " + order(line.text, w.lang), outcome])
        if rows:
            width = max(len(row[0]) for row in rows) + 2
            w.lines += [w.name(seat), *(_fold(line, width) for line in table(rows))]
        if held:
            w.lines += [*([] if rows else [w.name(seat)]), *hanging(w.say("held"), held)]
    w.lines.append("")


def _fold(line: str, indent: int) -> str:
    """A table row too long for a mail line, its last column continued under itself."""
    if len(line) <= WIDTH:
        return line
    return "\n".join(textwrap.wrap(line, WIDTH, subsequent_indent=" " * indent,
                                   break_long_words=False, break_on_hyphens=False))  # fmt: skip


def _dislodged(w: _Writer, record: BoardRecord) -> None:
    w.heading(w.say("dislodged"))
    for d in record.dislodged:
        if d.options:
            options = w.say("retreat_choice", options=", ".join(d.options))
        else:
            options = w.say("no_retreat_left")
        line = w.say("dislodged_line", unit=d.unit, name=w.name(d.seat), attacker=d.attacker,
                     options=options)  # fmt: skip
        w.lines.append(fold("  " + line, indent=4))
    w.lines.append("")


def _centres(w: _Writer, board: BoardState, record: BoardRecord | None) -> None:
    w.heading(w.say("centres"))
    for seat in w.state.seats:
        owned = boards.owned(board, seat)
        w.lines += hanging(f"{w.name(seat)} ({len(owned)}): ", owned)
    free = boards.neutral(board)
    w.lines += hanging(f"{w.say('neutral')} ({len(free)}): ", free)
    if record is not None and record.changes:
        changes = [f"{c} ({w.name(old) if old else w.say('neutral')} → {w.name(new)})"
                   for c, old, new in record.changes]  # fmt: skip
        w.lines += hanging(w.say("changes", changes="").rstrip() + " ", changes)
    w.lines.append("")


def _units(w: _Writer, board: BoardState) -> None:
    w.heading(w.say("units"))
    for seat in w.state.seats:
        units = board.units.get(seat, [])
        w.lines += hanging(f"{w.name(seat)} ({len(units)}): ", units or [w.say("none")])
    w.lines.append("")


# --- what happened to the game -----------------------------------------------------------

_EARLY = ("grace", "reballot", "fixed_setup")


def _events(w: _Writer, record: Record, early: bool) -> None:
    for key in record.events:
        if (key in _EARLY) == early:
            text = _event(w, record, key)
            if text:
                w.para(text)
    if not early and record.offers and "draw_agreed" not in record.events:
        w.para(w.say("offers", names=name_list([w.name(s) for s in record.offers], w.lang)))


def _event(w: _Writer, record: Record, key: str) -> str:
    state = w.state
    winner = state.result.winner if state.result else None
    loser = state.other(winner) if winner else None
    units, centres = decide.totals(state, "units"), decide.totals(state, "centres")
    if key == "grace":
        late = [s for s in state.seats if s in state.late]
        tail = w.say("grace_ballot" if record.step == "ballot" else "grace_setup")
        note = "grace_note_all" if set(late) >= set(state.seats) else "grace_note"
        return w.say(note, names=name_list([w.name(s) for s in late], w.lang)) + " " + tail
    if key == "reballot":
        return _reballot(w)
    if key == "forfeit":
        if winner is None:
            return w.say("forfeit_both")
        return w.say("forfeit", name=w.name(loser), winner=w.name(winner))
    if key in ("won_centres", "won_wipeout"):
        if state.options.tournament:
            return _boards_decided(w)
        count = len(boards.owned(state.boards[0], winner)) if winner else 0
        return w.say(key, winner=w.name(winner), loser=w.name(loser), count=count)
    if key == "sudden_tie":
        return w.say(key, a=units[0], b=units[1], c=centres[0], d=centres[1])
    if key in ("match_board", "match_units", "match_victory_board"):
        return _boards_decided(w) + "\n" + w.say(key, winner=w.name(winner), a=units[0], b=units[1])
    if key == "sudden_death":
        return (_boards_decided(w) + "\n" if record.step != "adjustments" else "") + w.say(key)
    if key == "match_max_tie":
        return w.say(key, year=record.year, a=centres[0], b=centres[1], c=units[0], d=units[1])
    if key in ("sudden_centres", "match_max_centres"):
        return w.say(key, winner=w.name(winner), a=centres[0], b=centres[1])
    if key in ("sudden_units", "match_max_units"):
        return w.say(key, winner=w.name(winner), a=units[0], b=units[1])
    if key == "draw_max_year":
        return w.say(key, year=record.year)
    return w.say(key)


def _boards_decided(w: _Writer) -> str:
    texts = []
    for board in w.state.boards:
        found = decide.board_winner(board, w.state.seats)
        if found is None or board.winner is None:
            continue
        seat, why = found
        count = len(boards.owned(board, seat))
        texts.append(w.say(f"board_{why}", board=board.name, winner=w.name(seat),
                           loser=w.name(w.state.other(seat)), count=count))  # fmt: skip
    return "\n".join(texts)


def _reballot(w: _Writer) -> str:
    state = w.state
    if state.step != "ballot":
        return w.say("fixed_setup")
    key = "reballot"
    record = state.last
    if record and record.ballots:
        lists = list(record.ballots.values())
        if set(lists[0]) != set(lists[1]):
            key = "too_few"
    return w.say(key, n=state.ballot, size=state.ballot_size, centres=", ".join(state.excluded),
                 count=state.options.min_start_scs or 0)  # fmt: skip


def _end(w: _Writer) -> None:
    state = w.state
    if state.result is None:
        w.lines += [w.say("next_phase", label=phase_label(state, w.lang))]
        return
    if state.result.winner is None:
        w.lines += [w.say("game_drawn" if state.result.reason.startswith("draw")
                          else "game_no_winner")]  # fmt: skip
        return
    w.lines += [w.say("game_won", name=w.name(state.result.winner))]


def match_line(state: State, lang: str) -> str:
    """``Match: offen | Brett A entschieden: – | Brett B entschieden: –`` (spec §3.3)."""
    if state.result is not None and state.result.winner:
        status = PHRASES(lang, "match_won", name=state.name(state.result.winner))
    elif state.result is not None:
        status = PHRASES(lang, "match_drawn")
    elif state.sudden_death:
        status = PHRASES(lang, "match_sudden")
    else:
        status = PHRASES(lang, "match_open")
    decided = {b.name: state.name(b.winner) if b.winner else "–" for b in state.boards}
    return PHRASES(
        lang, "match_line", state=status, a=decided.get("A", "–"), b=decided.get("B", "–")
    )


def status_text(state: State, seat: str, lang: str) -> str:
    """The position as everyone may see it: no list or placement before both are in."""
    w = _Writer(state, lang)
    w.lines += [w.say("status_title", label=phase_label(state, lang)), ""]
    if state.options.tournament and state.boards:
        w.lines += [match_line(state, lang), ""]
    if state.step != "setup":
        for board in state.boards:
            _board(w, board, None)
            if state.step == "adjustments":
                _adjusting(w, board)
    elif state.boards:
        _centres(w, state.boards[0], None)
    if state.result is not None:
        _end(w)
    return w.text()


def private_status(state: State, seat: str, lang: str) -> str:
    """What only ``seat`` may read: his own list sealed before a grace phase, his starting
    centres while placing."""
    if seat in state.sealed:
        key = "your_list"
        return wrap(PHRASES(lang, key, items=", ".join(state.sealed[seat]))) + "\n"
    if state.step == "setup" and state.boards:
        centres = ", ".join(state.boards[0].starting.get(seat, [])) or "–"
        return wrap(PHRASES(lang, "your_centres_now", centres=centres)) + "\n"
    return ""
