from gm_daemon.games.protocol import Line
from gm_daemon.intake import read_envelope


def lines(*texts: str) -> list[Line]:
    return [Line(no, text) for no, text in enumerate(texts, start=1)]


def test_header_lines_are_taken_out_and_numbers_kept():
    envelope = read_envelope(
        lines("Code: ABCD-1234", "Spiel: hn1", "Runde: 5", "Duelle", "H. Glück 19, 15", "FERTIG")
    )
    assert envelope.code == "ABCD-1234"
    assert envelope.game == "hn1"
    assert envelope.phase == 5
    assert [(line.no, line.text) for line in envelope.lines] == [
        (4, "Duelle"),
        (5, "H. Glück 19, 15"),
    ]


def test_english_headers_and_commands():
    envelope = read_envelope(lines("Game: [hn1]", "Round: 2", "HELP"))
    assert (envelope.game, envelope.phase, envelope.command) == ("hn1", 2, "help")


def test_command_only_as_first_word():
    assert read_envelope(lines("Zurückziehen")).command == "withdraw"
    assert read_envelope(lines("Stand")).command == "status"
    envelope = read_envelope(lines("Duelle", "Status"))
    assert envelope.command is None
    assert len(envelope.lines) == 2


def test_round_words_without_a_number_reach_the_game():
    envelope = read_envelope(lines("Runde: fünf", "Zug: Nord+, Ost+", "Zugabgabe: O+"))
    assert envelope.phase is None
    assert len(envelope.lines) == 3


def test_round_number_with_a_comment():
    envelope = read_envelope(lines("Runde: 5 (Frühjahr)"))
    assert envelope.phase == 5 and envelope.phase_text == "Runde: 5 (Frühjahr)"


def test_code_and_round_without_colon():
    envelope = read_envelope(lines("Code ABCD-1234", "Runde 5", "Game over?"))
    assert envelope.code == "ABCD-1234"
    assert envelope.phase == 5
    assert [line.text for line in envelope.lines] == ["Game over?"]
