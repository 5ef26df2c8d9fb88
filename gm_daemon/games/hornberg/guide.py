"""The help text (the order format of the game's variant and options) and the short rules
sent with the welcome."""

from __future__ import annotations

from gm_daemon.games.hornberg.describe import example_orders
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.texts import pick

# The order format in parts, so that a game shows only its own variant and options.
HELP = {
    "head": (
        """\
Das Hornberger Schießen – Spielzüge per Mail

Eine Karte pro Zug. Groß/klein ist egal, ä/ö/ü/ß auch als ae/oe/ue/ss.
Karten: Kanonen ro4, "rot 4", red4 (Farben ro ge bl gr sw ws), Biere B5 oder
"Bier 5", Herzöge H7 oder "Herzog 7".
""",
        """\
Das Hornberger Schießen – plays by mail

One card per turn. Case does not matter; ä/ö/ü/ß may be written ae/oe/ue/ss.
Cards: cannons red4, "red 4", ro4 (colours ro ge bl gr sw ws = red yel blu grn
blk wht), beers B5 or "beer 5", dukes H7 or "duke 7".
""",
    ),
    "dd": (
        """\
Drunter & Drüber (Reihen I, II, III):
  Kanone ge3 an Reihe III
  Bier 6 auf ro4
  Herzog 2 verlängert Reihe II      (auch: drüber, +)
  Herzog 1 verkürzt Reihe I         (auch: drunter, -)
""",
        """\
Drunter & Drüber (rows I, II, III):
  cannon yel3 to row III
  beer 6 on red4
  duke 2 extends row II             (also: +)
  duke 1 shortens row I             (also: -)
""",
    ),
    "kq": (
        """\
Kreuz & Quer (Felder wie im Ausdruck: Zeilen A, B, C, Spalten 1, 2, 3 ...):
  Zug: 17
  Kanone bl5 auf B4                 (Feldnamen gelten nur für den gedruckten Zug)
  ro4 O von ge2                     (N NO O SO S SW W NW; rechts links über unter)
  Bier 0 auf bl2                    (oder per Feld: Bier 0 auf A4)
  Herzog 7 auf gr1 Zeile            (Zeile/Spalte nur, wenn beides beendbar ist)
""",
        """\
Kreuz & Quer (cells as printed: rows A, B, C, columns 1, 2, 3 ...):
  Turn: 17
  cannon blu5 at B4                 (labels are valid for the printed turn only)
  red4 E of yel2                    (N NE E SE S SW W NW; right left above below)
  beer 0 on blu2                    (or by cell: beer 0 on A4)
  duke 7 on grn1 row                (row/column only when both could be finished)
""",
    ),
    "plan": (
        """\
Wer nicht am Zug ist, darf einen PLAN schicken: Züge untereinander, der erste
erlaubte wird gespielt, sobald er dran ist. Ein PLAN gilt für einen Zug, ein
DAUERPLAN bis ZURÜCKZIEHEN oder Rundenende. Im PLAN keine Feldnamen:
  PLAN:
  ws3 O von bl4
  Bier 8 auf ws3
""",
        """\
A player not on turn may send a PLAN: plays one per line; the first legal one
is played as soon as his turn comes. A PLAN is used for one turn, a DAUERPLAN
until WITHDRAW or the end of the round. No cell labels in a plan:
  PLAN:
  wht3 E of blu4
  beer 8 on wht3
""",
    ),
    "autoplay": (
        """\
Verpassen Sie die Frist, spielt die Spielleitung für Sie (NMR): die niedrigste
Kanone auf das erste erlaubte Feld, sonst das niedrigste Bier auf die erste
freie Kanone, sonst den niedrigsten Herzog (in Lesereihenfolge).
""",
        """\
If you miss the deadline the GM plays for you (NMR): your lowest cannon on the
first legal cell, else your lowest beer on the first free cannon, else your
lowest duke (in reading order).
""",
    ),
    "skip": (
        """\
Verpassen Sie die Frist, verfällt Ihr Zug (NMR), und der Nächste ist am Zug.
""",
        """\
If you miss the deadline your turn passes (NMR) and the next player is on turn.
""",
    ),
    "example": ("Zum Beispiel jetzt:\n  {example}\n", "For example, now:\n  {example}\n"),
}

