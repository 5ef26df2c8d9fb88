"""The standard Diplomacy map, read from the package's own data files and precomputed.

Locations are numbered once at load time: the 76 provinces first (index = province id), then
the six named coasts (STP/NC, STP/SC, SPA/NC, SPA/SC, BUL/EC, BUL/SC). Everything the
adjudicator asks in its inner loops is then a tuple lookup by int; no string reaches it.

The loader validates the data (symmetric adjacency, coasts consistent with terrain, known
names, unique aliases) so that a typo in a data file fails loudly at start-up instead of
producing a quietly wrong adjudication.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from gm_daemon.games.kit import names

ARMY = "A"
FLEET = "F"

LAND = "land"
COAST = "coast"
SEA = "sea"
IMPASSABLE = "impassable"
TERRAINS = (LAND, COAST, SEA, IMPASSABLE)

COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


class MapError(ValueError):
    """The map data is inconsistent; the message lists every problem found."""


def name_key(text: str) -> str:
    """The form names are compared in: folded, punctuation and hyphens as single spaces
    (the toolkit's, as players' names are compared)."""
    return names.key(text)


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """A map with every question the engine asks precomputed into tuples of ints."""

    names: tuple[str, ...]  # loc -> "STP/NC"
    full_names: tuple[str, ...]  # loc -> "St Petersburg (north coast)"
    province_of: tuple[int, ...]  # loc -> its province
    coast_code: tuple[str | None, ...]  # loc -> "NC" for a coast, None for a province
    n_provinces: int
    terrain: tuple[str, ...]  # province -> LAND / COAST / SEA / IMPASSABLE
    coasts: tuple[tuple[int, ...], ...]  # province -> its named coasts (mostly empty)
    army_adj: tuple[frozenset[int], ...]  # province -> provinces an army may move to
    fleet_adj: tuple[frozenset[int], ...]  # loc -> locs a fleet there may move to
    fleet_reach: tuple[frozenset[int], ...]  # loc -> provinces a fleet there may enter
    sea_adj: tuple[frozenset[int], ...]  # province -> adjacent sea provinces (convoy legs)
    any_adj: tuple[frozenset[int], ...]  # province -> provinces adjacent by land or sea
    supply_centers: frozenset[int]
    homes: Mapping[str, tuple[int, ...]]  # power -> home centres of the standard game
    aliases: Mapping[str, int]  # name_key(alias) -> province
    tokens: Mapping[str, int]  # "STP/NC" -> loc
    unit_names: Mapping[str, tuple[str, ...]]  # ARMY / FLEET -> loc -> "F STP/NC"

    # --- names -----------------------------------------------------------------------
    def loc(self, token: str) -> int:
        """The location of an exact token such as "STP/SC" or "lon"; KeyError otherwise."""
        return self.tokens[token.strip().upper()]

    def lookup(self, name: str) -> int | None:
        """The province a written name means (abbreviation, full name or alias), or None."""
        return self.aliases.get(name_key(name))

    def closest(
        self, name: str, among: frozenset[int] | None = None, cutoff: float = 0.75
    ) -> int | None:
        """The province a misspelt name most likely means (of ``among``, if given), or None
        when none is close or two are equally close: what a reply suggests for a name
        ``lookup`` does not know, found as players' names are (``kit.names.nearest``)."""
        spellings = [(k, p) for k, p in self.aliases.items() if among is None or p in among]
        close = names.nearest(name_key(name), spellings, cutoff=cutoff)
        return close[0] if len(close) == 1 else None

    def coast_of(self, province: int, code: str) -> int | None:
        """The coast location ``code`` ("NC") of ``province``, or None if it has no such coast."""
        for c in self.coasts[province]:
            if self.coast_code[c] == code:
                return c
        return None

    # --- geography -------------------------------------------------------------------
    def is_sea(self, province: int) -> bool:
        return self.terrain[province] == SEA

    def is_coastal(self, province: int) -> bool:
        return self.terrain[province] == COAST

    def can_stand(self, kind: str, loc: int) -> bool:
        """Whether a unit of ``kind`` may stand at ``loc`` (fleets need a coast, armies land)."""
        terrain = self.terrain[self.province_of[loc]]
        if kind == ARMY:
            return terrain in (LAND, COAST)
        if terrain == SEA:
            return True
        if terrain != COAST:
            return False
        has_coasts = bool(self.coasts[self.province_of[loc]])
        return (self.coast_code[loc] is not None) == has_coasts


# --- loading ---------------------------------------------------------------------------


