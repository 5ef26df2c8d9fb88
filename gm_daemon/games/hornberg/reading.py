"""Reading an order mail: every line parsed and checked on its own, all problems at once.

The player on turn sends one play, or a PLAN whose first legal candidate is played now.
A player not on turn sends a PLAN for his next turn (a bare play is kept as a one-turn plan,
with a warning). Plans must use the stable forms: printed cell labels change every turn.
An illegal play is rejected with the reason and everything the player could play instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from lark import Lark
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from gm_daemon.games.hornberg import cards, rules
from gm_daemon.games.hornberg.describe import hand_text, legal_text, line_word, move_text
from gm_daemon.games.hornberg.interpret import to_move
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.nmr import autoplay
from gm_daemon.games.hornberg.play import Move, Orders, Refusal
from gm_daemon.games.hornberg.resolve import first_legal
from gm_daemon.games.hornberg.texts import say
from gm_daemon.games.hornberg.written import Ignored, Item, PlanHead, ToWritten, Written
from gm_daemon.games.protocol import Accepted, Fix, Line, OrdersRejected, Problem, ProblemKind
from gm_daemon.games.text import fold, without_full_stop
from gm_daemon.grammar import parser

# Typical mistakes (folded); the table grows with every confusing mail a player sends.
_MISTAKES: dict[str, list[str]] = {
    "syntax_value": [
        "bier auf ro4",
        "herzog auf gr1",
        "herzog verlaengert ii",
        "bier auf b4",
    ],
    "syntax_target": ["bier 5", "herzog 7", "bier 5 auf", "herzog 7 auf", "b5 ro4"],
    "syntax_row": ["herzog 2 verlaengert", "h2 verkuerzt", "h2 +", "ro4 an", "ro4 an reihe"],
    "syntax_colour": ["kanone auf b4", "kanone 4 auf b4", "ro auf b4", "kanone ro auf b4"],
}
_PASS_WORDS = {"pass", "passe", "passen", "passt"}
_AMBIGUOUS = {"which_line"}
_FORM = {
    "unknown_colour",
    "unknown_target",
    "no_such_card",
    "dd_cannon_form",
    "dd_no_cells",
    "dd_duke_form",
    "bad_row",
    "kq_duke_form",
    "kq_cannon_form",
    "no_such_cell",
    "dd_need_row",
    "kq_need_cell",
    "number_target",
}


def order_parser() -> Lark:
    return parser("hornberg", parser_kind="lalr")


def parse_line(text: str) -> list[Item]:
    """One line → its items; raises lark's UnexpectedInput when not understood."""
    tree = order_parser().parse(fold(text).strip())
    return ToWritten().transform(tree)


def plays_on_line(text: str) -> bool:
    """Whether the line holds a play (a turn header may carry one)."""
    try:
        items = parse_line(_strip_comment(text))
    except UnexpectedInput:
        return False
    return any(isinstance(item, Written) for item in items)


def _strip_comment(text: str) -> str:
    return without_full_stop(text.split("#", 1)[0].strip())


def _offending_word(folded: str, error: UnexpectedInput) -> str:
    column = getattr(error, "column", 0)
    rest = folded[column - 1 :].split() if isinstance(column, int) and column > 0 else []
    return rest[0] if rest else folded


def _at_end(error: UnexpectedInput) -> bool:
    token = getattr(error, "token", None)
    return token is not None and token.type == "$END"


# A cannon as written where the grammar knows none: a colour word and its value ("xx4",
# "rosa 4"; at the start of a line only the first: "Runde 3" is no cannon), or a lone word
# where a beer or duke names its target ("auf xx").
_WRITTEN_CANNON = re.compile(r"([a-z]+)\s*[0-9]+(?![a-z0-9])")
_GLUED_CANNON = re.compile(r"([a-z]+)[0-9]+(?![a-z0-9])")
_WRITTEN_WORD = re.compile(r"[a-z]+(?![a-z0-9])")
_WRITTEN_NUMBER = re.compile(r"[0-9]+(?![a-z0-9])")


def _unknown_cannon(folded: str, error: UnexpectedInput, colours: list[str]) -> Refusal | None:
    """Why a line that fails where a cannon must stand fails: its colour is none of the
    game's ("bier 2 auf xx4"), or its target is no cannon at all ("bier 2 auf xx"), rather
    than "Wohin?" as if no target were written. A word the grammar knows (a keyword, a
    direction: "Kanone auf B4") is another mistake and left to the general reading."""
    if not isinstance(error, UnexpectedToken) or "COLOUR" not in error.expected:
        return None
    rest = folded[error.column - 1 :] if isinstance(error.column, int) and error.column > 0 else ""
    at_start = "_CANNON" in error.expected
    cannon = (_GLUED_CANNON if at_start else _WRITTEN_CANNON).match(rest)
    if cannon and not _known_word(cannon[1]):
        return Refusal("unknown_colour", {"written": cannon[0], "colours": colours})
    word = _WRITTEN_WORD.match(rest)
    if word and "CELL" in error.expected and not _known_word(word[0]):
        return Refusal("unknown_target", {"written": word[0], "colours": colours})
    number = None if at_start else _WRITTEN_NUMBER.match(rest)
    if number:  # "Bier 5 auf 4": the cannon's value without its colour
        return Refusal("number_target", {"written": number[0], "colours": colours})
    return None


