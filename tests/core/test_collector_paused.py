"""A resolution runs with the cyclic garbage collector paused (``referee.collector_paused``,
issue 24): it is off inside, on again after, also when the resolution fails, and left off
when it was off before."""

from __future__ import annotations

import gc
from contextlib import nullcontext

import pytest

from gm_daemon.referee import collector_paused


@pytest.mark.parametrize("fails", [False, True], ids=["resolves", "raises"])
def test_off_inside_and_on_again_after(fails: bool) -> None:
    assert gc.isenabled()
    inside = []
    expected = pytest.raises(RuntimeError) if fails else nullcontext()
    with expected, collector_paused():
        inside.append(gc.isenabled())
        if fails:
            raise RuntimeError("the engine failed")
    assert inside == [False]
    assert gc.isenabled()


def test_left_off_when_it_was_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
