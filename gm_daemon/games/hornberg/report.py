"""The texts of a resolution: what was played, who dropped out, the round's scoring broken
down per player and colour, the new deal, the table, and each player's private part.

Public parts never contain a hand, except the hand a D&D player reveals when he drops out
(DD-8 b), which the rules make public. Each player's own hand and, for the player on turn,
what he may play go into ``Report.private``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.dd import ROW_NAMES
from gm_daemon.games.hornberg.describe import direction, hand_text, legal_text, move_text, near_text
from gm_daemon.games.hornberg.model import RoundResult, ScoreItem, State
from gm_daemon.games.hornberg.play import Move
from gm_daemon.games.hornberg.tables import table_text
from gm_daemon.games.hornberg.texts import pick, wrap

Event = dict[str, Any]

VARIANT_NAMES = {"dd": "Drunter & Drüber", "kq": "Kreuz & Quer"}


def variant_name(state: State) -> str:
    name = VARIANT_NAMES[state.variant]
    return "Kreuzer & Quer" if state.options.kq_double_negative else name


# --- what happened ---------------------------------------------------------------------
def events_text(after: State, events: list[Event], lang: str) -> str:
    lines: list[str] = []
    for event in events:
        lines += _event_lines(after, event, lang)
    return "\n".join(lines)


def _event_lines(after: State, event: Event, lang: str) -> list[str]:
    kind = event["event"]
    name = after.name(event.get("seat", ""))
    if kind == "play":
        return [wrap(played_text(after, event, lang))]
    if kind == "skipped":
        turn = pick(lang, "Zug", "Turn")
        return [
            f"{turn} {event['turn']} · {name}: "
            + pick(lang, "(NMR – Zug verfällt)", "(NMR – turn passes)")
        ]
    if kind == "out":
        hand = " ".join(cards.sorted_hand(event["hand"], after.options.colours)) or "–"
        return [
            pick(
                lang,
                f"{name} kann nicht mehr spielen und scheidet für diese Runde aus. Hand: {hand}",
                f"{name} cannot play any more and is out for this round. Hand: {hand}",
            )
        ]
    if kind == "round_end":
        result = next(r for r in after.history if r.round == event["round"])
        return ["", scoring_text(after, result, lang)]
    if kind == "deal":
        return ["", deal_text(after, lang)]
    if kind == "game_end":
        return ["", final_text(after, lang)]
    if kind == "nmr_flag":
        return [
            pick(
                lang,
                f"{name} hat {event['streak']} Züge in Folge verpasst; "
                "die Spielleitung ist informiert.",
                f"{name} has missed {event['streak']} turns in a row; the GM has been told.",
            )
        ]
    return []  # plan notes are private


def played_text(state: State, event: Event, lang: str) -> str:
    """One play as the report lists it, with the labels the player saw when he made it."""
    move = Move.model_validate(event["move"])
    text = f"{pick(lang, 'Zug', 'Turn')} {event['turn']} · {state.name(event['seat'])}: "
    text += _move_as_played(state, move, event, lang)
    if event["how"] == "nmr":
        text += pick(lang, " (NMR – automatisch)", " (NMR – automatic)")
    elif event["how"] == "plan":
        text += pick(lang, " (aus PLAN)", " (from PLAN)")
    text += "".join(_consequences(state, event, lang))
    if not event["drew"]:
        text += pick(lang, " – Stapel leer", " – pile empty")
    return text


def _move_as_played(state: State, move: Move, event: Event, lang: str) -> str:
    if "label" in event and cards.kind(move.card) == "cannon":
        text = f"{pick(lang, 'Kanone', 'cannon')} {move.card} {pick(lang, 'auf', 'at')} "
        text += event["label"]
        near = near_text(event.get("near"), lang)
        return text + (f" ({near})" if near else "")
    if move.toward and move.anchor and cards.kind(move.card) == "cannon":
        return f"{pick(lang, 'Kanone', 'cannon')} {move.card} " + (
            f"{direction(move.toward, lang)} {pick(lang, 'von', 'of')} {move.anchor}"
        )
    return move_text(state, move.model_copy(update={"line": None}), lang)


def _consequences(state: State, event: Event, lang: str) -> list[str]:
    found = []
    if event.get("keg"):
        found.append(
            pick(lang, f" – nimmt das Fass {event['keg']}", f" – takes the {event['keg']} keg")
        )
    if event.get("completed"):
        found.append(
            pick(
                lang,
                f" – Reihe {event['row']} ist vollständig",
                f" – row {event['row']} is complete",
            )
        )
    if "cleared" in event:
        line = (
            pick(lang, "Zeile", "row")
            if event["line"] == "zeile"
            else pick(lang, "Spalte", "column")
        )
        won = ", ".join(f"{c['stack']} → {state.name(c['to'])}" for c in event["cleared"])
        found.append(
            pick(lang, " – beendet", " – finishes")
            + f" {line} {event.get('line_label', '')}: {won}"
        )
    return found


# --- scoring ---------------------------------------------------------------------------
def scoring_text(state: State, result: RoundResult, lang: str) -> str:
    lines = [
        pick(lang, f"Wertung Runde {result.round}", f"Scoring of round {result.round}")
        + " – "
        + _reason(state, result, lang)
    ]
    for score in result.scores:
        lines.append(f"  {state.name(score.seat)}")
        for item in score.items:
            label = f"    {_item_label(item, lang):<20}{item.points:>+5}   "
            lines.append(wrap(label + " ".join(item.cards), len(label)))
        lines.append(f"    {pick(lang, 'Runde', 'round'):<20}{score.total:>+5}")
    if any(item.doubled for score in result.scores for item in score.items):
        lines.append(_DOUBLED[lang == "en"])
    totals = " · ".join(f"{state.name(s)} {t}" for s, t in result.totals.items())
    lines.append(pick(lang, "Gesamtstand: ", "Totals: ") + totals)
    return "\n".join(lines)


_DOUBLED = (
    "  ×2: Kreuzer & Quer, die 1er-Kanone der Farbe liegt noch.",
    "  ×2: Kreuzer & Quer, the colour's 1-cannon is still on the table.",
)


def _reason(state: State, result: RoundResult, lang: str) -> str:
    limit = state.options.kq_end_duke_sum
    stuck = state.name(result.stuck or "")
    return {
        "two_rows": pick(lang, "zwei Reihen vollständig", "two rows complete"),
        "nobody_can_play": pick(lang, "niemand kann mehr spielen", "nobody can play any more"),
        "duke_sum": pick(lang, f"die Herzöge erreichen {limit}", f"the dukes reach {limit}"),
        "cannot_play": pick(lang, f"{stuck} kann nicht spielen", f"{stuck} cannot play"),
    }[result.reason]


def _item_label(item: ScoreItem, lang: str) -> str:
    colour = item.colour or ""
    labels = {
        "complete": pick(lang, f"{colour} vollständig", f"{colour} complete"),
        "incomplete": pick(lang, f"{colour} unvollständig", f"{colour} incomplete"),
        "collected": pick(lang, "gesammelt", "collected"),
        "dukes": pick(lang, "Herzöge", "dukes"),
        "table": pick(lang, f"{colour} liegt noch", f"{colour} on table"),
    }
    return labels[item.what] + (" ×2" if item.doubled else "")


def final_text(state: State, lang: str) -> str:
    lines = [pick(lang, "Endstand", "Final standings")]
    place = 1
    for rank in state.ranking or []:
        for seat in rank:
            lines.append(f"  {place}. {state.name(seat):<16}{state.totals[seat]:>5}")
        place += len(rank)
    return "\n".join(lines)


def deal_text(state: State, lang: str) -> str:
    dealer, start = state.name(state.dealer), state.name(state.start_player)
    text = pick(
        lang,
        f"Runde {state.round} von {variant_name(state)}: {dealer} gibt, {start} beginnt.",
        f"Round {state.round} of {variant_name(state)}: {dealer} deals, {start} begins.",
    )
    if state.redeals:
        text += pick(
            lang,
            f" ({state.redeals}× neu gegeben: ohne Kanone kein Anfang)",
            f" (re-dealt {state.redeals}×: the opener held no cannon)",
        )
    if state.variant == "dd":
        bases = " · ".join(f"{ROW_NAMES[i]} H{r.base}" for i, r in enumerate(state.table.rows))
        text += "\n" + pick(lang, "Herzöge der Reihen: ", "Row dukes: ") + bases
    return text


# --- private parts ---------------------------------------------------------------------
def private_text(
    before: State | None, after: State, seat: str, events: list[Event], lang: str
) -> str:
    if after.finished:
        return ""
    lines = [hand_text(after, seat, lang)]
    if before is not None and before.round == after.round:
        drawn = Counter(after.hands.get(seat, [])) - Counter(before.hands.get(seat, []))
        if drawn:
            lines.append(pick(lang, "Gezogen: ", "Drawn: ") + " ".join(sorted(drawn.elements())))
    for event in events:
        if event.get("seat") != seat:
            continue
        if event["event"] == "plan_failed":
            lines.append(
                pick(lang, "Ihr PLAN hatte keinen erlaubten Zug.", "Your PLAN had no legal play.")
            )
        elif event["event"] == "plan_lapsed":
            lines.append(
                pick(
                    lang,
                    "Ihr PLAN ist mit dem Rundenende verfallen.",
                    "Your PLAN lapsed with the end of the round.",
                )
            )
    lines += turn_notice(after, seat, lang)
    return "\n".join(lines) + "\n"


def turn_notice(state: State, seat: str, lang: str) -> list[str]:
    if state.finished:
        return []
    if seat in state.out:
        return [
            pick(
                lang,
                "Sie sind für den Rest dieser Runde ausgeschieden.",
                "You are out for the rest of this round.",
            )
        ]
    if seat != state.to_move:
        return []
    return [
        "",
        pick(
            lang,
            f"Sie sind am Zug (Zug {state.turn}). Möglich:",
            f"It is your turn (turn {state.turn}). You may play:",
        ),
        legal_text(state, seat, lang),
    ]


def standings_line(state: State, lang: str) -> str:
    totals = " · ".join(f"{state.name(s)} {state.totals[s]}" for s in state.seat_ids)
    return pick(lang, "Punkte: ", "Points: ") + totals


def state_text(state: State, lang: str) -> str:
    """The public picture of the moment: table (or final standings) and running totals."""
    if state.finished:
        return final_text(state, lang) + "\n"
    return table_text(state, lang) + standings_line(state, lang) + "\n"
