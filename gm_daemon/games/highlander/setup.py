"""The set-up: the secret centre ballot (HL-3 … HL-6), the fixed set-up (HL-7) and the secret
unit placement (HL-8).

Checks return ``Fault``s (a phrase key and its values) rather than text, so the same rule
speaks German or English in the reply; ``reading.py`` turns them into protocol Problems.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from gm_daemon.diplomacy import ARMY, FLEET, LAND, name_key
from gm_daemon.games.highlander import boards
from gm_daemon.games.highlander.model import BALLOT_SIZES, BoardState, State
from gm_daemon.games.protocol import Fix

# Only the 34 centres can be meant in a list, so a looser match than for orders is safe: it
# still takes "Mnu" for Mun and "Lodnon" for Lon, and gives the whole list for "Xyz".
CENTRE_CUTOFF = 0.6
ARMY_ONLY = ("BUD", "MOS", "MUN", "PAR", "SER", "VIE", "WAR")  # HL-8: the landlocked centres
TWO_COASTS = ("BUL", "SPA", "STP")
_COASTS = {
    "nc": "NC", "nk": "NC", "sc": "SC", "sk": "SC", "ec": "EC", "ok": "EC",
    "north coast": "NC", "nordkueste": "NC", "south coast": "SC", "suedkueste": "SC",
    "east coast": "EC", "ostkueste": "EC",
}  # fmt: skip
_UNIT = re.compile(
    r"^\s*(?P<kind>a|f|army|fleet|armee|flotte)\.?\s+(?P<place>[^/(]+?)\s*"
    r"(?:(?:/|\()\s*(?P<coast>[^)]*?)\s*\)?)?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Fault:
    """A rule broken by an entry: ``key`` names the phrase, ``values`` fill it."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)
    hint: str = ""
    hint_values: Mapping[str, object] = field(default_factory=dict)
    fix: Fix | None = None  # the suggestion as data (``hint`` says it in words)


# --- the centre ballot ---------------------------------------------------------------------


def centre_of(
    written: str, taken: Collection[str] = (), choices: Collection[str] | None = None
) -> str | Fault:
    """The centre a written name means (``Mün``, ``München``, ``MUN``), or why not. A guess
    for a misspelt name is one of ``choices`` (the player's own starting centres in a
    placement) and none of those ``taken`` (named elsewhere in the same list): the list with
    the guess put in must be one the reader accepts."""
    b = boards.board()
    province = b.lookup(written)
    if province is None:
        among = frozenset(
            p
            for p in b.supply_centers
            if b.names[p] not in taken and (choices is None or b.names[p] in choices)
        )
        guess = b.closest(written, among=among, cutoff=CENTRE_CUTOFF)
        if guess is None:
            return Fault("unknown_centre", {"name": written.strip()}, "centre_list_hint")
        place = b.names[guess]
        return Fault("unknown_centre", {"name": written.strip()}, "centre_guess_hint",
                     {"place": place}, Fix(place, written.strip(), guess=True))  # fmt: skip
    if province not in b.supply_centers:
        return Fault("not_a_centre", {"name": b.names[province]}, "centre_list_hint")
    return b.names[province]


def check_ballot(centres: Sequence[str], state: State, unread: int = 0) -> list[Fault]:
    """The whole list: exactly N distinct nameable centres (A-2), and 3A on the first ballot
    (HL-6, A-4). Entries were each checked by ``centre_of`` already; ``unread`` counts the
    entries that named no centre, so a list with a typo is not also told it is too short
    (the typo is reported on its own line, the other rules in the same reply)."""
    faults = []
    size = state.ballot_size
    twice = sorted({c for c in centres if centres.count(c) > 1})
    if twice:
        faults.append(Fault("centre_twice", {"centres": ", ".join(twice)}))
    barred = [c for c in centres if c in state.excluded]
    if barred:
        faults.append(Fault("centre_excluded", {"centres": ", ".join(barred)}, "excluded_hint",
                            {"centres": ", ".join(state.excluded)}))  # fmt: skip
    if len(set(centres)) + unread != size:
        count = len(set(centres)) + unread
        faults.append(Fault("centre_count", {"count": count, "size": size}))
    if state.options.opt_3A and state.ballot == 1:
        missing = [p for p, homes in home_groups().items() if not set(homes) & set(centres)]
        if missing:
            faults.append(Fault("opt_3a_missing", {"powers": tuple(missing)}, "opt_3a_hint"))
    return faults


def home_groups() -> dict[str, list[str]]:
    """The seven powers' home centres (option 3A, HL-6)."""
    b = boards.board()
    return {power: sorted(b.names[p] for p in homes) for power, homes in sorted(b.homes.items())}


