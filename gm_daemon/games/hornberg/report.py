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
from gm_daemon.games.hornberg.tables import by_player, table_text
from gm_daemon.games.hornberg.texts import say
from gm_daemon.games.hornberg.window import window
from gm_daemon.games.kit import layout
from gm_daemon.games.kit.layout import fold

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
        return [fold(played_text(after, event, lang))]
    if kind == "skipped":
        turn = say(lang, "turn")
        return [f"{turn} {event['turn']} · {name}: " + say(lang, "nmr_turn_passes")]
    if kind == "out":
        hand = cards.shown_all(cards.sorted_hand(event["hand"], after.options.colours), lang)
        hand = hand or "–"
        return [say(lang, "out_for_round", name=name, hand=hand)]
    if kind == "round_end":
        result = next(r for r in after.history if r.round == event["round"])
        return ["", scoring_text(after, result, lang)]
    if kind == "deal":
        return ["", deal_text(after, lang)]
    if kind == "game_end":
        return ["", final_text(after, lang)]
    if kind == "nmr_flag":
        return [say(lang, "nmr_flag", name=name, streak=event["streak"])]
    return []  # plan notes are private


def played_text(state: State, event: Event, lang: str) -> str:
    """One play as the report lists it, in the words of the table printed with it: a K&Q
    cell is named with the labels of that print (they change as the table grows), and by
    its neighbour when the cannon no longer lies there (cleared, or a new round)."""
    move = Move.model_validate(event["move"])
    text = f"{say(lang, 'turn')} {event['turn']} · {state.name(event['seat'])}: "
    text += _move_as_played(state, move, event, lang)
    if event["how"] == "nmr":
        text += say(lang, "nmr_automatic")
    elif event["how"] == "plan":
        text += say(lang, "from_plan")
    text += "".join(_consequences(state, event, lang))
    if not event["drew"]:
        text += say(lang, "pile_empty")
    return text


def _move_as_played(state: State, move: Move, event: Event, lang: str) -> str:
    if "label" in event and cards.kind(move.card) == "cannon":
        text = f"{say(lang, 'cannon')} {cards.shown(move.card, lang)}"
        near = near_text(event.get("near"), lang)
        label = _printed_label(state, move.card, event)
        if label is None:
            return f"{text} {near}" if near else text
        return f"{text} {say(lang, 'at')} {label}" + (f" ({near})" if near else "")
    if move.toward and move.anchor and cards.kind(move.card) == "cannon":
        return f"{say(lang, 'cannon')} {cards.shown(move.card, lang)} " + (
            f"{direction(move.toward, lang)} {say(lang, 'of')} {cards.shown(move.anchor, lang)}"
        )
    return move_text(state, move.model_copy(update={"line": None}), lang)


def _printed_label(state: State, cannon: str, event: Event) -> str | None:
    """The cell's label in the table printed now, if the cannon still lies there."""
    xy = event.get("xy")
    if xy is None or state.round != event["round"] or state.finished:
        return None
    if not any(c.xy == tuple(xy) and c.cannon == cannon for c in state.table.cells):
        return None
    return window(state.table).label((xy[0], xy[1]))


def _consequences(state: State, event: Event, lang: str) -> list[str]:
    found = []
    if event.get("keg"):
        found.append(say(lang, "takes_the_keg", keg=cards.colour_shown(event["keg"], lang)))
    if event.get("completed"):
        found.append(say(lang, "row_is_complete", row=event["row"]))
    if "cleared" in event:
        # the line's printed label was that of the table before; it is gone now: the cards say
        key = "finishes_row" if event["line"] == "zeile" else "finishes_column"
        won = ", ".join(
            f"{cards.shown(c['stack'], lang)} → {state.name(c['to'])}" for c in event["cleared"]
        )
        found.append(say(lang, key) + won)
    return found


# --- scoring ---------------------------------------------------------------------------
def scoring_text(state: State, result: RoundResult, lang: str) -> str:
    lines = [say(lang, "scoring", round=result.round) + " – " + _reason(state, result, lang)]
    for score in result.scores:
        lines.append(f"  {state.name(score.seat)}")
        for item in score.items:
            label = f"    {_item_label(item, lang):<20}{item.points:>+5}   "
            lines.append(fold(label + cards.shown_all(item.cards, lang), len(label)))
        lines.append(f"    {say(lang, 'round'):<20}{score.total:>+5}")
    if any(item.doubled for score in result.scores for item in score.items):
        lines.append(say(lang, "doubled"))
    totals = " · ".join(f"{state.name(s)} {t}" for s, t in result.totals.items())
    lines.append(say(lang, "totals") + totals)
    return "\n".join(lines)


def _reason(state: State, result: RoundResult, lang: str) -> str:
    limit = state.options.kq_end_duke_sum
    stuck = state.name(result.stuck or "")
    return {
        "two_rows": say(lang, "two_rows_complete"),
        "nobody_can_play": say(lang, "nobody_can_play"),
        "duke_sum": say(lang, "the_dukes_reach", limit=limit),
        "cannot_play": say(lang, "cannot_play", stuck=stuck),
    }[result.reason]


def _item_label(item: ScoreItem, lang: str) -> str:
    colour = cards.colour_shown(item.colour or "", lang)
    labels = {
        "complete": say(lang, "complete", colour=colour),
        "incomplete": say(lang, "incomplete", colour=colour),
        "collected": say(lang, "collected"),
        "dukes": say(lang, "dukes"),
        "table": say(lang, "on_table", colour=colour),
    }
    return labels[item.what] + (" ×2" if item.doubled else "")


def final_text(state: State, lang: str) -> str:
    lines = [say(lang, "final_standings")]
    for place, rank in layout.places(state.ranking or []):
        for seat in rank:
            lines.append(f"  {place}. {state.name(seat):<16}{state.totals[seat]:>5}")
    return "\n".join(lines)


def deal_text(state: State, lang: str) -> str:
    dealer, start = state.name(state.dealer), state.name(state.start_player)
    text = say(
        lang,
        "deal",
        round=state.round,
        variant=variant_name(state),
        dealer=dealer,
        start=start,
    )
    if state.redeals:
        text += say(lang, "redealt", redeals=state.redeals)
    if state.variant == "dd":
        bases = " · ".join(f"{ROW_NAMES[i]} H{r.base}" for i, r in enumerate(state.table.rows))
        text += "\n" + say(lang, "row_dukes") + bases
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
            lines.append(say(lang, "drawn") + cards.shown_all(sorted(drawn.elements()), lang))
    for event in events:
        if event.get("seat") != seat:
            continue
        if event["event"] == "plan_failed":
            lines.append(say(lang, "plan_failed"))
        elif event["event"] == "plan_lapsed":
            lines.append(say(lang, "plan_lapsed"))
    lines += turn_notice(after, seat, lang)
    return "\n".join(lines) + "\n"


def turn_notice(state: State, seat: str, lang: str) -> list[str]:
    if state.finished:
        return []
    if seat in state.out:
        return [say(lang, "you_are_out")]
    if seat != state.to_move:
        return []
    return [
        "",
        say(lang, "your_turn", turn=state.turn),
        legal_text(state, seat, lang),
    ]


def standings_line(state: State, lang: str) -> str:
    totals = [f"{state.name(s)} {state.totals[s]}" for s in state.seat_ids]
    return "\n".join(by_player(say(lang, "points"), totals))


def state_text(state: State, lang: str) -> str:
    """The public picture of the moment: table (or final standings) and running totals."""
    if state.finished:
        return final_text(state, lang) + "\n"
    return table_text(state, lang) + standings_line(state, lang) + "\n"
