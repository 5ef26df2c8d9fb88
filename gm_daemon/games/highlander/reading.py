"""Reading a Highlander order mail (spec §3.2, §4): the phase header, the board sections of
the tournament, the centre and placement lists, the year's orders and REMIS / DRAW.

Single orders are read by the adjudicator's reader (``diplomacy.read_order``); what is
Highlander's is here: which orders fit the step, whose units they name, the lists of the
set-up, and the checks of builds and retreats against the board. Every problem of a mail is
collected before the mail is answered. A movement order that is well formed but impossible on
the map is accepted with a warning and fails at adjudication (§3.2), as judges do; an order
for a unit the player does not have there is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gm_daemon.diplomacy import (
    Build,
    Convoy,
    Disband,
    Hold,
    Illegal,
    Move,
    Order,
    OrderError,
    Remove,
    Retreat,
    Situation,
    Support,
    UnitRef,
    Waive,
    build_site,
    judge,
    order_text,
    read_order,
)
from gm_daemon.games.highlander import boards, setup
from gm_daemon.games.highlander.labels import header_label
from gm_daemon.games.highlander.model import BoardState, Orders, State
from gm_daemon.games.highlander.setup import Fault
from gm_daemon.games.highlander.wording import PHRASES, say
from gm_daemon.games.protocol import (
    Accepted,
    Fix,
    Header,
    Line,
    OrdersRejected,
    Problem,
    ProblemKind,
)
from gm_daemon.games.text import fold, without_full_stop

_HEADER = re.compile(r"^\s*phase\s*[:=]?\s*(?P<value>.*?)\s*$", re.IGNORECASE)
_YEAR_STEP = re.compile(r"^(?P<year>\d{4})\s*[.,]?\s*(?P<step>[a-zäöüß ]+?)\.?$", re.IGNORECASE)
# "2. Zentrenwahl", "Centre ballot 2": the label of a later ballot round (HL-5)
_ROUND_STEP = re.compile(r"^(?:(?P<before>[1-9])\.\s*)?(?P<step>[a-z ]+?)(?:\s+(?P<after>[1-9]))?$")
_GRACE = re.compile(r"\s*\((?:nachfrist|grace period|grace)\)\s*$")
_STEP_WORDS = {
    "ballot": ("zentrenwahl", "wahl", "ballot", "centre ballot", "center ballot", "centres"),
    "setup": ("aufstellung", "setup", "set up", "unit setup", "placement"),
    "movement": ("bewegung", "movement", "moves", "zuege"),
    "retreats": ("rueckzuege", "rueckzug", "retreats", "retreat"),
    "adjustments": ("anpassung", "anpassungen", "aufbau", "adjustments", "adjustment", "builds"),
    "over": ("spielende", "game over"),
}
_SECTION = re.compile(r"^\s*(?:brett|board)\s+(?P<name>[ab])\s*:?\s*$", re.IGNORECASE)
_LIST = re.compile(
    r"^\s*(?P<word>zentren|centres|centers|aufstellung|setup|einheiten|units)\b\s*:?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_DRAW = {"remis": True, "draw": True, "kein remis": False, "no draw": False}


# --- the phase header --------------------------------------------------------------------


@dataclass(frozen=True)
class _Named:
    """What a phase header names: the step, and the year or ballot round where it says."""

    step: str
    year: int | None = None
    round: int | None = None


def header_step(text: str) -> _Named | None:
    """``Phase: 1902 Bewegung`` -> movement of 1902; ``Phase: 2. Zentrenwahl`` -> ballot
    round 2; None when the line is no phase header or names no step. Every label the daemon
    writes into a subject is read, with ``Phase:`` or without: a player copies it as shown
    ("1902 Bewegung", "Aufstellung (Nachfrist)")."""
    match = _HEADER.match(text)
    value = fold(match["value"] if match else text).strip()
    value = _GRACE.sub("", value).strip(" .")
    year = None
    dated = _YEAR_STEP.match(value)
    if dated:
        year, value = int(dated["year"]), dated["step"].strip(" .")
    numbered = _ROUND_STEP.match(value) if year is None else None
    round_no = None
    if numbered and (numbered["before"] or numbered["after"]):
        round_no = int(numbered["before"] or numbered["after"])
        value = numbered["step"].strip()
    for step, words in _STEP_WORDS.items():
        if value in words and (round_no is None or step == "ballot"):
            return _Named(step, year, round_no)
    return None


def read_header(text: str, state: State) -> Header | None:
    found = header_step(text)
    if found is None:
        return None
    if found.step in ("ballot", "setup", "over"):
        current = found.step == state.step
    else:
        current = found.step == state.step and found.year == state.year
    if found.round is not None and found.round != state.ballot:
        current = False
    return Header.CURRENT if current else Header.OTHER


# --- the mail ----------------------------------------------------------------------------


@dataclass
class _Mail:
    """What one reading collects: problems, warnings, and the orders read so far."""

    state: State
    seat: str
    lang: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    draw: bool | None = None

    def say(self, key: str, **values: object) -> str:
        return PHRASES(self.lang, key, **values)

    def fault(self, line: Line | None, fault: Fault, kind: ProblemKind = ProblemKind.ILLEGAL):
        shown = {k: coasts_shown(v, self.lang) for k, v in fault.hint_values.items()}
        hint = self.say(fault.hint, **shown) if fault.hint else ""
        values = dict(fault.values)
        if "powers" in values:  # the seven great powers, named in the player's language
            values["powers"] = ", ".join(self.say(f"power_{p.lower()}") for p in values["powers"])
        fix = fault.fix
        if fix is not None:
            fix = fix._replace(right=coasts_shown(fix.right, self.lang))
        self.add(line, kind, self.say(fault.key, **values), hint, fix)

    def add(
        self,
        line: Line | None,
        kind: ProblemKind,
        message: str,
        hint: str = "",
        fix: Fix | None = None,
    ) -> None:
        self.problems.append(_problem(line, kind, message, hint, fix))

    def warn(self, line: Line, message: str, hint: str = "") -> None:
        self.warnings.append(_problem(line, ProblemKind.ILLEGAL, message, hint))

    def engine(self, text: str) -> str:
        return say(text, self.lang, dict(zip(self.state.seats, self.state.names, strict=True)))


def _problem(
    line: Line | None, kind: ProblemKind, message: str, hint: str, fix: Fix | None = None
) -> Problem:
    return Problem(line.no if line else None, line.text if line else "", kind, message, hint, fix)


_GERMAN_COASTS = {"NC": "nk", "SC": "sk", "EC": "ok"}


def coasts_shown(value: object, lang: str) -> object:
    """ "F SPA/NC" as the help of the player's language teaches it: "F SPA/nk" in German."""
    if not isinstance(value, str) or lang != "de":
        return value
    return re.sub(r"/(NC|SC|EC)\b", lambda m: "/" + _GERMAN_COASTS[m[1]], value)


