"""How a mail's lines are split: the core takes the code and game lines; the game's engine
says which lines are its phase headers; a leading command word (with arguments) is found
among the game's commands. Checked with the guess game and the kit's numbered header."""

from gm_daemon.commands import HELP, STATUS, WITHDRAW
from gm_daemon.games.kit.headers import numbered_header
from gm_daemon.games.protocol import Header, Line
from gm_daemon.intake import read_envelope


def lines(*texts: str) -> list[Line]:
    return [Line(no, text) for no, text in enumerate(texts, start=1)]


def test_code_and_game_lines_are_taken_out_and_numbers_kept():
    envelope = read_envelope(
        lines("Code: ABCD-1234", "Spiel: hn1", "Runde: 5", "Duelle", "H. Glück 19, 15")
    )
    assert envelope.code == "ABCD-1234"
    assert envelope.code_line == 1
    assert envelope.game == "hn1"
    assert [(line.no, line.text) for line in envelope.lines] == [
        (3, "Runde: 5"),  # a phase header is the game's to read
        (4, "Duelle"),
        (5, "H. Glück 19, 15"),
    ]


def test_english_game_line_and_code_without_colon():
    envelope = read_envelope(lines("Game: [hn1]", "Code ABCD-1234", "HELP"))
    assert (envelope.game, envelope.code) == ("hn1", "ABCD-1234")
    assert [line.text for line in envelope.lines] == ["HELP"]


def test_numbered_headers_name_the_current_phase_or_another():
    words = ("runde", "round")
    assert numbered_header("Runde: 5", words, 5) is Header.CURRENT
    assert numbered_header("Round 5 (spring)", words, 5) is Header.CURRENT
    assert numbered_header("Runde = 4", words, 5) is Header.OTHER


def test_round_words_without_a_number_are_order_lines():
    words = ("runde", "round", "zug", "turn")
    for text in ("Runde: fünf", "Zug: Nord+, Ost+", "Zugabgabe: O+"):
        assert numbered_header(text, words, 5) is None


def test_commands_match_in_either_language_without_case_or_umlauts():
    assert HELP.matches("hilfe") and HELP.matches("HELP")
    assert STATUS.matches("Stand") and STATUS.matches("status")
    assert WITHDRAW.matches("Zurückziehen") and WITHDRAW.matches("zurueckziehen")
    assert not STATUS.matches("Duelle")
