"""Random orders that use the board: random walks over plain fields, now and then a
Beelzebub jump, the goal entered when the rules allow it, and the team's whole spell
allowance spread over random steps. Used by the symmetry property and the benchmark, so
both exercise every spell, banishment chains and lots."""

from __future__ import annotations

import random

from gm_daemon.games.hexenhalma.board import FIELD, GOAL, START, Board
from gm_daemon.games.hexenhalma.check import check_orders
from gm_daemon.games.hexenhalma.model import Orders, StepOrder, WitchOrder

_DIRS = (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0))


def random_orders(board: Board, rng: random.Random) -> Orders:
    plain = board.fields_of(FIELD)
    starts = board.fields_of(START)
    rng.shuffle(starts)
    witches = [_witch(board, n, s, rng, plain) for n, s in enumerate(starts[: board.witches], 1)]
    _spread_spells(board, witches, rng, plain)
    return check_orders(board, Orders(witches=[_order(board, w) for w in witches]))


def _witch(
    board: Board, number: int, pos: int, rng: random.Random, plain: list[int]
) -> tuple[int, int, list[dict]]:
    start, steps, jumped = pos, [], -3
    for t in range(1, board.max_steps + 1):
        goals = [(d, pos + dx + dy * board.stride) for d, dx, dy in _DIRS]
        goals = [(d, c) for d, c in goals if board.kind(c) == GOAL]
        if goals and t >= board.min_steps and t >= jumped + 3 and rng.random() < 0.9:
            steps.append({"walk": goals[0][0]})
            break
        if t <= board.max_steps - 4 and rng.random() < 0.08:
            pos = rng.choice([c for c in plain if c != pos])
            steps.append({"jump": board.field_name(pos)})
            jumped = t
            continue
        moves = [(d, pos + dx + dy * board.stride) for d, dx, dy in _DIRS]
        moves = [(d, c) for d, c in moves if board.kind(c) == FIELD]
        if not moves:
            break
        d, pos = _towards_goal(board, moves, rng)
        steps.append({"walk": d})
    return number, start, steps


def _towards_goal(board: Board, moves: list[tuple[str, int]], rng: random.Random):
    """Mostly north (goals are drawn at the top), so that many witches arrive."""
    north = [m for m in moves if m[0] == "N"]
    return north[0] if north and rng.random() < 0.6 else rng.choice(moves)


def _spread_spells(board: Board, witches: list, rng: random.Random, plain: list[int]) -> None:
    slots = [
        (w, i)
        for w in witches
        for i, step in enumerate(w[2])
        if not (i == len(w[2]) - 1 and "walk" in step and _ends_in_goal(board, w))
    ]
    rng.shuffle(slots)
    for spell, count in board.allowance:
        if spell == "BZ":
            continue
        for _ in range(count):
            free = [(w, i) for w, i in slots if "spell" not in w[2][i]]
            if not free:
                return
            w, i = free[0]
            w[2][i]["spell"] = spell
            if spell == "B":
                w[2][i]["bann"] = board.field_name(rng.choice(plain))


def _ends_in_goal(board: Board, witch: tuple[int, int, list[dict]]) -> bool:
    pos = witch[1]
    for step in witch[2]:
        if "jump" in step:
            pos = board.find(step["jump"]) or pos
        else:
            dx, dy = {d: (x, y) for d, x, y in _DIRS}[step["walk"]]
            pos += dx + dy * board.stride
    return board.kind(pos) == GOAL


def _order(board: Board, witch: tuple[int, int, list[dict]]) -> WitchOrder:
    number, start, steps = witch
    return WitchOrder(
        number=number,
        start=board.field_name(start),
        steps=[StepOrder(**step) for step in steps] or [StepOrder(walk="N")],
    )