def read_orders(
    lines: Sequence[Line], state: State, seat: str, lang: str, on_file: Orders | None
) -> Accepted[Orders]:
    mail = _Mail(state, seat, lang)
    body = _strip(mail, lines)
    orders = _STEPS[state.step](mail, body)
    if mail.draw is not None:
        if state.step not in ("movement", "retreats", "adjustments"):
            mail.add(None, ProblemKind.ILLEGAL, mail.say("no_draw_now"))
        orders.draw = mail.draw
    elif on_file is not None:
        orders.draw = on_file.draw
    if not body and on_file is not None:  # a REMIS line alone keeps the orders on file
        orders = on_file.model_copy(update={"draw": orders.draw})
    elif not body and mail.draw is None and not mail.problems:
        mail.add(None, ProblemKind.SYNTAX, mail.say("empty_mail"), mail.say(f"hint_{state.step}"))
    if mail.problems:
        raise OrdersRejected(mail.problems)
    return Accepted(orders, mail.warnings)


def _strip(mail: _Mail, lines: Sequence[Line]) -> list[Line]:
    """Drop blank lines and headers of this phase; note REMIS lines; report other phases."""
    body = []
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        header = read_header(text, mail.state)
        if header is Header.CURRENT:
            continue
        if header is Header.OTHER:
            label = header_label(mail.state, mail.lang)
            mail.add(
                line,
                ProblemKind.ILLEGAL,
                mail.say("other_phase"),
                mail.say("this_phase", label=label),
            )
            continue
        draw = _DRAW.get(" ".join(fold(text).strip(" .!").split()))
        if draw is not None:
            mail.draw = draw
            continue
        if _HEADER.match(text):
            mail.add(line, ProblemKind.SYNTAX, mail.say("bad_header"), mail.say("header_hint"))
            continue
        body.append(line)
    return body


