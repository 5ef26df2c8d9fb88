"""Every sentence the game says to players, German first, English second.

``say(lang, key, **values)`` fills one in. Keys of refusals match ``Refusal.key``.
"""

from __future__ import annotations

import textwrap
from typing import Any

LINE_WIDTH = 78

_TEXTS: dict[str, tuple[str, str]] = {
    # --- why a play is not allowed (Refusal keys) ------------------------------------
    "not_in_hand": ("{card} ist nicht auf Ihrer Hand.", "{card} is not in your hand."),
    "dd_need_row": ("Welche Reihe (I, II, III)?", "Which row (I, II, III)?"),
    "row_full": (
        "Reihe {row} ist voll (Länge {length}).",
        "Row {row} is full (length {length}).",
    ),
    "beer_needs_cannon": (
        "Ein Bier liegt auf einer freien Kanone: 'Bier 5 auf ro4'.",
        "A beer goes on a free cannon: 'beer 5 on red4'.",
    ),
    "duke_needs_cannon": (
        "Ein Herzog liegt auf der freien Kanone einer beendbaren Linie: 'Herzog 7 auf gr1'.",
        "A duke goes on the free cannon of a finishable line: 'duke 7 on grn1'.",
    ),
    "not_on_table": ("{cannon} liegt nicht auf dem Tisch.", "{cannon} is not on the table."),
    "covered": (
        "Auf {cannon} liegt schon ein Bier ({beer}).",
        "{cannon} already carries a beer ({beer}).",
    ),
    "first_cannon": (
        "Die erste Karte einer Runde muss eine Kanone sein.",
        "The first card of a round must be a cannon.",
    ),
    "too_short": (
        "Reihe {row} würde kürzer als die Zahl ihrer Kanonen ({cannons}): Länge {length} → {new}.",
        "Row {row} would get shorter than its number of cannons ({cannons}): "
        "length {length} → {new}.",
    ),
    "too_short_min": (
        "Reihe {row} würde kürzer als {minimum}: Länge {length} → {new}.",
        "Row {row} would get shorter than {minimum}: length {length} → {new}.",
    ),
    "occupied": ("Dort liegt schon {cannon}.", "{cannon} already lies there."),
    "not_adjacent": (
        "Das Feld grenzt an keine ausliegende Karte (auch nicht über Eck).",
        "That cell touches no card on the table (not even at a corner).",
    ),
    "too_wide": (
        "Das Raster würde breiter als 6 Spalten.",
        "The grid would get wider than 6 columns.",
    ),
    "too_high": (
        "Das Raster würde höher als 3 Zeilen.",
        "The grid would get higher than 3 rows.",
    ),
    "anchor_missing": (
        "{cannon} liegt nicht auf dem Tisch, daneben kann nichts angelegt werden.",
        "{cannon} is not on the table, so nothing can be placed next to it.",
    ),
    "kq_need_cell": (
        "Wohin? Nennen Sie ein Feld ('auf B4') oder einen Nachbarn ('O von ge2').",
        "Where? Name a cell ('at B4') or a neighbour ('E of yel2').",
    ),
    "not_finishable": (
        "{cannon} ist nicht die einzige freie Kanone einer beendbaren Zeile oder Spalte.",
        "{cannon} is not the single free cannon of a finishable row or column.",
    ),
    "which_line": (
        "{cannon} beendet eine Zeile und eine Spalte: schreiben Sie 'Zeile' oder 'Spalte' dazu.",
        "{cannon} finishes a row and a column: add 'row' or 'column'.",
    ),
    "line_not_finishable": (
        "Die {line} durch {cannon} ist nicht beendbar.",
        "The {line} through {cannon} cannot be finished.",
    ),
    "unknown_colour": (
        "'{written}': diese Farbe gibt es in diesem Spiel nicht (Farben: {colours}).",
        "'{written}': no such colour in this game (colours: {colours}).",
    ),
    "no_such_card": (
        "Die Karte '{written}' gibt es nicht (Kanonen 1–6, Biere 0–8, Herzöge 1–9).",
        "There is no card '{written}' (cannons 1–6, beers 0–8, dukes 1–9).",
    ),
    "dd_cannon_form": (
        "Bei Drunter & Drüber nennt eine Kanone ihre Reihe: '{card} an Reihe II'.",
        "In Drunter & Drüber a cannon names its row: '{card} to row II'.",
    ),
    "dd_no_cells": (
        "Bei Drunter & Drüber gibt es keine Felder: nennen Sie die Kanone, 'Bier 5 auf ro4'.",
        "Drunter & Drüber has no cells: name the cannon, 'beer 5 on red4'.",
    ),
    "dd_duke_form": (
        "Bei Drunter & Drüber verlängert oder verkürzt ein Herzog eine Reihe: "
        "'{card} verlängert Reihe II'.",
        "In Drunter & Drüber a duke extends or shortens a row: '{card} extends row II'.",
    ),
    "bad_row": (
        "Reihe {row} gibt es nicht; die Reihen heißen I, II, III.",
        "There is no row {row}; the rows are I, II, III.",
    ),
    "kq_duke_form": (
        "Bei Kreuz & Quer liegt ein Herzog auf der freien Kanone einer beendbaren Linie: "
        "'{card} auf gr1'.",
        "In Kreuz & Quer a duke goes on the free cannon of a finishable line: '{card} on grn1'.",
    ),
    "kq_cannon_form": (
        "Bei Kreuz & Quer gibt es keine Reihen I–III: nennen Sie ein Feld ('{card} auf B4') "
        "oder einen Nachbarn ('{card} O von ge2').",
        "Kreuz & Quer has no rows I–III: name a cell ('{card} at B4') "
        "or a neighbour ('{card} E of yel2').",
    ),
    "no_such_cell": (
        "Ein Feld {label} gibt es im Ausdruck von Zug {turn} nicht (A1 bis {last}).",
        "There is no cell {label} in the print of turn {turn} (A1 to {last}).",
    ),
    "empty_cell": ("Auf Feld {label} liegt keine Kanone.", "No cannon lies on cell {label}."),
    # --- problems of a whole submission -----------------------------------------------
    "not_understood": ("Nicht verstanden.", "Not understood."),
    "syntax_value": (
        "Der Wert der Karte fehlt.",
        "The card's value is missing.",
    ),
    "syntax_target": (
        "Wohin? Ein Bier oder Herzog braucht ein Ziel ('auf ro4').",
        "Where to? A beer or duke needs a target ('on red4').",
    ),
    "syntax_row": ("Welche Reihe (I, II, III)?", "Which row (I, II, III)?"),
    "syntax_colour": (
        "Eine Kanone schreibt man Farbe und Wert: 'ro4', 'rot 4'.",
        "A cannon is written colour and value: 'red4', 'red 4'.",
    ),
    "syntax_word": ("'{word}' nicht verstanden.", "'{word}' not understood."),
    "syntax_incomplete": ("Die Zeile hört zu früh auf.", "The line ends too early."),
    "no_pass": (
        "Passen gibt es nicht: wer am Zug ist, spielt eine Karte.",
        "There is no passing: the player on turn plays a card.",
    ),
    "stale": (
        "'Zug: {given}' ist nicht der aktuelle Zug ({turn}); Feldnamen gelten nur für den "
        "gedruckten Zug.",
        "'Turn: {given}' is not the current turn ({turn}); cell labels are valid only for the "
        "printed turn.",
    ),
    "game_over": ("Das Spiel ist zu Ende.", "The game is over."),
    "no_play": ("Kein Spielzug gefunden.", "No play found."),
    "one_play": (
        "Nur eine Karte pro Zug. Mehrere Möglichkeiten der Reihe nach gehören in einen PLAN.",
        "One card per turn. Alternatives in order of preference go into a PLAN.",
    ),
    "out_this_round": (
        "Sie sind für den Rest dieser Runde ausgeschieden (keine Karte spielbar).",
        "You are out for the rest of this round (no card could be played).",
    ),
    "plans_off": (
        "In diesem Spiel sind PLÄNE abgeschaltet.",
        "Plans are switched off in this game.",
    ),
    "label_in_plan": (
        "Feldnamen wie {label} gelten nur für einen Zug; ein PLAN nennt Nachbarn "
        "('ro4 O von ge2') oder Kanonen ('Bier 5 auf ro4').",
        "Cell labels like {label} are valid for one turn only; a PLAN names neighbours "
        "('red4 E of yel2') or cannons ('beer 5 on red4').",
    ),
    "plan_none_legal": (
        "Keine Karte Ihres PLANs ist jetzt spielbar.",
        "No play of your PLAN is legal now.",
    ),
    "kept_as_plan": (
        "Sie sind nicht am Zug (am Zug: {name}). Ihr Zug ist als PLAN für Ihren nächsten "
        "Zug vorgemerkt.",
        "It is not your turn ({name} is to move). Your play is kept as a PLAN for your next turn.",
    ),
    "not_on_turn": (
        "Sie sind nicht am Zug (am Zug: {name}).",
        "It is not your turn ({name} is to move).",
    ),
    "hint_legal": (
        "eine dieser Karten (Sie sind weiterhin am Zug):\n{summary}",
        "one of these plays (it is still your turn):\n{summary}",
    ),
    "hint_forms_dd": (
        "etwa 'Kanone ge3 an Reihe III', 'Bier 6 auf ro4', 'Herzog 2 verlängert Reihe II', "
        "'Herzog 1 verkürzt Reihe I'.",
        "e.g. 'cannon yel3 to row III', 'beer 6 on red4', 'duke 2 extends row II', "
        "'duke 1 shortens row I'.",
    ),
    "hint_forms_kq": (
        "etwa 'Kanone bl5 auf B4', 'ro4 O von ge2', 'Bier 0 auf bl2', 'Herzog 7 auf gr1 Zeile'.",
        "e.g. 'cannon blu5 at B4', 'red4 E of yel2', 'beer 0 on blu2', 'duke 7 on grn1 row'.",
    ),
    "hint_plan_forms": (
        "im PLAN feste Formen wie 'ro4 O von ge2', 'Bier 5 auf ro4', 'Herzog 7 auf gr1 Zeile'.",
        "in a PLAN stable forms like 'red4 E of yel2', 'beer 5 on red4', 'duke 7 on grn1 row'.",
    ),
}


def say(lang: str, key: str, **values: Any) -> str:
    de, en = _TEXTS[key]
    return (en if lang == "en" else de).format(**values)


def pick(lang: str, de: str, en: str) -> str:
    """For the short words of tables and reports, kept next to where they are used."""
    return en if lang == "en" else de


def wrap(text: str, indent: int = 4) -> str:
    """Long lists (cells, cannons, lines) folded to the mail's width, continued indented."""
    return textwrap.fill(
        text,
        width=LINE_WIDTH,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
