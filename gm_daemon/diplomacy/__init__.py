"""A complete, exact Diplomacy adjudicator on the standard map, generic over the powers.

Pure rules: no mail, no clock, no storage. One module per concern:

* ``board``       the map (data files in ``data/``), loaded, validated and precomputed;
* ``orders``      orders as written; ``reader`` parses them with ``grammars/diplomacy.lark``;
* ``legality``    which movement orders are legal (DATC 4.E.1), ``convoys`` the route rules;
* ``resolver``    Kruijswijk's guess-and-backup resolver with the Szykman rule;
* ``movement``, ``retreats``, ``adjustments``  the three phases, each order with a reason;
* ``rules``       the rulebook switch (2000 / 2023) and ``build_anywhere``;
* ``phase``, ``cli``  the JSON surface: ``gm-daemon diplomacy adjudicate [FILE]``.

Decisions where the DATC leaves a choice are listed in ``docs/diplomacy.md``.

Its users (Highlander, the command, the benchmark) import from this package only; the names
below are the whole public surface, the modules behind them may change.
"""

from gm_daemon.diplomacy.adjustments import (
    AdjustmentResult,
    adjudicate_adjustments,
    build_site,
)
from gm_daemon.diplomacy.board import (
    ARMY,
    COAST,
    FLEET,
    IMPASSABLE,
    LAND,
    SEA,
    Board,
    MapError,
    alias_sections,
    name_key,
    standard_board,
)
from gm_daemon.diplomacy.legality import Illegal, Situation, judge
from gm_daemon.diplomacy.movement import MovementResult, adjudicate_movement
from gm_daemon.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Place,
    Remove,
    Retreat,
    Support,
    Unit,
    UnitRef,
    Waive,
    order_text,
    unit_text,
)
from gm_daemon.diplomacy.phase import PhaseError, run, run_phase
from gm_daemon.diplomacy.reader import OrderError, read_order
from gm_daemon.diplomacy.results import (
    FAILS,
    INVALID,
    SUCCEEDS,
    Dislodgement,
    Outcome,
)
from gm_daemon.diplomacy.retreats import RetreatResult, adjudicate_retreats
from gm_daemon.diplomacy.rules import Rules

__all__ = [
    "ARMY",
    "COAST",
    "FAILS",
    "FLEET",
    "IMPASSABLE",
    "INVALID",
    "LAND",
    "SEA",
    "SUCCEEDS",
    "AdjustmentResult",
    "Board",
    "Build",
    "Convoy",
    "Disband",
    "Dislodgement",
    "Hold",
    "Illegal",
    "MapError",
    "Move",
    "MovementResult",
    "Order",
    "OrderError",
    "Outcome",
    "PhaseError",
    "Place",
    "Remove",
    "Retreat",
    "RetreatResult",
    "Rules",
    "Situation",
    "Support",
    "Unit",
    "UnitRef",
    "Waive",
    "adjudicate_adjustments",
    "adjudicate_movement",
    "adjudicate_retreats",
    "alias_sections",
    "build_site",
    "judge",
    "name_key",
    "order_text",
    "read_order",
    "run",
    "run_phase",
    "standard_board",
    "unit_text",
]