def _items(mail: _Mail, body: Sequence[Line]) -> list[tuple[Line, str]]:
    """The entries of a list (``ZENTREN: a, b`` or one per line), each with its line."""
    items = []
    for line in body:
        match = _LIST.match(line.text)
        text = match["rest"] if match else line.text
        items += [(line, part.strip()) for part in re.split(r"[,;]", text) if part.strip()]
    return items


# --- the set-up --------------------------------------------------------------------------


def _words_apart(items: list[tuple[Line, str]]) -> list[tuple[Line, str]]:
    """A ballot written without commas ("ZENTREN: ANK BEL BER"): an entry that names no
    place as a whole but of whose words two or more name a place is one entry per word, so
    a misspelt one among them ("MRA") gets its own guess. "St. Petersburg" stays one entry
    (it names a place as a whole), and so does "St. Peterburg" (no two words name one)."""
    b = boards.board()
    apart = []
    for line, entry in items:
        words = entry.split()
        named = sum(1 for w in words if b.lookup(w) is not None)
        if named >= 2 and b.lookup(entry) is None:
            apart += [(line, word) for word in words]
        else:
            apart.append((line, entry))
    return apart


def _ballot(mail: _Mail, body: Sequence[Line]) -> Orders:
    centres, unread = [], 0
    items = _words_apart(_items(mail, body))
    named = [c for _, entry in items if isinstance(c := setup.centre_of(entry), str)]
    for line, entry in items:
        found = setup.centre_of(entry, taken=named)
        if isinstance(found, setup.Fault):
            mail.fault(line, found, ProblemKind.SYNTAX)
            unread += 1
        else:
            centres.append(found)
    if body:  # the list rules too, in the same reply as any unknown name, at the list's line
        for fault in setup.check_ballot(centres, mail.state, unread):
            mail.fault(body[0], fault)
    return Orders(centres=sorted(set(centres)))


def _setup(mail: _Mail, body: Sequence[Line]) -> Orders:
    own = mail.state.boards[0].starting.get(mail.seat, [])
    if not own:
        mail.add(None, ProblemKind.ILLEGAL, mail.say("no_centres_to_place"))
        return Orders()
    placed: list[tuple[Line, str, str]] = []  # line, entry as written, unit
    items = _items(mail, body)
    taken = [
        boards.province(t) for _, e in items if isinstance(t := setup.check_entry(e, own), str)
    ]
    for line, entry in items:
        found = setup.check_entry(entry, own, taken)
        if isinstance(found, setup.Fault):
            kind = ProblemKind.SYNTAX if found.key in ("unit_form", "unknown_centre") else None
            mail.fault(line, found, kind or ProblemKind.ILLEGAL)
        else:
            placed.append((line, entry, found))
    tokens = [token for _, _, token in placed]
    for (line, entry, _), fault in zip(placed, setup.check_placement(tokens, own), strict=True):
        if fault is not None and fault.fix is not None:  # the entry at fault, as written
            mail.fault(line, replace(fault, fix=fault.fix._replace(wrong=entry)))
    missing = [c for c in own if c not in {boards.province(t) for t in tokens}]
    if body and missing and not mail.problems:
        message = mail.say("placement_missing", centres=", ".join(missing))
        mail.warnings.append(Problem(None, "", ProblemKind.ILLEGAL, message, ""))
    return Orders(placement=sorted(tokens, key=boards.province))


# --- the year ----------------------------------------------------------------------------


