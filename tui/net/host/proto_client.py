"""An asyncio client of the table protocol, without a screen: tests, protocol-level bots and
the load benchmark."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from . import protocol as P


class NetError(Exception):
    """The server refused a lobby request or could not be reached."""


class ProtoClient:
    """An asyncio client of the table protocol (tests, benchmarks, protocol-level bots).
    A reader task queues every message, so waiting with a timeout never loses one."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.inbox: list[P._Msg] = []
        self.queue: asyncio.Queue[P._Msg | None] = asyncio.Queue()
        self.welcome: P.Welcome | None = None
        self.closed = False
        self.raw: list[bytes] | None = None  # set to a list to keep every frame as received (tests)
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                body = await P.read_frame(self.reader)
                if body is None:
                    break
                if self.raw is not None:
                    self.raw.append(bytes(body))
                self.queue.put_nowait(P.decode(body))
        except (OSError, P.ProtocolError, asyncio.IncompleteReadError):
            pass
        finally:
            self.closed = True
            self.queue.put_nowait(None)

    @classmethod
    async def connect(cls, address: str, token: str | None = None) -> ProtoClient:
        kind, _, rest = address.partition(":")
        if kind == "unix":
            r, w = await asyncio.open_unix_connection(rest, limit=P.MAX_MESSAGE + 16)
        else:
            host, _, port = rest.rpartition(":")
            r, w = await asyncio.open_connection(host, int(port), limit=P.MAX_MESSAGE + 16)
        c = cls(r, w)
        if token is not None:
            c.send(P.Hello(version=P.PROTOCOL_VERSION, token=token, client="proto"))
            msg = await c.recv()
            if not isinstance(msg, P.Welcome):
                raise NetError(getattr(msg, "message", repr(msg)))
            c.welcome = msg
        return c

    def send(self, msg: P._Msg) -> None:
        self.writer.write(P.encode(msg))

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def recv(self, timeout: float = 10.0) -> P._Msg:
        if self.inbox:
            return self.inbox.pop(0)
        m = await asyncio.wait_for(self.queue.get(), timeout)
        if m is None:
            self.queue.put_nowait(None)
            raise NetError("closed")
        return m

    async def expect(self, pred: Callable[[P._Msg], bool], timeout: float = 10.0) -> P._Msg:
        """The first message (in order) for which ``pred`` is true; earlier ones are kept."""
        for i, m in enumerate(self.inbox):
            if pred(m):
                return self.inbox.pop(i)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError("expected message did not arrive")
            got = await asyncio.wait_for(self.queue.get(), left)
            if got is None:
                self.queue.put_nowait(None)
                raise NetError("closed")
            if pred(got):
                return got
            self.inbox.append(got)

    async def close(self) -> None:
        self._task.cancel()
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:  # the server already dropped us
            pass
