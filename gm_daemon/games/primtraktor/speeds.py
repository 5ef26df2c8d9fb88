"""The speed ladder of PT-4: 0, then the primes 2, 3, 5, 7, 11, …; one step per leg."""

from __future__ import annotations

from gm_daemon.games.primtraktor.model import Change

MIN_SPEED = 2  # PT-5: a leg below this eliminates the tractor


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    divisor = 2
    while divisor * divisor <= n:
        if n % divisor == 0:
            return False
        divisor += 1
    return True


def step_up(speed: int) -> int:
    """The next speed in the ladder: 0 -> 2 -> 3 -> 5 -> 7 -> 11 …"""
    candidate = max(speed + 1, MIN_SPEED)
    while not is_prime(candidate):
        candidate += 1
    return candidate


def step_down(speed: int) -> int:
    """The previous speed: 2 -> 0, and 0 stays 0 (both are below the minimum anyway)."""
    candidate = speed - 1
    while candidate >= MIN_SPEED and not is_prime(candidate):
        candidate -= 1
    return candidate if candidate >= MIN_SPEED else 0


def apply_change(speed: int, change: Change) -> int:
    """The speed of a leg given the speed before it and the leg's modifier (PT-4)."""
    if change == "+":
        return step_up(speed)
    if change == "-":
        return step_down(speed)
    return speed
