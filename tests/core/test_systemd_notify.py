"""The daemon speaks systemd's notify protocol: READY, WATCHDOG, RELOADING, STOPPING."""

from __future__ import annotations

import asyncio
import socket

from gm_daemon.daemon import Daemon
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness


def test_notify_messages_over_the_socket(tmp_path, monkeypatch):
    h = DaemonHarness(tmp_path, GAMES)
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    received: list[str] = []

    def drain() -> None:
        while True:
            try:
                received.append(listener.recv(4096).decode())
            except BlockingIOError:
                return

    async def scenario() -> None:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        for _ in range(100):
            await asyncio.sleep(0.05)
            drain()
            if any(m.startswith("READY=1") for m in received):
                break
        daemon.request_reload()
        await asyncio.sleep(0.3)
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)
        drain()

    asyncio.run(scenario())
    listener.close()
    assert received[0].startswith("READY=1")
    assert "WATCHDOG=1" in received
    assert "RELOADING=1" in received
    assert received[-1] == "STOPPING=1"
