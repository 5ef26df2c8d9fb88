"""Drunter & Drüber: three duke rows that cannons fill, beers cover, dukes 1–3 stretch.

The table-side rules only (DD-2 … DD-9): whether the card is in the player's hand is
checked by ``rules.py`` for both games alike.
"""

from __future__ import annotations

from collections.abc import Iterator

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.model import Row, ScoreItem, SeatScore, Stack, State, Table
from gm_daemon.games.hornberg.play import Move, Refusal

ROW_NAMES = ("I", "II", "III")


def has_cannon(table: Table) -> bool:
    return any(row.stacks for row in table.rows)


def stacks(table: Table) -> Iterator[tuple[int, Stack]]:
    """Every cannon on the table with its row, in reading order (I→III, left→right)."""
    for index, row in enumerate(table.rows):
        for stack in row.stacks:
            yield index, stack


def find(table: Table, cannon: str) -> tuple[int, Stack] | None:
    return next(((i, s) for i, s in stacks(table) if s.cannon == cannon), None)


def free_cannons(table: Table) -> list[str]:
    return [s.cannon for _, s in stacks(table) if s.beer is None]


def min_length(row: Row, minimum: int) -> int:
    """DD-6 / A-10: a row never gets shorter than its cannons, nor shorter than 1."""
    return max(minimum, len(row.stacks))


def complete_rows(table: Table) -> list[int]:
    return [i for i, row in enumerate(table.rows) if row.complete]


# --- legality -----------------------------------------------------------------------
def refusal(state: State, move: Move) -> Refusal | None:
    kind = cards.kind(move.card)
    if kind == "cannon":
        return _cannon_refusal(state.table, move)
    if kind == "beer":
        return _beer_refusal(state.table, move)
    return _duke_refusal(state, move)


def _cannon_refusal(table: Table, move: Move) -> Refusal | None:
    if move.row is None:
        return Refusal("dd_need_row")
    row = table.rows[move.row]
    if len(row.stacks) >= row.length:
        return Refusal("row_full", {"row": ROW_NAMES[move.row], "length": row.length})
    return None


def _beer_refusal(table: Table, move: Move) -> Refusal | None:
    if move.on is None:
        return Refusal("beer_needs_cannon")
    found = find(table, move.on)
    if found is None:
        return Refusal("not_on_table", {"cannon": move.on})
    if found[1].beer is not None:
        return Refusal("covered", {"cannon": move.on, "beer": found[1].beer})
    return None


def _duke_refusal(state: State, move: Move) -> Refusal | None:
    if move.row is None:
        return Refusal("dd_need_row")
    if not has_cannon(state.table):
        return Refusal("first_cannon")
    if not move.shorten:
        return None  # DD-5: extending is always legal
    row = state.table.rows[move.row]
    new_length = row.length - cards.value(move.card)
    lowest = min_length(row, state.options.dd_min_row_len)
    if new_length < lowest:
        return Refusal(
            "too_short",
            {
                "row": ROW_NAMES[move.row],
                "length": row.length,
                "new": new_length,
                "cannons": len(row.stacks),
                "minimum": lowest,
            },
        )
    return None


def legal_moves(state: State, hand: list[str]) -> list[Move]:
    """Every distinct legal play of this hand (equal beers count once)."""
    table = state.table
    moves: list[Move] = []
    distinct = sorted(set(hand), key=lambda c: cards.sort_key(c, state.options.colours))
    open_rows = [i for i, row in enumerate(table.rows) if len(row.stacks) < row.length]
    free = free_cannons(table)
    for code in distinct:
        kind = cards.kind(code)
        if kind == "cannon":
            moves += [Move(card=code, row=i) for i in open_rows]
        elif kind == "beer":
            moves += [Move(card=code, on=cannon) for cannon in free]
        elif has_cannon(table):
            for i in range(len(table.rows)):
                moves.append(Move(card=code, row=i))
                shortening = Move(card=code, row=i, shorten=True)
                if _duke_refusal(state, shortening) is None:
                    moves.append(shortening)
    return moves


def can_play(state: State, hand: list[str]) -> bool:
    """Quicker than listing every play: is there at least one?"""
    table = state.table
    kinds = {cards.kind(c) for c in hand}
    if "duke" in kinds and has_cannon(table):
        return True
    if "cannon" in kinds and any(len(r.stacks) < r.length for r in table.rows):
        return True
    return "beer" in kinds and bool(free_cannons(table))


# --- applying -----------------------------------------------------------------------
def apply(state: State, seat: str, move: Move) -> dict[str, object]:
    """Put the card on the table (the caller has checked legality and removes it from the
    hand). Returns what the report needs to know beyond the move itself."""
    table = state.table
    kind = cards.kind(move.card)
    keg = None
    if kind == "cannon":
        assert move.row is not None
        table.rows[move.row].stacks.append(Stack(cannon=move.card))
        colour = cards.colour(move.card)
        if colour not in table.kegs:
            table.kegs[colour] = seat  # HB-5: first cannon of a colour takes its keg
            keg = colour
        row_index = move.row
    elif kind == "beer":
        assert move.on is not None
        found = find(table, move.on)
        assert found is not None
        row_index, stack = found
        stack.beer = move.card
    else:
        assert move.row is not None
        row = table.rows[move.row]
        (row.shorteners if move.shorten else row.extenders).append(cards.value(move.card))
        row_index = move.row
    row = table.rows[row_index]
    return {
        "keg": keg,
        "row": ROW_NAMES[row_index],
        "length": row.length,
        "completed": row.complete,
    }


def round_over(state: State) -> bool:
    """DD-8 (a): two complete rows end the round at once."""
    return len(complete_rows(state.table)) >= 2


# --- scoring ------------------------------------------------------------------------
def score(state: State) -> list[SeatScore]:
    """DD-9: each cannon (with its beer) counts for its colour's keg holder, positive in a
    complete row, negative otherwise. Dukes and hand cards count nothing."""
    result = []
    for seat in state.seat_ids:
        items = []
        for colour in state.options.colours:
            if state.table.kegs.get(colour) != seat:
                continue
            items += _colour_items(state.table, colour)
        result.append(SeatScore(seat=seat, items=items, total=sum(i.points for i in items)))
    return result


def _colour_items(table: Table, colour: str) -> list[ScoreItem]:
    items = []
    for complete in (True, False):
        chosen = [
            s
            for row in table.rows
            if row.complete == complete
            for s in row.stacks
            if cards.colour(s.cannon) == colour
        ]
        if not chosen:
            continue
        points = sum(stack_value(s.cannon, s.beer) for s in chosen)
        items.append(
            ScoreItem(
                what="complete" if complete else "incomplete",
                colour=colour,
                cards=[stack_text(s.cannon, s.beer) for s in chosen],
                points=points if complete else -points,
            )
        )
    return items


def stack_value(cannon: str, beer: str | None) -> int:
    return cards.value(cannon) + (cards.value(beer) if beer else 0)


def stack_text(cannon: str, beer: str | None) -> str:
    """The print form: ``ro3/2`` is cannon ro3 with beer 2, ``bl2`` a free cannon."""
    return f"{cannon}/{cards.value(beer)}" if beer else cannon
