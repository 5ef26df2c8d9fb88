"""What the intake benches share: the daemon's real ``take_in_mail`` with the time spent
reading the stored mails (``_process_pending``) taken apart from the rest."""

from __future__ import annotations

import time

from gm_daemon.daemon import Daemon


async def timed_take_in_mail(daemon: Daemon) -> tuple[int, float, float]:
    """Mails stored; seconds spent fetching, storing and marking them; seconds spent reading
    them (decode, parse, validate, store orders, queue each acknowledgement)."""
    reading = [0.0]
    process = daemon._process_pending

    async def timed() -> None:
        start = time.perf_counter()
        await process()
        reading[0] += time.perf_counter() - start

    daemon._process_pending = timed  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        stored = await daemon.take_in_mail()
        total = time.perf_counter() - start
    finally:
        daemon._process_pending = process  # type: ignore[method-assign]
    return stored, total - reading[0], reading[0]