def _rows(text: str) -> list[dict[str, str]]:
    """CSV rows as dicts, skipping blank lines and ``#`` comments."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return [{k: (v or "").strip() for k, v in row.items()} for row in csv.DictReader(lines)]


def _read(name: str) -> str:
    return (resources.files(__package__) / "data" / name).read_text(encoding="utf-8")


@cache
def alias_sections() -> Mapping[str, tuple[tuple[str, str], ...]]:
    """The standard map's extra spellings by the section of ``data/aliases.csv`` they stand in
    ("German names (…)" -> ``("Adria", "ADR")``, …), in the file's order: a user that writes
    place names (Highlander's German mails) takes them from the reader's own list."""
    sections: dict[str, list[tuple[str, str]]] = {}
    section = ""
    for line in _read("aliases.csv").splitlines():
        if line.startswith("# ---"):
            section = line.strip("#- ")
        elif line.strip() and not line.startswith("#") and line != "alias,location":
            alias, place = line.rsplit(",", 1)
            sections.setdefault(section, []).append((alias.strip(), place.strip().upper()))
    return MappingProxyType({k: tuple(v) for k, v in sections.items()})


@cache
def standard_board() -> Board:
    """The standard map, loaded and validated once per process."""
    return build_board(_read("provinces.csv"), _read("adjacency.csv"), _read("aliases.csv"))


def build_board(provinces_csv: str, adjacency_csv: str, aliases_csv: str) -> Board:
    """Build and validate a board from the three CSV texts; raises MapError on bad data."""
    provinces = _rows(provinces_csv)
    problems: list[str] = []
    names: list[str] = [p["abbr"].upper() for p in provinces]
    full: list[str] = [p["name"] for p in provinces]
    terrain: list[str] = [p["terrain"] for p in provinces]
    province_of: list[int] = list(range(len(provinces)))
    code: list[str | None] = [None] * len(provinces)
    coasts: list[list[int]] = [[] for _ in provinces]
    for pid, p in enumerate(provinces):
        if terrain[pid] not in TERRAINS:
            problems.append(f"{names[pid]}: unknown terrain {terrain[pid]!r}")
        for c in p["coasts"].upper().split():
            if terrain[pid] != COAST:
                problems.append(f"{names[pid]}: only coastal provinces have named coasts")
            loc = len(names)
            names.append(f"{names[pid]}/{c}")
            full.append(f"{full[pid]} ({COAST_NAMES.get(c, c.lower())})")
            province_of.append(pid)
            code.append(c)
            coasts[pid].append(loc)
    if len(set(names)) != len(names):
        problems.append("duplicate province abbreviations")
    index = {n: i for i, n in enumerate(names)}
    army, fleet = _read_adjacency(adjacency_csv, index, problems)
    _check_adjacency(names, terrain, province_of, code, coasts, army, fleet, problems)
    centers, homes = _read_centers(provinces, names, terrain, problems)
    aliases = _read_aliases(aliases_csv, names, full, index, province_of, problems)
    if problems:
        raise MapError("invalid map data:\n  " + "\n  ".join(problems))
    n = len(provinces)
    fleet_reach = [frozenset(province_of[x] for x in fleet[loc]) for loc in range(len(names))]
    sea_adj = []
    any_adj = []
    for pid in range(n):
        locs = [pid, *coasts[pid]]
        reach = set().union(*(fleet_reach[loc] for loc in locs))
        sea_adj.append(frozenset(q for q in reach if terrain[q] == SEA))
        any_adj.append(frozenset(reach | army[pid]))
    return Board(
        names=tuple(names),
        full_names=tuple(full),
        province_of=tuple(province_of),
        coast_code=tuple(code),
        n_provinces=n,
        terrain=tuple(terrain),
        coasts=tuple(tuple(c) for c in coasts),
        army_adj=tuple(frozenset(army[p]) for p in range(n)),
        fleet_adj=tuple(frozenset(fleet[loc]) for loc in range(len(names))),
        fleet_reach=tuple(fleet_reach),
        sea_adj=tuple(sea_adj),
        any_adj=tuple(any_adj),
        supply_centers=frozenset(centers),
        homes=MappingProxyType({k: tuple(v) for k, v in homes.items()}),
        aliases=MappingProxyType(aliases),
        tokens=MappingProxyType(dict(index)),
        unit_names=MappingProxyType({k: tuple(f"{k} {x}" for x in names) for k in (ARMY, FLEET)}),
    )


def _read_adjacency(
    text: str, index: Mapping[str, int], problems: list[str]
) -> tuple[list[set[int]], list[set[int]]]:
    army: list[set[int]] = [set() for _ in index]
    fleet: list[set[int]] = [set() for _ in index]
    for row in _rows(text):
        loc = index.get(row["location"].upper())
        if loc is None:
            problems.append(f"adjacency: unknown location {row['location']!r}")
            continue
        table = {"army": army, "fleet": fleet}.get(row["unit"])
        if table is None:
            problems.append(f"adjacency {row['location']}: unit must be army or fleet")
            continue
        for name in row["neighbours"].upper().split():
            if name not in index:
                problems.append(f"adjacency {row['location']}: unknown neighbour {name!r}")
            else:
                table[loc].add(index[name])
    return army, fleet


def _check_adjacency(
    names: list[str],
    terrain: list[str],
    province_of: list[int],
    code: list[str | None],
    coasts: list[list[int]],
    army: list[set[int]],
    fleet: list[set[int]],
    problems: list[str],
) -> None:
    """No one-way borders, armies only on land, fleets only on sea or a definite coast."""

    def fleet_ok(loc: int) -> bool:
        t = terrain[province_of[loc]]
        if t == SEA:
            return True
        return t == COAST and (code[loc] is not None) == bool(coasts[province_of[loc]])

    for loc, nbrs in enumerate(army):
        for other in nbrs:
            if loc not in army[other]:
                problems.append(f"army border {names[loc]}-{names[other]} is one-way")
            if code[loc] or code[other]:
                problems.append(f"army border {names[loc]}-{names[other]} names a coast")
            if SEA in (terrain[province_of[loc]], terrain[province_of[other]]) or IMPASSABLE in (
                terrain[province_of[loc]],
                terrain[province_of[other]],
            ):
                problems.append(f"army border {names[loc]}-{names[other]} leaves the land")
    for loc, nbrs in enumerate(fleet):
        for other in nbrs:
            if loc not in fleet[other]:
                problems.append(f"fleet border {names[loc]}-{names[other]} is one-way")
            if not (fleet_ok(loc) and fleet_ok(other)):
                problems.append(f"fleet border {names[loc]}-{names[other]} needs water or a coast")
            if province_of[loc] == province_of[other]:
                problems.append(f"fleet border {names[loc]}-{names[other]} inside one province")
    for pid, t in enumerate(terrain[: len(coasts)]):
        reachable = army[pid] or any(fleet[x] for x in [pid, *coasts[pid]])
        if t != IMPASSABLE and not reachable:
            problems.append(f"{names[pid]} has no neighbours")
        if t == IMPASSABLE and reachable:
            problems.append(f"{names[pid]} is impassable but has neighbours")
        if t == COAST and not any(fleet[x] for x in [pid, *coasts[pid]]):
            problems.append(f"{names[pid]} is coastal but no fleet can reach it")


def _read_centers(
    provinces: list[dict[str, str]], names: list[str], terrain: list[str], problems: list[str]
) -> tuple[set[int], dict[str, list[int]]]:
    centers: set[int] = set()
    homes: dict[str, list[int]] = {}
    for pid, p in enumerate(provinces):
        if p["supply_center"] not in ("yes", "no"):
            problems.append(f"{names[pid]}: supply_center must be yes or no")
        if p["supply_center"] == "yes":
            if terrain[pid] not in (LAND, COAST):
                problems.append(f"{names[pid]}: a supply centre must be on land")
            centers.add(pid)
        if p["home_of"]:
            if pid not in centers:
                problems.append(f"{names[pid]}: a home centre must be a supply centre")
            homes.setdefault(p["home_of"], []).append(pid)
    return centers, homes


def _read_aliases(
    text: str,
    names: list[str],
    full: list[str],
    index: Mapping[str, int],
    province_of: list[int],
    problems: list[str],
) -> dict[str, int]:
    """Abbreviations and full names of provinces, then the extra aliases; no key twice."""
    aliases: dict[str, int] = {}

    def add(alias: str, pid: int, origin: str) -> None:
        key = name_key(alias)
        if not key:
            problems.append(f"{origin}: empty alias")
        elif aliases.get(key, pid) != pid:
            problems.append(f"{origin}: alias {alias!r} already means {names[aliases[key]]}")
        else:
            aliases[key] = pid

    n = len(province_of) - sum(1 for i, p in enumerate(province_of) if p != i)
    for pid in range(n):
        add(names[pid], pid, "provinces")
        add(full[pid], pid, "provinces")
    for row in _rows(text):
        target = index.get(row["location"].upper())
        if target is None or province_of[target] != target:
            problems.append(f"aliases: {row['alias']!r} names unknown province {row['location']}")
            continue
        add(row["alias"], target, "aliases")
    return aliases


def describe(board: Board, locs: Iterable[int]) -> str:
    """Locations as a readable list of tokens: "SPA/NC, SPA/SC"."""
    return ", ".join(board.names[loc] for loc in locs)
