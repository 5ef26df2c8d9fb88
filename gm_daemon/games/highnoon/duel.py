"""One duel (HN-10 … HN-14): walking in from position 19 to 1, and what it costs."""

from __future__ import annotations

from collections.abc import Sequence

from gm_daemon.games.highnoon.dice import Dice
from gm_daemon.games.highnoon.model import FIRST_POSITION, LAST_POSITION, DuelResult, Player, Roll


def hit_chance(position: int) -> int:
    """HN-11: the chance in percent that a shot from ``position`` hits: 5·(20 − k)."""
    return 5 * (20 - position)


def fight(a: str, b: str, shots_a: Sequence[int], shots_b: Sequence[int], dice: Dice) -> DuelResult:
    """Fire the listed shots position by position; both shots at one position are fired
    (simultaneous, HN-10) before the duel can end. ``a`` rolls first at a shared position."""
    result = DuelResult(a=a, b=b)
    for position in range(FIRST_POSITION, LAST_POSITION - 1, -1):
        if position in shots_a:
            result.hit_a = _shoot(result, a, b, position, dice)
            result.fired_a.append(position)
        if position in shots_b:
            result.hit_b = _shoot(result, b, a, position, dice)
            result.fired_b.append(position)
        if result.hit_a or result.hit_b:
            result.unfired_a = sorted((k for k in shots_a if k < position), reverse=True)
            result.unfired_b = sorted((k for k in shots_b if k < position), reverse=True)
            break
    return result


def _shoot(result: DuelResult, shooter: str, opponent: str, position: int, dice: Dice) -> bool:
    roll = dice.roll(shooter, opponent, position)
    if not 1 <= roll <= 100:
        raise ValueError(f"a d100 roll must be 1..100, got {roll}")
    hit = roll <= hit_chance(position)
    result.rolls.append(Roll(shooter=shooter, position=position, roll=roll, hit=hit))
    return hit


def settle(result: DuelResult, a: Player, b: Player) -> None:
    """Apply the duel's D, L and P changes (HN-12 … HN-14) under the pool model (A-3):
    only fired shots cost cartridges, and the loser's unfired shots go to the winner."""
    a.cartridges -= len(result.fired_a)
    b.cartridges -= len(result.fired_b)
    winner = result.winner()
    if winner is not None:
        won, lost = (a, b) if winner == a.id else (b, a)
        taken = robbed(result)
        won.wins += 1
        won.life += 1
        won.cartridges += taken
        lost.life -= 2
        lost.cartridges -= taken
    elif result.hit_a and result.hit_b:
        a.life -= 2
        b.life -= 2


def robbed(result: DuelResult) -> int:
    """Cartridges the winner took from the loser's unfired shots (0 without a single winner)."""
    winner = result.winner()
    if winner is None:
        return 0
    return len(result.unfired_b if winner == result.a else result.unfired_a)
