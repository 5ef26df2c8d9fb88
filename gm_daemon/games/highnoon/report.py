"""Texts built from the state: the round result (HN-18, §3.2), status and welcome.

The layout follows the postal game: "E. Müller (19, 15+) --- H. Glück (16, 15+)" for a duel,
"(–)" for a player who fired no shot; every name as registered (the original's "E.Müller"
beside "E. Müller" in the standings read as two players), columns aligned for a monospace
font.
"""

from __future__ import annotations

from gm_daemon.games.highnoon.guide import example_name, example_orders, order_format, rules_summary
from gm_daemon.games.highnoon.model import DuelResult, Player, RoundRecord, State
from gm_daemon.games.highnoon.rules import challenge_cap, standings
from gm_daemon.games.highnoon.texts import say
from gm_daemon.games.kit import layout
from gm_daemon.games.protocol import Report

DASH = "–"


def _shots(fired: list[int], hit: bool) -> str:
    """Fired shots in firing order; the hit, always the last shot fired, carries a "+"."""
    written = [str(k) for k in fired]
    if hit and written:
        written[-1] += "+"
    return "(" + (", ".join(written) or DASH) + ")"


def duel_lines(state: State, duels: list[DuelResult]) -> list[str]:
    """HN-18(a), one line per duel, the "---" aligned."""
    rows = [
        [
            f"{state.player(duel.a).name} {_shots(duel.fired_a, duel.hit_a)}",
            f"{state.player(duel.b).name} {_shots(duel.fired_b, duel.hit_b)}",
        ]
        for duel in duels
    ]
    return layout.table(rows, gap=" --- ")


def pairing_lines(state: State, lang: str) -> list[str]:
    if not state.pairings:
        return [say(lang, "no_pairings")]
    rows = [[state.player(a).name, state.player(b).name] for a, b in state.pairings]
    return layout.table(rows, gap=" --- ")


def _counters(player: Player) -> list[str]:
    return [f"D={player.wins}", f"L={player.life}", f"P={player.cartridges}"]


def standing_lines(state: State) -> list[str]:
    """HN-18(d): the Zwischenstand of the active players, best first."""
    return layout.table([[p.name, *_counters(p)] for p in standings(state)])


def ranking_lines(state: State, lang: str) -> list[str]:
    """The final ranking: shared places share a number, eliminated players say when."""
    rows = []
    for place, seats in layout.places(state.ranking):
        for player in map(state.player, seats):
            out = player.eliminated_in_round
            note = "(" + say(lang, "out_in_round", round=out) + ")" if out is not None else ""
            rows.append([f"{place}.".rjust(3) + " " + player.name, *_counters(player), note])
    return layout.table(rows)


def _names(state: State, seats: list[str]) -> str:
    return ", ".join(state.player(seat).name for seat in seats) or DASH


def _round_notes(state: State, record: RoundRecord, lang: str) -> list[str]:
    """Penalties, eliminations and unusable stored orders of the round just played."""
    notes = []
    if record.penalties:
        items = "; ".join(
            say(lang, "penalty.item", name=state.player(seat).name, life=life)
            for seat, life in record.penalties.items()
        )
        notes.append(say(lang, "penalties", items=items))
    notes.append(say(lang, "eliminated", names=_names(state, record.eliminated)))
    if record.invalid_orders:
        notes.append(say(lang, "invalid_orders", names=_names(state, record.invalid_orders)))
    return notes


def _challenge_line(state: State, record: RoundRecord, lang: str) -> str:
    """A-14: every challenge that counts, challenger→target, in seat order."""
    items = "; ".join(
        f"{state.player(x).name}→{state.player(y).name}" for x, y in record.challenges
    )
    return say(lang, "challenges", items=items or DASH)


def _final_block(state: State, lang: str) -> list[str]:
    winners = state.ranking[0] if state.ranking else []
    key = "winner" if len(winners) == 1 else "winners"
    return [
        say(lang, "game_over", out=state.eliminated_count(), n0=state.n0),
        say(lang, key, names=_names(state, winners)),
        "",
        say(lang, "final_ranking"),
        *ranking_lines(state, lang),
    ]


def round_report(state: State, lang: str) -> str:
    """The public result of the round recorded in ``state.last_round``."""
    record = state.last_round
    if record is None:
        raise ValueError("no round has been resolved yet")
    duels = duel_lines(state, record.duels) or [say(lang, "no_duels")]
    blocks = [[say(lang, "duel_results"), *duels], _round_notes(state, record, lang)]
    if record.round == 1:  # the notation is explained once, under the first duels
        blocks.insert(1, [say(lang, "notation")])
    if state.finished:
        blocks.append(_final_block(state, lang))
    else:
        blocks.append([_challenge_line(state, record, lang)])
        blocks.append([say(lang, "pairings", round=state.round), *pairing_lines(state, lang)])
        blocks.append([say(lang, "standings"), *standing_lines(state)])
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def budget_note(state: State, seat: str, lang: str) -> str:
    """A seat's own counters, cartridge budget, challenge cap and opponents, and a warning
    when the round's pairings leave him short of two duels (HN-15)."""
    player = state.player(seat)
    if not player.active:
        return say(lang, "status.out", round=player.eliminated_in_round) + "\n"
    opponents = state.opponents(seat)
    lines = [
        say(lang, "status.own", wins=player.wins, life=player.life, cartridges=player.cartridges),
        say(lang, "status.budget", cartridges=player.cartridges, cap=challenge_cap(player)),
        say(lang, "status.opponents", names=_names(state, opponents)),
    ]
    penalty = {0: state.options.penalty_0_duels, 1: state.options.penalty_1_duel}
    if penalty.get(len(opponents)):
        lines.append(
            say(
                lang,
                f"status.few_duels.{len(opponents)}",
                round=state.round,
                life=penalty[len(opponents)],
            )
        )
    return "\n".join(lines) + "\n"


def private_notes(state: State, lang: str) -> dict[str, str]:
    """After a round that goes on: each active player's own budget for the next round."""
    if state.finished:
        return {}
    return {p.id: budget_note(state, p.id, lang) for p in state.players if p.active}


def status_text(state: State, seat: str, lang: str) -> str:
    """STATUS: the current round's pairings and standings, and this seat's budget."""
    if state.finished:
        return "\n".join(_final_block(state, lang)) + "\n"
    blocks = [
        [say(lang, "status.title", round=state.round)],
        [say(lang, "pairings", round=state.round), *pairing_lines(state, lang)],
        [say(lang, "standings"), *standing_lines(state)],
        [budget_note(state, seat, lang).rstrip("\n")],
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def welcome_report(state: State, seat: str, lang: str) -> Report:
    """Rules in brief, the order format with the seat's example, round 1's pairings and his
    own D/L/P. Nothing of it is secret (the pairings and counters are published), so it is
    all public: two seats with the same opponents get the same own line."""
    public = "\n\n".join(
        [
            rules_summary(state.options, lang),
            order_format(example_orders(state, seat, lang), lang, example_name(state, seat)),
            "\n".join([say(lang, "welcome.pairings"), *pairing_lines(state, lang)]),
        ]
    )
    player = state.player(seat)
    own = say(
        lang,
        "welcome.own",
        wins=player.wins,
        life=player.life,
        cartridges=player.cartridges,
        names=_names(state, state.opponents(seat)),
    )
    return Report(public=public + "\n\n" + own + "\n")
