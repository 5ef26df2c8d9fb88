"""Random legal games, played through the protocol exactly as the daemon would play them.

Each turn the player on turn either misses the deadline (``default_orders``), or sends a
random legal play (card kind first, then target, so dukes and beers are not drowned by the
many cannon cells), written as text and read back through ``read_orders`` now and then.
After every resolution ``check_invariants`` looks at the whole state.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from gm_daemon.games.hornberg import GAME, cards, kq, rules
from gm_daemon.games.hornberg.describe import move_text
from gm_daemon.games.hornberg.flow import lasting
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.hornberg.play import Move, Orders
from gm_daemon.games.protocol import Line, Seat

NAMES = ("Anna", "Bert", "Carla", "Dora", "Emil")


@dataclass
class GameStats:
    turns: int = 0
    rounds: int = 0
    nmr: int = 0
    read_back: int = 0
    plan_plays: int = 0


def seats(count: int) -> list[Seat]:
    return [Seat(n.lower(), n) for n in NAMES[:count]]


def random_move(state: State, seat: str, rng: random.Random) -> Move:
    moves = rules.legal_moves(state, seat)
    assert moves, f"{seat} is on turn without a legal play"
    assert all(rules.refusal(state, seat, m) is None for m in moves[:: max(1, len(moves) // 8)])
    by_kind: dict[str, list[Move]] = {}
    for move in moves:
        by_kind.setdefault(cards.kind(move.card), []).append(move)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def orders_for(state: State, seat: str, rng: random.Random, stats: GameStats) -> Orders:
    if rng.random() < 0.1:
        stats.nmr += 1
        orders = GAME.default_orders(state, seat)
        assert all(rules.refusal(state, seat, m) is None for m in orders.moves)
        return orders
    move = random_move(state, seat, rng)
    if rng.random() < 0.1:
        return read_back(state, seat, move, rng, stats)
    return Orders(moves=[move])


def read_back(state: State, seat: str, move: Move, rng: random.Random, stats: GameStats) -> Orders:
    """The normalised text of a play, read by the order reader, must be the same play."""
    lang = rng.choice(["de", "en"])
    text = move_text(state, move, lang)
    accepted = GAME.read_orders([Line(1, text)], state, seat, lang)
    got = accepted.orders.moves[0]
    assert got.card == move.card and _same_target(state, got, move), (text, got, move)
    stats.read_back += 1
    return accepted.orders


def _same_target(state: State, a: Move, b: Move) -> bool:
    if state.variant == "kq" and cards.kind(a.card) == "cannon":
        return kq.target_cell(state.table, a) == kq.target_cell(state.table, b)
    return (a.row, a.shorten, a.on) == (b.row, b.shorten, b.on)


def check_invariants(state: State) -> None:
    box = cards.full_deck(state.options.colours, state.options.beer_counts)
    assert Counter(rules.all_cards(state)) == Counter(box), "cards not conserved"
    assert all(len(h) <= state.options.hand_size for h in state.hands.values())
    if state.finished:
        assert state.to_move is None and state.ranking
        return
    assert state.to_move in state.seat_ids and state.to_move not in state.out
    assert rules.can_play(state, state.to_move)
    _check_kegs(state)
    if state.variant == "dd":
        _check_dd(state)
    else:
        _check_kq(state)


def _check_kegs(state: State) -> None:
    """HB-5: every colour on the table has its keg holder."""
    on_table = [s.cannon for r in state.table.rows for s in r.stacks]
    on_table += [c.cannon for c in state.table.cells]
    assert {cards.colour(c) for c in on_table} <= state.table.kegs.keys()


def _check_dd(state: State) -> None:
    for row in state.table.rows:
        assert len(row.stacks) <= row.length
        assert row.length >= state.options.dd_min_row_len
        assert all(cards.kind(s.cannon) == "cannon" for s in row.stacks)
    assert sum(r.complete for r in state.table.rows) < 2


def _check_kq(state: State) -> None:
    cells = [c.xy for c in state.table.cells]
    assert len(cells) == len(set(cells)), "two cannons in one cell"
    box = kq.bbox(cells)
    if box:
        x0, y0, x1, y1 = box
        assert x1 - x0 < kq.WIDTH and y1 - y0 < kq.HEIGHT
    assert kq.duke_sum(state.table) < state.options.kq_end_duke_sum


def a_plan(state: State, rng: random.Random) -> tuple[str, Orders] | None:
    """The next player plans one or two of the plays he could make now."""
    assert state.to_move is not None
    seat = state.left_of(state.to_move)
    moves = rules.legal_moves(state, seat) if seat not in state.out else []
    if seat == state.to_move or not moves:
        return None
    chosen = [lasting(state, m) for m in rng.sample(moves, min(2, len(moves)))]
    return seat, Orders(moves=chosen, plan=rng.choice(["once", "standing"]))


def play_game(variant: str, players: int, seed: int, **options: object) -> tuple[State, GameStats]:
    rng = random.Random(seed)
    state = GAME.start(Options.model_validate({"variant": variant, **options}), seats(players), rng)
    stats = GameStats()
    check_invariants(state)
    plans: dict[str, Orders] = {}
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        planned = a_plan(state, rng) if rng.random() < 0.05 else None
        if planned:
            plans[planned[0]] = planned[1]
        before_turn = state.turn
        nmr_before = stats.nmr
        orders = {**plans, seat: orders_for(state, seat, rng, stats)}
        defaulted = frozenset({seat} if nmr_before < stats.nmr else set())
        resolution = GAME.resolve(state, orders, rng, defaulted)
        state = resolution.state
        assert state.turn > before_turn and resolution.finished == state.finished
        assert state.to_move not in resolution.carried
        stats.plan_plays += sum(e.get("how") == "plan" for e in resolution.events)
        plans = dict(resolution.carried)
        check_invariants(state)
        stats.turns += 1
        assert stats.turns < 5000, "the game does not end"
    stats.rounds = state.round
    return state, stats
