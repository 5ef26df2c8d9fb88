"""One pairing, simulated step by step (HH-8 … HH-15): walk, suffer, cast.

A round of 200 players is 19,900 pairings, so this is the hot loop of the game. Each team is
compiled once per round into plain integer tuples in both frames (``compile_team``): a walk
is an index delta on the padded grid, a field an index, and the rotation of the opponent is
``size - 1 - index`` with the delta negated. The loop itself then touches only ints, lists
and one dict of spells.

The simulation runs in the frame of team ``x`` (its orders as written); team ``y`` comes in
rotated. Fates report fields in the frame of the simulation; ``Fate.home`` turns them into
the witch's own frame, in which players read them.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from gm_daemon.games.hexenhalma.board import FIELD, GOAL, START, WALL, Board
from gm_daemon.games.hexenhalma.model import Orders, StepOrder

NO_SPELL, K, M, B, I = 0, 1, 2, 3, 4  # noqa: E741 (the spell's letter)
SPELL_CODES = {"K": K, "M": M, "B": B, "I": I}
SPELL_LETTERS = {K: "K", M: "M", B: "B", I: "I"}
DURATION = 5  # K, M and B are armed for the 5 steps after casting (HH-1, A-3)
IMMUNITY = 3  # I protects during the 3 steps after casting
AFTER_JUMP = 3  # the goal no earlier than 3 steps after a jump or an own Bann

T = TypeVar("T")
# A compiled step: (walk delta, jump target or -1, spell code, Bann target or -1).
Step = tuple[int, int, int, int]


@dataclass(frozen=True)
class WitchPlan:
    number: int
    start: int
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Team:
    """A team's starting witches in one frame of one board."""

    seat: str
    witches: tuple[WitchPlan, ...]


class Fate(NamedTuple):
    """How a witch ended (HH-14): ``kind`` is goal, burst, asleep, out, starved or blocked;
    ``notes`` are what happened on the way: (what, field, step), e.g. ("bann", A3, 4).
    A named tuple: a round of 200 players ends 80,000 witches, and a tuple of plain values
    is quick to make and drops out of the garbage collector's sight."""

    kind: str
    cell: int
    t: int
    notes: tuple[tuple[str, int, int], ...] = ()

    def home(self, board: Board, rotated: bool) -> Fate:
        """The same fate with its fields in the witch's own frame."""
        if not rotated:
            return self
        notes = tuple((what, board.rot(c), t) for what, c, t in self.notes)
        return Fate(self.kind, board.rot(self.cell), self.t, notes)


Caster = tuple[int, int, int]
# A fate made without the named tuple's own __new__ (a Python function): 80,000 of them
# are made in a round of 200 players. tuple.__new__(Fate, fields) is the same object.
_new_tuple = tuple.__new__


@dataclass
class Outcome:
    """A pairing's result: arrivals and fates by witch number, per team (x first)."""

    arrivals: tuple[int, int]
    fates: tuple[dict[int, Fate], dict[int, Fate]]
    log: list[tuple[int, int, int, str, int, int]] | None = None  # (t, team, no, what, f, x)
    paths: dict[tuple[int, int], list[tuple[int, int, str]]] = field(default_factory=dict)
    # HH-15's lots: (t, field in the lower seat's frame, winner, every caster), each caster
    # as (team, witch number, spell code). Kept always: lots are rare and results name them.
    lots: list[tuple[int, str, Caster, tuple[Caster, ...]]] = field(default_factory=list)


def compile_team(board: Board, seat: str, orders: Orders) -> tuple[Team, Team]:
    """The team in its home frame and rotated by 180° (directions reversed, HH-4)."""
    deltas = {"N": -board.stride, "S": board.stride, "E": 1, "W": -1}
    home, rotated = [], []
    for witch in orders.starting():
        start = board.find(witch.start)
        if start is None:
            continue
        steps = tuple(_compile_step(board, deltas, s) for s in witch.steps)
        home.append(WitchPlan(witch.number, start, steps))
        rotated.append(WitchPlan(witch.number, board.rot(start), _rotate(board, steps)))
    return Team(seat, tuple(home)), Team(seat, tuple(rotated))


def _compile_step(board: Board, deltas: dict[str, int], step: StepOrder) -> Step:
    target = board.find(step.jump) if step.jump else None
    bann = board.find(step.bann) if step.bann else None
    return (
        deltas[step.walk] if step.walk else 0,
        -1 if target is None else target,
        SPELL_CODES.get(step.spell or "", NO_SPELL),
        -1 if bann is None else bann,
    )


