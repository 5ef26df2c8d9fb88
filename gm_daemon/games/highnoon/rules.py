"""The High Noon rules engine: setting up a game and resolving a round (§1.3), purely.

``resolve_round`` takes its dice as an argument so that rule scenarios can script every roll;
the game object passes dice backed by the phase's seeded rng.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from gm_daemon.games.highnoon.dice import Dice
from gm_daemon.games.highnoon.duel import fight, settle
from gm_daemon.games.highnoon.model import (
    FIRST_POSITION,
    LAST_POSITION,
    Options,
    Orders,
    Player,
    RoundRecord,
    State,
)
from gm_daemon.games.highnoon.pairings import duel_counts, pairings_from_challenges, round1_pairings
from gm_daemon.games.protocol import Seat


def start_state(options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
    """HN-1 … HN-4: counters at D=0, L=life, P=0, random round-1 duels, then +P per duel."""
    if len(seats) < options.min_players:
        raise ValueError(
            f"High Noon needs at least {options.min_players} players, got {len(seats)}"
        )
    ids = [seat.id for seat in seats]
    if len(set(ids)) != len(ids):
        raise ValueError("two seats share an id")
    players = [Player(id=seat.id, name=seat.name, life=options.life) for seat in seats]
    state = State(options=options, n0=len(seats), players=players)
    state.pairings = round1_pairings(options.round1_mode, ids, rng)
    credit_cartridges(state)
    return state


def credit_cartridges(state: State) -> None:
    """HN-4: +p_per_duel P for every duel a player has in the round just announced."""
    counts = duel_counts(state.pairings, state.playing())
    for player in state.players:
        if player.active:
            player.cartridges += state.options.p_per_duel * counts[player.id]


def challenge_cap(player: Player) -> int:
    """HN-7: as many challenges as life points, but a player may always issue two."""
    return max(player.life, 2)


def orders_fit(state: State, seat: str, orders: Orders) -> bool:
    """Whether stored orders obey the round's limits; the order reader guarantees this, and
    ``resolve_round`` re-checks so that a hand-edited store cannot break the game (A-10)."""
    player = state.player(seat)
    return (
        _shots_fit(orders, set(state.opponents(seat)))
        and orders.planned() <= player.cartridges
        and _challenges_fit(state, seat, orders.challenges)
    )


def _shots_fit(orders: Orders, opponents: set[str]) -> bool:
    return set(orders.shots) <= opponents and all(
        len(set(ks)) == len(ks) and all(LAST_POSITION <= k <= FIRST_POSITION for k in ks)
        for ks in orders.shots.values()
    )


def _challenges_fit(state: State, seat: str, targets: list[str]) -> bool:
    active = set(state.playing())
    return (
        len(targets) == len(set(targets))
        and len(targets) <= challenge_cap(state.player(seat))
        and all(target != seat and target in active for target in targets)
    )


def resolve_round(state: State, orders: Mapping[str, Orders], dice: Dice) -> State:
    """Steps 1–8 of §1.3 on a copy of ``state``; ``round`` then names the next round."""
    new = state.model_copy(deep=True)
    record = RoundRecord(round=state.round)
    plans = _plans(new, orders, record)
    by_id = {player.id: player for player in new.players}
    for a, b in sorted(new.pairings):
        result = fight(a, b, plans[a].shots.get(b, []), plans[b].shots.get(a, []), dice)
        settle(result, by_id[a], by_id[b])
        record.duels.append(result)
    record.duel_counts = duel_counts(new.pairings, new.playing())
    record.penalties = _penalise(new, record.duel_counts)
    record.eliminated = _eliminate(new) + _let_leave(new)
    challenges = [(seat, target) for seat in plans for target in plans[seat].challenges]
    if game_over(new):
        new.finished = True
        new.pairings = []
        new.ranking = final_ranking(new)
    else:
        active = set(new.playing())
        record.challenges = [c for c in challenges if c[0] in active and c[1] in active]
        new.pairings = pairings_from_challenges(challenges, active)
        credit_cartridges(new)
    new.last_round = record
    new.round += 1
    return new


def _plans(state: State, orders: Mapping[str, Orders], record: RoundRecord) -> dict[str, Orders]:
    """Step 1 and HN-9: every active player's orders, in seat order; none or unusable = NMR."""
    plans: dict[str, Orders] = {}
    for seat in state.playing():
        given = orders.get(seat)
        if given is not None and not orders_fit(state, seat, given):
            record.invalid_orders.append(seat)
            given = None
        plans[seat] = given if given is not None else Orders()
    return plans


def _penalise(state: State, counts: Mapping[str, int]) -> dict[str, int]:
    """HN-15: L off for every active player with fewer than two scheduled duels (A-5)."""
    by_count = {0: state.options.penalty_0_duels, 1: state.options.penalty_1_duel}
    penalties: dict[str, int] = {}
    for player in state.players:
        penalty = by_count.get(counts.get(player.id, 0), 0) if player.active else 0
        if penalty:
            player.life -= penalty
            penalties[player.id] = penalty
    return penalties


def _eliminate(state: State) -> list[str]:
    """Step 5 (A-11): out goes everyone at L ≤ 0 after the duels and the penalty."""
    out = [p for p in state.players if p.active and p.life <= 0]
    for player in out:
        player.eliminated_in_round = state.round
    return [player.id for player in out]


def _let_leave(state: State) -> list[str]:
    """Who left during the round fought it (his orders or NMR) and is out now, as if
    eliminated this round: his D, L and P so far stay in the standings."""
    out = [p for p in state.players if p.active and p.id in state.leaving]
    for player in out:
        player.eliminated_in_round = state.round
    state.leaving = []
    return [player.id for player in out]


def ranking_now(state: State) -> list[list[str]]:
    """The ranking if the game ended now: who is leaving counts as out this round."""
    new = state.model_copy(deep=True)
    for player in new.players:
        if player.active and player.id in new.leaving:
            player.eliminated_in_round = new.round
    return final_ranking(new)


def game_over(state: State) -> bool:
    """HN-17 / A-12: over once half or more of the starting players are out."""
    return 2 * state.eliminated_count() >= state.n0


def rank_key(state: State, player: Player) -> tuple[int, ...]:
    """Higher is better: survivors first, then later eliminations (A-13: when nobody is
    left, the last ones out compete), then D, then the tiebreak counters."""
    out_round = player.eliminated_in_round
    alive = state.round + 1 if out_round is None else out_round
    counters = {"L": player.life, "P": player.cartridges}
    return (alive, player.wins, *(counters[key] for key in state.options.tiebreak))


def final_ranking(state: State) -> list[list[str]]:
    """All seats by ``rank_key``; equal keys share a rank (a shared win when at the top)."""
    ordered = sorted(state.players, key=lambda p: rank_key(state, p), reverse=True)
    ranks: list[list[str]] = []
    previous: tuple[int, ...] | None = None
    for player in ordered:
        key = rank_key(state, player)
        if key == previous:
            ranks[-1].append(player.id)
        else:
            ranks.append([player.id])
        previous = key
    return ranks


def standings(state: State) -> list[Player]:
    """Active players, best first (the Zwischenstand order)."""
    active = [p for p in state.players if p.active]
    return sorted(active, key=lambda p: rank_key(state, p), reverse=True)
