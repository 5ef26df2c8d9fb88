"""The longer texts for players: the rules in brief and the order format (HELP/HILFE).

The numbers come from the game's options, so a game with other settings explains itself
correctly, and the sample orders are the seat's own: his opponents, within his cartridges.
"""

from __future__ import annotations

from gm_daemon.games.highnoon.model import Options, State

_RULES = {
    "de": """\
High Noon – die Regeln in Kürze
- Jeder Spieler beginnt mit D=0 gewonnenen Duellen, L={life} Lebenspunkten und P=0 Patronen.
- Für jedes Duell, das für die kommende Runde ausgeschrieben wird, gibt es {p_per_duel} Patronen.
- Im Duell gehen beide Schritt für Schritt von Position 19 bis 1 aufeinander zu. Sie legen
  vorher fest, bei welchen Positionen Sie schießen. Trefferchance bei Position k: 5·(20−k) %
  (19: 5 %, 15: 25 %, 10: 50 %, 4: 80 %, 1: 95 %). Schüsse bei derselben Position fallen
  gleichzeitig.
- Der erste Treffer beendet das Duell: der Schütze erhält D+1, L+1 und die Patronen der noch
  nicht abgefeuerten Schüsse des Gegners; der Getroffene verliert 2 L. Treffen beide
  gleichzeitig, verlieren beide 2 L. Nur abgefeuerte Schüsse kosten Patronen.
- In allen Duellen einer Runde zusammen dürfen Sie höchstens so viele Schüsse vorsehen, wie
  Sie zu Rundenbeginn Patronen haben.
- Herausforderungen: höchstens so viele wie Ihre Lebenspunkte, mindestens aber 2. Jede wird in
  der nächsten Runde ein Duell (zwischen zwei Spielern höchstens eines); ablehnen geht nicht.
- Wer in einer Runde nur ein Duell hat, verliert {penalty_1_duel} L, wer keines hat, \
{penalty_0_duels} L.
  Wer danach L ≤ 0 hat, scheidet aus.
- Ohne gültigen Zug: keine Schüsse und keine Herausforderungen; die Duelle finden trotzdem statt.
- Das Spiel endet nach der Runde, in der die Hälfte der Spieler oder mehr ausgeschieden ist.
  Es gewinnt, wer dann die meisten Duelle gewonnen hat.{tiebreak}""",
    "en": """\
High Noon – the rules in brief
- Every player starts with D=0 duels won, L={life} life points and P=0 cartridges.
- For every duel announced for the coming round you receive {p_per_duel} cartridges.
- In a duel both gunslingers walk towards each other, from position 19 down to 1. You decide
  beforehand at which positions you fire. Chance to hit from position k: 5·(20−k) %
  (19: 5 %, 15: 25 %, 10: 50 %, 4: 80 %, 1: 95 %). Shots at the same position are
  simultaneous.
- The first hit ends the duel: the shooter gets D+1, L+1 and the cartridges of the
  opponent's shots not yet fired; the one hit loses 2 L. If both hit at the same time, both
  lose 2 L. Only shots fired cost cartridges.
- Over all your duels of a round you may plan at most as many shots as you have cartridges
  at the start of the round.
- Challenges: at most as many as your life points, but always at least 2. Each becomes a duel
  in the next round (at most one between two players); a duel cannot be refused.
- A player with only one duel in a round loses {penalty_1_duel} L, one with none \
{penalty_0_duels} L.
  Whoever then has L ≤ 0 is eliminated.
- No valid order: no shots and no challenges; the duels still take place.
- The game ends after the round in which half of the players or more are out. The winner is
  the one with the most duels won.{tiebreak}""",
}

_TIEBREAK = {
    "de": {
        "L": "mehr Lebenspunkte",
        "P": "mehr Patronen",
        "then": "\n  Bei Gleichstand entscheiden {}.",
        "and": ", dann ",
    },
    "en": {
        "L": "more life points",
        "P": "more cartridges",
        "then": "\n  A tie is broken by {}.",
        "and": ", then ",
    },
}

