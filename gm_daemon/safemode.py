"""Safe mode: a deadline that looks like an accident is not resolved.

When more than ``max_nmr_share`` of the players who owe orders have none on file, or the
mailbox could not be read for longer than ``max_intake_gap`` before the deadline, the likely
cause is a broken mail path, not a dozen players forgetting at once. Resolving would NMR them
all, and a resolution cannot be undone; an extension can. So the daemon moves the deadline by
``extend``, tells the players the new deadline and asks the GM to confirm: ``gm-daemon
resolve --game GAME`` resolves at once, ``extend`` or ``pause`` decide otherwise. Nothing
else is held. If the condition still holds at the new deadline, the same happens again.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from gm_daemon.config import SafeMode, parse_duration
from gm_daemon.store import from_iso

if TYPE_CHECKING:
    from gm_daemon.referee import Referee

log = logging.getLogger(__name__)

INTAKE_OK = "intake_ok_at"  # meta note: the last time the mailbox was read without error


def suspicious(
    rules: SafeMode,
    owed: frozenset[str] | set[str],
    on_file: set[str],
    intake_ok_at: datetime | None,
    now: datetime,
) -> str | None:
    """Why this deadline should not resolve unattended, or None. Pure."""
    missing = len(set(owed) - on_file)
    if owed and missing / len(owed) > rules.max_nmr_share:
        return (
            f"{missing} of {len(owed)} players owing orders have none on file "
            f"(more than {rules.max_nmr_share:.0%})"
        )
    if rules.max_intake_gap and intake_ok_at is not None:
        gap = now - intake_ok_at
        if gap > parse_duration(rules.max_intake_gap):
            hours = gap.total_seconds() / 3600
            return f"the mailbox could not be read for {hours:.1f} h before the deadline"
    return None


def hold_back(referee: Referee, game_id: str, phase: int) -> bool:
    """At a deadline: extend and ask the GM instead of resolving, when the deadline looks
    like an accident. True when it held the resolution back."""
    try:
        game_rules = referee.config.game(game_id).safe_mode
    except KeyError:
        return False
    if not (game_rules or referee.config.daemon.safe_mode).active:
        return False  # off (the default): no second load of the game at every deadline
    store, now = referee.store, referee.clock()
    with store.transaction():
        loaded = referee.load(game_id)
        if loaded is None or loaded.row.phase != phase:
            return False
        rules = loaded.config.safe_mode or referee.config.daemon.safe_mode
        owed = loaded.engine.owed(loaded.state)
        on_file = store.seats_with_orders(game_id, phase)
        noted = store.note(INTAKE_OK)
        reason = suspicious(rules, owed, on_file, from_iso(noted) if noted else None, now)
        if reason is None:
            return False
        until = now + parse_duration(rules.extend)
        store.set_deadline(game_id, until, override=True)
        moved = replace(loaded, row=replace(loaded.row, deadline_at=until))
        deadline = referee.deadline_text(moved)
        referee.mailer.announce(moved, "deadline_moved")
        referee.mailer.tell_gm(
            f"{game_id}: {loaded.label()} not resolved (safe mode)",
            f"The deadline of {game_id}, {loaded.label()}, was not resolved: {reason}.\n\n"
            f"It was extended to {deadline}. If all is well, resolve now:\n"
            f"    gm-daemon resolve --game {game_id}\nor decide otherwise with gm-daemon extend / "
            "pause. If nothing changes, the same happens at the new deadline.\n",
        )
    log.warning("game %s: %s not resolved (safe mode): %s", game_id, loaded.label(), reason)
    return True
