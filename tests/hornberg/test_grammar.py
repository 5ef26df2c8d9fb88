"""The order grammar (§6.5): every written form of the spec, German and English, read into
the engine's own ``Written`` objects; and the friendly messages for typical mistakes."""

from __future__ import annotations

import pytest
from lark.exceptions import UnexpectedInput

from gm_daemon.games.hornberg.reading import parse_line
from gm_daemon.games.hornberg.written import CardRef, Ignored, PlanHead, Written

RO4 = CardRef("cannon", 4, "ro")
GE2 = CardRef("cannon", 2, "ge")


def cannon(colour: str, value: int) -> CardRef:
    return CardRef("cannon", value, colour)


def beer(value: int) -> CardRef:
    return CardRef("beer", value)


def duke(value: int) -> CardRef:
    return CardRef("duke", value)


def parsed(text: str) -> list[object]:
    """Compare without the as-written spelling kept for messages."""
    items = parse_line(text)
    return [_plain(i) for i in items]


def _plain(item: object) -> object:
    if not isinstance(item, Written):
        return item
    strip = {"text": ""}
    return Written(
        card=CardRef(**{**item.card.__dict__, **strip}),
        form=item.form,
        cell=item.cell,
        row=item.row,
        toward=item.toward,
        anchor=CardRef(**{**item.anchor.__dict__, **strip}) if item.anchor else None,
        on=CardRef(**{**item.on.__dict__, **strip}) if item.on else None,
        line=item.line,
    )


CASES = [
    # cards in every spelling of §1
    ("ro4 an Reihe II", Written(RO4, "row", row=2)),
    ("Kanone rot 4 an Reihe 2", Written(RO4, "row", row=2)),
    ("cannon red4 to row II", Written(RO4, "row", row=2)),
    ("RO4 IN III", Written(RO4, "row", row=3)),
    ("Kanone ge3 an Reihe III", Written(cannon("ge", 3), "row", row=3)),
    ("blk3 an 1", Written(cannon("sw", 3), "row", row=1)),
    ("Weiß 5 an Reihe I", Written(cannon("ws", 5), "row", row=1)),
    ("gruen 2 to I", Written(cannon("gr", 2), "row", row=1)),
    ("Bier 6 auf ro4", Written(beer(6), "on", on=RO4)),
    ("B6 auf ro4", Written(beer(6), "on", on=RO4)),
    ("beer 6 on red 4", Written(beer(6), "on", on=RO4)),
    ("Herzog 2 verlängert Reihe II", Written(duke(2), "extend", row=2)),
    ("Herzog 2 verlaengert Reihe II", Written(duke(2), "extend", row=2)),
    ("H2 drüber II", Written(duke(2), "extend", row=2)),
    ("duke 2 extends row 2", Written(duke(2), "extend", row=2)),
    ("H2 + II", Written(duke(2), "extend", row=2)),
    ("Herzog 3 verkürzt Reihe I", Written(duke(3), "shorten", row=1)),
    ("H1 drunter III", Written(duke(1), "shorten", row=3)),
    ("duke 1 shortens row 3", Written(duke(1), "shorten", row=3)),
    ("H1 -III", Written(duke(1), "shorten", row=3)),
    # Kreuz & Quer
    ("Kanone bl5 auf B4", Written(cannon("bl", 5), "cell", cell="B4")),
    ("blue 5 at b4", Written(cannon("bl", 5), "cell", cell="B4")),
    ("ro4 nach A1", Written(RO4, "cell", cell="A1")),
    ("ro4 O von ge2", Written(RO4, "rel", toward="O", anchor=GE2)),
    ("red4 E of yel2", Written(RO4, "rel", toward="O", anchor=GE2)),
    ("rot 4 rechts von gelb 2", Written(RO4, "rel", toward="O", anchor=GE2)),
    ("ro4 links von ge2", Written(RO4, "rel", toward="W", anchor=GE2)),
    ("ro4 über ge2", Written(RO4, "rel", toward="N", anchor=GE2)),
    ("ro4 unter ge2", Written(RO4, "rel", toward="S", anchor=GE2)),
    ("ro4 NO von ge2", Written(RO4, "rel", toward="NO", anchor=GE2)),
    ("red4 NE of yel2", Written(RO4, "rel", toward="NO", anchor=GE2)),
    ("ro4 SW sw3", Written(RO4, "rel", toward="SW", anchor=cannon("sw", 3))),
    ("Kanone ro4", Written(RO4, "bare")),
    ("Bier 0 auf bl2", Written(beer(0), "on", on=cannon("bl", 2))),
    ("Bier 0 auf B4", Written(beer(0), "on", cell="B4")),
    ("Herzog 7 auf gr1 Zeile", Written(duke(7), "on", on=cannon("gr", 1), line="zeile")),
    ("duke 7 on gr1 row", Written(duke(7), "on", on=cannon("gr", 1), line="zeile")),
    ("H7 auf C2 Spalte", Written(duke(7), "on", cell="C2", line="spalte")),
    ("duke 7 on grn1 column", Written(duke(7), "on", on=cannon("gr", 1), line="spalte")),
    ("H7 auf gr1", Written(duke(7), "on", on=cannon("gr", 1))),
    # the two-letter codes an English mail shows (re ye bl gr bk wh)
    ("re4 E of ye2", Written(RO4, "rel", toward="O", anchor=GE2)),
    ("cannon bk3 at B4", Written(cannon("sw", 3), "cell", cell="B4")),
    ("beer 8 on wh3", Written(beer(8), "on", on=cannon("ws", 3))),
    ("re4 right of ye2", Written(RO4, "rel", toward="O", anchor=GE2)),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_written_forms(text: str, expected: Written) -> None:
    assert parsed(text) == [expected]


def test_headers_plans_and_done() -> None:
    assert parsed("Zug: 17") == [Ignored()]
    assert parsed("Turn 17") == [Ignored()]
    assert parsed("Spiel: HS-2") == [Ignored()]
    assert parsed("FERTIG") == [Ignored()]
    assert parsed("PLAN:") == [PlanHead(standing=False)]
    assert parsed("Dauerplan:") == [PlanHead(standing=True)]
    assert parsed("Dauer-Plan:") == [PlanHead(standing=True)]  # as "standing-plan"
    assert parsed("Dauer Plan:") == [PlanHead(standing=True)]
    assert parsed("STANDING PLAN:") == [PlanHead(standing=True)]
    assert parsed("Standing plan: re4 E of ye2") == [
        PlanHead(standing=True),
        Written(RO4, "rel", toward="O", anchor=GE2),
    ]
    assert parsed("PLAN: ro4 O von ge2") == [
        PlanHead(standing=False),
        Written(RO4, "rel", toward="O", anchor=GE2),
    ]
    assert parsed("2. ro4 O von ge2") == [Written(RO4, "rel", toward="O", anchor=GE2)]


@pytest.mark.parametrize("text", ["xyz", "ro4 auf", "Bier", "Herzog 2 verlängert", "passe"])
def test_not_understood(text: str) -> None:
    with pytest.raises(UnexpectedInput):
        parse_line(text)
