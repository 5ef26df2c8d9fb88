"""High Noon as the daemon sees it: the protocol object tying rules, orders and texts."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from gm_daemon.games.highnoon import report, rules
from gm_daemon.games.highnoon.dice import RngDice
from gm_daemon.games.highnoon.guide import example_name, example_orders, order_format
from gm_daemon.games.highnoon.model import Options, Orders, State
from gm_daemon.games.highnoon.rules import resolve_round, start_state
from gm_daemon.games.highnoon.texts import say
from gm_daemon.games.kit.names import renamed
from gm_daemon.games.kit.rounds import RoundGame, leave_after_round
from gm_daemon.games.protocol import Accepted, Lang, Line, Report, Resolution, Seat

# The order reader (``orders``, ``syntax``: Lark and the grammar) is imported on first use:
# ``run --once`` on an empty inbox, ``status`` and most commands never read an order, and
# the service imports it at start through ``warm_up``. Kept here once imported: an import
# statement in every call went through the import machinery again (``_handle_fromlist``) for
# each of a mail's three calls.
_order_reading: ModuleType | None = None


def _reading() -> ModuleType:
    global _order_reading
    if _order_reading is None:
        from gm_daemon.games.highnoon import orders

        _order_reading = orders
    return _order_reading


class HighNoon(RoundGame[Options, State, Orders]):
    """Simultaneous rounds; every active player owes orders; resolved at the deadline."""

    kind: ClassVar[str] = "highnoon"
    title: ClassVar[Mapping[Lang, str]] = {"de": "High Noon", "en": "High Noon"}
    # What the game seed decides, for the welcome mail's commitment paragraph.
    seed_decides: ClassVar[Mapping[str, str]] = {
        "de": "die Würfe und die Paarungen der ersten Runde",
        "en": "the dice rolls and the first round's pairings",
    }
    # What resigning (or being removed) means here; the confirmation request quotes it.
    leave_means: ClassVar[Mapping[Lang, str]] = say.per_language("leave_means")

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        return start_state(options, seats, rng)

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[State, Orders]:
        """A defaulted seat's orders are plain empty orders (HN-9), so ``defaulted`` adds
        nothing the orders do not say already."""
        new = resolve_round(state, orders, RngDice(rng))
        return Resolution(
            state=new,
            events=_events(new),
            finished=new.finished,
            ranking=new.ranking if new.finished else None,
        )

    def rename(self, state: State, seat: str, name: str) -> State:
        """The GM renamed the player in the config (his ``id`` kept): from now on the
        game's texts and its reading of orders know him by ``name``."""
        return renamed(state, "players", seat, name)

    # --- a player leaving, a game ended now (optional hooks) ------------------------------
    def leave(self, state: State, seat: str) -> State:
        """Out from the next round: the round now running is fought with his orders (or
        none, HN-9), then he is out as if eliminated in it; his results stay."""
        return leave_after_round(state, seat)

    def final_ranking(self, state: State) -> list[list[str]]:
        """HN-18's ranking on the standings as they are."""
        return rules.ranking_now(state)

    # --- orders ----------------------------------------------------------------------
    def warm_up(self) -> None:
        """The order grammar, built (or loaded) on first use, is loaded at startup instead."""
        from gm_daemon.games.highnoon import syntax

        syntax.warm_up()

    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: Lang,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        return _reading().read_orders(lines, state, seat, lang)

    def passes_over(self, text: str, state: State, seat: str) -> bool:
        return _reading().passes_over(text, state, seat)

    def default_orders(self, state: State, seat: str) -> Orders:
        """HN-9: no shots in any duel, no challenges."""
        return Orders()

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: Lang) -> str:
        return _reading().describe_orders(state, seat, orders, lang)

    def example(self, state: State, seat: str, lang: Lang) -> str:
        return example_orders(state, seat, lang)

    # --- texts -----------------------------------------------------------------------
    def welcome(self, state: State, seat: str, lang: Lang) -> Report:
        return report.welcome_report(state, seat, lang)

    def help(self, state: State, seat: str, lang: Lang) -> str:
        return (
            order_format(example_orders(state, seat, lang), lang, example_name(state, seat)) + "\n"
        )

    def status(self, state: State, seat: str, lang: Lang) -> Report:
        return Report(public=report.status_text(state, seat, lang))

    def report(self, before: State, resolution: Resolution[State, Orders], lang: Lang) -> Report:
        after = resolution.state
        return Report(
            public=report.round_report(after, lang),
            private=report.private_notes(after, lang),
        )

    def public_state(self, state: State) -> dict[str, Any]:
        return {
            "round": state.round,
            "finished": state.finished,
            "players_at_start": state.n0,
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "D": p.wins,
                    "L": p.life,
                    "P": p.cartridges,
                    "status": "active" if p.active else "eliminated",
                    "eliminated_in_round": p.eliminated_in_round,
                }
                for p in state.players
            ],
            "pairings": [list(pair) for pair in state.pairings],
            "ranking": state.ranking if state.finished else None,
        }


def _events(state: State) -> list[dict[str, Any]]:
    """The round for the game log: every duel with every roll (HN-11), then the rest."""
    record = state.last_round
    if record is None:
        return []
    events: list[dict[str, Any]] = [{"event": "duel", **duel.model_dump()} for duel in record.duels]
    events += [{"event": "invalid_orders", "seat": seat} for seat in record.invalid_orders]
    events += [
        {"event": "penalty", "seat": seat, "life": life} for seat, life in record.penalties.items()
    ]
    events += [{"event": "eliminated", "seat": seat} for seat in record.eliminated]
    if state.finished:
        events.append({"event": "game_over", "ranking": state.ranking})
    else:
        events.append({"event": "pairings", "round": state.round, "pairs": state.pairings})
    return events
