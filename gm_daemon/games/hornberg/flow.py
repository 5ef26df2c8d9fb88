"""Turn after turn: play, draw, check the round's end, hand the turn on, score, re-deal.

``take_turn`` makes one play. ``hand_on`` then does what the GM does between two plays
(§6.1, A-7): after a play, two complete D&D rows or 30 K&Q duke points end the round; at the
start of the next player's turn, a D&D player without a legal play drops out (his hand is
shown) and a K&Q player without one ends the round. Scores go into the history, the dealer
moves one seat on and a new round is dealt, until the game is over.
"""

from __future__ import annotations

import random
from typing import Any

from gm_daemon.games.hornberg import cards, deal, kq, rules
from gm_daemon.games.hornberg.model import RoundEnd, RoundResult, SeatScore, State
from gm_daemon.games.hornberg.play import STEP, Move
from gm_daemon.games.hornberg.window import window

Event = dict[str, Any]
NMR_FLAG_AFTER = 3  # §6.4: after 3 missed turns in a row the GM is told


def take_turn(state: State, seat: str, move: Move, how: str) -> Event:
    """Play a legal move for the seat on turn, draw a card, count the turn.
    ``how`` is "direct", "plan" or "nmr" (the report announces the latter two)."""
    event: Event = {
        "event": "play",
        "turn": state.turn,
        "round": state.round,
        "seat": seat,
        "how": how,
        "move": move.model_dump(mode="json", exclude_defaults=True),
        **_where(state, move),
    }
    event.update(rules.apply(state, seat, move))
    event["drew"] = bool(state.pile)
    if state.pile:
        state.hands[seat].append(state.pile.pop())  # HB-3 / A-8
    state.turn += 1
    state.nmr_streak[seat] = state.nmr_streak.get(seat, 0) + 1 if how == "nmr" else 0
    return event


def skip_turn(state: State, seat: str) -> Event:
    """``nmr_policy = "skip"``: the turn passes without a card being played."""
    event: Event = {"event": "skipped", "turn": state.turn, "round": state.round, "seat": seat}
    state.turn += 1
    state.nmr_streak[seat] = state.nmr_streak.get(seat, 0) + 1
    return event


def _where(state: State, move: Move) -> Event:
    """K&Q: the printed labels the player saw, and a stable description of the cell."""
    if state.variant != "kq" or not state.table.cells:
        return {}
    win = window(state.table)
    kind = cards.kind(move.card)
    if kind == "cannon":
        xy = kq.target_cell(state.table, move)
        if isinstance(xy, tuple):
            return {"label": win.label(xy), "near": neighbour(state, xy)}
        return {}
    if kind == "duke" and move.on is not None and kq.lines_through(state.table, move.on):
        line = kq.chosen_line(state.table, move)
        name = win.row_label(line.index) if line.kind == "zeile" else win.column_label(line.index)
        return {"line_label": name}
    return {}


def neighbour(state: State, xy: tuple[int, int]) -> list[str] | None:
    """The first card next to the cell, as (direction from it, cannon): "W von ro3"."""
    occupied = kq.grid(state.table)
    for direction in ("W", "O", "N", "S", "NW", "NO", "SW", "SO"):
        dx, dy = STEP[direction]
        anchor = occupied.get((xy[0] - dx, xy[1] - dy))
        if anchor is not None:
            return [direction, anchor.cannon]
    return None


def lasting(state: State, move: Move) -> Move:
    """The play in a form a PLAN may use: a Kreuz & Quer cannon's cell becomes a direction
    from the card next to it, since printed cell labels change every turn."""
    near = neighbour(state, move.cell) if move.cell is not None else None
    if near is None:
        return move
    return Move(card=move.card, toward=near[0], anchor=near[1])  # type: ignore[arg-type]


def placements(state: State, move: Move) -> list[Move]:
    """The plays a plan's candidate may stand for now. A bare Kreuz & Quer cannon ("Kanone
    ge1") is the one form a player not on turn can write before any card lies: once the
    table has cards, it goes to the first free cell in reading order (its own cell stays
    as written otherwise)."""
    bare = move.cell is None and move.anchor is None and move.row is None
    if state.variant != "kq" or cards.kind(move.card) != "cannon" or not bare:
        return [move]
    if not state.table.cells:
        return [move]
    return [Move(card=move.card, cell=xy) for xy in kq.legal_cells(state.table)]


def hand_on(state: State, events: list[Event], rng: random.Random) -> None:
    """After a play: end the round or find the next seat that is to move."""
    if rules.round_over(state):
        end_round(state, "two_rows" if state.variant == "dd" else "duke_sum", events, rng)
        return
    assert state.to_move is not None
    seat = state.to_move
    for _ in state.seat_ids:
        seat = state.left_of(seat)
        if seat in state.out:
            continue
        if rules.can_play(state, seat):
            state.to_move = seat
            return
        if state.variant == "kq":
            end_round(state, "cannot_play", events, rng, stuck=seat)  # KQ-8 (b)
            return
        state.out.append(seat)  # DD-8 (b): out for the round, hand revealed
        events.append({"event": "out", "seat": seat, "hand": list(state.hands[seat])})
    end_round(state, "nobody_can_play", events, rng)  # DD-8 (c)


def end_round(
    state: State,
    reason: RoundEnd,
    events: list[Event],
    rng: random.Random,
    stuck: str | None = None,
) -> None:
    scores = rules.variant(state).score(state)
    # who left the game keeps the points he had and scores nothing more (his kegs neither)
    scores = [SeatScore(seat=s.seat) if s.seat in state.left else s for s in scores]
    for line in scores:
        state.totals[line.seat] += line.total
    state.history.append(
        RoundResult(
            round=state.round,
            dealer=state.dealer,
            reason=reason,
            stuck=stuck,
            scores=scores,
            totals=dict(state.totals),
        )
    )
    events.append({"event": "round_end", "round": state.round, "reason": reason, "stuck": stuck})
    if game_over(state):
        finish(state, events)
        return
    state.round += 1
    deal.deal_round(state, state.left_of(state.dealer), rng)  # HB-1: the start player deals
    events.append(
        {
            "event": "deal",
            "round": state.round,
            "dealer": state.dealer,
            "start": state.start_player,
            "redeals": state.redeals,
        }
    )


def game_over(state: State) -> bool:
    """DD-10: as many rounds as players. KQ-10: a total of 100 or more (A-15)."""
    if state.variant == "dd":
        return state.round >= len(state.seats)
    options = state.options
    if options.kq_max_rounds and state.round >= options.kq_max_rounds:
        return True
    return max(state.totals.values()) >= options.kq_target


def finish(state: State, events: list[Event]) -> None:
    state.finished = True
    state.to_move = None
    state.ranking = ranking(state.totals)
    events.append({"event": "game_end", "ranking": state.ranking, "totals": dict(state.totals)})


def ranking(totals: dict[str, int]) -> list[list[str]]:
    """Highest total first; equal totals share a rank."""
    ranks: list[list[str]] = []
    for total in sorted(set(totals.values()), reverse=True):
        ranks.append([seat for seat, t in totals.items() if t == total])
    return ranks