_ORDER_FORMAT = {
    "de": """\
So sieht ein Zug aus:

{example}

- Eine Zeile pro Duell: Name des Gegners, dann die Positionen (19 bis 1), bei denen Sie
  schießen. Doppelpunkt und Kommas sind freiwillig: „V.Pech 12 4 1“ geht auch.
- „H. Glück: keine“ oder „H. Glück: -“: keine Schüsse. Ein nicht genannter Gegner: keine
  Schüsse.
- Auch ohne Überschrift möglich: „gegen H. Glück: 12, 4, 1“.
- Herausforderungen durch Komma getrennt oder eine pro Zeile unter „Herausforderungen“;
  „Fordere: H. Glück“ geht auch. Wer zu viele nennt: die ersten zählen.
- Namen: Groß-/Kleinschreibung egal, Umlaute auch als ae/oe/ue, die Initiale darf fehlen,
  wenn der Nachname eindeutig ist.
- Ein neuer Zug ersetzt den vorherigen vollständig. „FERTIG“ am Ende ist erlaubt.""",
    "en": """\
An order looks like this:

{example}

- One line per duel: the opponent's name, then the positions (19 to 1) at which you fire.
  Colon and commas are optional: "V.Pech 12 4 1" works too.
- "H. Glück: none" or "H. Glück: -": no shots. An opponent you do not mention: no shots.
- Also possible without a heading: "vs H. Glück: 12, 4, 1".
- Challenges separated by commas, or one per line under "Challenges". If you list too
  many, the first ones count.
- Names: case does not matter, umlauts may be written ae/oe/ue, the initial may be left out
  when the surname is unique.
- A new order replaces the previous one completely. "DONE" at the end is allowed.""",
}

# The sample of the postal game, shown to a seat that has no orders of its own to send.
_SAMPLE = {
    "de": "Duelle\nH. Glück: 19, 15, 8, 4\nV. Pech: 12, 4, 1\n"
    "Herausforderungen: H. Glück, A. Langsam",
    "en": "Duels\nH. Glück: 19, 15, 8, 4\nV. Pech: 12, 4, 1\nChallenges: H. Glück, A. Langsam",
}
_WORDS = {
    "de": {"duels": "Duelle", "challenges": "Herausforderungen", "none": "keine"},
    "en": {"duels": "Duels", "challenges": "Challenges", "none": "none"},
}
_POSITIONS = (16, 12, 8, 4)  # what a sensible gunslinger might plan for one duel


def _tiebreak(options: Options, lang: str) -> str:
    words = _TIEBREAK["de" if lang == "de" else "en"]
    if not options.tiebreak:
        return ""
    return words["then"].format(words["and"].join(words[key] for key in options.tiebreak))


def rules_summary(options: Options, lang: str) -> str:
    template = _RULES["de" if lang == "de" else "en"]
    return template.format(
        life=options.life,
        p_per_duel=options.p_per_duel,
        penalty_0_duels=options.penalty_0_duels,
        penalty_1_duel=options.penalty_1_duel,
        tiebreak=_tiebreak(options, lang),
    )


def example_orders(state: State, seat: str, lang: str) -> str:
    """Orders this seat could send now: every opponent of the round, the cartridges shared
    out among them, and two challenges (the cap is never below two)."""
    if state.finished or not state.player(seat).active:
        return ""
    words = _WORDS["de" if lang == "de" else "en"]
    opponents = state.opponents(seat)
    budget = state.player(seat).cartridges
    lines = [words["duels"]] if opponents else []
    for i, opponent in enumerate(opponents):
        share = min(len(_POSITIONS), budget // len(opponents) + (i < budget % len(opponents)))
        shots = ", ".join(map(str, _POSITIONS[:share])) or words["none"]
        lines.append(f"{state.player(opponent).name}: {shots}")
    others = [p for p in state.active_ids() if p != seat]
    others.sort(key=lambda p: p in opponents)  # a new opponent first: what challenges are for
    others = [state.player(p).name for p in others[:2]]
    if others:
        lines.append(f"{words['challenges']}: {', '.join(others)}")
    return "\n".join(lines)


def order_format(example: str, lang: str) -> str:
    """The order format around ``example`` (the postal game's sample when it is empty)."""
    key = "de" if lang == "de" else "en"
    return _ORDER_FORMAT[key].format(example=example or _SAMPLE[key])
