"""Rules summary, order format and sample orders for the welcome and HELP mails.

The numbers follow the game's options (a game with ``max_legs = 3`` says 1–3), and the
sample is the seat's own: legs his tractor can drive from where it stands.
"""

from __future__ import annotations

from gm_daemon.games.kit import layout
from gm_daemon.games.primtraktor.ack import first_danger, leg_text, plan_legs
from gm_daemon.games.primtraktor.model import Direction, Leg, Options, State, Tractor
from gm_daemon.games.primtraktor.speeds import MIN_SPEED
from gm_daemon.games.primtraktor.texts import say


def rules_summary(options: Options, lang: str) -> str:
    bonus = "/".join(str(b) for b in options.bonus)
    text = say(
        lang,
        "rules",
        n=options.board,
        legs=options.max_legs,
        rounds=options.max_rounds,
        bonus=bonus,
        round1=say(lang, f"round1_{options.round1_nmr}"),
    )
    return layout.fit(text.strip())


def order_format(options: Options, example: str, lang: str) -> str:
    """The order format around ``example``; a seat without orders of his own to send (out
    of the race) sees legs that merely show the form."""
    if not example:
        legs = [Leg(direction=Direction.NORTH, change="+")] * min(options.max_legs, 3)
        example = ", ".join(leg_text(leg, None, lang) for leg in legs)
    return layout.fit(say(lang, "order_format", legs=options.max_legs, example=example).strip())


def example_orders(state: State, seat: str, lang: str) -> str:
    """ "Name: Nord=, Nord=, Nord=": up to three legs (never more than ``max_legs``) straight
    on, in the first direction, clockwise from the tractor's own, that runs into nothing on
    the board as it is; the first candidate when every way is blocked (it is still read)."""
    if state.finished or not any(t.seat == seat and t.active for t in state.tractors):
        return ""  # the game is over, or a reader who does not play (the web site)
    tractor = state.tractor(seat)
    candidates = [_straight_on(tractor, d, state.options.max_legs) for d in _clockwise(tractor)]
    occupied = {cell: t.seat for t in state.tractors for cell in t.trail}
    names = {t.seat: t.name for t in state.tractors}
    safe = (
        legs
        for legs in candidates
        if first_danger(plan_legs(tractor, legs, occupied, state.options.board), seat, names, lang)
        is None
    )
    legs = next(safe, candidates[0])
    return f"{tractor.name}: " + ", ".join(leg_text(leg, None, lang) for leg in legs)


def _clockwise(tractor: Tractor) -> list[Direction]:
    direction = tractor.direction or Direction.NORTH
    turns = [direction]
    while len(turns) < 4:
        turns.append(turns[-1].clockwise())
    return turns


def _straight_on(tractor: Tractor, direction: Direction, max_legs: int) -> list[Leg]:
    """Speed up from a standstill (the first leg of the game must be +), then hold it."""
    first = "+" if tractor.speed < MIN_SPEED else "="
    legs = [Leg(direction=direction, change=first)]
    legs += [Leg(direction=direction, change="=")] * (min(max_legs, 3) - 1)
    return legs
