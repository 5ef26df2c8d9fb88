"""The per-mail time bound of the hostile-input tests, measured so that only the input can
fail it: CPU time of this process (another engineer's build does not count), and a slow
first measurement is repeated once (a garbage collection or a stolen VM tick is not the
input's fault; an input that is really slow is slow twice)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
LIMIT_SECONDS = 1.0


def within_limit(call: Callable[[], T]) -> T:
    """``call()``'s result; fails when it costs LIMIT_SECONDS of CPU time twice in a row."""
    spent: list[float] = []
    while len(spent) < 2:
        started = time.process_time()
        result = call()
        spent.append(time.process_time() - started)
        if spent[-1] < LIMIT_SECONDS:
            return result
    raise AssertionError(f"CPU seconds per try: {spent[0]:.2f}, {spent[1]:.2f}")