def _rotate(board: Board, steps: tuple[Step, ...]) -> tuple[Step, ...]:
    last = len(board.cells) - 1
    return tuple(
        (-d, last - j if j >= 0 else -1, s, last - b if b >= 0 else -1) for d, j, s, b in steps
    )


class LotKey(NamedTuple):
    """HH-15: what a lot is seeded with, besides the step and the field. A named tuple:
    a round of 200 players makes one per pairing, 19,900."""

    game: str
    round: int
    low: str
    high: str


def draw_lot(key: LotKey, t: int, field_name: str, candidates: Sequence[T]) -> T:
    """The winner among ``candidates`` (sorted by player id, then witch number)."""
    text = f"{key.game}|{key.round}|{key.low}|{key.high}|{t}|{field_name}"
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    return random.Random(seed).choice(candidates)


class _Witch:
    __slots__ = ("fatigue", "immune", "jumped", "notes", "number", "pos", "ptr", "steps", "team")

    def __init__(self, team: int, plan: WitchPlan):
        self.team = team
        self.number = plan.number
        self.pos = plan.start
        self.steps = plan.steps
        self.ptr = 0
        self.fatigue = 0
        self.immune = 0  # immune up to and including this step
        self.jumped = -AFTER_JUMP  # J; with it, t >= J + 3 holds from the start
        self.notes: tuple[tuple[str, int, int], ...] = ()  # rare: a new tuple for each


def play(board: Board, x: Team, y: Team, key: LotKey, *, trace: bool = False) -> Outcome:
    """Simulate one pairing in x's frame (y already rotated); ``trace`` keeps a step log
    and each witch's path for BILD/PICTURE."""
    sim = _Pairing(board, x, y, key, trace)
    return sim.run()


