from gm_daemon.games.protocol import Seat
from gm_daemon.games.text import fold, match_seat

SEATS = [
    Seat("mueller", "E. Müller"),
    Seat("glueck", "H. Glück"),
    Seat("pech", "V. Pech"),
    Seat("pech2", "W. Pechvogel"),
]


def test_fold_writes_umlauts_as_two_letters():
    assert fold("Glück") == fold("Glueck") == "glueck"
    assert fold("Straße") == "strasse"


def test_seed_spellings_match_registered_names():
    assert match_seat("V.Pech", SEATS) == [SEATS[2]]
    assert match_seat("H.Glück", SEATS) == [SEATS[1]]
    assert match_seat("Glueck", SEATS) == [SEATS[1]]
    assert match_seat("e. mueller", SEATS) == [SEATS[0]]


def test_unknown_name_matches_nothing():
    assert match_seat("Langsam", SEATS) == []
