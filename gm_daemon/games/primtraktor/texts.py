"""Every player-facing phrase of the game in German and English, looked up by key.

German follows the vocabulary of the postal rules (Teilzug, Fahrfehler, Konflikt, NMR).
"""

from __future__ import annotations

from gm_daemon.games.primtraktor.model import Cell, Direction

DIRECTION_NAMES: dict[str, dict[Direction, str]] = {
    "de": {
        Direction.NORTH: "Nord",
        Direction.EAST: "Ost",
        Direction.SOUTH: "Süd",
        Direction.WEST: "West",
    },
    "en": {
        Direction.NORTH: "North",
        Direction.EAST: "East",
        Direction.SOUTH: "South",
        Direction.WEST: "West",
    },
}

_TEXTS: dict[str, dict[str, str]] = {
    "title": {"de": "Primtraktorrennen", "en": "Prime Tractor Race"},
    "round": {"de": "Runde {n}", "en": "Round {n}"},
    "phase": {"de": "Phase {p}", "en": "phase {p}"},
    "directions_hint": {
        "de": "Richtungen: N/Nord, O/Ost, S/Süd, W/West; dahinter + (schneller), "
        "- (langsamer) oder = (gleich), z.B. 'Nord+, Ost='",
        "en": "directions: N/North, E/East, S/South, W/West; then + (faster), "
        "- (slower) or = (same), e.g. 'North+, East='",
    },
    "err_word": {"de": "'{word}' ist keine Richtung", "en": "'{word}' is not a direction"},
    "err_diagonal": {
        "de": "'{word}': Traktoren fahren nur waagrecht oder senkrecht",
        "en": "'{word}': tractors only drive horizontally or vertically",
    },
    "hint_diagonal": {
        "de": "eine Richtung je Teilzug, z.B. 'Nord+, Ost=' statt '{word}'",
        "en": "one direction per leg, e.g. 'North+, East=' instead of '{word}'",
    },
    "err_number": {
        "de": "'{word}': Zahlen gehören nicht in den Zug",
        "en": "'{word}': numbers do not belong in an order",
    },
    "hint_number": {
        "de": "die Geschwindigkeit ergibt sich aus + (eine Primzahl schneller), "
        "- (eine langsamer) oder = (gleich)",
        "en": "the speed follows from + (one prime faster), - (one slower) or = (same)",
    },
    "err_lonely_change": {
        "de": "'{word}' ohne Richtung davor",
        "en": "'{word}' without a direction before it",
    },
    "hint_lonely_change": {
        "de": "das Zeichen steht hinter der Richtung, z.B. 'Nord+' oder 'Ost ='",
        "en": "the sign goes after the direction, e.g. 'North+' or 'East ='",
    },
    "err_char": {"de": "unerwartetes Zeichen '{word}'", "en": "unexpected character '{word}'"},
    "err_no_leg_after_name": {
        "de": "nach '{word}' fehlt der Zug",
        "en": "no legs after '{word}'",
    },
    "err_other_name": {
        "de": "'{word}' ist nicht Ihr Traktor (Sie fahren {own})",
        "en": "'{word}' is not your tractor (you drive {own})",
    },
    "hint_name": {
        "de": "der Name ist freiwillig: '{own}: Nord+' oder einfach 'Nord+'",
        "en": "the name is optional: '{own}: North+' or simply 'North+'",
    },
    "err_unknown_name": {
        "de": "'{word}' ist weder Ihr Name noch ein Teilzug",
        "en": "'{word}' is neither your name nor a leg",
    },
    "err_too_many": {
        "de": "{count} Teilzüge, erlaubt sind 1–{max}",
        "en": "{count} legs, 1–{max} are allowed",
    },
    "hint_too_many": {
        "de": "höchstens {max} Teilzüge je Runde; die übrigen in der nächsten Runde",
        "en": "at most {max} legs per round; send the rest next round",
    },
    "err_no_legs": {"de": "keine Teilzüge gefunden", "en": "no legs found"},
    "hint_no_legs": {
        "de": "1–{max} Teilzüge, z.B. 'Nord+, Ost='; ohne gültigen Zug gilt bei "
        "Zugschluss die NMR-Regel",
        "en": "1–{max} legs, e.g. 'North+, East='; without valid orders the NMR rule "
        "applies at the deadline",
    },
    "warn_speed": {
        "de": "WARNUNG: Teilzug {leg} ({move}): Geschwindigkeit fiele auf {speed} (<2) "
        "→ Ausscheiden bei Ausführung",
        "en": "WARNING: leg {leg} ({move}): the speed would drop to {speed} (<2) "
        "→ eliminated when executed",
    },
    "hint_speed": {
        "de": "die kleinste Geschwindigkeit ist 2; '+' beschleunigt (im ersten Teilzug "
        "des Spiels Pflicht)",
        "en": "the lowest speed is 2; '+' accelerates (compulsory on the first leg of the game)",
    },
    "warn_crash": {
        "de": "WARNUNG: Teilzug {leg} ({move}) führe bei ({x},{y}) in {whose} "
        "→ Ausscheiden bei Ausführung",
        "en": "WARNING: leg {leg} ({move}) would run into {whose} at ({x},{y}) "
        "→ eliminated when executed",
    },
    "hint_crash": {
        "de": "der Zug wurde trotzdem angenommen; bis Zugschluss können Sie ihn ersetzen",
        "en": "the order is accepted anyway; you may replace it until the deadline",
    },
    "own_trail": {"de": "die eigene Spur", "en": "your own trail"},
    "trail_of": {"de": "die Spur von {name}", "en": "the trail of {name}"},
    "speed_word": {"de": "Tempo", "en": "speed"},
    "nmr_none_first": {
        "de": "kein Teilzug (Runde 1, Geschwindigkeit 0) → ausgeschieden",
        "en": "no leg (round 1, speed 0) → eliminated",
    },
    "nmr_none": {
        "de": "kein Teilzug möglich → ausgeschieden",
        "en": "no leg possible → eliminated",
    },
    "your_tractor": {
        "de": "Sie fahren Traktor {letter} ({name}), zurzeit bei {cell}, Tempo {speed}.",
        "en": "You drive tractor {letter} ({name}), now at {cell}, speed {speed}.",
    },
    "your_tractor_out": {
        "de": "Ihr Traktor {letter} ({name}) ist nicht mehr im Rennen: {status}.",
        "en": "Your tractor {letter} ({name}) is out of the race: {status}.",
    },
    "status_heading": {
        "de": "PRIMTRAKTORRENNEN – Stand vor Runde {n}",
        "en": "PRIME TRACTOR RACE – standings before round {n}",
    },
    "status_heading_done": {
        "de": "PRIMTRAKTORRENNEN – Endstand (Spiel beendet)",
        "en": "PRIME TRACTOR RACE – final standings (game over)",
    },
    "first_round": {
        "de": "Runde 1: bitte 1–{max} Teilzüge schicken; der erste muss + sein (0 → 2).",
        "en": "Round 1: please send 1–{max} legs; the first must be + (0 → 2).",
    },
    # --- reports --------------------------------------------------------------------
    "result_heading": {
        "de": "PRIMTRAKTORRENNEN – Auswertung Runde {n}",
        "en": "PRIME TRACTOR RACE – results of round {n}",
    },
    "legs_heading": {"de": "Teilzüge", "en": "Legs"},
    "no_legs": {"de": "  (keine)", "en": "  (none)"},
    "gained": {"de": "+{n} Felder", "en": "+{n} cells"},
    "gained_one": {"de": "+1 Feld", "en": "+1 cell"},
    "nmr_heading": {"de": "NMR (kein Zug erhalten)", "en": "NMR (no orders received)"},
    "none": {"de": "  keine", "en": "  none"},
    "out_heading": {"de": "Ausgeschieden", "en": "Eliminated"},
    "standings_heading": {"de": "Stand nach Runde {n}", "en": "Standings after round {n}"},
    "start_heading": {"de": "Startaufstellung", "en": "Starting positions"},
    "col_player": {"de": "Spieler", "en": "Player"},
    "col_position": {"de": "Position", "en": "Position"},
    "col_speed": {"de": "Tempo", "en": "Speed"},
    "col_direction": {"de": "Richtung", "en": "Direction"},
    "col_cells": {"de": "Felder", "en": "Cells"},
    "col_status": {"de": "Status", "en": "Status"},
    "col_rank": {"de": "Platz", "en": "Rank"},
    "col_bonus": {"de": "Bonus", "en": "Bonus"},
    "col_total": {"de": "Punkte", "en": "Score"},
    "status_active": {"de": "im Rennen", "en": "racing"},
    "status_out": {
        "de": "ausgeschieden – {why}, Runde {r}, Phase {p}",
        "en": "out – {why}, round {r}, phase {p}",
    },
    "why_speed": {"de": "Geschwindigkeit unter 2", "en": "speed below 2"},
    "why_crash": {"de": "Fahrfehler{at}{whose}", "en": "crash{at}{whose}"},
    "at_cell": {"de": " bei {cell}", "en": " at {cell}"},
    "why_crash_own": {"de": " (eigene Spur)", "en": " (own trail)"},
    "why_crash_other": {"de": " (Spur von {name})", "en": " (trail of {name})"},
    "why_conflict": {
        "de": "Konflikt mit {names} bei {cell}",
        "en": "conflict with {names} at {cell}",
    },
    "why_nmr": {"de": "NMR", "en": "NMR"},
    "and": {"de": "und", "en": "and"},
    "map_heading": {
        "de": "Spielplan {n}×{n} (GROSS = Traktor, klein = Spur, . = frei)",
        "en": "Board {n}×{n} (UPPER = tractor, lower = trail, . = free)",
    },
    "map_too_big": {
        "de": "Spielplan: zu groß für den Text, siehe Bild im Anhang.",
        "en": "Board: too large for text, see the attached picture.",
    },
    "picture_note": {
        "de": "Das Bild des Spielplans hängt als {file} an.",
        "en": "The picture of the board is attached as {file}.",
    },
    "end_last": {
        "de": "SPIELENDE nach Runde {r}, Phase {p}: höchstens ein Traktor ist noch im Rennen.",
        "en": "GAME OVER after round {r}, phase {p}: at most one tractor is still racing.",
    },
    "end_rounds": {
        "de": "SPIELENDE: Runde {r} war die letzte Runde.",
        "en": "GAME OVER: round {r} was the last round.",
    },
    "final_heading": {"de": "Endwertung", "en": "Final ranking"},
    "winner": {"de": "Sieger: {names}", "en": "Winner: {names}"},
    "winners": {"de": "Sieger (geteilt): {names}", "en": "Winners (shared): {names}"},
    "next_round": {
        "de": "Nächste Runde: {n}. Bitte 1–{max} Teilzüge schicken.",
        "en": "Next round: {n}. Please send 1–{max} legs.",
    },
}


def text(key: str, lang: str, **values: object) -> str:
    """The phrase ``key`` in ``lang`` (German for anything but "en"), filled in."""
    phrases = _TEXTS[key]
    return phrases["en" if lang == "en" else "de"].format(**values)


def direction_name(direction: Direction, lang: str) -> str:
    return DIRECTION_NAMES["en" if lang == "en" else "de"][direction]


def cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"
