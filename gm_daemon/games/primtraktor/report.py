"""The texts of results, status and welcome: plain, monospace-friendly, German or English."""

from __future__ import annotations

from collections.abc import Sequence

from gm_daemon.games.kit import layout
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
from gm_daemon.games.primtraktor.texts import cell_text, direction_name, say


def _names(state: State, seats: Sequence[str], lang: str) -> str:
    return layout.name_list([state.tractor(seat).name for seat in seats], lang)


def elimination_reason(state: State, tractor: Tractor, out: Elimination, lang: str) -> str:
    """Speed below 2 / crash at (x,y) / conflict with X at (x,y) / NMR (PT-20)."""
    cell = cell_text(out.cell) if out.cell else ""
    if out.reason == "speed":
        return say(lang, "why_speed")
    if out.reason == "nmr":
        return say(lang, "why_nmr")
    if out.reason == "crash":
        owner = out.others[0] if out.others else ""
        whose = (
            say(lang, "why_crash_own")
            if owner == tractor.seat
            else say(lang, "why_crash_other", name=state.tractor(owner).name)
            if owner
            else ""
        )
        at = say(lang, "at_cell", cell=cell) if cell else ""
        return say(lang, "why_crash", at=at, whose=whose)
    return say(lang, "why_conflict", names=_names(state, out.others, lang), cell=cell)


def status_text(tractor: Tractor, lang: str) -> str:
    out = tractor.eliminated
    if out is None:
        return say(lang, "status_active")
    return say(lang, "status_out", r=out.round, p=phase_letter(out.phase))


def out_notes(state: State, lang: str) -> list[str]:
    """Why each eliminated tractor is out, under the table: a reason in the table's last
    column made it run past 110 columns."""
    notes = []
    for t in state.tractors:
        if t.eliminated is not None:
            why = elimination_reason(state, t, t.eliminated, lang)
            note = say(lang, "out_note", letter=t.letter, name=t.name, why=why)
            notes.append(layout.fold(f"  {note}", indent=4))
    return ["", say(lang, "out_reasons"), *notes] if notes else []


def standings(state: State, lang: str) -> list[str]:
    """Per player: position, speed, last direction, cells, status (PT-20); below the table,
    why each eliminated tractor is out."""
    header = ["", "col_player", "col_position", "col_speed", "col_direction", "col_cells"]
    rows = [[say(lang, h) if h else "" for h in header] + [say(lang, "col_status")]]
    for t in state.tractors:
        # An eliminated tractor drives no more: no speed or direction (its last leg may not
        # have moved it at all, a crash on the first cell), only where it stands.
        racing = t.active and t.direction is not None
        direction = direction_name(t.direction, lang) if racing and t.direction else "–"
        rows.append(
            [
                t.letter,
                t.name,
                cell_text(t.position),
                str(t.speed) if t.active else "–",
                direction,
                str(t.cells),
                status_text(t, lang),
            ]
        )
    return [*layout.table(rows, right={3, 5}), *out_notes(state, lang)]


def board_section(state: State, lang: str, picture: str | None) -> list[str]:
    if not map_fits(state):
        lines = [say(lang, "map_too_big")]
    else:
        lines = [say(lang, "map_heading", n=state.options.board), "", render_map(state)]
    if picture:
        lines += ["", say(lang, "picture_note", file=picture)]
    return lines


def legs_section(state: State, events: Sequence[Event], lang: str) -> list[str]:
    """Every leg driven, phase by phase, with the cells gained and how it ended; an NMR leg
    is marked here and nowhere else, so every player's move is listed once. A leg that
    crashed on its first cell shows where it stood, not a way it never drove."""
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
        if event.gained:
            way = f"{cell_text(event.start)} → {cell_text(event.end)}"
            gained = say(lang, "gained", count=event.gained)
        else:
            way, gained = cell_text(event.start), say(lang, "gained_none")
        rows.append(
            [
                phase_letter(event.phase),
                f"{tractor.letter} {tractor.name}",
                move,
                way,
                gained,
                note.strip(),
            ]
        )
    if not rows:
        return [say(lang, "legs_heading"), say(lang, "no_legs")]
    legs = [e for e in events if isinstance(e, LegDriven)]
    legend = say(lang, "legs_legend")
    if any(e.nmr for e in legs):
        legend += " " + say(lang, "legs_legend_nmr")
    if any(e.crashed for e in legs):
        legend += " " + say(lang, "legs_legend_crash")
    table = ("  " + line for line in layout.table(rows, right=set()))
    return [say(lang, "legs_heading"), *table, "", *layout.wrap(legend).splitlines()]


