"""The standard map as the package ships it, and the loader's refusal of bad data."""

from __future__ import annotations

import pytest

from gm_daemon.diplomacy.board import (
    COAST,
    IMPASSABLE,
    SEA,
    MapError,
    _read,
    build_board,
    standard_board,
)

B = standard_board()


def p(name: str) -> int:
    return B.loc(name)


def test_provinces_coasts_and_centres() -> None:
    assert B.n_provinces == 76
    assert sorted(B.names[B.n_provinces :]) == [
        "BUL/EC", "BUL/SC", "SPA/NC", "SPA/SC", "STP/NC", "STP/SC",
    ]  # fmt: skip
    assert len(B.supply_centers) == 34
    assert sum(1 for t in B.terrain if t == SEA) == 19
    assert B.terrain[p("SWI")] == IMPASSABLE
    assert not B.army_adj[p("SWI")] and not B.any_adj[p("SWI")]
    homes = {power: sorted(B.names[x] for x in provs) for power, provs in B.homes.items()}
    assert homes == {
        "Austria": ["BUD", "TRI", "VIE"],
        "England": ["EDI", "LON", "LVP"],
        "France": ["BRE", "MAR", "PAR"],
        "Germany": ["BER", "KIE", "MUN"],
        "Italy": ["NAP", "ROM", "VEN"],
        "Russia": ["MOS", "SEV", "STP", "WAR"],
        "Turkey": ["ANK", "CON", "SMY"],
    }


def test_adjacency_is_symmetric_and_counted() -> None:
    for a, nbrs in enumerate(B.army_adj):
        assert all(a in B.army_adj[b] for b in nbrs)
    for a, nbrs in enumerate(B.fleet_adj):
        assert all(a in B.fleet_adj[b] for b in nbrs)
    assert sum(map(len, B.army_adj)) // 2 == 111
    assert sum(map(len, B.fleet_adj)) // 2 == 141


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        # borders easy to get wrong (DATC ch. 4: Norway-St Petersburg for both; LVP-NAO yes,
        # CLY-IRI no) and some a transcription can drop
        ("army", "NWY", "STP"),
        ("fleet", "NWY", "STP/NC"),
        ("fleet", "LVP", "NAO"),
        ("army", "GAL", "UKR"),
        ("army", "LVN", "WAR"),
        ("fleet", "BOT", "STP/SC"),
        ("fleet", "BOT", "FIN"),
        ("fleet", "CON", "SMY"),
        ("fleet", "MAO", "SPA/SC"),
        ("fleet", "TUS", "TYS"),
        ("fleet", "CON", "BUL/EC"),
        ("fleet", "CON", "BUL/SC"),
    ],
)
def test_borders_that_exist(kind: str, a: str, b: str) -> None:
    if kind == "army":
        assert p(b) in B.army_adj[p(a)]
    else:
        assert p(b) in B.fleet_adj[p(a)]


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("fleet", "CLY", "IRI"),
        ("fleet", "ROM", "VEN"),
        ("fleet", "EDI", "LVP"),
        ("fleet", "SPA/NC", "LYO"),
        ("army", "ANK", "BLA"),
        ("fleet", "ANK", "SMY"),
        ("army", "BOH", "SWI"),
    ],
)
def test_borders_that_do_not_exist(kind: str, a: str, b: str) -> None:
    table = B.army_adj if kind == "army" else B.fleet_adj
    assert p(b) not in table[p(a)]


@pytest.mark.parametrize(
    ("alias", "token"),
    [
        ("NAT", "NAO"), ("North Atlantic Ocean", "NAO"), ("MID", "MAO"), ("Mid-Atlantic", "MAO"),
        ("GOL", "LYO"), ("Gulf of Lyons", "LYO"), ("NRG", "NWG"), ("Norwegian Sea", "NWG"),
        ("GOB", "BOT"), ("St. Petersburg", "STP"), ("stp", "STP"), ("Heligoland Bight", "HEL"),
        ("München", "MUN"), ("Muenchen", "MUN"), ("Nordsee", "NTH"), ("Preußen", "PRU"),
    ],
)  # fmt: skip
def test_aliases(alias: str, token: str) -> None:
    assert B.lookup(alias) == p(token)


def test_can_stand() -> None:
    assert B.can_stand("F", p("STP/NC")) and not B.can_stand("F", p("STP"))
    assert B.can_stand("A", p("STP")) and not B.can_stand("A", p("NTH"))
    assert not B.can_stand("F", p("MUN")) and not B.can_stand("A", p("SWI"))
    assert B.is_coastal(p("SPA")) and B.terrain[p("SPA")] == COAST


def _data() -> tuple[str, str, str]:
    return _read("provinces.csv"), _read("adjacency.csv"), _read("aliases.csv")


def test_loader_rejects_a_one_way_border() -> None:
    provinces, adjacency, aliases = _data()
    broken = adjacency.replace("LON,fleet,ENG NTH WAL YOR", "LON,fleet,ENG NTH WAL YOR IRI")
    with pytest.raises(MapError, match=r"fleet border (IRI-LON|LON-IRI) is one-way"):
        build_board(provinces, broken, aliases)


def test_loader_rejects_a_fleet_on_a_split_coast_without_its_coast() -> None:
    provinces, adjacency, aliases = _data()
    broken = adjacency.replace("BAR,fleet,NWG NWY STP/NC", "BAR,fleet,NWG NWY STP/NC STP")
    broken += "STP,fleet,BAR\n"
    with pytest.raises(MapError, match="needs water or a coast"):
        build_board(provinces, broken, aliases)


def test_loader_rejects_armies_at_sea_and_unknown_names() -> None:
    provinces, adjacency, aliases = _data()
    broken = adjacency + "NTH,army,YOR\nYOR,army,NTH\nLON,army,XYZ\n"
    with pytest.raises(MapError) as err:
        build_board(provinces, broken, aliases)
    assert "leaves the land" in str(err.value) and "unknown neighbour 'XYZ'" in str(err.value)


def test_loader_rejects_an_alias_meaning_two_provinces() -> None:
    provinces, adjacency, aliases = _data()
    with pytest.raises(MapError, match="alias 'Paris' already means PAR"):
        build_board(provinces, adjacency, aliases + "Paris,BUR\n")


def test_loader_rejects_coasts_on_a_land_province_and_homes_off_centres() -> None:
    provinces, adjacency, aliases = _data()
    broken = provinces.replace("BUR,Burgundy,land,no,,", "BUR,Burgundy,land,no,France,NC")
    with pytest.raises(MapError) as err:
        build_board(broken, adjacency, aliases)
    assert "only coastal provinces have named coasts" in str(err.value)
    assert "a home centre must be a supply centre" in str(err.value)