def _sections(mail: _Mail, body: Sequence[Line]) -> dict[str, list[Line]]:
    """Lines per board: ``BRETT A:`` / ``BOARD B:`` in a tournament, board A otherwise."""
    tournament = mail.state.options.tournament
    found: dict[str, list[Line]] = {} if tournament else {"A": []}
    current = None if tournament else "A"
    for line in body:
        match = _SECTION.match(line.text)
        if match:
            if not tournament:
                mail.add(line, ProblemKind.ILLEGAL, mail.say("no_boards"))
                continue
            current = match["name"].upper()
            found.setdefault(current, [])
        elif current is None:
            mail.add(line, ProblemKind.SYNTAX, mail.say("which_board"), mail.say("board_hint"))
        else:
            found[current].append(line)
    return found


def _year(mail: _Mail, body: Sequence[Line]) -> Orders:
    orders = Orders()
    for name, lines in _sections(mail, body).items():
        board = mail.state.board(name)
        check = _CHECKS[mail.state.step]
        texts = []
        context = _Context(board, mail.seat)
        for line in _one_order_each(lines):
            order = _read(mail, line, context)
            if order is not None:
                text = check(mail, context, line, order)
                if text is not None:
                    texts.append(text)
        orders.boards[name] = texts
    return orders


# the adjudicator's hint for a line that does not start with a unit: its example moves
_UNIT_FIRST = re.compile(r"an order starts with the unit\b")


def _one_order_each(lines: Sequence[Line]) -> list[Line]:
    """Orders written on one line, apart by commas or semicolons ("A Par - Bur, F Bre -
    Mao"): each read as a line of its own, with the line's number, when the line is no
    order as a whole and a piece is one (a faulty piece is then named on its own, "F Bre -
    Xyz", not the line from its comma on). Anything else stays as written."""
    apart = []
    for line in lines:
        text = without_full_stop(line.text)
        pieces = [piece.strip() for piece in re.split(r"[,;]", text)]
        if len(pieces) > 1 and all(pieces) and not _reads(text) and any(map(_reads, pieces)):
            apart += [Line(line.no, piece) for piece in pieces]
        else:
            apart.append(line)
    return apart


def _reads(text: str) -> bool:
    try:
        read_order(text, boards.board())
    except OrderError:
        return False
    return True


def _read(mail: _Mail, line: Line, ctx: _Context) -> Order | None:
    try:
        return read_order(without_full_stop(line.text), boards.board())
    except OrderError as exc:
        hint = exc.hint or (mail.say("province_hint") if "province" in exc.message else "")
        fix = None
        message = mail.engine(exc.message)
        if exc.guess is not None:
            hint, fix = _guess(mail, ctx, line, exc.guess[0])
        elif _bare_unit(mail, ctx, line):  # "A Bel": the unit without an order
            written = line.text.strip()  # in place of the order as written: one of several
            fix = Fix(f"{written} {mail.say('hold_word')}", written)
            message, hint = mail.say("bare_unit"), mail.say("bare_unit_hint", order=fix.right)
        shown = mail.engine(hint)
        if _UNIT_FIRST.match(hint) and mail.state.step != "movement":  # a movement order
            shown = mail.say(f"hint_{mail.state.step}")  # is no example in this phase
        mail.add(line, exc.kind, message, shown, fix)
        return None


def _bare_unit(mail: _Mail, ctx: _Context, line: Line) -> bool:
    """A line naming one of the player's units and nothing else, in a movement phase."""
    unit = _UNIT_PLACE.match(line.text)
    if mail.state.step != "movement" or unit is None or unit.end() != len(line.text.rstrip()):
        return False
    place = boards.board().lookup(unit["place"])
    own = _own_places(mail, ctx)
    return place is not None and boards.board().names[place] in own


_UNIT_PLACE = re.compile(r"^\s*(?:a|f|army|fleet|armee|flotte)\.?\s+(?P<place>[^\s/(]+)", re.I)


