"""The movement resolver: Kruijswijk's guess-and-backup algorithm over plain arrays.

Every unit is a number 0..n-1; its order is one decision (a MOVE succeeds, a SUPPORT is not
cut, a CONVOY is not disrupted). The decisions are the equations of DATC §5.B, evaluated by
``_adjudicate``; ``resolve`` finds a consistent answer (DATC §5.F): it guesses "fails" for an
order met again deeper in its own recursion, tries "succeeds" if that guess mattered, keeps
the answer when both agree, and applies the backup rule when they do not:

* a cycle containing convoy orders is a convoy paradox: the Szykman rule makes those convoys
  fail (the fleets hold);
* a cycle of moves only is circular movement: all its moves succeed.

The resolver knows nothing of names, coasts or rulebooks: ``movement.py`` validates the
orders, matches supports and convoys, decides convoy intent, and hands over only what the
equations need. It is pure and allocation-light so that a 30-unit phase costs well under a
millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence

HOLD = 0
MOVE = 1
SUPPORT = 2
CONVOY = 3

_NONE: tuple[int, ...] = ()


def _add(table: list[Sequence[int]], key: int, value: int) -> None:
    entry = table[key]
    if entry is _NONE:
        table[key] = [value]
    else:
        entry.append(value)  # type: ignore[attr-defined]


class Resolver:
    """One movement phase. Build it, call ``run``, then read ``result`` and the helpers."""

    __slots__ = (
        "at",
        "attackers",
        "convoyed",
        "convoyers",
        "cycle",
        "dest",
        "guessed",
        "hits",
        "hold_supports",
        "in_cycle",
        "move_supports",
        "n",
        "opponent",
        "otype",
        "paradox",
        "power",
        "prov",
        "resolved",
        "result",
        "sea_adj",
        "visited",
    )

    def __init__(
        self,
        prov: Sequence[int],
        power: Sequence[str],
        otype: Sequence[int],
        dest: Sequence[int],
        supported: Sequence[int],
        convoyed: Sequence[bool],
        n_provinces: int,
        sea_adj: Sequence[frozenset[int]],
    ):
        """``dest`` is the target province of a MOVE, the province a SUPPORT helps (the
        supported unit's own for support to hold) and the army's target for a CONVOY;
        ``power`` only tells which units are of one power (each unit's power, compared);
        ``supported`` is the unit a SUPPORT or CONVOY is for (-1 otherwise). Supports and
        convoys must already match their unit's order; unmatched ones are passed as HOLD."""
        n = len(prov)
        self.n = n
        self.prov = prov
        self.power = power
        self.otype = otype
        self.dest = dest
        self.convoyed = convoyed
        self.sea_adj = sea_adj
        at = [-1] * n_provinces
        for i in range(n):
            at[prov[i]] = i
        self.at = at
        # Shared empty tuples until a list is needed: most provinces and units have none.
        attackers: list[Sequence[int]] = [_NONE] * n_provinces
        move_supports: list[Sequence[int]] = [_NONE] * n
        hold_supports: list[Sequence[int]] = [_NONE] * n
        convoyers: list[Sequence[int]] = [_NONE] * n
        for i in range(n):
            t = otype[i]
            if t == MOVE:
                _add(attackers, dest[i], i)
            elif t == SUPPORT:
                s = supported[i]
                _add(move_supports if otype[s] == MOVE else hold_supports, s, i)
            elif t == CONVOY:
                _add(convoyers, supported[i], i)
        self.attackers = attackers
        self.move_supports = move_supports
        self.hold_supports = hold_supports
        self.convoyers = convoyers
        opponent = [-1] * n
        for i in range(n):
            if otype[i] == MOVE and not convoyed[i]:
                j = at[dest[i]]
                if j >= 0 and otype[j] == MOVE and dest[j] == prov[i] and not convoyed[j]:
                    opponent[i] = j
        self.opponent = opponent
        self.resolved = [False] * n
        self.result = [False] * n
        self.visited = [False] * n
        self.in_cycle = [False] * n
        self.paradox = [False] * n
        self.cycle: list[int] = []
        self.guessed = False
        self.hits = 0

    # --- driving ----------------------------------------------------------------------
    def run(self) -> list[bool]:
        """Resolve every decision; ``result[i]`` is then final for every MOVE, SUPPORT and
        CONVOY (HOLD units have no decision and keep False)."""
        otype = self.otype
        for i in range(self.n):
            if otype[i] != HOLD and not self.resolved[i]:
                self.resolve(i)
        return self.result

    def resolve(self, i: int) -> bool:
        """The decision of order ``i``, resolving it (and what it depends on) if needed.

        ``hits`` counts orders met again while still being adjudicated further up; an order
        may settle a cycle only when every such hit below it was on itself (it is then the
        ancestor of the whole cycle, DATC §5.F)."""
        if self.resolved[i]:
            return self.result[i]
        if self.in_cycle[i]:
            self.guessed = True
            return self.result[i]
        if self.visited[i]:
            # Met again deeper in its own recursion: answer with the current guess.
            self.cycle.append(i)
            self.in_cycle[i] = True
            self.guessed = True
            self.hits += 1
            return self.result[i]
        self.visited[i] = True
        mark = len(self.cycle)
        outer_guessed = self.guessed
        old_hits = self.hits
        self.guessed = False
        self.result[i] = False
        first = self._adjudicate(i)
        if not self.guessed:
            self.visited[i] = False
            self.guessed = outer_guessed
            return self._settle(i, first)
        own_guess_used = self.in_cycle[i]
        if own_guess_used:
            self.hits -= 1
        if own_guess_used and self.hits == old_hits:
            # Every cycle met runs through this order: try the other guess.
            self._cut_cycle(mark)
            self.result[i] = True
            second = self._adjudicate(i)
            if self.in_cycle[i]:
                self.hits -= 1
            if self.hits == old_hits:
                self.visited[i] = False
                self.guessed = outer_guessed
                if first == second:
                    self._cut_cycle(mark)
                    return self._settle(i, first)
                members = self.cycle[mark:]
                if i not in members:  # so the backup rule always settles something
                    members.append(i)
                self._cut_cycle(mark)
                self._backup_rule(members)
                return self.resolve(i)
        # Depends on a guess made further up: report provisionally, let that order decide.
        self.visited[i] = False
        if not self.in_cycle[i]:
            self.cycle.append(i)
            self.in_cycle[i] = True
        self.result[i] = first
        self.guessed = True
        return first

    def _settle(self, i: int, value: bool) -> bool:
        self.resolved[i] = True
        self.result[i] = value
        return value

    def _cut_cycle(self, mark: int) -> None:
        in_cycle = self.in_cycle
        for j in self.cycle[mark:]:
            in_cycle[j] = False
        del self.cycle[mark:]

    def _backup_rule(self, members: list[int]) -> None:
        """No or two consistent answers: the Szykman rule for a convoy paradox (its convoys
        fail), otherwise circular movement (its moves succeed)."""
        convoys = [j for j in members if self.otype[j] == CONVOY]
        if convoys:
            for j in convoys:
                self.paradox[j] = True
                self._settle(j, False)
            return
        moves = [j for j in members if self.otype[j] == MOVE]
        for j in moves or members:
            self._settle(j, bool(moves))

    # --- the equations (DATC §5.B) ------------------------------------------------------
    def _adjudicate(self, i: int) -> bool:
        t = self.otype[i]
        if t == MOVE:
            return self._move(i)
        if t == SUPPORT:
            return self._support(i)
        return self._convoy(i)

    def _move(self, i: int) -> bool:
        if self.convoyed[i] and not self.path(i):  # over land: always (see path)
            return False
        attack = self.attack_strength(i)
        j = self.opponent[i]
        if j >= 0:
            if attack <= self.defend_strength(j):
                return False
        elif attack <= self.hold_strength(self.dest[i]):
            return False
        for k in self.attackers[self.dest[i]]:
            if k != i and attack <= self.prevent_strength(k):
                return False
        return True

    def _support(self, i: int) -> bool:
        p = self.prov[i]
        power = self.power[i]
        helped = self.dest[i]
        for k in self.attackers[p]:
            if self.power[k] == power:
                continue
            if self.prov[k] != helped:
                if not self.convoyed[k] or self.path(k):
                    return False
            elif self.resolve(k):
                return False
        return True

    def _convoy(self, i: int) -> bool:
        return all(not self.resolve(k) for k in self.attackers[self.prov[i]])

    def path(self, i: int) -> bool:
        """Whether a MOVE reaches its destination: always over land, by convoy only along a
        chain of fleets whose convoys succeed."""
        if not self.convoyed[i]:
            return True
        fleets = self.convoyers[i]
        prov = self.prov
        sea_adj = self.sea_adj
        goal = sea_adj[self.dest[i]]
        start = sea_adj[prov[i]]
        frontier = [f for f in fleets if prov[f] in start]
        seen = set(frontier)
        while frontier:
            f = frontier.pop()
            if not self.resolve(f):
                continue
            here = prov[f]
            if here in goal:
                return True
            near = sea_adj[here]
            for g in fleets:
                if g not in seen and prov[g] in near:
                    seen.add(g)
                    frontier.append(g)
        return False

    def _count(self, supports: Sequence[int], exclude_power: str | None = None) -> int:
        """The supports (of another power than ``exclude_power``) not cut. The strengths call
        it only when there are any: most units have none."""
        n = 0
        for s in supports:
            if self.power[s] != exclude_power and self.resolve(s):
                n += 1
        return n

    def attack_strength(self, i: int) -> int:
        if self.convoyed[i] and not self.path(i):  # over land: always (see path)
            return 0
        j = self.at[self.dest[i]]
        supports = self.move_supports[i]
        if j < 0 or (self.opponent[i] < 0 and self.otype[j] == MOVE and self.resolve(j)):
            return 1 + self._count(supports) if supports else 1
        if self.power[j] == self.power[i]:
            return 0
        return 1 + self._count(supports, self.power[j]) if supports else 1

    def hold_strength(self, province: int) -> int:
        j = self.at[province]
        if j < 0:
            return 0
        if self.otype[j] == MOVE:
            return 0 if self.resolve(j) else 1
        supports = self.hold_supports[j]
        return 1 + self._count(supports) if supports else 1

    def defend_strength(self, i: int) -> int:
        supports = self.move_supports[i]
        return 1 + self._count(supports) if supports else 1

    def prevent_strength(self, i: int) -> int:
        if self.convoyed[i] and not self.path(i):  # over land: always (see path)
            return 0
        j = self.opponent[i]
        if j >= 0 and self.resolve(j):
            return 0
        supports = self.move_supports[i]
        return 1 + self._count(supports) if supports else 1
