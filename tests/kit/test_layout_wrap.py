"""kit.layout.wrap: prose wrapped for a mail client, a score never split across lines."""

from gm_daemon.games.kit.layout import fit, wrap


def test_a_score_stays_on_one_line() -> None:
    text = "Zentren (30 : 30) und Einheiten (30 : 30) auf beiden Brettern sind gleich: Sudden"
    for width in range(20, len(text)):
        lines = wrap(text, width).splitlines()
        assert all(len(line) <= width for line in lines), width
        assert sum(line.count("30 : 30") for line in lines) == 2, (width, lines)
        assert " ".join(lines) == text


def test_a_colon_between_words_may_still_break() -> None:
    assert wrap("gleich : Sudden Death", 10).splitlines() == ["gleich :", "Sudden", "Death"]


def test_an_initial_stays_with_its_name() -> None:
    """ "A.\nLangsam" reads as a sentence ending in "A." and a word "Langsam"."""
    text = (
        "Challenges: E. Müller→H. Glück; H. Glück→E. Müller; V. Pech→A. Langsam; "
        "A. Langsam→E. Müller"
    )
    for width in range(30, len(text)):
        for lines in (wrap(text, width).splitlines(), fit(text, width).splitlines()):
            assert not any(line.endswith((" A.", " E.", " H.", " V.")) for line in lines), lines
            assert " ".join(lines) == text


def test_a_table_wider_than_a_line_is_left_whole() -> None:
    """Played: Hexenhalma's pairings of four long names came out with every row's last cell
    on a line of its own; a table row may be wider than a mail line (``is_table_line``)."""
    rows = [
        "                  Walburga Kräuter  Rübezahl Hölzl  Gundula Grünwald  Ännchen Wölfle",
        "----------------  ----------------  --------------  ----------------  --------------",
        "Walburga Kräuter                 –             1:1               1:2             2:2",
    ]
    text = "\n".join(["Paarungen (Ankünfte Zeile : Spalte):", *rows])
    assert wrap(text) == text
    prose = "Ein langer Satz ohne Spalten, " * 4
    assert all(len(line) <= 78 for line in wrap(prose).splitlines())
