"""The GM's tools for a season (docs/gm.md): announcements, a result previewed before it is
published, a rollback, a player who leaves, and a game ended now.

Each acts on a game between two of its phases, in one transaction with the mails that tell
everyone; the round trip of a phase (deadline, orders, resolution) stays the referee's, and
these tools call on it for the seams they share: loading a game, starting a phase, the
closing lines of a result, resolving when the orders kept complete a phase.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from gm_daemon.games.kit.layout import ranking_lines, wrap
from gm_daemon.games.protocol import Resolution
from gm_daemon.loaded import (
    AnyGame,
    Loaded,
    final_ranking,
    leave,
    leave_meaning,
    take_names,
    take_options,
)
from gm_daemon.mailer import leaves_chance, with_deadline, with_reason
from gm_daemon.rng import commitment
from gm_daemon.store import PlayerRow, forget_reminders, iso
from gm_daemon.texts import phrase

if TYPE_CHECKING:
    from gm_daemon.referee import Referee

log = logging.getLogger(__name__)

END_TRIGGER = "ended by the GM"  # the trigger of the record ``gm-daemon end`` leaves


class SeasonTools:
    """What ``gm-daemon announce / publish / rollback / remove-player / end`` (and a
    confirmed AUFGEBEN / RESIGN) do to a game, on the referee's games and outbox."""

    def __init__(self, referee: Referee):
        self.referee = referee

    # --- announcements ---------------------------------------------------------------------
    def announce(self, game_id: str, text: str) -> int:
        """The GM's own words to every player and observer of a game, in its thread; the
        number of mails queued."""
        referee = self.referee
        with referee.store.transaction():
            loaded = referee.load(game_id)
            if loaded is None:
                raise LookupError(f"no game {game_id!r} in the config")
            body = text.strip() + "\n"
            referee.mailer.to_everyone(
                loaded, "announcement", "announcement_subject", lambda view, player: body
            )
        return len(loaded.players) + len(loaded.config.observers)

    # --- preview and publish -------------------------------------------------------------
    def hold_for_preview(
        self,
        before: Loaded,
        after: Loaded,
        resolution: Resolution[Any, Any],
        defaults: dict[str, BaseModel],
    ) -> Loaded:
        """The results go to the GM only; the game waits (no deadline, no reminder) until
        ``publish`` sends them or ``rollback`` discards them."""
        referee = self.referee
        referee.store.set_preview(after.id, before.row.phase)
        referee.store.set_deadline(after.id, None, override=False)
        row = replace(after.row, preview_of=before.row.phase, deadline_at=None, remind_at=None)
        after = replace(after, row=row)

        def closing(view: Loaded) -> str:
            if resolution.finished:
                return referee.closing(view, resolution)
            return "\n" + phrase(view.lang, "preview_deadline") + "\n"

        referee.mailer.results(before, after, resolution, defaults, closing, preview=True)
        log.info("game %s: %s resolved as a preview for the GM", after.id, before.label())
        return after

    def publish(self, game_id: str, reason: str | None = None) -> Loaded:
        """The previewed results to every player; the next phase starts now."""
        referee = self.referee
        with referee.store.transaction():
            loaded = self._running(game_id, finished_ok=True)
            phase = loaded.row.preview_of
            if phase is None:
                raise ValueError(f"{game_id} has no result waiting to be published")
            record = referee.store.phase_record(game_id, phase)
            assert record is not None, "a preview always has its phase record"
            before_state, resolution = recorded(loaded.engine, record)
            before = replace(
                loaded, state=before_state, row=replace(loaded.row, phase=phase, preview_of=None)
            )
            nmr = json.loads(record["nmr"])
            orders = json.loads(record["orders"])
            defaults = {s: loaded.engine.Orders.model_validate(orders[s]) for s in nmr}
            referee.store.set_preview(game_id, None)
            after = self._take_options(replace(loaded, row=replace(loaded.row, preview_of=None)))
            after = referee.start_phase(after)
            referee.mailer.results(
                before,
                after,
                resolution,
                defaults,
                lambda view: _reason_line(view.lang, reason) + referee.closing(view, resolution),
            )
            if after.row.waiting and not after.row.finished:
                referee.gm_notices.waiting(after, after.row.waiting)
        return after

    def _take_options(self, loaded: Loaded) -> Loaded:
        """What the config gave while the result was previewed (the next board, a player's
        new name), before the next phase starts; refused options keep the state (the next
        reload says why)."""
        if loaded.row.finished:
            return loaded
        state = take_names(loaded, loaded.config)
        with contextlib.suppress(ValueError):
            state = take_options(loaded.engine, state, loaded.config.parsed_options())
        return self.referee.with_state(loaded, state)

    # --- rollback --------------------------------------------------------------------------
    def roll_back(
        self,
        game_id: str,
        to_phase: int | None = None,
        reason: str | None = None,
        drop_orders: bool = False,
    ) -> Loaded:
        """Back to the start of ``to_phase`` (a pending preview's phase without it) as it
        was stored; what was resolved from there on stays in the record, void. The phase
        resolves again with the seed's and the phase's rng, so the same orders give the
        same result."""
        referee = self.referee
        with referee.store.transaction():
            loaded = self._running(game_id, finished_ok=True)
            if to_phase is None:
                to_phase = loaded.row.preview_of
                if to_phase is None:
                    raise ValueError(
                        f"{game_id} has no preview to discard; name the phase: --to-phase N"
                    )
            record = referee.store.phase_record(game_id, to_phase)
            if record is None:
                raise LookupError(
                    f"{game_id} has no resolved phase {to_phase} to go back to (now: phase "
                    f"{loaded.row.phase}; gm-daemon status shows it)"
                )
            state, undone = self._state_to_go_back_to(loaded, record)
            referee.store.roll_back(game_id, to_phase, state, referee.clock(), reason, drop_orders)
            self._forget_leaving(loaded, to_phase, including=undone)
            forget_reminders(referee.store, game_id)
            back = referee.load(game_id)
            assert back is not None
            back = referee.start_phase(self._take_options(back))
            key = "rolled_back_dropped" if drop_orders else "rolled_back_kept"

            def intro(view: Loaded, player: PlayerRow | None) -> str:
                """What became of the orders is said to the players: an observer sends none."""
                keys = ("rolled_back", key) if player is not None else ("rolled_back",)
                return " ".join(phrase(view.lang, k, phase_label=view.label()) for k in keys)

            self._tell_each(back, "rolled_back", intro, reason)
            if back.row.waiting:
                referee.gm_notices.waiting(back, back.row.waiting)
        log.info("game %s: rolled back to phase %d (%s)", game_id, to_phase, reason or "-")
        if not back.row.finished:  # orders kept that complete it: at once, as a mail would
            referee.resolve_if_complete(back)
        return back

    # --- a player leaving ------------------------------------------------------------------
    def remove_player(
        self,
        game_id: str,
        who: str,
        reason: str | None = None,
        *,
        resigned: bool = False,
    ) -> Loaded:
        """``gm-daemon remove-player`` (and a confirmed AUFGEBEN / RESIGN, already inside
        intake's transaction, through ``leave_locked``)."""
        referee = self.referee
        with referee.store.transaction():
            loaded = self._running(game_id)
            player = referee.find_player(game_id, who)
            after = self.leave_locked(loaded, player.seat, reason, resigned=resigned)
        if not after.row.finished:
            referee.resolve_if_complete(after)
        return after

    def leave_locked(
        self,
        loaded: Loaded,
        seat: str,
        reason: str | None,
        *,
        resigned: bool,
        answered: PlayerRow | None = None,
    ) -> Loaded:
        """The kind's ``leave`` hook decides what leaving means; a state that owes nothing
        any more (Highlander: the match is lost) ends the game with the ranking as it
        stands. Every player is told, with the state and deadline now; ``answered`` (the
        player whose confirmation is answered on its own) is left out."""
        store = self.referee.store
        note = f"left:{loaded.id}:{seat}"
        name = loaded.player(seat).name
        if store.note(note) is not None:
            raise ValueError(f"{name} has already left {loaded.id}")
        state = leave(loaded.engine, loaded.state, seat)
        store.set_state(loaded.id, state.model_dump(mode="json"))
        how = "resigned" if resigned else "removed"
        store.set_note(note, f"{loaded.row.phase} {how} {iso(self.referee.clock())}")
        after = replace(loaded, state=state)
        key = "player_left_resigned" if resigned else "player_left_removed"
        log.info("game %s: %s left (%s)", loaded.id, name, how)
        owed = loaded.engine.owed(state)
        if not owed:
            return self._end_locked(after, reason, key, name)
        if owed - loaded.engine.owed(loaded.state):  # Hornberg: the turn passed on
            after = self.referee.start_phase(after)  # his own time, not what was left

        def intro(view: Loaded, player: PlayerRow | None) -> str:
            return phrase(view.lang, key, name=name)

        self._tell_each(after, "player_left", intro, reason, skip=answered, left=seat)
        return after

    def _state_to_go_back_to(self, loaded: Loaded, record: Any) -> tuple[Any, bool]:
        """The state the phase is stored with, and whether leaving in it is undone too. A
        phase that a player's leaving ended stored the state after it, in which nobody owes
        orders: going back to that phase gives the phase as it began (the state the phase
        before it left, or the game's start), with the player back and his orders owed."""
        state = json.loads(record["state_before"])
        events = json.loads(record["events"])
        why = str(events[0].get("why", "")) if record["trigger"] == END_TRIGGER and events else ""
        if not why.startswith("player_left"):
            return state, False
        phase = int(record["phase"])
        began = self.referee.store.state_after_phase_before(loaded.id, phase)
        if began is not None:
            return json.loads(began), True
        first = self.referee.first_state(loaded.config, loaded.row.seed)
        return first.model_dump(mode="json"), True

    def _forget_leaving(self, loaded: Loaded, to_phase: int, *, including: bool = False) -> None:
        """Who left after phase ``to_phase`` began is back in the state stored at its start
        (a leave during that phase is in it, unless ``including``: the phase as it began):
        he may leave again."""
        store = self.referee.store
        for player in loaded.players:
            note = f"left:{loaded.id}:{player.seat}"
            left = store.note(note)
            if left is None:
                continue
            phase = int(left.split()[0])
            if phase > to_phase or (including and phase == to_phase):
                store.set_note(note, None)

    # --- ending now ------------------------------------------------------------------------
    def end(self, game_id: str, reason: str | None = None) -> Loaded:
        """The game over now, with the ranking as it stands (the kind's ``final_ranking``)
        and the seed revealed as at a normal end."""
        with self.referee.store.transaction():
            loaded = self._running(game_id)
            return self._end_locked(loaded, reason)

    def _end_locked(
        self, loaded: Loaded, reason: str | None, why_key: str = "", name: str = ""
    ) -> Loaded:
        referee = self.referee
        state, row = loaded.state, loaded.row
        seats = [p.seat for p in loaded.players]
        ranking = final_ranking(loaded.engine, state, seats)
        event = {"event": "ended", "reason": reason or "", "why": why_key, "name": name}
        state_json = state.model_dump(mode="json")
        referee.store.record_phase(
            row.id, row.phase, loaded.label(), referee.clock(), END_TRIGGER, state_json, {}, [],
            [event], state_json, True, ranking,
        )  # fmt: skip
        referee.store.finish_game(row.id)
        after = replace(
            loaded,
            row=replace(
                row, finished=True, paused=False, deadline_at=None, remind_at=None, preview_of=None
            ),
        )
        referee.mailer.to_everyone(
            after,
            "ended",
            "ended_subject",
            lambda view, _: ended_text(view, ranking, event),
        )
        log.info("game %s ended by the GM in %s", row.id, loaded.label())
        return after

    # --- shared ----------------------------------------------------------------------------
    def _running(self, game_id: str, *, finished_ok: bool = False) -> Loaded:
        loaded = self.referee.load(game_id)
        if loaded is None:
            raise LookupError(f"no game {game_id!r} in the config")
        if loaded.row.finished and not finished_ok:
            raise ValueError(f"{game_id} is finished")
        if loaded.row.preview_of is not None and not finished_ok:
            raise ValueError(
                f"{game_id} waits for its previewed result: gm-daemon publish --game {game_id} "
                f"(or gm-daemon rollback --game {game_id}) first"
            )
        return loaded

    def _tell_each(
        self,
        loaded: Loaded,
        key: str,
        intro: Callable[[Loaded, PlayerRow | None], str],
        reason: str | None,
        *,
        skip: PlayerRow | None = None,
        left: str | None = None,
    ) -> None:
        """A notice to every player and observer, each in his language: what the GM did
        (and why), then the game as this player sees it now with the deadline in force (an
        observer: the phase and its deadline)."""
        referee = self.referee

        def head(view: Loaded, player: PlayerRow | None) -> str:
            text = with_reason(view.lang, wrap(intro(view, player)), reason)
            if player is not None and player.seat == left:
                meaning = leave_meaning(view.engine, view.lang)
                text += "\n\n" + wrap(phrase(view.lang, "player_left_you", meaning=meaning))
            return text

        referee.mailer.report_to_each(
            loaded,
            key,
            lambda view, player: with_deadline(view, player, referee.deadline_text(view)),
            key,
            head=head,
            skip=skip,
        )


