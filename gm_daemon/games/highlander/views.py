"""The map picture of a board: the ``MapView`` built from the stored state and the last
phase's orders, and the PNG ``picture.render_map`` draws from it.

A result map shows the position after the phase, with the phase's orders as arrows from
where each unit stood; failed orders are marked, dislodged units drawn beside their province.
"""

from __future__ import annotations

from gm_daemon.games.highlander import boards
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit, MapView
from gm_daemon.games.highlander.model import BoardRecord, BoardState, State
from gm_daemon.games.highlander.picture import render_map
from gm_daemon.games.highlander.wording import PHRASES
from gm_daemon.games.protocol import Attachment


def map_view(state: State, board: BoardState, record: BoardRecord | None, title: str,
             lang: str) -> MapView:  # fmt: skip
    player = {seat: i for i, seat in enumerate(state.seats)}
    units = [
        MapUnit(player[seat], token[0], token.split()[1])  # type: ignore[arg-type]
        for seat, tokens in board.units.items()
        for token in tokens
    ]
    arrows = [
        a for line in (record.orders if record else []) if (a := arrow(line.text, line.result))
    ]
    dislodged = [
        MapUnit(player[d.seat], d.unit[0], d.unit.split()[1])  # type: ignore[arg-type]
        for d in (record.dislodged if record else [])
    ]
    notes = (PHRASES(lang, "board", name=board.name),) if state.options.tournament else ()
    return MapView(
        lang=lang,
        title=title,
        players=(state.names[0], state.names[1]),
        owners={c: player.get(board.owners.get(c, "")) for c in boards.centres()},
        units=units,
        arrows=arrows,
        dislodged=dislodged,
        notes=notes,
    )


def arrow(text: str, result: str) -> MapArrow | None:
    """The arrow of one canonical order text (``A BER S A MUN - SIL``); None for builds,
    removals, disbands and waivers, which the unit symbols show."""
    words = text.replace(" VIA", "").split()
    if len(words) < 3 or words[0] not in ("A", "F"):
        return None
    unit, verb, failed = words[1], words[2], result != "succeeds"
    if verb == "H":
        return MapArrow("hold", unit, unit, failed=failed)
    if verb in ("-", "R"):
        kind = "move" if verb == "-" else "retreat"
        return MapArrow(kind, unit, words[-1], failed=failed)  # type: ignore[arg-type]
    if verb in ("S", "C") and len(words) >= 5:
        to = words[6] if len(words) >= 7 else None
        kind = "support" if verb == "S" else "convoy"
        return MapArrow(kind, unit, words[4], to, failed=failed)  # type: ignore[arg-type]
    return None


def render(view: MapView) -> bytes:
    return render_map(view)


def attachments(state: State, records: dict[str, BoardRecord], title: str, lang: str,
                stem: str, empty: bool = False) -> list[Attachment]:  # fmt: skip
    """One PNG per board; before the units are placed only if ``empty`` asks for the board
    without them. The daemon puts the game's id in front of the file name."""
    found = []
    for board in state.boards or ([BoardState(name="A")] if empty else []):
        if not has_units(board) and not empty:
            continue
        data = render(map_view(state, board, records.get(board.name), title, lang))
        name = f"{stem}-{board.name.lower()}.png" if state.options.tournament else f"{stem}.png"
        found.append(Attachment(name, "image/png", data))
    return found


def has_units(board: BoardState) -> bool:
    return any(board.units.values())


def file_stem(state: State, lang: str) -> str:
    """The picture's file name without the game id: the phase it shows, as in
    ``hl1-1903-bewegung.png``."""
    return PHRASES(lang, f"map_file_{state.step}", year=state.year)