def _guess(mail: _Mail, ctx: _Context, line: Line, written: str) -> tuple[str, Fix | None]:
    """The province a misspelt name may mean: where it names the unit, one of the places
    this step lets the player name (his units, his dislodged units, his free centres),
    so that the line with the guess put in is one the reader accepts."""
    b = boards.board()
    unit = _UNIT_PLACE.match(line.text)
    own = _own_places(mail, ctx)
    if unit is None or unit["place"] != written or not own:
        pid = b.closest(written)
    else:
        pid = b.closest(written, among=frozenset(b.loc(p) for p in own), cutoff=0.5)
    if pid is None:
        return mail.say("province_hint"), None
    name = b.names[pid]
    guess = f"did you mean {name} ({b.full_names[pid]})?"
    return guess, Fix(name, written, guess=True)


def _own_places(mail: _Mail, ctx: _Context) -> list[str]:
    """The places a line of this step may name as its unit's (or its build's)."""
    step = mail.state.step
    if step == "retreats":
        return [boards.province(d.unit) for d in ctx.board.dislodged if d.seat == ctx.seat]
    if step == "adjustments" and ctx.balance > 0:
        return [c for c in boards.free_sites(ctx.board, ctx.seat) if c not in ctx.sites]
    return [boards.province(u) for u in ctx.board.units.get(ctx.seat, [])]


@dataclass
class _Context:
    """What the checks of one board need, built once per board and mail."""

    board: BoardState
    seat: str
    builds: int = 0
    removals: int = 0
    sites: set[str] = field(default_factory=set)  # centres already built in by this mail
    removed: set[str] = field(default_factory=set)  # removals already ordered by this mail

    def __post_init__(self) -> None:
        self.units = boards.units_of(self.board)
        self.situation = Situation(boards.board(), self.units, convoy_fallback=True)
        self.balance = boards.balance(self.board, self.seat)


def _movement(mail: _Mail, ctx: _Context, line: Line, order: Order) -> str | None:
    if not isinstance(order, Hold | Move | Support | Convoy):
        mail.add(line, ProblemKind.ILLEGAL, mail.say("movement_only"), mail.say("movement_hint"))
        return None
    if not _own(mail, ctx, line, order.unit):
        return None
    order = _with_kinds(ctx, order)
    verdict = judge(ctx.situation, ctx.seat, order)
    if isinstance(verdict, Illegal):
        if verdict.kind is ProblemKind.AMBIGUOUS:
            mail.add(line, verdict.kind, mail.engine(verdict.reason))
            return None
        mail.warn(line, mail.engine(verdict.reason), mail.say("fails_warning"))
    return order_text(boards.board(), order)


def _own(mail: _Mail, ctx: _Context, line: Line, ref: UnitRef) -> bool:
    b = boards.board()
    where = b.names[ref.place.province]
    for unit in ctx.units:
        if b.province_of[unit.loc] == ref.place.province and unit.power == ctx.seat:
            return True
    mine = ", ".join(ctx.board.units.get(ctx.seat, [])) or "–"
    mail.add(line, ProblemKind.ILLEGAL, mail.say("not_your_unit", place=where),
             mail.say("your_units", units=mine))  # fmt: skip
    return False


def _with_kinds(ctx: _Context, order: Order) -> Order:
    """The unit types taken from the board, so the stored text is complete (4.C.1)."""
    b = boards.board()
    at = {b.province_of[u.loc]: u.kind for u in ctx.units}

    def typed(ref: UnitRef) -> UnitRef:
        kind = at.get(ref.place.province, ref.kind)
        return replace(ref, kind=kind)

    for name in ("unit", "supported", "army"):
        ref = getattr(order, name, None)
        if isinstance(ref, UnitRef):
            order = replace(order, **{name: typed(ref)})  # type: ignore[arg-type]
    return order


