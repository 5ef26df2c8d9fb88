"""Help, welcome and the example orders for the current board.

The example must be an order text ``read_orders`` accepts (protocol rule 6), on any board
the GM may draw, so it is searched rather than written: for each witch a walking path from
her own start field to a goal field no other witch uses, entering S or Z nowhere else, of a
length between MinSteps and MaxSteps (a breadth-first search over field and step count).
The first witch casts an immunity on her first step when the board allows one, to show
the spell notation with a spell that cannot hurt the team.
"""

from __future__ import annotations

from gm_daemon.games.hexenhalma.board import FIELD, GOAL, START, Board
from gm_daemon.games.hexenhalma.model import Orders, StepOrder, WitchOrder
from gm_daemon.games.hexenhalma.texts import absolute, announcement, compact
from gm_daemon.games.hexenhalma.words import say
from gm_daemon.games.kit import layout
from gm_daemon.games.protocol import Lang

_DIRS = (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0))


def example_orders(board: Board) -> Orders:
    used: set[int] = set()
    witches = []
    for number, start in enumerate(board.fields_of(START)[: board.witches], 1):
        path = _path(board, start, used)
        if path is None:
            continue
        steps = [StepOrder(walk=d) for d in path]
        if number == 1 and board.allowed("I") and len(steps) > 1:
            steps[0] = StepOrder(walk=steps[0].walk, spell="I")
        witches.append(WitchOrder(number=number, start=board.field_name(start), steps=steps))
    return Orders(witches=witches)


def _path(board: Board, start: int, used: set[int]) -> list[str] | None:
    """Shortest walk start → free goal of length ≥ MinSteps (detours allowed on . fields)."""
    layer: dict[int, list[str]] = {start: []}
    for t in range(1, board.max_steps + 1):
        following: dict[int, list[str]] = {}
        for cell, path in layer.items():
            for name, dx, dy in _DIRS:
                nxt = cell + dx + dy * board.stride
                kind = board.kind(nxt)
                if kind == GOAL and t >= board.min_steps and nxt not in used:
                    used.add(nxt)
                    return [*path, name]
                if kind == FIELD and nxt not in following:
                    following[nxt] = [*path, name]
        layer = following
    return None


def example_text(board: Board | None, lang: Lang) -> str:
    return compact(example_orders(board), lang) if board is not None else ""


def format_lines(board: Board | None, lang: Lang) -> dict[str, str]:
    """The two sample lines of the help, taken from this board's example so that they start
    on one of its start fields and walk on its fields (on "Kreuz", B7 is no field); the
    catalogue's own lines stand while the board is not drawn yet."""
    witches = example_orders(board).witches if board is not None else []
    if not witches:
        return {"relative": say(lang, "format_relative"), "absolute": say(lang, "format_absolute")}
    walking = [w for w in witches if all(s.walk for s in w.steps)]
    chosen = walking[1] if len(walking) > 1 else walking[0] if walking else witches[0]
    assert board is not None
    return {
        "relative": compact(Orders(witches=[witches[0]]), lang),
        "absolute": absolute(board, chosen, lang),
    }


def help_text(board: Board | None, round_no: int, lang: Lang) -> str:
    form = say(lang, "help_format", **format_lines(board, lang))
    parts = [say(lang, "help_title"), "", form, "", say(lang, "help_rules")]
    if board is None:
        parts += ["", say(lang, "waiting_note", n=round_no)]
    else:
        parts += ["", announcement(board, round_no, lang), "", say(lang, "help_example")]
        parts.append(example_text(board, lang))
    return layout.wrap("\n".join(parts)) + "\n"
