"""A throwaway game kind that uses every hook of protocol v2, to drive the daemon with it.

Years of two phases, "Saat" (sow) and "Ernte" (harvest), each with its own deadline type; the
phase header names the year and the phase as Highlander's does (``Phase: 1902 Ernte``), which
the core must leave to the engine. Every year needs a field the GM gives in the options
(``fields = ["Acker", …]``); a year without one waits for the GM (``take_options`` /
``waiting_for``). Each seat sows a number of seeds; the harvest doubles them, a seat that sent
nothing (``defaulted``) harvests nothing. ``BILD <Name>`` returns a PNG of that seat's seeds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from gm_daemon.games.kit.names import of_seats
from gm_daemon.games.kit.picture import canvas, png_bytes, seat_colour
from gm_daemon.games.protocol import (
    Accepted,
    Attachment,
    CommandError,
    GameCommand,
    Header,
    Line,
    OrdersRejected,
    Problem,
    ProblemKind,
    Report,
    Resolution,
    Seat,
)

PHASES = ("saat", "ernte")


class Options(BaseModel):
    years: int = 2
    fields: list[str] = []


class State(BaseModel):
    step: int = 1  # phase number: year = 1900 + (step + 1) // 2, odd steps sow
    years: int
    fields: list[str]
    names: dict[str, str]
    seeds: dict[str, int]
    starved: list[str] = []

    @property
    def year(self) -> int:
        return 1900 + (self.step + 1) // 2

    @property
    def phase(self) -> str:
        return PHASES[(self.step + 1) % 2]

    @property
    def finished(self) -> bool:
        return self.step > 2 * self.years


class Orders(BaseModel):
    seeds: int = 0


def _picture(state: State, seat: str, args: str, lang: str) -> Report:
    if not args:
        raise CommandError("Wessen Bild? BILD <Name>" if lang == "de" else "Whose? PICTURE <Name>")
    seats = [Seat(s, n) for s, n in state.names.items()]
    found = of_seats(seats).find(args)
    if len(found) != 1:
        raise CommandError(f"Kein Spieler „{args}“" if lang == "de" else f"No player '{args}'")
    target = next(s for s in seats if s.id == found[0])
    image, draw = canvas(40, 20)
    index = list(state.names).index(target.id)
    draw.rectangle((0, 0, min(39, state.seeds[target.id]), 19), fill=seat_colour(index))
    picture = Attachment(f"bild-{target.id}.png", "image/png", png_bytes(image))
    return Report(f"{target.name}: {state.seeds[target.id]}", attachments=[picture])


class HookGame:
    kind: ClassVar[str] = "hooks"
    title: ClassVar[dict[str, str]] = {"de": "Saat und Ernte", "en": "Sow and Reap"}
    Options = Options
    State = State
    Orders = Orders
    resolves_on_receipt: ClassVar[bool] = False
    phase_types: ClassVar[tuple[str, ...]] = PHASES
    commands: ClassVar[Sequence[GameCommand[Any]]] = (
        GameCommand(
            names={"de": ("BILD",), "en": ("PICTURE",)},
            usage={"de": "<Name>", "en": "<name>"},
            help={"de": "das Bild eines Feldes", "en": "the picture of a field"},
            run=_picture,
        ),
    )

    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        names = {s.id: s.name for s in seats}
        return State(
            years=options.years,
            fields=list(options.fields),
            names=names,
            seeds=dict.fromkeys(names, 1),
        )

    def take_options(self, state: State, options: Options) -> State:
        used = state.fields[: state.year - 1900]
        if options.fields[: len(used)] != used:
            raise ValueError(f"the fields of years already begun cannot change: {used}")
        return state.model_copy(update={"fields": list(options.fields)})

    def waiting_for(self, state: State, lang: str) -> str | None:
        if state.finished or len(state.fields) >= state.year - 1900:
            return None
        return f"das Feld für {state.year}" if lang == "de" else f"the field for {state.year}"

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[State, Orders]:
        seeds = dict(state.seeds)
        if state.phase == "ernte":
            for seat in seeds:
                seeds[seat] = 0 if seat in defaulted else seeds[seat] + 2 * orders[seat].seeds
        new = state.model_copy(
            update={"step": state.step + 1, "seeds": seeds, "starved": sorted(defaulted)}
        )
        events = [{"event": state.phase, "defaulted": sorted(defaulted)}]
        ranking = None
        if new.finished:
            ranking = [[s] for s in sorted(seeds, key=lambda s: -seeds[s])]
        return Resolution(new, events, new.finished, ranking)

    def phase_number(self, state: State) -> int:
        return state.step

    def phase_type(self, state: State) -> str:
        return state.phase

    def phase_label(self, state: State, lang: str) -> str:
        return f"{state.year} {state.phase.capitalize()}"

    def read_header(self, text: str, state: State) -> Header | None:
        words = text.strip().split()
        if len(words) != 3 or words[0].lower() != "phase:":
            return None
        current = [str(state.year), state.phase]
        return Header.CURRENT if [words[1], words[2].lower()] == current else Header.OTHER

    def owed(self, state: State) -> set[str]:
        return set() if state.finished else set(state.names)

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
        numbers = [line for line in lines if line.text.strip()]
        bad = [line for line in numbers if not line.text.strip().isdigit()]
        if bad or len(numbers) != 1:
            raise OrdersRejected(
                [Problem(line.no, line.text, ProblemKind.SYNTAX, "no number", "3") for line in bad]
                or [Problem(None, "", ProblemKind.AMBIGUOUS, "one number", "3")]
            )
        return Accepted(Orders(seeds=int(numbers[0].text)))

    def default_orders(self, state: State, seat: str) -> Orders:
        return Orders()

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: str) -> str:
        return f"{orders.seeds}"

    def example(self, state: State, seat: str, lang: str) -> str:
        return "3"

    def welcome(self, state: State, seat: str, lang: str) -> Report:
        return Report(f"Sow and reap. e.g.\n{self.example(state, seat, lang)}")

    def help(self, state: State, seat: str, lang: str) -> str:
        field = state.fields[state.year - 1901] if len(state.fields) > state.year - 1901 else "?"
        return f"{state.phase} on {field}: a number, e.g.\n{self.example(state, seat, lang)}"

    def status(self, state: State, seat: str, lang: str) -> Report:
        return Report(f"{state.names[seat]}: {state.seeds[seat]} seeds")

    def report(self, before: State, resolution: Resolution[State, Orders], lang: str) -> Report:
        after = resolution.state
        lines = [f"{after.names[s]}: {after.seeds[s]}" for s in after.names]
        return Report("\n".join(lines), private={s: f"secret {s}" for s in after.names})

    def public_state(self, state: State) -> dict[str, Any]:
        return {"step": state.step, "seeds": state.seeds}


GAME = HookGame()
