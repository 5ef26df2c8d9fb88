"""HH-6: each witch's plan checked against the board in the home frame, other witches
ignored. A violation voids that witch only (A-16): she does not start, the team plays on.

The reasons are phrase keys of the catalogue with their values, so the same fact reads
right in German and English and can be stored with the orders.
"""

from __future__ import annotations

from collections.abc import Iterator

from gm_daemon.games.hexenhalma.board import FIELD, GOAL, START, WALL, Board
from gm_daemon.games.hexenhalma.model import Orders, Void, WitchOrder
from gm_daemon.games.hexenhalma.simulate import AFTER_JUMP

_MOVES = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


def check_orders(board: Board, orders: Orders) -> Orders:
    """The orders with every invalid witch marked void (witch numbers in order)."""
    checked = []
    for witch in sorted(orders.witches, key=lambda w: w.number):
        void = check_path(board, witch) or _duplicate_start(witch, checked)
        checked.append(witch.model_copy(update={"void": void}))
    return Orders(witches=_allowances(board, checked))


def check_path(board: Board, witch: WitchOrder) -> Void | None:
    start = board.find(witch.start)
    if start is None or board.kind(start) != START:
        starts = " ".join(board.field_name(i) for i in board.fields_of(START))
        return Void(reason="void_not_start", values={"field": witch.start, "starts": starts})
    if len(witch.steps) > board.max_steps:
        return Void(
            reason="void_too_long",
            values={"steps": len(witch.steps), "max": board.max_steps},
        )
    return _walk(board, witch, start)


def _walk(board: Board, witch: WitchOrder, pos: int) -> Void | None:
    last_jump: int | None = None
    for g, step in enumerate(witch.steps, 1):
        if step.walk:
            dx, dy = _MOVES[step.walk]
            pos = pos + dx + dy * board.stride
            if board.kind(pos) == WALL:
                return Void(reason="void_off_board", values={"step": g, "dir": step.walk})
        else:
            target = board.find(step.jump or "")
            if target is None or board.kind(target) != FIELD or target == pos:
                return Void(reason="void_jump_target", values={"step": g, "field": step.jump})
            pos, last_jump = target, g
        void = _arrival(board, witch, g, pos, last_jump)
        if void is not None:
            return void
    return None


def _arrival(
    board: Board, witch: WitchOrder, g: int, pos: int, last_jump: int | None
) -> Void | None:
    step, name, kind = witch.steps[g - 1], board.field_name(pos), board.kind(pos)
    if step.spell == "B":
        target = board.find(step.bann or "")
        if target is None or board.kind(target) != FIELD:
            return Void(reason="void_bann_target", values={"step": g, "field": step.bann})
    if kind == START:
        return Void(reason="void_enters_start", values={"step": g, "field": name})
    if kind != GOAL:
        return None
    if g < len(witch.steps):
        return Void(reason="void_goal_midway", values={"step": g, "field": name})
    if g < board.min_steps:
        return Void(reason="void_goal_min", values={"step": g, "min": board.min_steps})
    if last_jump is not None and g < last_jump + AFTER_JUMP:
        values = {"step": g, "jump": last_jump, "earliest": last_jump + AFTER_JUMP}
        return Void(reason="void_goal_after_jump", values=values)
    if step.spell:
        return Void(reason="void_spell_on_goal", values={"step": g, "spell": step.spell})
    return None


def _duplicate_start(witch: WitchOrder, earlier: list[WitchOrder]) -> Void | None:
    for other in earlier:
        if other.void is None and other.start.upper() == witch.start.upper():
            return Void(
                reason="void_same_start", values={"field": witch.start, "other": other.number}
            )
    return None


def spells_of(witch: WitchOrder) -> Iterator[tuple[int, str]]:
    """(step, spell) of every spell the witch uses, a Beelzebub jump counting as BZ."""
    for g, step in enumerate(witch.steps, 1):
        if step.jump:
            yield g, "BZ"
        if step.spell:
            yield g, step.spell


def _allowances(board: Board, witches: list[WitchOrder]) -> list[WitchOrder]:
    """HH-6.7: counted in order of witch number, then step; a witch who would exceed an
    allowance is void and uses none of it (so the next witch may still use what is left)."""
    used: dict[str, int] = {}
    result = []
    for witch in witches:
        mine = dict(used) if board.scope == "team" else {}
        void = witch.void
        for g, spell in spells_of(witch) if void is None else ():
            mine[spell] = mine.get(spell, 0) + 1
            if mine[spell] > board.allowed(spell):
                values = {"spell": spell, "step": g, "allowed": board.allowed(spell)}
                reason = "void_over_team" if board.scope == "team" else "void_over_witch"
                void = Void(reason=reason, values=values)
                break
        if void is None and board.scope == "team":
            used = mine
        result.append(witch.model_copy(update={"void": void}))
    return result


def budget(board: Board, orders: Orders) -> dict[str, int]:
    """Spells used by the team's starting witches, per kind (for the acknowledgement)."""
    used = dict.fromkeys((s for s, _ in board.allowance), 0)
    for witch in orders.starting():
        for _, spell in spells_of(witch):
            used[spell] += 1
    return used


def ends_in_goal(board: Board, witch: WitchOrder) -> bool:
    """Whether a (valid) plan's last step enters a goal field; else A-14's warning."""
    fields = walk_fields(board, witch)
    return len(fields) > 1 and board.kind(fields[-1]) == GOAL


def walk_fields(board: Board, witch: WitchOrder) -> list[int]:
    """The fields a valid plan passes, start first, ignoring spells of others."""
    pos = board.find(witch.start)
    if pos is None:
        return []
    fields = [pos]
    for step in witch.steps:
        if step.walk:
            dx, dy = _MOVES[step.walk]
            pos = pos + dx + dy * board.stride
        else:
            pos = board.find(step.jump or "") or pos
        fields.append(pos)
    return fields
