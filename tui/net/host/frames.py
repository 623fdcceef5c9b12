"""Framing of the protocol's messages: a 4-byte big-endian length, then the body (msgpack)."""

from __future__ import annotations

import asyncio
import struct

__all__ = ["HEADER", "MAX_MESSAGE", "FrameBuffer", "ProtocolError", "read_frame"]

MAX_MESSAGE = 1 << 20  # 1 MiB: a full state is a few kB
HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """A frame that is oversized or cut; ``fatal`` when the stream is unusable."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


async def read_frame(reader: asyncio.StreamReader, limit: int = MAX_MESSAGE) -> bytes | None:
    """The next frame's body, or None at a clean end of stream.  Raises a fatal ProtocolError
    for an oversized frame (nothing of it is read) or a stream cut mid-frame."""
    try:
        head = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            return None
        raise ProtocolError("stream cut inside a frame header", fatal=True) from None
    (size,) = HEADER.unpack(head)
    if size > limit:
        raise ProtocolError(f"oversized message: {size} bytes (limit {limit})", fatal=True)
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ProtocolError("stream cut inside a frame", fatal=True) from None


class FrameBuffer:
    """Incremental framing for blocking sockets (the client side)."""

    def __init__(self, limit: int = MAX_MESSAGE) -> None:
        self.buf = bytearray()
        self.limit = limit

    def feed(self, data: bytes) -> list[bytes]:
        self.buf += data
        out = []
        while len(self.buf) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.buf)
            if size > self.limit:
                raise ProtocolError(f"oversized message: {size} bytes", fatal=True)
            if len(self.buf) < HEADER.size + size:
                break
            out.append(bytes(self.buf[HEADER.size : HEADER.size + size]))
            del self.buf[: HEADER.size + size]
        return out
