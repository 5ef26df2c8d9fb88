"""The smallest round game on the kit's shape (``gm_daemon.games.kit.rounds``), as a new
game kind would start: it writes its rules and texts, the phase facts are the shape's.

"Höchstes Einzelgebot": each round every player names a number 1 to 9; whoever named the
highest number nobody else named scores a point. A player may leave; he plays the round now
running and is out from the next. The conformance suite plays it like every registered kind.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from gm_daemon.games.kit.phrases import Phrases
from gm_daemon.games.kit.rounds import RoundGame, leave_after_round
from gm_daemon.games.protocol import (
    Accepted,
    Fix,
    Lang,
    Line,
    OrdersRejected,
    Problem,
    ProblemKind,
    Report,
    Resolution,
    Seat,
)

say = Phrases(
    {
        "de": {
            "rules": "Nennen Sie eine Zahl von 1 bis 9; das höchste Gebot, das sonst "
            "niemand nennt, gewinnt einen Punkt. Zum Beispiel:",
            "not_a_number": "keine Zahl",
            "out_of_range": "nur 1 bis 9",
            "one_number": "genau eine Zahl",
            "none": "kein Gebot",
            "winner": "Punkt für {name} ({number})",
            "no_winner": "Kein Gebot stand allein.",
            "score": "{name}: {points}",
            "leave_means": "Sie spielen diese Runde noch und sind ab der nächsten draußen",
        },
        "en": {
            "rules": "Name a number from 1 to 9; the highest bid nobody else names wins a "
            "point. For example:",
            "not_a_number": "not a number",
            "out_of_range": "only 1 to 9",
            "one_number": "exactly one number",
            "none": "no bid",
            "winner": "A point for {name} ({number})",
            "no_winner": "No bid stood alone.",
            "score": "{name}: {points}",
            "leave_means": "you play this round and are out from the next",
        },
    }
)


class Options(BaseModel):
    rounds: int = Field(3, ge=1, description="Rounds to play.", examples=[5])


class State(BaseModel):
    round: int = 1
    rounds: int
    names: dict[str, str]
    scores: dict[str, int]
    finished: bool = False
    leaving: list[str] = Field(default_factory=list)
    left: list[str] = Field(default_factory=list)

    def playing(self) -> list[str]:
        return [seat for seat in self.names if seat not in self.left]


class Orders(BaseModel):
    number: int | None = None


class HighestAlone(RoundGame[Options, State, Orders]):
    kind: ClassVar[str] = "rounds"
    title: ClassVar[Mapping[Lang, str]] = {"de": "Höchstes Einzelgebot", "en": "Highest alone"}
    leave_means: ClassVar[Mapping[Lang, str]] = say.per_language("leave_means")

    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        if len(seats) < 2:
            raise ValueError("needs two players")
        names = {s.id: s.name for s in seats}
        return State(rounds=options.rounds, names=names, scores=dict.fromkeys(names, 0))

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[State, Orders]:
        bids = {s: o.number for s, o in orders.items() if o.number is not None}
        alone = [n for n, times in Counter(bids.values()).items() if times == 1]
        winner = next((s for s, n in bids.items() if alone and n == max(alone)), None)
        scores = dict(state.scores)
        if winner is not None:
            scores[winner] += 1
        left = [*state.left, *state.leaving]
        after = state.model_copy(
            update={"round": state.round + 1, "scores": scores, "leaving": [], "left": left}
        )
        after.finished = state.round >= state.rounds or len(after.playing()) < 2
        event = {"event": "bids", "bids": bids, "winner": winner}
        ranking = self.final_ranking(after) if after.finished else None
        return Resolution(after, [event], after.finished, ranking)

    def leave(self, state: State, seat: str) -> State:
        return leave_after_round(state, seat)

    def final_ranking(self, state: State) -> list[list[str]]:
        points = sorted(set(state.scores.values()), reverse=True)
        return [[s for s in state.names if state.scores[s] == p] for p in points]

    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: Lang,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        read = [_bid(line, lang) for line in lines]
        problems = [r for r in read if isinstance(r, Problem)]
        bids = [r for r in read if isinstance(r, int)]
        if not problems and len(bids) != 1:
            problems.append(Problem(None, "", ProblemKind.AMBIGUOUS, say(lang, "one_number")))
        if problems:
            raise OrdersRejected(problems)
        return Accepted(Orders(number=bids[0]))

    def default_orders(self, state: State, seat: str) -> Orders:
        return Orders()

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: Lang) -> str:
        return say(lang, "none") if orders.number is None else str(orders.number)

    def example(self, state: State, seat: str, lang: Lang) -> str:
        if seat not in self.owed(state):
            return ""
        return str(1 + (list(state.names).index(seat) * 2 + state.round) % 9)

    def welcome(self, state: State, seat: str, lang: Lang) -> Report:
        return Report(self.help(state, seat, lang))

    def help(self, state: State, seat: str, lang: Lang) -> str:
        return f"{say(lang, 'rules')}\n{self.example(state, seat, lang)}\n"

    def status(self, state: State, seat: str, lang: Lang) -> Report:
        return Report(self._scores(state, lang))

    def report(self, before: State, resolution: Resolution[State, Orders], lang: Lang) -> Report:
        winner = resolution.events[0]["winner"]
        if winner is None:
            head = say(lang, "no_winner")
        else:
            number = resolution.events[0]["bids"][winner]
            head = say(lang, "winner", name=before.names[winner], number=number)
        return Report(f"{head}\n{self._scores(resolution.state, lang)}")

    def public_state(self, state: State) -> dict[str, Any]:
        return state.model_dump(mode="json")

    @staticmethod
    def _scores(state: State, lang: Lang) -> str:
        return "\n".join(
            say(lang, "score", name=name, points=state.scores[seat])
            for seat, name in state.names.items()
        )


def _bid(line: Line, lang: Lang) -> int | Problem:
    """A bid of 1 to 9, or what is wrong with the line (a bid too high is read as 9)."""
    text = line.text.strip()
    if not text.isdigit():
        return Problem(line.no, line.text, ProblemKind.SYNTAX, say(lang, "not_a_number"))
    if not 1 <= int(text) <= 9:
        message = say(lang, "out_of_range")
        return Problem(line.no, line.text, ProblemKind.ILLEGAL, message, "9", Fix("9"))
    return int(text)


GAME = HighestAlone()