@cache
def _known_word(word: str) -> bool:
    return any(
        re.fullmatch(terminal.pattern.to_regexp(), word)
        for terminal in order_parser().terminals
        if terminal.name != "GAME_ID"  # the game id takes any word
    )


def _syntax_problem(line: Line, text: str, error: UnexpectedInput, lang: str, hint: str) -> Problem:
    folded = fold(text).strip()
    label = error.match_examples(order_parser().parse, _MISTAKES, use_accepts=True)
    if set(folded.split()) & _PASS_WORDS:
        message = say(lang, "no_pass")
    elif label is not None:
        message = say(lang, label)
    elif isinstance(error, UnexpectedEOF) or _at_end(error):
        message = say(lang, "syntax_incomplete")
    else:
        message = say(lang, "syntax_word", word=_offending_word(folded, error))
    return Problem(line.no, line.text, ProblemKind.SYNTAX, message, hint)


class Reader:
    """Reads one submission of one seat against one state."""

    def __init__(self, state: State, seat: str, lang: str):
        self.state = state
        self.seat = seat
        self.lang = lang
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.plan: PlanHead | None = None
        self.plays: list[tuple[Line, Written]] = []

    @property
    def on_turn(self) -> bool:
        return self.seat == self.state.to_move

    def forms_hint(self, fix: Fix | None = None) -> str:
        """The forms of the variant; on turn also the play he could send as it stands (the
        forms show sample cards, not his). Not on turn, whatever he sends is a plan: the
        forms a plan takes (no cell labels, which change with every turn)."""
        if not self.on_turn:
            return self.plan_forms()
        forms = say(self.lang, "hint_forms_dd" if self.state.variant == "dd" else "hint_forms_kq")
        fix = fix or self.play_fix()
        return say(self.lang, "hint_play_forms", play=fix.right, forms=forms) if fix else forms

    def plan_forms(self) -> str:
        return say(
            self.lang, "hint_plan_forms_dd" if self.state.variant == "dd" else "hint_plan_forms_kq"
        )

    def legal_hint(self) -> str:
        """On turn, what he may play now; else his hand (a PLAN names only its cards)."""
        if not self.on_turn:
            hand = hand_text(self.state, self.seat, self.lang)
            return say(self.lang, "hint_plan_hand", hand=hand, forms=self.plan_forms())
        summary = legal_text(self.state, self.seat, self.lang)
        return say(self.lang, "hint_legal", summary=summary)

    def problem(
        self,
        line: Line | None,
        kind: ProblemKind,
        key: str,
        hint: str = "",
        fix: Fix | None = None,
        /,
        **v: object,
    ) -> None:
        self.problems.append(
            Problem(
                line.no if line else None,
                line.text if line else "",
                kind,
                say(self.lang, key, **v),
                hint,
                fix,
            )
        )

    # --- reading ---------------------------------------------------------------------
    def read(self, lines: Sequence[Line]) -> Orders:
        for line in lines:
            self._read_line(line)
        orders = self._orders() if self._whole_submission_ok() else None
        if self.problems:
            raise OrdersRejected(sorted(self._fixes_that_fit(), key=lambda p: p.line or 0))
        assert orders is not None
        return orders

    def _fixes_that_fit(self) -> list[Problem]:
        """A play offered as a line's fix would be a second play beside a line that plays
        already: then only the hint stays (the fix of a mail is what makes it accepted)."""
        faulty = {p.line for p in self.problems}
        if all(line.no in faulty for line, _ in self.plays):
            return self.problems
        return [p._replace(fix=None) for p in self.problems]

    def _read_line(self, line: Line) -> None:
        text = _strip_comment(line.text)
        if not text:
            return
        try:
            items = parse_line(text)
        except UnexpectedInput as error:
            colours = list(self.state.options.colours)  # shown in the mail's language
            folded = fold(text).strip()
            unknown = _unknown_cannon(folded, error, colours)
            if unknown is not None:
                fix = self._coloured_fix(folded, error) if unknown.key == "number_target" else None
                self._refused(line, unknown, fix)
                return
            problem = _syntax_problem(line, text, error, self.lang, self.forms_hint())
            self.problems.append(problem._replace(fix=self.play_fix()))
            return
        for item in items:
            self._take(line, item)

    def _take(self, line: Line, item: Item) -> None:
        if isinstance(item, Written):
            self.plays.append((line, item))
        elif isinstance(item, PlanHead):
            self.plan = self.plan or item
        elif isinstance(item, Ignored):
            return

    def _whole_submission_ok(self) -> bool:
        """Problems of the mail as a whole; after them the single plays are not looked at."""
        if self.state.finished:
            self.problem(None, ProblemKind.ILLEGAL, "game_over")
        elif self.seat in self.state.out:
            self.problem(None, ProblemKind.ILLEGAL, "out_this_round")
        elif not self.plays:
            if not self.problems:
                self.problem(None, ProblemKind.SYNTAX, "no_play", self.forms_hint())
        elif self.plan is not None and not self.state.options.plans:
            self.problem(None, ProblemKind.ILLEGAL, "plans_off")
        else:
            return True
        return False

    def _orders(self) -> Orders | None:
        if self.plan is None and self.on_turn:
            return self._single_play()
        if self.plan is None:
            if not self.state.options.plans:
                mover = self.state.name(self.state.to_move or "")
                self.problem(None, ProblemKind.ILLEGAL, "not_on_turn", name=mover)
                return None
            self.warnings.append(
                Problem(
                    None,
                    "",
                    ProblemKind.ILLEGAL,
                    say(self.lang, "kept_as_plan", name=self.state.name(self.state.to_move or "")),
                )
            )
        return self._plan()

    def _single_play(self) -> Orders | None:
        """Every line is checked, so that one reply names every problem; only one may play."""
        moves = [self._legal_move(line, written) for line, written in self.plays]
        for line, _ in self.plays[1:]:
            self.problem(line, ProblemKind.ILLEGAL, "one_play", self.plan_forms())
        if self.problems or moves[0] is None:
            return None
        return Orders(moves=[moves[0]])

    def _legal_move(self, line: Line, written: Written) -> Move | None:
        move = self._move(line, written)
        if move is None:
            return None
        refusal = rules.refusal(self.state, self.seat, move)
        if refusal is not None:
            self._refused(line, refusal)
            return None
        return move

    def _plan(self) -> Orders | None:
        moves = []
        for line, written in self.plays:
            if written.uses_labels:
                hint = self.legal_hint()  # his hand and the plan's forms, or his plays now
                self.problem(line, ProblemKind.ILLEGAL, "label_in_plan", hint, label=written.cell)
                continue
            move = self._move(line, written)
            if move is None:
                continue
            if not rules.in_hand(self.state, self.seat, move.card):
                self._refused(line, Refusal("not_in_hand", {"card": move.card}))
                continue
            moves.append(move)
        if self.problems:
            return None
        if self.on_turn and first_legal(self.state, self.seat, moves) is None:
            self.problem(None, ProblemKind.ILLEGAL, "plan_none_legal", self.legal_hint())
            return None
        standing = self.plan is not None and self.plan.standing
        return Orders(moves=moves, plan="standing" if standing else "once")

    def _move(self, line: Line, written: Written) -> Move | None:
        result = to_move(self.state, written)
        if isinstance(result, Refusal):
            self._refused(line, result)
            return None
        return result

    def _coloured_fix(self, folded: str, error: UnexpectedInput) -> Fix | None:
        """The line with the first of the game's colours before the bare number that makes
        a legal play ("Bier 5 auf 4" -> "Bier 5 auf ws4"); else the usual example."""
        at = error.column - 1 if isinstance(error.column, int) and error.column > 0 else None
        if at is None or not self.on_turn:
            return self.play_fix()
        for colour in self.state.options.colours:
            try:
                items = parse_line(f"{folded[:at]}{colour}{folded[at:]}")
            except UnexpectedInput:
                continue
            written = [item for item in items if isinstance(item, Written)]
            move = to_move(self.state, written[0]) if written else None
            if isinstance(move, Move) and rules.refusal(self.state, self.seat, move) is None:
                return Fix(move_text(self.state, move, self.lang))
        return self.play_fix()

    def _refused(self, line: Line, refusal: Refusal, fix: Fix | None = None) -> None:
        key = refusal.key
        if key == "too_short" and refusal.params["minimum"] > refusal.params["cannons"]:
            key = "too_short_min"
        if key in _AMBIGUOUS:
            kind = ProblemKind.AMBIGUOUS
        elif key in _FORM:
            kind = ProblemKind.SYNTAX
        else:
            kind = ProblemKind.ILLEGAL
        # a cell the print lacks is answered with the cells it has, not with a form that
        # names another missing cell ("Kanone bl5 auf B4" on an empty table)
        on_table = kind != ProblemKind.SYNTAX or key == "no_such_cell"
        fix = fix or self.play_fix()
        hint = self.legal_hint() if on_table else self.forms_hint(fix)
        params = dict(refusal.params)
        if "line" in params:
            params["line"] = line_word(params["line"], self.lang)
        for name in ("card", "cannon"):  # the player reads codes as his mails show them
            if isinstance(params.get(name), str):
                params[name] = cards.shown(params[name], self.lang)
        if isinstance(params.get("colours"), list):
            shown = [cards.colour_shown(c, self.lang) for c in params["colours"]]
            params["colours"] = ", ".join(shown)
        self.problem(line, kind, key, hint, fix, **params)

    def play_fix(self) -> Fix | None:
        """The play the hint's example shows, as the line to send instead (on turn only)."""
        move = autoplay(self.state, self.seat) if self.on_turn else None
        return Fix(move_text(self.state, move, self.lang)) if move else None


def read_orders(lines: Sequence[Line], state: State, seat: str, lang: str) -> Accepted[Orders]:
    reader = Reader(state, seat, lang)
    orders = reader.read(lines)
    return Accepted(orders=orders, warnings=reader.warnings)
