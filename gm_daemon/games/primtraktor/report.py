"""The texts of results, status and welcome: plain, monospace-friendly, German or English."""

from __future__ import annotations

from collections.abc import Sequence

from gm_daemon.games.primtraktor.asciimap import map_fits, render_map
from gm_daemon.games.primtraktor.events import (
    Eliminated,
    Event,
    GameEnded,
    LegDriven,
    NmrApplied,
    Score,
)
from gm_daemon.games.primtraktor.model import Elimination, State, Tractor, phase_letter
from gm_daemon.games.primtraktor.scoring import final_scores, ranking
from gm_daemon.games.primtraktor.texts import cell_text, direction_name, text


def _table(rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    """Columns padded to their widest entry; ``right`` holds the right-aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _names(state: State, seats: Sequence[str], lang: str) -> str:
    names = [state.tractor(seat).name for seat in seats]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {text('and', lang)} {names[-1]}"


def elimination_reason(state: State, tractor: Tractor, out: Elimination, lang: str) -> str:
    """Speed below 2 / crash at (x,y) / conflict with X at (x,y) / NMR (PT-20)."""
    cell = cell_text(out.cell) if out.cell else ""
    if out.reason == "speed":
        return text("why_speed", lang)
    if out.reason == "nmr":
        return text("why_nmr", lang)
    if out.reason == "crash":
        owner = out.others[0] if out.others else ""
        whose = (
            text("why_crash_own", lang)
            if owner == tractor.seat
            else text("why_crash_other", lang, name=state.tractor(owner).name)
            if owner
            else ""
        )
        at = text("at_cell", lang, cell=cell) if cell else ""
        return text("why_crash", lang, at=at, whose=whose)
    return text("why_conflict", lang, names=_names(state, out.others, lang), cell=cell)


def status_text(state: State, tractor: Tractor, lang: str) -> str:
    out = tractor.eliminated
    if out is None:
        return text("status_active", lang)
    why = elimination_reason(state, tractor, out, lang)
    return text("status_out", lang, why=why, r=out.round, p=phase_letter(out.phase))


def standings(state: State, lang: str) -> list[str]:
    """Per player: position, speed, last direction, cells, status (PT-20)."""
    header = ["", "col_player", "col_position", "col_speed", "col_direction", "col_cells"]
    rows = [[text(h, lang) if h else "" for h in header] + [text("col_status", lang)]]
    for t in state.tractors:
        direction = direction_name(t.direction, lang) if t.direction else "–"
        rows.append(
            [
                t.letter,
                t.name,
                cell_text(t.position),
                str(t.speed),
                direction,
                str(t.cells),
                status_text(state, t, lang),
            ]
        )
    return _table(rows, right={3, 5})


def board_section(state: State, lang: str, picture: str | None) -> list[str]:
    if not map_fits(state):
        lines = [text("map_too_big", lang)]
    else:
        lines = [text("map_heading", lang, n=state.options.board), "", render_map(state)]
    if picture:
        lines += ["", text("picture_note", lang, file=picture)]
    return lines


def legs_section(state: State, events: Sequence[Event], lang: str) -> list[str]:
    """Every leg driven, phase by phase, with the cells gained and how it ended."""
    outs = {e.seat: e.elimination for e in events if isinstance(e, Eliminated)}
    rows = []
    for event in events:
        if not isinstance(event, LegDriven):
            continue
        tractor = state.tractor(event.seat)
        move = f"{direction_name(event.direction, lang)}{event.change} ({event.speed})"
        note = "NMR" if event.nmr else ""
        if event.crashed and event.seat in outs:
            note = f"{note} ✗ {elimination_reason(state, tractor, outs[event.seat], lang)}"
        rows.append(
            [
                phase_letter(event.phase),
                f"{tractor.letter} {tractor.name}",
                move,
                f"{cell_text(event.start)} → {cell_text(event.end)}",
                text("gained_one", lang)
                if event.gained == 1
                else text("gained", lang, n=event.gained),
                note.strip(),
            ]
        )
    if not rows:
        return [text("legs_heading", lang), text("no_legs", lang)]
    return [text("legs_heading", lang), *("  " + line for line in _table(rows, right=set()))]


def nmr_section(state: State, events: Sequence[Event], lang: str) -> list[str]:
    """The NMR legs that were executed (PT-20) and the NMR eliminations."""
    driven = {e.seat: e for e in events if isinstance(e, LegDriven) and e.nmr}
    lines = [text("nmr_heading", lang)]
    for event in events:
        if not isinstance(event, NmrApplied):
            continue
        tractor = state.tractor(event.seat)
        if event.leg is None:
            key = "nmr_none_first" if event.why_none == "first_round" else "nmr_none"
            what = text(key, lang)
        else:
            what = f"{direction_name(event.leg.direction, lang)}{event.leg.change} ({event.speed})"
            leg = driven.get(event.seat)
            if leg is not None:
                what += f" {cell_text(leg.start)} → {cell_text(leg.end)}"
        lines.append(f"  {tractor.letter} {tractor.name}: {what}")
    return lines if len(lines) > 1 else [*lines, text("none", lang)]


def eliminated_section(state: State, events: Sequence[Event], lang: str) -> list[str]:
    lines = [text("out_heading", lang)]
    for event in events:
        if isinstance(event, Eliminated):
            tractor = state.tractor(event.seat)
            lines.append(f"  {tractor.letter} {tractor.name}: {status_text(state, tractor, lang)}")
    return lines if len(lines) > 1 else [*lines, text("none", lang)]


def final_section(
    state: State, end: GameEnded, ranking: Sequence[Sequence[str]], lang: str
) -> list[str]:
    """The end condition, the ranking with cells, bonus and score, and the winner."""
    if end.reason == "last_tractor":
        lines = [text("end_last", lang, r=end.round, p=phase_letter(end.phase))]
    else:
        lines = [text("end_rounds", lang, r=end.round)]
    scores: dict[str, Score] = {s.seat: s for s in end.scores}
    header = ["col_rank", "col_player", "col_cells", "col_bonus", "col_total"]
    rows = [[text(h, lang) for h in header]]
    place = 1
    for group in ranking:
        for seat in group:
            t, s = state.tractor(seat), scores[seat]
            row = [f"{place}.", f"{t.letter} {t.name}", str(s.cells), str(s.bonus), str(s.total)]
            rows.append(row)
        place += len(group)
    winners = list(ranking[0]) if ranking else []
    key = "winner" if len(winners) == 1 else "winners"
    table = _table(rows, right={0, 2, 3, 4})
    return [
        *lines,
        "",
        text("final_heading", lang),
        *table,
        "",
        text(key, lang, names=_names(state, winners, lang)),
    ]


def result_text(
    before: State,
    after: State,
    events: Sequence[Event],
    ranking: Sequence[Sequence[str]] | None,
    lang: str,
    picture: str | None,
) -> str:
    """The game part of the result mail of one round."""
    blocks = [
        [text("result_heading", lang, n=before.round)],
        legs_section(after, events, lang),
        nmr_section(after, events, lang),
        eliminated_section(after, events, lang),
    ]
    end = next((e for e in events if isinstance(e, GameEnded)), None)
    if end is not None:
        blocks.append(final_section(after, end, ranking or [], lang))
    blocks.append([text("standings_heading", lang, n=before.round), *standings(after, lang)])
    blocks.append(board_section(after, lang, picture))
    if end is None:
        blocks.append([text("next_round", lang, n=after.round, max=after.options.max_legs)])
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def your_tractor(state: State, seat: str, lang: str) -> str:
    t = state.tractor(seat)
    if not t.active:
        return text(
            "your_tractor_out",
            lang,
            letter=t.letter,
            name=t.name,
            status=status_text(state, t, lang),
        )
    return text(
        "your_tractor",
        lang,
        letter=t.letter,
        name=t.name,
        cell=cell_text(t.position),
        speed=t.speed,
    )


def opening_text(state: State, lang: str, picture: str | None) -> str:
    """The starting positions, published with the first report (PT-2)."""
    blocks = [
        [text("start_heading", lang), *standings(state, lang)],
        board_section(state, lang, picture),
        [text("first_round", lang, max=state.options.max_legs)],
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def status_text_for(state: State, seat: str, lang: str, picture: str | None) -> str:
    """STATUS: the standings and the board as everyone sees them, plus the seat's own line;
    ``picture`` names the attached PNG of the board."""
    if state.finished:
        heading = text("status_heading_done", lang)
    else:
        heading = text("status_heading", lang, n=state.round)
    blocks = [
        [heading],
        [your_tractor(state, seat, lang)],
        standings(state, lang),
        board_section(state, lang, picture),
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def public_state(state: State) -> dict[str, object]:
    """Everything is public in this game: positions, speeds, trails, eliminations, and once
    the game is over the final scores (cells + bonus) and the ranking."""
    final: dict[str, object] = {}
    if state.finished:
        scores = final_scores(state)
        final = {
            "scores": [s.model_dump(mode="json") for s in scores],
            "ranking": ranking(state, scores),
        }
    public: dict[str, object] = {
        "game": "primtraktor",
        "board": state.options.board,
        "round": state.round,
        "finished": state.finished,
        "ended_phase": phase_letter(state.ended_phase) if state.ended_phase else None,
        "tractors": [
            {
                "seat": t.seat,
                "name": t.name,
                "letter": t.letter,
                "position": list(t.position),
                "speed": t.speed,
                "direction": t.direction.value if t.direction else None,
                "cells": t.cells,
                "active": t.active,
                "eliminated": t.eliminated.model_dump(mode="json") if t.eliminated else None,
                "trail": [list(cell) for cell in t.trail],
            }
            for t in state.tractors
        ],
    }
    return public | final