class _Pairing:
    def __init__(self, board: Board, x: Team, y: Team, key: LotKey, trace: bool):
        self.board = board
        self.cells = board.cells
        self.key = key
        self.low_is_x = x.seat == key.low
        self.order = (x.seat, y.seat)
        self.goal = (GOAL, START)  # x aims for Z; rotated y aims for the frame's S
        self.witches = [_Witch(0, w) for w in x.witches] + [_Witch(1, w) for w in y.witches]
        self.fates: tuple[dict[int, Fate], dict[int, Fate]] = ({}, {})
        self.occupied: tuple[set[int], set[int]] = (set(), set())
        self.spells: dict[int, tuple[int, int, int, int]] = {}  # cell: (spell, team, T, c)
        self.log: list[tuple[int, int, int, str, int, int]] | None = [] if trace else None
        self.paths: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
        self.lots: list[tuple[int, str, Caster, tuple[Caster, ...]]] = []
        if trace:
            for w in self.witches:
                self.paths[(w.team, w.number)] = [(0, w.pos, "")]

    def run(self) -> Outcome:
        running = self.witches
        limit = self.board.max_steps
        walk, suffer, cast, spells = self._walk, self._suffer, self._cast, self.spells
        for t in range(1, limit + 1):
            if not running:
                break
            running = walk(running, t)
            if spells:  # before the first spell nobody suffers, nor is anybody tired
                running = suffer(running, t)
            running = cast(running, t)
        for w in running:  # HH-11
            self._end(w, "starved", limit)
        arrivals = (
            [f[0] for f in self.fates[0].values()].count("goal"),  # f[0]: the fate's kind
            [f[0] for f in self.fates[1].values()].count("goal"),
        )
        return Outcome(arrivals, self.fates, self.log, self.paths, self.lots)

    def _end(self, w: _Witch, kind: str, t: int) -> None:
        self.fates[w.team][w.number] = _new_tuple(Fate, (kind, w.pos, t, w.notes))
        if self.log is not None:
            self.log.append((t, w.team, w.number, kind, w.pos, 0))

    def _note(self, w: _Witch, what: str, t: int, extra: int = 0) -> None:
        if self.log is not None:
            self.log.append((t, w.team, w.number, what, w.pos, extra))

    # --- phase 1 (HH-8) ------------------------------------------------------------------
    def _walk(self, running: list[_Witch], t: int) -> list[_Witch]:
        cells, still, entering, log = self.cells, [], [], self.log
        for w in running:
            delta, target, _, _ = w.steps[w.ptr]
            w.ptr += 1
            if target >= 0:
                w.pos = target
                w.jumped = t
            else:
                w.pos += delta
            if log is not None:
                self._note(w, "jump" if target >= 0 else "walk", t)
                self.paths[(w.team, w.number)].append((t, w.pos, "~" if target >= 0 else "-"))
            cell = cells[w.pos]
            if cell == FIELD:  # by far the most common: decided by one comparison
                still.append(w)
            elif cell == WALL or (cell in "SZ" and cell != self.goal[w.team]):
                self._end(w, "out", t)
            elif cell in "SZ":
                entering.append(w)
            else:
                still.append(w)
        if entering:
            self._arrive(entering, t)
        return still

    def _arrive(self, entering: list[_Witch], t: int) -> None:
        """A-11: one witch per team and goal field; the lowest number who may arrive."""
        minimum = self.board.min_steps
        for w in sorted(entering, key=lambda w: (w.team, w.number)):
            taken = self.occupied[w.team]
            if w.pos not in taken and t >= minimum and t >= w.jumped + AFTER_JUMP:
                taken.add(w.pos)
                self._end(w, "goal", t)
            else:
                self._end(w, "blocked", t)

    # --- phase 2 (HH-9) ------------------------------------------------------------------
    def _suffer(self, running: list[_Witch], t: int) -> list[_Witch]:
        still, spells = [], self.spells
        limit = self.board.max_steps
        for w in running:
            record = spells.get(w.pos)
            if record is not None and t - record[3] <= DURATION:
                if w.immune >= t:
                    w.notes += (("immune", w.pos, t),)
                    self._note(w, "immune_saved", t, record[0])
                elif not self._hit(w, record, t):
                    continue
            if t > limit - w.fatigue:
                self._end(w, "asleep", t)
                continue
            still.append(w)
        return still

    def _hit(self, w: _Witch, record: tuple[int, int, int, int], t: int) -> bool:
        """Apply one spell; False when the witch burst. A Bann moves her and she suffers
        a K or M at the target (a Bann there has no effect)."""
        spell, team, target, _ = record
        if spell == B:
            w.pos = target
            w.notes += (("bann", target, t),)
            if team == w.team:
                w.jumped = t
            if self.log is not None:
                self._note(w, "bann", t)
                self.paths[(w.team, w.number)].append((t, w.pos, "b"))
            there = self.spells.get(target)
            if there is None or t - there[3] > DURATION or there[0] == B:
                return True
            spell = there[0]
        if spell == K:
            self._end(w, "burst", t)
            return False
        w.fatigue += self.board.sleep
        w.notes += (("sleep", w.pos, t),)
        self._note(w, "fatigue", t, w.fatigue)
        return True

    # --- phase 3 (HH-10) -----------------------------------------------------------------
    def _cast(self, running: list[_Witch], t: int) -> list[_Witch]:
        """The spells, then who ends now (tired, or out of steps), in one pass over the
        witches: casting changes neither fatigue nor steps, so the ends are known before
        the spells are placed, and written after them, in the order of the witches."""
        casts: dict[int, list[_Witch]] = {}
        still: list[_Witch] = []
        ending: list[tuple[_Witch, str]] = []
        limit = self.board.max_steps
        for w in running:
            steps = w.steps
            spell = steps[w.ptr - 1][2]
            if spell == I:
                w.immune = t + IMMUNITY
                if self.log is not None:
                    self._note(w, "cast", t, I)
            elif spell:
                casts.setdefault(w.pos, []).append(w)
            if w.fatigue and t >= limit - w.fatigue:
                ending.append((w, "asleep"))
            elif w.ptr == len(steps):
                ending.append((w, "starved"))
            else:
                still.append(w)
        for cell, casters in casts.items():
            self._place(cell, casters, t)
        for w, kind in ending:
            self._end(w, kind, t)
        return still

    def _place(self, cell: int, casters: list[_Witch], t: int) -> None:
        """A-5: one spell per field, the newest wins; several at once: HH-15's lot."""
        if len(casters) > 1:
            casters = sorted(casters, key=lambda w: (self.order[w.team], w.number))
            name = self.board.field_name(cell if self.low_is_x else self.board.rot(cell))
            winner = draw_lot(self.key, t, name, casters)
            cast = tuple((w.team, w.number, w.steps[w.ptr - 1][2]) for w in casters)
            self.lots.append((t, name, cast[casters.index(winner)], cast))
        else:
            winner = casters[0]
        if self.log is not None:
            for w in casters:
                self._note(w, "cast" if w is winner else "lost_lot", t, w.steps[w.ptr - 1][2])
        _, _, spell, bann = winner.steps[winner.ptr - 1]
        self.spells[cell] = (spell, winner.team, bann, t)


def seat_order(seats: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair once, the lower id first (the frame of the simulation)."""
    ordered = sorted(seats)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