def _nmr_detail(events: Sequence[Event]) -> dict[str, str]:
    """Why an NMR tractor had no leg to drive, per seat ("first_round", "speed", "blocked")."""
    return {e.seat: e.why_none for e in events if isinstance(e, NmrApplied) and e.leg is None}


def eliminated_section(state: State, events: Sequence[Event], lang: str) -> list[str]:
    """Who left the race in this round, in which phase and why; an NMR elimination says
    why no default leg was driven."""
    detail = _nmr_detail(events)
    lines = [say(lang, "out_heading")]
    for event in events:
        if not isinstance(event, Eliminated):
            continue
        tractor = state.tractor(event.seat)
        out = event.elimination
        why = elimination_reason(state, tractor, out, lang)
        if out.reason == "nmr" and detail.get(event.seat):
            why += "; " + say(lang, f"nmr_out_{detail[event.seat]}")
        who = f"{tractor.letter} {tractor.name}"
        lines.append("  " + say(lang, "out_line", who=who, p=phase_letter(out.phase), why=why))
    return lines if len(lines) > 1 else [say(lang, "out_nobody")]


def final_section(
    state: State, end: GameEnded, ranking: Sequence[Sequence[str]], lang: str
) -> list[str]:
    """The end condition, the ranking with cells, bonus and score, and the winner."""
    if end.reason == "last_tractor":
        lines = [say(lang, "end_last", r=end.round, p=phase_letter(end.phase))]
    else:
        lines = [say(lang, "end_rounds", r=end.round)]
    scores: dict[str, Score] = {s.seat: s for s in end.scores}
    header = ["col_rank", "col_player", "col_cells", "col_bonus", "col_total"]
    rows = [[say(lang, h) for h in header]]
    for place, group in layout.places(ranking):
        for seat in group:
            t, s = state.tractor(seat), scores[seat]
            row = [f"{place}.", f"{t.letter} {t.name}", str(s.cells), str(s.bonus), str(s.total)]
            rows.append(row)
    winners = list(ranking[0]) if ranking else []
    key = "winner" if len(winners) == 1 else "winners"
    table = layout.table(rows, right={0, 2, 3, 4})
    return [
        *lines,
        "",
        say(lang, "final_heading"),
        *table,
        "",
        say(lang, key, names=_names(state, winners, lang)),
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
        [say(lang, "result_heading", n=before.round)],
        legs_section(after, events, lang),
        eliminated_section(after, events, lang),
    ]
    end = next((e for e in events if isinstance(e, GameEnded)), None)
    if end is not None:
        blocks.append(final_section(after, end, ranking or [], lang))
    blocks.append([say(lang, "standings_heading", n=before.round), *standings(after, lang)])
    blocks.append(board_section(after, lang, picture))
    if end is None:
        blocks.append([say(lang, "next_round", n=after.round, max=after.options.max_legs)])
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def your_tractor(state: State, seat: str, lang: str) -> str:
    t = state.tractor(seat)
    if not t.active:
        return say(
            lang,
            "your_tractor_out",
            letter=t.letter,
            name=t.name,
            status=status_text(state, t, lang),
        )
    return say(
        lang,
        "your_tractor",
        letter=t.letter,
        name=t.name,
        cell=cell_text(t.position),
        speed=t.speed,
    )


def opening_text(state: State, lang: str, picture: str | None) -> str:
    """The starting positions, published with the first report (PT-2)."""
    blocks = [
        [say(lang, "start_heading"), *standings(state, lang)],
        board_section(state, lang, picture),
        [say(lang, "first_round", max=state.options.max_legs)],
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def status_text_for(state: State, seat: str, lang: str, picture: str | None) -> str:
    """STATUS: the standings and the board as everyone sees them, plus the seat's own line;
    ``picture`` names the attached PNG of the board."""
    if state.finished:
        heading = say(lang, "status_heading_done")
    else:
        heading = say(lang, "status_heading", n=state.round)
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
