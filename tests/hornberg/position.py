"""Scenario positions in a compact text form, built into a full, card-conserving ``State``.

A position (a TOML table in ``scenarios/*.toml``) names only what matters::

    variant = "kq"
    seats = ["Anna", "Bert", "Carla"]        # ids are the names in lower case
    to_move = "Bert"
    kegs = { ro = "Anna", ge = "Bert" }
    grid = [". ro3/2 ge4/5 bl2",             # K&Q: one string per grid row, "." = empty;
            ". sw5/1 sw1"]                   # the first token is cell (0, 0) (or grid_origin)
    rows = ["4: ro2/3 ge5/0", "4-1: ge1/4"]  # D&D: base duke, +extenders/-shorteners: stacks
    dukes = { Anna = "H9" }                  # K&Q dukes face up
    collected = { Anna = "ro5 B6 B6 B3" }    # K&Q collected piles
    hands = { Bert = "H7 B0" }
    out = ["Carla"]                          # D&D: out this round
    nmr_streak = { Carla = 2 }               # turns missed in a row so far
    pile = "ro1 ro2"                         # top last; if given, unplaced cards leave the game
    fill_hands = true                        # seats without a hand get hand_size cards

Every card of the box is placed exactly once: cards the position does not mention fill the
unnamed hands (in box order) and then the pile, so card conservation holds from the start.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.model import Cell, Row, SeatInfo, Stack, State, Table
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.hornberg.rules import all_cards


def seat_id(name: str) -> str:
    return name.strip().lower()


def parse_stack(token: str) -> tuple[str, str | None]:
    """``ro3/2`` → ("ro3", "B2"); ``bl2`` → ("bl2", None)."""
    cannon, _, beer = token.partition("/")
    cards.card(cannon)
    return cannon, (cards.beer(int(beer)) if beer else None)


def parse_row(text: str) -> Row:
    """``"4-1+2: ge1/4 bl3/5 ro4"``: base 4, shortened by 1, extended by 2, three cannons."""
    head, _, body = text.partition(":")
    head = head.replace(" ", "").replace("+", " +").replace("-", " -").split()
    row = Row(base=int(head[0]))
    for part in head[1:]:
        (row.extenders if part[0] == "+" else row.shorteners).append(int(part[1:]))
    row.stacks = [Stack(cannon=c, beer=b) for c, b in map(parse_stack, body.split())]
    return row


def parse_grid(lines: list[str], origin: tuple[int, int]) -> list[Cell]:
    found = []
    for j, line in enumerate(lines):
        for i, token in enumerate(line.split()):
            if token != ".":
                cannon, beer = parse_stack(token)
                found.append(Cell(x=origin[0] + i, y=origin[1] + j, cannon=cannon, beer=beer))
    return found


def _by_seat(raw: dict[str, str]) -> dict[str, list[str]]:
    return {seat_id(name): text.split() for name, text in raw.items()}


def build(spec: dict[str, Any]) -> State:
    options = Options.model_validate({"variant": spec["variant"], **spec.get("options", {})})
    seats = [SeatInfo(id=seat_id(n), name=n) for n in spec["seats"]]
    ids = [s.id for s in seats]
    to_move = seat_id(spec.get("to_move", spec["seats"][0]))
    table = _table(spec, options)
    state = State(
        options=options,
        seats=seats,
        round=spec.get("round", 1),
        turn=spec.get("turn", 20),
        dealer=seat_id(spec.get("dealer", ids[ids.index(to_move) - 1])),
        start_player=seat_id(spec.get("start_player", to_move)),
        to_move=to_move,
        hands={s: [] for s in ids},
        pile=[],
        table=table,
        out=[seat_id(n) for n in spec.get("out", [])],
        nmr_streak={seat_id(n): k for n, k in spec.get("nmr_streak", {}).items()},
        totals={s: spec.get("totals", {}).get(n.name, 0) for s, n in zip(ids, seats, strict=True)},
    )
    state.hands.update(_by_seat(spec.get("hands", {})))
    _place_the_rest(state, spec)
    return state


def _table(spec: dict[str, Any], options: Options) -> Table:
    table = Table(kegs={c: seat_id(n) for c, n in spec.get("kegs", {}).items()})
    if options.variant == "dd":
        table.rows = [parse_row(r) for r in spec["rows"]]
    else:
        origin = tuple(spec.get("grid_origin", (0, 0)))
        table.cells = parse_grid(spec.get("grid", []), origin)  # type: ignore[arg-type]
        table.dukes = _by_seat(spec.get("dukes", {}))
        table.collected = _by_seat(spec.get("collected", {}))
    return table


def _place_the_rest(state: State, spec: dict[str, Any]) -> None:
    """Fill unnamed hands and the pile with the cards not yet placed; refuse double use."""
    box = cards.full_deck(state.options.colours, state.options.beer_counts)
    used = Counter(all_cards(state))
    if state.variant == "dd":
        bases = {cards.duke(r.base) for r in state.table.rows}
        state.out_of_game = [
            cards.duke(v) for v in cards.DD_BASE_DUKES if cards.duke(v) not in bases
        ]
        used.update(state.out_of_game)
    too_many = used - Counter(box)
    if too_many:
        raise ValueError(f"position uses cards more often than the box holds: {dict(too_many)}")
    rest = list((Counter(box) - used).elements())
    rest.sort(key=box.index)
    if spec.get("fill_hands", True):
        named = {seat_id(n) for n in spec.get("hands", {})}
        for seat in state.seat_ids:
            if seat not in named and seat not in state.out:
                state.hands[seat], rest = (
                    rest[: state.options.hand_size],
                    rest[state.options.hand_size :],
                )
    if "pile" in spec:
        state.pile = spec["pile"].split()
        leftover = Counter(rest) - Counter(state.pile)
        if Counter(state.pile) - Counter(rest):
            raise ValueError("the pile names cards that are placed elsewhere")
        state.out_of_game += list(leftover.elements())
    else:
        state.pile = rest
