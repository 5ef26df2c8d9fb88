"""The test mail stack's own plumbing: skip/fail policy, leftover clean-up, process checks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.mailstack.fixture import ALLOW_SKIP, require_mailstack
from tests.mailstack.stack import _alive, _free_ports, clean_leftovers


def test_missing_stack_fails_unless_skipping_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOW_SKIP, raising=False)
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        require_mailstack("not installed: /usr/sbin/postfix")
    monkeypatch.setenv(ALLOW_SKIP, "1")
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        require_mailstack("not installed: /usr/sbin/postfix")
    require_mailstack(None)  # available: nothing happens


def _dead_pid() -> int:
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def test_leftovers_of_dead_owners_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / "gm-mailstack-dead"
    dead.mkdir()
    (dead / "owner.pid").write_text(str(_dead_pid()))
    live = tmp_path / "gm-mailstack-live"
    live.mkdir()
    (live / "owner.pid").write_text(str(os.getpid()))
    clean_leftovers(tmp_path)
    assert not dead.exists()
    assert live.exists()


def test_process_and_port_helpers() -> None:
    assert not _alive(_dead_pid())
    assert _alive(os.getpid())
    ports = _free_ports(4)
    assert len(set(ports)) == 4
