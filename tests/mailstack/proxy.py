"""A loopback TCP proxy for tests, put between a client and a server of the mail stack, that
can make a connection die the quiet way: the sockets stay open but nothing gets through (a
NAT or firewall that forgot the connection, a hung server), or the server's answer stops
halfway through a given piece of data. New connections after a freeze pass normally, so the
client can reconnect. It runs in the test's event loop; TLS passes through it untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

HOST = "127.0.0.1"


@dataclass
class _Pipe:
    """One client connection and its server connection."""

    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    frozen: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class TcpProxy:
    """``async with TcpProxy(port) as proxy``: clients connect to ``proxy.port``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.connections = 0  # accepted so far
        self._pipes: list[_Pipe] = []
        self._server: asyncio.Server | None = None
        self._cut: tuple[bytes, int, bool] | None = None  # marker, bytes after it, close?
        self.cut_done = asyncio.Event()

    async def __aenter__(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._accept, HOST, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for pipe in self._pipes:
            for task in pipe.tasks:
                task.cancel()
            for writer in (pipe.client, pipe.server):
                writer.transport.abort()
        await asyncio.gather(*(t for p in self._pipes for t in p.tasks), return_exceptions=True)
        with contextlib.suppress(Exception):
            await self._server.wait_closed()

    def freeze(self) -> int:
        """Every open connection stops passing data, both ways, without closing; returns how
        many were frozen."""
        live = [pipe for pipe in self._pipes if not pipe.frozen]
        for pipe in live:
            pipe.frozen = True
        return len(live)

    def cut_after(self, marker: bytes, more: int = 200, *, close: bool) -> None:
        """The next time the server sends ``marker``, pass it and ``more`` bytes after it,
        then freeze that connection (``close=False``) or close it (``close=True``)."""
        self._cut = (marker, more, close)
        self.cut_done.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(HOST, self.target_port)
        except OSError:
            writer.transport.abort()
            return
        pipe = _Pipe(writer, up_writer)
        self._pipes.append(pipe)
        pipe.tasks = [
            asyncio.ensure_future(self._pump(pipe, reader, up_writer, from_server=False)),
            asyncio.ensure_future(self._pump(pipe, up_reader, writer, from_server=True)),
        ]

    async def _pump(
        self,
        pipe: _Pipe,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        from_server: bool,
    ) -> None:
        seen = b""  # the tail of what came before, so a marker split over reads is found
        try:
            while data := await reader.read(65536):
                if pipe.frozen:
                    continue  # swallowed: nothing gets through, nothing closes
                if from_server and self._cut is not None:
                    marker, more, close = self._cut
                    window = seen + data
                    at = window.find(marker)
                    if at >= 0:
                        end = at + len(marker) + more - len(seen)
                        self._cut = None
                        writer.write(data[: max(0, end)])
                        await writer.drain()
                        pipe.frozen = True
                        self.cut_done.set()
                        if close:
                            pipe.client.transport.abort()
                            pipe.server.transport.abort()
                        continue
                    seen = window[-len(marker) :]
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if not pipe.frozen:
                writer.transport.abort()
