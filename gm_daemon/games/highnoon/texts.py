"""Every sentence High Noon sends, in German (as in the postal game) and English.

Templates use ``str.format`` fields. ``say`` picks the language; anything but "de" is English.
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "de": {
        # --- syntax (one per label of syntax.py) -------------------------------------
        "syntax.general": "Zeile nicht verstanden.",
        "syntax.general.hint": (
            "Erwartet z. B. „Duelle“, „H. Glück: 19, 15, 8“, "
            "„Herausforderungen: H. Glück, V. Pech“ oder „FERTIG“."
        ),
        "syntax.positions": "Die Schusspositionen sind nicht lesbar.",
        "syntax.positions.hint": (
            "Positionen als Zahlen von 19 bis 1, getrennt durch Komma oder Leerzeichen, "
            "z. B. „V. Pech: 12, 4, 1“."
        ),
        "syntax.no_positions": "Keine Schusspositionen angegeben.",
        "syntax.no_positions.hint": "Z. B. „H. Glück: 19, 15, 8“ oder „H. Glück: keine“.",
        "syntax.missing_name": "Schusspositionen ohne Namen des Gegners.",
        "syntax.missing_name.hint": (
            "Den Namen des Gegners vor die Positionen schreiben: „H. Glück: 19, 15, 8“."
        ),
        "syntax.challenge_names": "Die Herausforderungen sind nicht lesbar.",
        "syntax.challenge_names.hint": (
            "Nur Namen, durch Komma getrennt: „Herausforderungen: H. Glück, V. Pech“."
        ),
        "syntax.player": "Die Spielerzeile ist nicht lesbar.",
        "syntax.player.hint": "„Spieler: {own}“ oder die Zeile weglassen.",
        # --- duel lines ----------------------------------------------------------------
        "duel.unknown": "Unbekannter Spieler „{name}“.",
        "duel.ambiguous": "„{name}“ passt auf mehrere Spieler: {candidates}.",
        "duel.ambiguous.hint": "Den Namen genauer schreiben, z. B. „{example}“.",
        "duel.not_opponent": "{name} ist in Runde {round} nicht Ihr Gegner.",
        "duel.opponents.hint": "Ihre Gegner in Runde {round}: {opponents}.",
        "duel.no_opponents.hint": "Sie haben in Runde {round} keine Duelle.",
        "duel.duplicate": (
            "Zweite Zeile für das Duell gegen {name} (die erste steht in Zeile {first})."
        ),
        "duel.duplicate.hint": "Alle Schüsse gegen {name} in eine Zeile schreiben.",
        "duel.range": "Position {positions} gibt es nicht.",
        "duel.range.hint": (
            "Schusspositionen gehen von 19 (erster Schritt) bis 1 (letzter Schritt)."
        ),
        "duel.bare_name": "Keine Schusspositionen für {name}.",
        "duel.bare_name.hint": (
            "„{name}: 19, 15, 8“ oder „{name}: keine“; Herausforderungen unter "
            "„Herausforderungen“ aufführen."
        ),
        "budget": "{planned} {shots} geplant, aber nur P={cartridges} Patronen.",
        "budget.hint": (
            "Höchstens {cartridges} Schüsse in allen Duellen zusammen; {excess} streichen."
        ),
        "shot.one": "Schuss",
        "shot.many": "Schüsse",
        "player.mismatch": "„Spieler: {name}“ passt nicht zum Absender ({own}).",
        "player.mismatch.hint": "„Spieler: {own}“ schreiben oder die Zeile weglassen.",
        "not_active": "Sie sind ausgeschieden und geben keine Züge mehr ab.",
        "finished": "Das Spiel ist beendet.",
        # --- warnings ------------------------------------------------------------------
        "warn.duplicate_positions": "Position {positions} doppelt angegeben; zählt einmal.",
        "warn.ignored": "Zeile ignoriert: „{text}“ ist kein Spielername.",
        "warn.ignored.hint": "Herausforderungen unter „Herausforderungen“ aufführen.",
        "challenge.unknown": "Herausforderung an „{name}“ ungültig: unbekannter Spieler.",
        "challenge.ambiguous": "Herausforderung an „{name}“ ungültig: mehrdeutig ({candidates}).",
        "challenge.players.hint": "Herausfordern können Sie: {names}.",
        "challenge.self": "Sie können sich nicht selbst herausfordern; gestrichen.",
        "challenge.eliminated": "{name} ist ausgeschieden; Herausforderung gestrichen.",
        "challenge.duplicate": "{name} mehrfach herausgefordert; zählt einmal.",
        "challenge.cap": (
            "{count} Herausforderungen angegeben, Grenze max(L,2) = {cap}; {dropped} gestrichen."
        ),
        "challenge.cap.hint": "Die ersten {cap} in Ihrer Reihenfolge gelten.",
        "quote": "„{}“",
        # --- normalised orders ---------------------------------------------------------
        "describe.duel": "Duell gegen {name}: {positions}",
        "describe.challenges": "Herausforderungen: {names}",
        "describe.budget": "Patronen verplant: {planned}/{cartridges}",
        "none": "keine",
        # --- reports -------------------------------------------------------------------
        "round": "Runde {round}",
        "duel_results": "Duellergebnisse",
        "no_duels": "(keine Duelle)",
        "penalties": "Abzüge für weniger als zwei Duelle: {items}",
        "penalty.item": "{name} -{life} L",
        "eliminated": "Ausgeschieden: {names}",
        "invalid_orders": "Gespeicherte Züge ungültig, als fehlend gewertet: {names}",
        "challenges": "Herausforderungen: {items}",
        "pairings": "Duellpaarungen Runde {round}",
        "no_pairings": "(keine Duelle)",
        "standings": "Zwischenstand",
        "game_over": "Spielende: {out} von {n0} Spielern sind ausgeschieden.",
        "winner": "Sieger: {names}",
        "winners": "Sieger (geteilt): {names}",
        "final_ranking": "Endstand",
        "out_in_round": "ausgeschieden in Runde {round}",
        "status.title": "High Noon – Runde {round}",
        "status.own": "Ihr Stand: D={wins}  L={life}  P={cartridges}",
        "status.budget": (
            "Ihr Budget: Schüsse ≤ P = {cartridges} (alle Duelle zusammen), "
            "Herausforderungen ≤ max(L,2) = {cap}"
        ),
        "status.few_duels.0": (
            "Achtung: kein Duell in Runde {round} – am Rundenende {life} L Abzug."
        ),
        "status.few_duels.1": (
            "Achtung: nur ein Duell in Runde {round} – am Rundenende {life} L Abzug."
        ),
        "status.opponents": "Ihre Gegner: {names}",
        "status.out": "Sie sind in Runde {round} ausgeschieden.",
        "welcome.pairings": "Duellpaarungen Runde 1",
        "welcome.own": (
            "Ihr Stand: D={wins}  L={life}  P={cartridges}. Ihre Gegner in Runde 1: {names}."
        ),
    },
    "en": {
        "syntax.general": "Line not understood.",
        "syntax.general.hint": (
            'Expected e.g. "Duels", "H. Glück: 19, 15, 8", '
            '"Challenges: H. Glück, V. Pech" or "DONE".'
        ),
        "syntax.positions": "The shot positions cannot be read.",
        "syntax.positions.hint": (
            "Positions as numbers from 19 to 1, separated by commas or spaces, "
            'e.g. "V. Pech: 12, 4, 1".'
        ),
        "syntax.no_positions": "No shot positions given.",
        "syntax.no_positions.hint": 'E.g. "H. Glück: 19, 15, 8" or "H. Glück: none".',
        "syntax.missing_name": "Shot positions without the opponent's name.",
        "syntax.missing_name.hint": (
            'Write the opponent\'s name before the positions: "H. Glück: 19, 15, 8".'
        ),
        "syntax.challenge_names": "The challenges cannot be read.",
        "syntax.challenge_names.hint": (
            'Names only, separated by commas: "Challenges: H. Glück, V. Pech".'
        ),
        "syntax.player": "The player line cannot be read.",
        "syntax.player.hint": '"Player: {own}" or leave the line out.',
        "duel.unknown": 'Unknown player "{name}".',
        "duel.ambiguous": '"{name}" matches several players: {candidates}.',
        "duel.ambiguous.hint": 'Write the name in full, e.g. "{example}".',
        "duel.not_opponent": "{name} is not your opponent in round {round}.",
        "duel.opponents.hint": "Your opponents in round {round}: {opponents}.",
        "duel.no_opponents.hint": "You have no duels in round {round}.",
        "duel.duplicate": "Second line for the duel against {name} (the first is line {first}).",
        "duel.duplicate.hint": "Put all shots against {name} on one line.",
        "duel.range": "There is no position {positions}.",
        "duel.range.hint": "Shot positions run from 19 (first step) to 1 (last step).",
        "duel.bare_name": "No shot positions for {name}.",
        "duel.bare_name.hint": (
            '"{name}: 19, 15, 8" or "{name}: none"; list challenges under "Challenges".'
        ),
        "budget": "{planned} {shots} planned but only P={cartridges} cartridges.",
        "budget.hint": "At most {cartridges} shots over all duels together; drop {excess}.",
        "shot.one": "shot",
        "shot.many": "shots",
        "player.mismatch": '"Player: {name}" does not match the sender ({own}).',
        "player.mismatch.hint": 'Write "Player: {own}" or leave the line out.',
        "not_active": "You are eliminated and send no more orders.",
        "finished": "The game is over.",
        "warn.duplicate_positions": "Position {positions} given twice; counts once.",
        "warn.ignored": 'Line ignored: "{text}" is not a player\'s name.',
        "warn.ignored.hint": 'List challenges under "Challenges".',
        "challenge.unknown": 'Challenge to "{name}" void: unknown player.',
        "challenge.ambiguous": 'Challenge to "{name}" void: ambiguous ({candidates}).',
        "challenge.players.hint": "You can challenge: {names}.",
        "challenge.self": "You cannot challenge yourself; dropped.",
        "challenge.eliminated": "{name} is eliminated; challenge dropped.",
        "challenge.duplicate": "{name} challenged more than once; counts once.",
        "challenge.cap": "{count} challenges listed, limit max(L,2) = {cap}; {dropped} dropped.",
        "challenge.cap.hint": "The first {cap} in your order count.",
        "quote": "'{}'",
        "describe.duel": "Duel vs {name}: {positions}",
        "describe.challenges": "Challenges: {names}",
        "describe.budget": "Cartridges planned: {planned}/{cartridges}",
        "none": "none",
        "round": "Round {round}",
        "duel_results": "Duel results",
        "no_duels": "(no duels)",
        "penalties": "Penalties for fewer than two duels: {items}",
        "penalty.item": "{name} -{life} L",
        "eliminated": "Eliminated: {names}",
        "invalid_orders": "Stored orders invalid, counted as missing: {names}",
        "challenges": "Challenges: {items}",
        "pairings": "Pairings round {round}",
        "no_pairings": "(no duels)",
        "standings": "Standings",
        "game_over": "Game over: {out} of {n0} players are out.",
        "winner": "Winner: {names}",
        "winners": "Winners (shared): {names}",
        "final_ranking": "Final ranking",
        "out_in_round": "out in round {round}",
        "status.title": "High Noon – round {round}",
        "status.own": "You: D={wins}  L={life}  P={cartridges}",
        "status.budget": (
            "Your budget: shots ≤ P = {cartridges} (all duels together), "
            "challenges ≤ max(L,2) = {cap}"
        ),
        "status.few_duels.0": (
            "Note: no duel in round {round} – {life} L off at the end of the round."
        ),
        "status.few_duels.1": (
            "Note: only one duel in round {round} – {life} L off at the end of the round."
        ),
        "status.opponents": "Your opponents: {names}",
        "status.out": "You were eliminated in round {round}.",
        "welcome.pairings": "Pairings round 1",
        "welcome.own": (
            "You: D={wins}  L={life}  P={cartridges}. Your opponents in round 1: {names}."
        ),
    },
}


def say(lang: str, key: str, *args: object, **values: object) -> str:
    """The text ``key`` in ``lang`` with its fields filled in."""
    table = TEXTS["de"] if lang == "de" else TEXTS["en"]
    return table[key].format(*args, **values)


def shots_word(count: int, lang: str) -> str:
    return say(lang, "shot.one" if count == 1 else "shot.many")


def quoted(names: list[str], lang: str) -> str:
    """Names in quotes of the language, comma-separated: „Schnell“, „Pech“."""
    return ", ".join(say(lang, "quote", name) for name in names)