def _retreat(mail: _Mail, ctx: _Context, line: Line, order: Order) -> str | None:
    if not isinstance(order, Retreat | Move | Disband):
        mail.add(line, ProblemKind.ILLEGAL, mail.say("retreat_only"), mail.say("retreat_hint"))
        return None
    b = boards.board()
    where = b.names[order.unit.place.province]
    mine = [d for d in ctx.board.dislodged if d.seat == ctx.seat]
    found = next((d for d in mine if boards.province(d.unit) == where), None)
    if found is None:
        listed = ", ".join(d.unit for d in mine) or "–"
        mail.add(line, ProblemKind.ILLEGAL, mail.say("not_dislodged", place=where),
                 mail.say("dislodged_units", units=listed))  # fmt: skip
        return None
    if isinstance(order, Disband):
        return f"{found.unit} D"
    target = b.names[order.to.province]
    choices = [c for c in found.options if boards.province(c) == target]
    if len(choices) != 1 and order.to.coast:
        choices = [c for c in choices if c.endswith(f"/{order.to.coast}")]
    if len(choices) != 1:
        mail.add(line, ProblemKind.ILLEGAL, mail.say("no_retreat", unit=found.unit, place=target),
                 mail.say("retreat_options", options=" ".join(found.options)))  # fmt: skip
        return None
    return f"{found.unit} R {choices[0]}"


def _adjust(mail: _Mail, ctx: _Context, line: Line, order: Order) -> str | None:
    if ctx.balance == 0:
        mail.add(line, ProblemKind.ILLEGAL, mail.say("nothing_to_adjust", board=ctx.board.name))
        return None
    if ctx.balance > 0:
        return _build(mail, ctx, line, order)
    return _remove(mail, ctx, line, order)


def _build(mail: _Mail, ctx: _Context, line: Line, order: Order) -> str | None:
    """A build is checked before it is counted: an illegal one uses none of the allowance,
    so each line gets its own fault and not "more builds than allowed"."""
    if not isinstance(order, Build | Waive):
        mail.add(line, ProblemKind.ILLEGAL, mail.say("builds_only", count=ctx.balance))
        return None
    text = "WAIVE" if isinstance(order, Waive) else _build_text(mail, ctx, line, order)
    if text is None:
        return None
    ctx.builds += 1
    if ctx.builds > ctx.balance:
        mail.add(line, ProblemKind.ILLEGAL, mail.say("too_many_builds", count=ctx.balance))
        return None
    if isinstance(order, Build):
        ctx.sites.add(boards.board().names[order.place.province])
    return text


def _build_text(mail: _Mail, ctx: _Context, line: Line, order: Build) -> str | None:
    b = boards.board()
    centre = b.names[order.place.province]
    free = boards.free_sites(ctx.board, ctx.seat)
    unit = build_site(b, ctx.seat, order, [b.loc(c) for c in boards.owned(ctx.board, ctx.seat)])
    if isinstance(unit, Illegal):
        mail.add(
            line,
            unit.kind,
            mail.engine(unit.reason),
            mail.say("build_sites", sites=", ".join(free)),
        )
        return None
    if centre not in free or centre in ctx.sites:
        left = ", ".join(c for c in free if c not in ctx.sites) or "–"
        mail.add(line, ProblemKind.ILLEGAL, mail.say("site_occupied", centre=centre),
                 mail.say("build_sites", sites=left))  # fmt: skip
        return None
    return f"BUILD {boards.unit_token(unit)}"


def _remove(mail: _Mail, ctx: _Context, line: Line, order: Order) -> str | None:
    if not isinstance(order, Remove | Disband):
        mail.add(line, ProblemKind.ILLEGAL, mail.say("removals_only", count=-ctx.balance))
        return None
    if not _own(mail, ctx, line, order.unit):
        return None
    text = order_text(boards.board(), Remove(_with_kinds(ctx, Hold(order.unit)).unit))
    if text in ctx.removed:  # the same unit twice: its own fault, not one of too many
        mail.add(line, ProblemKind.ILLEGAL, mail.say("removed_twice", order=text))
        return None
    ctx.removals += 1
    if ctx.removals > -ctx.balance:
        mail.add(line, ProblemKind.ILLEGAL, mail.say("too_many_removals", count=-ctx.balance))
        return None
    ctx.removed.add(text)
    return text


_CHECKS = {"movement": _movement, "retreats": _retreat, "adjustments": _adjust}


def _over(mail: _Mail, body: Sequence[Line]) -> Orders:
    mail.add(None, ProblemKind.ILLEGAL, mail.say("game_over"))
    return Orders()


_STEPS = {
    "ballot": _ballot,
    "setup": _setup,
    "movement": _year,
    "retreats": _year,
    "adjustments": _year,
    "over": _over,
}