RULES_DD = (
    """\
Drunter & Drüber – die Regeln in Kürze
- Drei Reihen, jede mit einem Herzog (4–9): seine Zahl ist die Länge der Reihe.
- Reihum spielt jeder genau eine Karte und zieht dann eine nach, solange der
  Stapel reicht. Die erste Karte einer Runde ist eine Kanone.
- Kanone: rechts an eine Reihe, die noch Platz hat. Wer eine Farbe als Erster
  bringt, nimmt ihr Fass: diese Farbe zählt die ganze Runde für ihn.
- Bier: auf eine freie Kanone. Herzog 1–3: verlängert eine Reihe oder verkürzt
  sie (nie unter die Zahl ihrer Kanonen).
- Vollständig ist eine Reihe mit so vielen Kanonen wie ihre Länge, alle mit
  Bier. Zwei vollständige Reihen beenden die Runde sofort.
- Wer nicht spielen kann, zeigt seine Hand und scheidet für die Runde aus.
- Wertung: Kanone + Bier zählen für den Fassbesitzer, plus in vollständigen,
  minus in unvollständigen Reihen. So viele Runden wie Spieler.
""",
    """\
Drunter & Drüber – the rules in brief
- Three rows, each with a duke (4–9): its number is the row's length.
- In turn everyone plays exactly one card, then draws one while the pile
  lasts. The first card of a round is a cannon.
- Cannon: to the right end of a row with room. Whoever brings a colour first
  takes its keg: that colour counts for him for the whole round.
- Beer: on a free cannon. Duke 1–3: extends a row or shortens it (never below
  its number of cannons).
- A row is complete with as many cannons as its length, each with a beer. Two
  complete rows end the round at once.
- A player who cannot play shows his hand and is out for the round.
- Scoring: cannon + beer count for the keg holder, plus in complete rows,
  minus in incomplete ones. As many rounds as players.
""",
)

RULES_KQ = (
    """\
Kreuz & Quer – die Regeln in Kürze
- Reihum spielt jeder genau eine Karte und zieht dann eine nach, solange der
  Stapel reicht. Die erste Karte einer Runde ist eine Kanone.
- Kanone: neben eine liegende Karte (auch über Eck); alles zusammen höchstens
  6 Spalten breit und 3 Zeilen hoch. Wer eine Farbe als Erster bringt, nimmt
  ihr Fass: diese Farbe zählt die ganze Runde für ihn.
- Bier: auf eine freie Kanone.
- Herzog: auf die einzige freie Kanone einer Zeile (ab 2 Kanonen) oder einer
  vollen Spalte (3 Kanonen). Die Linie wird abgeräumt: jede Kanone samt Bier
  geht an den Fassbesitzer ihrer Farbe, der Herzog offen zum Spieler.
- Die Runde endet, wenn die offenen Herzöge zusammen {limit} erreichen oder wer
  am Zug ist nicht spielen kann.
- Wertung: gesammelte Karten + eigene Herzöge − eigene Farben, die noch liegen.{double}
- Wer nach einer Runde {target} Punkte hat, beendet das Spiel; die meisten Punkte
  gewinnen.
""",
    """\
Kreuz & Quer – the rules in brief
- In turn everyone plays exactly one card, then draws one while the pile
  lasts. The first card of a round is a cannon.
- Cannon: next to a card on the table (corners count); everything within 6
  columns and 3 rows. Whoever brings a colour first takes its keg: that
  colour counts for him for the whole round.
- Beer: on a free cannon.
- Duke: on the single free cannon of a row (2 cannons or more) or of a full
  column (3 cannons). The line is cleared: each cannon with its beer goes to
  its colour's keg holder, the duke face up to the player.
- The round ends when the dukes face up reach {limit} together, or when the
  player to move cannot play.
- Scoring: collected cards + own dukes − own colours still on the table.{double}
- When someone has {target} points after a round the game ends; the most
  points win.
""",
)

DOUBLE = (
    "\n  Kreuzer & Quer: doppelt minus, solange die 1er-Kanone der Farbe liegt.",
    "\n  Kreuzer & Quer: double minus while the colour's 1-cannon is on the table.",
)


def order_format(state: State, lang: str) -> str:
    """The order format of this game: its variant, plans only where allowed, its NMR rule."""
    parts = ["head", state.variant]
    parts += ["plan"] if state.options.plans else []
    parts += [state.options.nmr_policy]
    return "\n".join(pick(lang, *HELP[part]) for part in parts)


def help_text(state: State, seat: str, lang: str) -> str:
    """HILFE: the order format, and the seat's own example when he may write now."""
    example = example_orders(state, seat, lang)
    if not example:
        return order_format(state, lang)
    return order_format(state, lang) + "\n" + pick(lang, *HELP["example"]).format(example=example)


def rules_text(state: State, lang: str) -> str:
    if state.variant == "dd":
        return pick(lang, *RULES_DD)
    options = state.options
    double = pick(lang, *DOUBLE) if options.kq_double_negative else ""
    return pick(lang, *RULES_KQ).format(
        limit=options.kq_end_duke_sum, target=options.kq_target, double=double
    )
