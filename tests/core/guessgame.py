"""A tiny game for testing the daemon apart from any real game's rules.

Each round every active player names a number 1..100; the GM draws a target from the phase's
rng and the closest player scores a point. Three rounds. It implements the whole protocol v2
(no optional hooks: ``tests/core/hookgame.py`` has those), so the daemon's mail handling,
deadlines, NMR and outbox can be tested on it, and the conformance suite runs over it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from gm_daemon.games.kit.headers import numbered_header
from gm_daemon.games.protocol import (
    Accepted,
    Header,
    Line,
    OrdersRejected,
    Problem,
    ProblemKind,
    Report,
    Resolution,
    Seat,
)


class Options(BaseModel):
    rounds: int = 3


class State(BaseModel):
    round: int
    rounds: int
    names: dict[str, str]
    scores: dict[str, int]
    out: list[str] = []


class Orders(BaseModel):
    number: int | None


class GuessGame:
    kind = "guess"
    title: ClassVar[dict[str, str]] = {"de": "Zahlenraten", "en": "Guess"}
    Options = Options
    State = State
    Orders = Orders
    resolves_on_receipt = False
    phase_types = ("round",)

    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        if len(seats) < 2:
            raise ValueError("needs two players")
        return State(
            round=1,
            rounds=options.rounds,
            names={s.id: s.name for s in seats},
            scores={s.id: 0 for s in seats},
        )

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str] = frozenset(),
    ) -> Resolution[State, Orders]:
        target = rng.randint(1, 100)
        guesses = {s: o.number for s, o in orders.items() if o.number is not None}
        scores = dict(state.scores)
        if guesses:
            best = min(abs(g - target) for g in guesses.values())
            for seat, guess in guesses.items():
                if abs(guess - target) == best:
                    scores[seat] += 1
        finished = state.round >= state.rounds
        new = state.model_copy(update={"round": state.round + 1, "scores": scores})
        ranking = sorted({v for v in scores.values()}, reverse=True)
        return Resolution(
            new,
            [{"target": target, "guesses": guesses}],
            finished,
            [[s for s in scores if scores[s] == v] for v in ranking] if finished else None,
        )

    def phase_number(self, state: State) -> int:
        return state.round

    def phase_type(self, state: State) -> str:
        return "round"

    def phase_label(self, state: State, lang: str) -> str:
        return f"{'Runde' if lang == 'de' else 'Round'} {state.round}"

    def read_header(self, text: str, state: State) -> Header | None:
        return numbered_header(text, ("runde", "round"), state.round)

    def owed(self, state: State) -> set[str]:
        return set(state.names) - set(state.out)

    def participants(self, state: State) -> set[str]:
        return self.owed(state)

    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: str,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        problems, numbers = [], []
        for line in lines:
            text = line.text.strip()
            if not text.isdigit():
                problems.append(
                    Problem(
                        line.no,
                        line.text,
                        ProblemKind.SYNTAX,
                        "keine Zahl" if lang == "de" else "not a number",
                        "42",
                    )
                )
            elif not 1 <= int(text) <= 100:
                problems.append(Problem(line.no, line.text, ProblemKind.ILLEGAL, "1..100", "100"))
            else:
                numbers.append(int(text))
        if len(numbers) > 1:
            problems.append(Problem(None, "", ProblemKind.AMBIGUOUS, "one number", "42"))
        if problems:
            raise OrdersRejected(problems)
        return Accepted(Orders(number=numbers[0]))

    def default_orders(self, state: State, seat: str) -> Orders:
        return Orders(number=None)

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: str) -> str:
        return str(orders.number) if orders.number is not None else "-"

    def example(self, state: State, seat: str, lang: str) -> str:
        return "" if seat in state.out else str(1 + len(state.names[seat]) % 100)

    def welcome(self, state: State, seat: str, lang: str) -> Report:
        public = f"Guess a number 1..100, e.g.\n{self.example(state, seat, lang)}"
        return Report(public, {seat: f"secret for {state.names[seat]}"})

    def help(self, state: State, seat: str, lang: str) -> str:
        return f"One number, 1..100, e.g.\n{self.example(state, seat, lang)}"

    def status(self, state: State, seat: str, lang: str) -> Report:
        return Report(f"score {state.scores[seat]}")

    def report(self, before: State, resolution: Resolution[State, Orders], lang: str) -> Report:
        event = resolution.events[0]
        lines = [f"target {event['target']}"]
        lines += [f"{before.names[s]}: {resolution.state.scores[s]}" for s in before.names]
        return Report("\n".join(lines))

    def public_state(self, state: State) -> dict[str, Any]:
        return state.model_dump(mode="json")


GAME = GuessGame()
