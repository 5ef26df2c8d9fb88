"""The map view the engine builds for the picture: centres by owner, units by player, this
phase's orders as arrows with failed ones marked, dislodged units; and the PNG attached to
results, STATUS and KARTE once ``picture.render_map`` exists."""

from __future__ import annotations

import pytest

from gm_daemon.games.highlander import GAME, boards, views
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit

from .support import play, position

E3_POSITION = {
    "step": "movement",
    "year": 1902,
    "A": {
        "owners": {"P1": "MUN BER LON BRE", "P2": "WAR"},
        "units": {"P1": "A MUN, A BER, F NTH, A LON, F BRE", "P2": "A SIL, A WAR"},
    },
}
E3 = "A Mün - Sil\nA Ber U A Mün - Sil\nF Nordsee K A Lon - Nwy\nA Lon - Nwy\nF Bre hält"


def _view(state, lang: str = "de"):  # type: ignore[no-untyped-def]
    record = state.last.boards[0] if state.last and state.last.boards else None
    return views.map_view(state, state.boards[0], record, "1902 Bewegung", lang)


def test_owners_units_arrows_and_dislodged_after_a_movement() -> None:
    before = position(E3_POSITION)
    after = play(before, {"P1": E3, "P2": "A War - Sil"}).state
    view = _view(after)
    assert view.players == ("Anna", "Bert")
    assert set(view.owners) == set(boards.centres())
    assert view.owners["MUN"] == 0 and view.owners["WAR"] == 1 and view.owners["PAR"] is None
    assert MapUnit(0, "A", "SIL") in view.units  # the position after the phase
    assert MapUnit(0, "A", "NWY") in view.units
    assert MapUnit(1, "A", "WAR") in view.units
    assert list(view.dislodged) == [MapUnit(1, "A", "SIL")]
    assert MapArrow("move", "MUN", "SIL") in view.arrows
    assert MapArrow("support", "BER", "MUN", "SIL") in view.arrows
    assert MapArrow("convoy", "NTH", "LON", "NWY") in view.arrows
    assert MapArrow("hold", "BRE", "BRE") in view.arrows
    assert MapArrow("move", "WAR", "SIL", failed=True) in view.arrows


def test_retreat_arrow_and_no_arrow_for_builds() -> None:
    assert views.arrow("A SIL R BOH", "succeeds") == MapArrow("retreat", "SIL", "BOH")
    assert views.arrow("F MAO - SPA/NC", "fails") == MapArrow("move", "MAO", "SPA/NC", failed=True)
    assert views.arrow("A YOR - NWY VIA", "succeeds") == MapArrow("move", "YOR", "NWY")
    assert views.arrow("BUILD F KIE", "succeeds") is None
    assert views.arrow("REMOVE A BER", "succeeds") is None
    assert views.arrow("A SIL D", "succeeds") is None


def test_tournament_views_name_their_board() -> None:
    state = position({"step": "movement", "A": {"units": {"P1": "A PAR"}},
                      "B": {"units": {"P2": "A PAR"}}}, {"tournament": True})  # fmt: skip
    view = views.map_view(state, state.board("B"), None, "1901", "en")
    assert view.notes == ("Board B",)
    assert view.units == [MapUnit(1, "A", "PAR")]


def test_map_command_results_and_status_carry_the_png() -> None:
    state = position(E3_POSITION)
    [command] = GAME.commands
    assert command.names["de"] == ("KARTE",) and command.names["en"] == ("MAP",)
    [picture] = command.run(state, "P1", "", "de").attachments
    label = GAME.phase_label(state, "de")
    assert (
        command.run(state, "P1", "", "de").subject == f"Karte, {label}"
    )  # for the reply's subject
    assert command.run(state, "P1", "", "en").subject == f"Map, {GAME.phase_label(state, 'en')}"
    assert picture.content_type == "image/png" and picture.data.startswith(b"\x89PNG")
    assert picture.data == views.render(_view(state))
    resolution = play(state, {"P1": E3})
    [result] = GAME.report(state, resolution, "de").attachments
    assert result.data.startswith(b"\x89PNG") and result.data != picture.data
    assert len(GAME.status(resolution.state, "P2", "en").attachments) == 1


def test_a_match_has_one_picture_per_board_and_none_before_the_units() -> None:
    state = position({"step": "movement", "A": {"units": {"P1": "A PAR"}},
                      "B": {"units": {"P2": "A PAR"}}}, {"tournament": True})  # fmt: skip
    names = [a.filename for a in GAME.status(state, "P1", "de").attachments]
    assert names == ["1901-bewegung-a.png", "1901-bewegung-b.png"]
    assert GAME.status(position({"step": "ballot"}), "P1", "de").attachments == []


@pytest.mark.parametrize(
    ("step", "lang", "words", "name"),
    [
        ("ballot", "de", "Die Karte mit den Einheiten kommt mit dem Ergebnis", "zentrenwahl.png"),
        ("ballot", "en", "the map with the units comes with the result", "ballot.png"),
        ("setup", "de", "Angehängt ist das Brett mit den Startzentren", "aufstellung.png"),
        ("setup", "en", "Attached is the board with the starting centres", "setup.png"),
    ],
)
def test_the_map_before_the_setup_explains_itself_and_attaches_the_empty_board(
    step: str, lang: str, words: str, name: str
) -> None:
    """Before any unit stands, KARTE/MAP says when the map with units comes, and sends the
    board as it is: every centre, after the ballot in the players' colours."""
    state = position({"step": step, "A": {"owners": {"P1": "PAR", "P2": "MOS"}}}
                     if step == "setup" else {"step": step})  # fmt: skip
    [command] = GAME.commands
    report = command.run(state, "P1", "", lang)
    assert words in " ".join(report.public.split())
    [picture] = report.attachments
    assert picture.filename == name and picture.data.startswith(b"\x89PNG")
    view = _view(state) if step == "setup" else None
    if view is not None:
        assert view.units == [] and view.owners["PAR"] == 0 and view.owners["MOS"] == 1