def allocate(lists: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """HL-4: named by one player -> his; by both or neither -> neutral."""
    owners = {}
    for seat, named in lists.items():
        others = set().union(*(set(v) for s, v in lists.items() if s != seat))
        owners.update({c: seat for c in named if c not in others})
    return owners


def reballot_needed(state: State, lists: Mapping[str, Sequence[str]]) -> bool:
    """Identical lists (HL-5), or with ``min_start_scs`` too few centres each (A-3)."""
    first, second = (set(v) for v in lists.values())
    if first == second:
        return True
    minimum = state.options.min_start_scs
    return minimum is not None and len(first - second) < minimum


def next_ballot(state: State, lists: Mapping[str, Sequence[str]]) -> bool:
    """Move to the next ballot, excluding every centre named; False when none is left
    (after the third ballot, or too few centres remain): the fixed set-up applies."""
    state.excluded = sorted(set(state.excluded).union(*map(set, lists.values())))
    if state.ballot >= len(BALLOT_SIZES):
        return False
    state.ballot += 1
    return len(boards.centres()) - len(state.excluded) >= state.ballot_size


# --- the unit placement ------------------------------------------------------------------


def parse_entry(
    text: str, taken: Collection[str] = (), choices: Collection[str] | None = None
) -> tuple[str, str, str | None] | Fault:
    """``"F StP/sk"`` -> ("F", "STP", "SC"); the written form only, not its legality."""
    match = _UNIT.match(text)
    if match is None:
        return Fault("unit_form", {"entry": text.strip()}, "unit_form_hint")
    kind = FLEET if match["kind"][0].lower() == "f" else ARMY
    centre = centre_of(match["place"], taken, choices)
    if isinstance(centre, Fault):
        return centre
    coast = None
    if match["coast"]:
        coast = _COASTS.get(name_key(match["coast"]))
        if coast is None:
            return Fault("unknown_coast", {"coast": match["coast"]}, "coast_hint")
    return kind, centre, coast


def check_entry(text: str, own: Sequence[str], taken: Collection[str] = ()) -> str | Fault:
    """One placement entry against the seat's starting centres: the unit token or why not;
    a misspelt centre is guessed among those of ``own`` no other entry ``taken``."""
    parsed = parse_entry(text, taken, own)
    if isinstance(parsed, Fault) and parsed.key == "unit_form" and own:
        return replace(parsed, hint="unit_form_own", hint_values={"unit": f"A {own[0]}"})
    if isinstance(parsed, Fault):
        return parsed
    kind, centre, coast = parsed
    if centre not in own:
        return Fault("not_your_centre", {"centre": centre}, "your_centres",
                     {"centres": ", ".join(own)})  # fmt: skip
    found = unit_at(kind, centre, coast)
    if isinstance(found, Fault) and found.fix is not None:  # the entry as written is replaced
        return replace(found, fix=found.fix._replace(wrong=text.strip()))
    return found


def unit_at(kind: str, centre: str, coast: str | None) -> str | Fault:
    """The unit token of a unit placed in (or built in) ``centre``: terrain and coasts."""
    b = boards.board()
    province = b.loc(centre)
    if kind == ARMY:
        return f"A {centre}"
    if b.terrain[province] == LAND:
        return Fault("army_only", {"centre": centre}, "army_only_hint", {"centre": centre},
                     Fix(f"A {centre}"))  # fmt: skip
    if b.coasts[province]:
        loc = b.coast_of(province, coast) if coast else None
        if loc is None:
            first, second = (f"F {b.names[c]}" for c in b.coasts[province])
            return Fault("coast_needed", {"centre": centre}, "coast_choices",
                         {"first": first, "second": second}, Fix(first))  # fmt: skip
        return f"F {b.names[loc]}"
    return f"F {centre}"


def check_placement(tokens: Sequence[str], own: Sequence[str]) -> list[Fault | None]:
    """Two units in one centre (TC-HL-3), per entry (None where it is fine): the second
    unit is at fault, with a starting centre still free in its place (or left out, when
    none is)."""
    seen: dict[str, str] = {}
    faults: list[Fault | None] = []
    free = [c for c in own if c not in {boards.province(t) for t in tokens}]
    for token in tokens:
        centre = boards.province(token)
        fault = None
        if centre in seen:
            right = f"A {free.pop(0)}" if free else ""
            hint = ("two_units_hint", {"unit": right}) if right else ("two_units_drop", {})
            fault = Fault("two_units", {"centre": centre, "first": seen[centre]}, *hint,
                          Fix(right, token))  # fmt: skip
        seen.setdefault(centre, token)
        faults.append(fault)
    return faults


def complete(tokens: Sequence[str], own: Sequence[str]) -> list[str]:
    """The placement with an army in every starting centre left out (HL-8, A-5)."""
    placed = {boards.province(t) for t in tokens}
    return sorted([*tokens, *(f"A {c}" for c in own if c not in placed)], key=boards.province)


# --- the fixed set-up (3B) ---------------------------------------------------------------


def check_fixed_setup(lists: Sequence[Sequence[str]]) -> None:
    """Raise ValueError naming what is wrong with ``fixed_setup`` (two unit lists)."""
    if len(lists) != 2:
        raise ValueError("fixed_setup needs two unit lists, the first seat's first")
    problems = []
    seen: set[str] = set()
    for i, entries in enumerate(lists, start=1):
        for text in entries:
            parsed = parse_entry(text)
            token = unit_at(*parsed) if not isinstance(parsed, Fault) else parsed
            if isinstance(token, Fault):
                problems.append(f"list {i}: {text!r}: {token.key}")
            elif boards.province(token) in seen:
                problems.append(f"list {i}: {text!r}: a second unit in that centre")
            else:
                seen.add(boards.province(token))
    if problems:
        raise ValueError("fixed_setup: " + "; ".join(problems))


def fixed_board(lists: Sequence[Sequence[str]], seats: Sequence[str]) -> BoardState:
    """Board A of the fixed set-up: each unit's centre is its seat's starting centre."""
    board = BoardState(name="A")
    for seat, entries in zip(seats, lists, strict=True):
        tokens = [unit_at(*parse_entry(t)) for t in entries]  # type: ignore[misc]
        board.units[seat] = sorted(map(str, tokens), key=boards.province)
        board.starting[seat] = sorted(boards.province(str(t)) for t in tokens)
        board.owners.update({c: seat for c in board.starting[seat]})
    return board
