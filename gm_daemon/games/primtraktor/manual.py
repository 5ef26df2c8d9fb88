"""Rules summary, order format and sample orders for the welcome and HELP mails.

The numbers follow the game's options (a game with ``max_legs = 3`` says 1–3), and the
sample is the seat's own: legs his tractor can drive from where it stands.
"""

from __future__ import annotations

from gm_daemon.games.primtraktor.ack import first_danger, leg_text, plan_legs
from gm_daemon.games.primtraktor.model import Direction, Leg, Options, State, Tractor
from gm_daemon.games.primtraktor.speeds import MIN_SPEED

_RULES = {
    "de": """\
PRIMTRAKTORRENNEN – die Regeln in Kürze

Ziel: möglichst viele Felder des {n}×{n}-Spielplans besetzen. Der Plan ist ein Torus: wer
rechts hinausfährt, kommt links wieder herein, oben und unten ebenso. Norden ist oben
(y kleiner), Osten rechts (x größer).

- Jede Runde schicken Sie 1–{legs} Teilzüge. Jeder Teilzug fährt geradeaus so viele Felder,
  wie die Geschwindigkeit angibt; alle überfahrenen Felder sind danach besetzt.
- Geschwindigkeiten: 0, 2, 3, 5, 7, 11, 13, … (0 und die Primzahlen). Je Teilzug eine Stufe
  schneller (+), langsamer (-) oder gleich (=). Der erste Teilzug des Spiels muss + sein.
  Unter 2 zu fallen heißt ausscheiden.
- Wer ein besetztes Feld befährt (auch die eigene Spur), scheidet aus (Fahrfehler). Die
  Teilzüge aller Spieler laufen gleichzeitig (Phasen a–e): wer ein Feld früher erreicht
  (Feld j mit Tempo s zur Zeit j/s), bekommt es; wer gleichzeitig ankommt, scheidet aus.
- Ohne Zug (NMR) fährt Ihr Traktor einen Teilzug in letzter Richtung und Geschwindigkeit,
  bei Hindernis im Uhrzeigersinn gedreht, notfalls eine Stufe langsamer; ein NMR-Teilzug
  verliert jeden Konflikt. {round1}
- Das Spiel endet, sobald höchstens ein Traktor übrig ist, spätestens nach Runde {rounds}.
  Punkte = besetzte Felder + Bonus für die letzten drei im Rennen ({bonus}).
""",
    "en": """\
PRIME TRACTOR RACE – the rules in short

Aim: occupy as many cells of the {n}×{n} board as you can. The board is a torus: drive off
the right edge and you come back on the left, likewise top and bottom. North is up
(smaller y), east is right (larger x).

- Each round you send 1–{legs} legs. A leg drives straight on for as many cells as its speed;
  every cell driven over is occupied from then on.
- Speeds: 0, 2, 3, 5, 7, 11, 13, … (0 and the primes). Each leg goes one step faster (+),
  slower (-) or stays (=). The first leg of the game must be +. Dropping below 2 eliminates.
- Driving onto an occupied cell (your own trail included) eliminates you (a crash). All
  players' legs run at the same time (phases a–e): whoever reaches a cell first (cell j at
  speed s at time j/s) takes it; tractors arriving at the same time are all eliminated.
- Without orders (NMR) your tractor drives one leg in its last direction and speed, turned
  clockwise around obstacles, one step slower if need be; an NMR leg loses every conflict.
  {round1}
- The game ends as soon as at most one tractor is left, at the latest after round {rounds}.
  Score = occupied cells + a bonus for the last three in the race ({bonus}).
""",
}

_ORDERS = {
    "de": """\
ZUGABGABE

1–{legs} Teilzüge je Runde, getrennt durch Komma, Semikolon, Leerzeichen oder neue Zeilen.
Ein Teilzug ist eine Richtung mit Geschwindigkeitsänderung:
  Richtung:  N / Nord,  O / Ost,  S / Süd (Sued),  W / West   (auch englisch N, E, S, W)
  Änderung:  + schneller,  - langsamer,  = oder nichts: gleich
Ihr Name davor ist freiwillig. Beispiel:
  {example}
Die Bestätigung rechnet Ihre Teilzüge auf dem aktuellen Plan durch und warnt, wenn einer
in ein besetztes Feld führt oder die Geschwindigkeit unter 2 fiele; angenommen wird der Zug
trotzdem. Bis Zugschluss ersetzt ein neuer Zug den alten.
""",
    "en": """\
ORDERS

1–{legs} legs per round, separated by commas, semicolons, spaces or new lines.
A leg is a direction with a speed change:
  direction:  N / North,  E / East,  S / South,  W / West   (German N, O, S, W work too)
  change:     + faster,  - slower,  = or nothing: same
Your name in front is optional. Example:
  {example}
The acknowledgement works your legs out on the current board and warns when one would run
into an occupied cell or drop the speed below 2; the orders are accepted all the same.
Until the deadline, new orders replace the old ones.
""",
}


_ROUND1 = {
    ("de", "eliminate"): "In Runde 1 scheidet ein Traktor ohne Zug aus.",
    ("de", "north_plus"): "In Runde 1 fährt ein Traktor ohne Zug N+.",
    ("en", "eliminate"): "In round 1 a tractor without orders is eliminated.",
    ("en", "north_plus"): "In round 1 a tractor without orders drives N+.",
}


def _lang(lang: str) -> str:
    return "en" if lang == "en" else "de"


def rules_summary(options: Options, lang: str) -> str:
    bonus = "/".join(str(b) for b in options.bonus)
    return (
        _RULES[_lang(lang)]
        .rstrip()
        .format(
            n=options.board,
            legs=options.max_legs,
            rounds=options.max_rounds,
            bonus=bonus,
            round1=_ROUND1[(_lang(lang), options.round1_nmr)],
        )
    )


def order_format(options: Options, example: str, lang: str) -> str:
    """The order format around ``example``; a seat without orders of his own to send (out
    of the race) sees legs that merely show the form."""
    if not example:
        legs = [Leg(direction=Direction.NORTH, change="+")] * min(options.max_legs, 3)
        example = ", ".join(leg_text(leg, None, lang) for leg in legs)
    return _ORDERS[_lang(lang)].rstrip().format(legs=options.max_legs, example=example)


def example_orders(state: State, seat: str, lang: str) -> str:
    """ "Name: Nord=, Nord=, Nord=": up to three legs (never more than ``max_legs``) straight
    on, in the first direction, clockwise from the tractor's own, that runs into nothing on
    the board as it is; the first candidate when every way is blocked (it is still read)."""
    tractor = state.tractor(seat)
    if state.finished or not tractor.active:
        return ""
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
