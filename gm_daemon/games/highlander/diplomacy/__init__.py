"""A complete, exact Diplomacy adjudicator on the standard map, generic over the powers.

Pure rules: no mail, no clock, no storage. One module per concern:

* ``board``       the map (data files in ``data/``), loaded, validated and precomputed;
* ``orders``      orders as written; ``reader`` parses them with ``grammars/diplomacy.lark``;
* ``legality``    which movement orders are legal (DATC 4.E.1), ``convoys`` the route rules;
* ``resolver``    Kruijswijk's guess-and-backup resolver with the Szykman rule;
* ``movement``, ``retreats``, ``adjustments``  the three phases, each order with a reason;
* ``rules``       the rulebook switch (2000 / 2023) and ``build_anywhere``;
* ``phase``, ``cli``  the JSON surface: ``gm-daemon diplomacy adjudicate [FILE]``.

Decisions where the DATC leaves a choice are listed in ``docs/games/diplomacy.md``.
"""

from gm_daemon.games.highlander.diplomacy.adjustments import (
    AdjustmentResult,
    adjudicate_adjustments,
)
from gm_daemon.games.highlander.diplomacy.board import ARMY, FLEET, Board, MapError, standard_board
from gm_daemon.games.highlander.diplomacy.movement import MovementResult, adjudicate_movement
from gm_daemon.games.highlander.diplomacy.orders import Order, Unit, order_text
from gm_daemon.games.highlander.diplomacy.phase import PhaseError, run, run_phase
from gm_daemon.games.highlander.diplomacy.reader import OrderError, read_order
from gm_daemon.games.highlander.diplomacy.results import (
    FAILS,
    INVALID,
    SUCCEEDS,
    Dislodgement,
    Outcome,
)
from gm_daemon.games.highlander.diplomacy.retreats import RetreatResult, adjudicate_retreats
from gm_daemon.games.highlander.diplomacy.rules import Rules

__all__ = [
    "ARMY",
    "FAILS",
    "FLEET",
    "INVALID",
    "SUCCEEDS",
    "AdjustmentResult",
    "Board",
    "Dislodgement",
    "MapError",
    "MovementResult",
    "Order",
    "OrderError",
    "Outcome",
    "PhaseError",
    "RetreatResult",
    "Rules",
    "Unit",
    "adjudicate_adjustments",
    "adjudicate_movement",
    "adjudicate_retreats",
    "order_text",
    "read_order",
    "run",
    "run_phase",
    "standard_board",
]