def recorded(engine: AnyGame, record: Any) -> tuple[BaseModel, Resolution[Any, Any]]:
    """A phase record as the engine gave it: the state before and the resolution."""
    before = engine.State.model_validate_json(record["state_before"])
    resolution: Resolution[Any, Any] = Resolution(
        state=engine.State.model_validate_json(record["state_after"]),
        events=json.loads(record["events"]),
        finished=bool(record["finished"]),
        ranking=json.loads(record["ranking"]) if record["ranking"] else None,
    )
    return before, resolution


def ended_text(loaded: Loaded, ranking: list[list[str]], event: dict[str, Any]) -> str:
    """The end of a game by the GM (or by a player's leaving), in ``loaded``'s language:
    why, the ranking as it stands, and the seed as at a normal end."""
    lang = loaded.lang
    names = {p.seat: p.name for p in loaded.players}
    why = str(event.get("why") or "")
    parts = [phrase(lang, why, name=event.get("name", "")) if why else ""]
    parts.append(phrase(lang, "ended", phase_label=loaded.label()))
    text = with_reason(lang, wrap(" ".join(p for p in parts if p)), event.get("reason"))
    lines = ranking_lines(ranking, lambda seat: names.get(seat, seat))
    text += "\n\n" + phrase(lang, "ranking") + "\n" + "\n".join(lines) + "\n"
    if leaves_chance(loaded):
        seed = loaded.row.seed
        text += "\n" + phrase(lang, "seed_reveal", seed=seed, commitment=commitment(seed))
    return text.rstrip() + "\n"


def _reason_line(lang: str, reason: str | None) -> str:
    """The GM's ``--reason`` as its own paragraph of a result mail (nothing without one),
    worded as every notice quotes it (``mailer.with_reason``)."""
    quoted = with_reason(lang, "", reason)
    return "\n" + wrap(quoted.strip()) + "\n" if quoted else ""
