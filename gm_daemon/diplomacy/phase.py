"""One phase as JSON in and JSON out: the stable testing surface other tools use.

    in:  {"phase": "movement" | "retreat" | "adjustment",
          "units":   {"England": ["F LON", "A YOR", "F STP/SC"], ...},
          "centers": {"England": ["LON", "EDI", "LVP"], ...},     (adjustment)
          "homes":   {"England": ["LON", "EDI", "LVP"], ...},     (optional; standard homes)
          "dislodged": {"England": [{"unit": "A BEL", "attacker_from": "BUR"}]},   (retreat;
                       optional "by_convoy": true and "retreats": [...] as the movement gave)
          "contested": ["HOL"],                                    (retreat)
          "orders":  {"England": ["F LON - NTH", "A YOR - NWY VIA"], ...},
          "rules":   {"build_anywhere": false, "rulebook": "2000" | "2023"}}
    out: {"orders": [{"power", "order", "normalized", "result", "reason"}],
          "units": {...after the phase...},
          "dislodged": {"England": [{"unit", "attacker_from", "by_convoy", "retreats"}]},
          "contested": [...]}

Orders the engine supplies (holds of unordered units, civil-disorder removals, disbands of
units without retreat orders) appear with ``"order": null``. Province tokens are the
upper-case standard abbreviations, coasts as ``STP/SC``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from gm_daemon.diplomacy.adjustments import adjudicate_adjustments
from gm_daemon.diplomacy.board import ARMY, FLEET, Board, standard_board
from gm_daemon.diplomacy.movement import adjudicate_movement
from gm_daemon.diplomacy.orders import Order, Unit
from gm_daemon.diplomacy.reader import OrderError, read_order
from gm_daemon.diplomacy.results import INVALID, Dislodgement, Outcome
from gm_daemon.diplomacy.retreats import adjudicate_retreats, retreat_options
from gm_daemon.diplomacy.rules import Rules

PHASES = ("movement", "retreat", "adjustment")


class PhaseError(ValueError):
    """The phase description itself is wrong (not an order: those get an outcome)."""


def run(data: Any, board: Board | None = None) -> Any:
    """A phase object gives a result object; a list of phases a list of results."""
    if isinstance(data, list):
        return [run_phase(item, board) for item in data]
    return run_phase(data, board)


def run_phase(data: Any, board: Board | None = None) -> dict[str, Any]:
    board = board or standard_board()
    if not isinstance(data, dict):
        raise PhaseError("a phase is a JSON object")
    phase = data.get("phase")
    if phase not in PHASES:
        raise PhaseError(f"phase must be one of {', '.join(PHASES)}")
    rules = _rules(data.get("rules") or {})
    units = _units(board, _mapping(data, "units"))
    texts, orders, unread = _orders(board, _mapping(data, "orders"))
    dislodged: Sequence[Dislodgement] = ()
    contested: frozenset[int] = frozenset()
    if phase == "movement":
        moved = adjudicate_movement(board, units, orders, rules)
        outcomes, after = moved.outcomes, moved.units
        dislodged, contested = moved.dislodged, moved.contested
    elif phase == "retreat":
        gone = _dislodged(board, units, data)
        retreated = adjudicate_retreats(board, units, gone, orders)
        outcomes, after = retreated.outcomes, retreated.units
    else:
        centers = _provinces_by_power(board, _mapping(data, "centers"), "centers")
        homes = (
            _provinces_by_power(board, _mapping(data, "homes"), "homes")
            if "homes" in data
            else board.homes
        )
        adjusted = adjudicate_adjustments(board, units, centers, homes, orders, rules)
        outcomes, after = adjusted.outcomes, adjusted.units
    powers = list(dict.fromkeys([*_mapping(data, "units"), *_mapping(data, "centers")]))
    return {
        "orders": _outcomes_json(outcomes, texts, unread),
        "units": _units_json(board, after, powers),
        "dislodged": _dislodged_json(board, dislodged),
        "contested": sorted(board.names[p] for p in contested),
    }


# --- reading -----------------------------------------------------------------------------


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise PhaseError(f"{key} must be an object keyed by power")
    return value


def _rules(raw: Any) -> Rules:
    if not isinstance(raw, dict):
        raise PhaseError("rules must be an object")
    try:
        return _rules_of(str(raw.get("rulebook", "2023")), bool(raw.get("build_anywhere", False)))
    except ValueError as exc:
        raise PhaseError(str(exc)) from None


@lru_cache(maxsize=16)
def _rules_of(rulebook: str, build_anywhere: bool) -> Rules:
    """The rules of a phase; a batch names the same few again and again (frozen, shared)."""
    return Rules(rulebook=rulebook, build_anywhere=build_anywhere)


def _token(board: Board, token: Any, what: str) -> int:
    try:
        return board.loc(str(token))
    except KeyError:
        raise PhaseError(f"{what}: unknown province {token!r}") from None


def _unit(board: Board, power: str, token: Any) -> tuple[Unit, int]:
    """A unit token and the province it stands in, read once per board and power: a batch
    writes the same few hundred again and again. Only tokens that were read correctly are
    kept, and not unboundedly."""
    known = _unit_tokens(board)
    key = (power, token) if type(token) is str else None
    entry = known.get(key) if key is not None else None
    if entry is None:
        kind, loc = _unit_place(board, power, token)
        entry = (Unit(power, kind, loc), board.province_of[loc])
        if key is not None and len(known) < _UNIT_TOKENS_LIMIT:
            known[key] = entry
    return entry


_UNIT_TOKENS_LIMIT = 4096  # the standard map has ~200 unit tokens; input is untrusted


@cache
def _unit_tokens(board: Board) -> dict[tuple[str, str], tuple[Unit, int]]:
    return {}


def _unit_place(board: Board, power: str, token: Any) -> tuple[str, int]:
    parts = str(token).split()
    if len(parts) != 2 or parts[0].upper() not in (ARMY, FLEET):
        raise PhaseError(f"units of {power}: {token!r} is not like 'A PAR' or 'F STP/SC'")
    kind = parts[0].upper()
    loc = _token(board, parts[1], f"units of {power}")
    if kind == ARMY:
        loc = board.province_of[loc]
    if not board.can_stand(kind, loc):
        raise PhaseError(f"units of {power}: {kind} cannot stand in {board.names[loc]}")
    return kind, loc


def _units(board: Board, raw: Mapping[str, Any]) -> list[Unit]:
    units: list[Unit] = []
    seen: dict[int, str] = {}
    known = _unit_tokens(board)  # what _unit keeps, looked up here first: most units are known
    for power, tokens in raw.items():
        if not isinstance(tokens, list):
            raise PhaseError(f"units of {power} must be a list")
        for token in tokens:
            entry = known.get((power, token)) if type(token) is str else None
            unit, province = entry or _unit(board, power, token)
            if province in seen:
                raise PhaseError(f"two units in {board.names[province]}")
            seen[province] = power
            units.append(unit)
    return units


def _provinces_by_power(
    board: Board, raw: Mapping[str, Any], what: str
) -> dict[str, frozenset[int]]:
    result: dict[str, frozenset[int]] = {}
    owner: dict[int, str] = {}
    for power, tokens in raw.items():
        if not isinstance(tokens, list):
            raise PhaseError(f"{what} of {power} must be a list")
        provinces = {board.province_of[_token(board, t, f"{what} of {power}")] for t in tokens}
        for p in provinces:
            if p not in board.supply_centers:
                raise PhaseError(f"{what} of {power}: {board.names[p]} is not a supply centre")
            if what == "centers" and owner.setdefault(p, power) != power:
                raise PhaseError(f"centers: {board.names[p]} owned by {owner[p]} and {power}")
        result[power] = frozenset(provinces)
    return result


def _orders(
    board: Board, raw: Mapping[str, Any]
) -> tuple[list[str], list[tuple[str, Order]], dict[int, tuple[str, OrderError]]]:
    """The order texts, the readable ones parsed, and the unreadable ones by position."""
    texts: list[str] = []
    readable: list[tuple[str, Order]] = []
    unread: dict[int, tuple[str, OrderError]] = {}
    for power, lines in raw.items():
        if not isinstance(lines, list):
            raise PhaseError(f"orders of {power} must be a list of strings")
        for line in lines:
            text = line if type(line) is str else str(line)
            try:
                order = read_order(text, board)
            except OrderError as exc:
                unread[len(texts)] = (power, exc)
            else:
                readable.append((power, order))
            texts.append(text)
    return texts, readable, unread


def _dislodged(board: Board, units: Sequence[Unit], data: Mapping[str, Any]) -> list[Dislodgement]:
    occupied = {board.province_of[u.loc] for u in units}
    contested = {
        board.province_of[_token(board, t, "contested")] for t in data.get("contested") or []
    }
    result: list[Dislodgement] = []
    for power, entries in _mapping(data, "dislodged").items():
        for entry in entries:
            if not isinstance(entry, dict) or "unit" not in entry:
                raise PhaseError(f"dislodged of {power}: entries look like {{'unit': 'A BEL'}}")
            unit = _unit(board, power, entry["unit"])[0]
            origin = entry.get("attacker_from")
            attacker = board.province_of[_token(board, origin, "attacker_from")] if origin else -1
            by_convoy = bool(entry.get("by_convoy", False))
            options = retreat_options(board, unit, attacker, by_convoy, occupied, contested)
            if "retreats" in entry:
                allowed = {_token(board, t, "retreats") for t in entry["retreats"] or []}
                options = tuple(x for x in options if x in allowed)
            result.append(Dislodgement(unit, attacker, by_convoy, options))
    return result


# --- writing -----------------------------------------------------------------------------


def _outcomes_json(
    outcomes: Sequence[Outcome], texts: list[str], unread: dict[int, tuple[str, OrderError]]
) -> list[dict[str, Any]]:
    """Outcomes in the order the orders were given; engine-supplied ones at the end."""
    readable_index = [k for k in range(len(texts)) if k not in unread] if unread else None
    by_position: dict[int, dict[str, Any]] = {}
    supplied: list[dict[str, Any]] = []
    for index, power, order, result, reason in outcomes:
        if index is None:
            supplied.append(
                {"power": power, "order": None, "normalized": order, "result": result,
                 "reason": reason}
            )  # fmt: skip
            continue
        position = index if readable_index is None else readable_index[index]
        by_position[position] = {
            "power": power,
            "order": texts[position],
            "normalized": order,
            "result": result,
            "reason": reason,
        }
    for position, (power, exc) in unread.items():
        by_position[position] = {
            "power": power,
            "order": texts[position],
            "normalized": texts[position].strip(),
            "result": INVALID,
            "reason": str(exc),
        }
    return [by_position[k] for k in sorted(by_position)] + supplied


def _units_json(board: Board, units: Sequence[Unit], powers: list[str]) -> dict[str, list[str]]:
    """Each power's unit tokens, sorted by place ("F STP/NC" by "STP/NC")."""
    result: dict[str, list[str]] = {p: [] for p in powers}
    names = board.unit_names
    for u in units:
        tokens = result.get(u.power)
        if tokens is None:
            tokens = result[u.power] = []
        tokens.append(names[u.kind][u.loc])
    by_place = _by_place(board).__getitem__
    for tokens in result.values():
        tokens.sort(key=by_place)
    return result


@cache
def _by_place(board: Board) -> dict[str, int]:
    """Every unit token of the board -> the rank of its place's name among all the names, so
    sorting by it sorts by the name ("F STP/NC" -> rank of "STP/NC") without slicing each
    token. Two tokens share a rank exactly when they share a place, so ties (and the sort's
    stability) fall as they did when sorting by the sliced name."""
    rank = {
        loc: k for k, loc in enumerate(sorted(range(len(board.names)), key=board.names.__getitem__))
    }
    return {
        token: rank[loc] for tokens in board.unit_names.values() for loc, token in enumerate(tokens)
    }


def _dislodged_json(board: Board, dislodged: Sequence[Dislodgement]) -> dict[str, list[dict]]:
    result: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(dislodged, key=lambda d: board.names[d.unit.loc]):
        result.setdefault(d.unit.power, []).append(
            {
                "unit": f"{d.unit.kind} {board.names[d.unit.loc]}",
                "attacker_from": board.names[d.attacker_from],
                "by_convoy": d.by_convoy,
                "retreats": [board.names[x] for x in d.retreats],
            }
        )
    return result
