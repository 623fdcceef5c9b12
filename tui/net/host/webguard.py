"""The web port's guard: what the SSH port has against idle connections (``ssh_login``), for the
connections to ``--web``.  aiohttp closes a connection idle *after* a request (its keep-alive),
but one that never sends a request was kept for ever: twenty thousand of them used up the
server's descriptors (no SSH login, no database heartbeat) and asyncio logged each failed
``accept()``.

* **Per address** at most ``MAX_CONNECTIONS_PER_ADDRESS`` connections (the SSH port's 10); a
  loopback peer is the reverse proxy (README, "In a browser"), whose browsers' connections are
  all its own, so it is not capped there (the half-open cap below still holds for it).
* **Half-open**: a connection has ``LOGIN_GRACE`` seconds (the SSH port's 30) to send a complete
  request, and at most ``MAX_UNAUTHENTICATED`` connections over all addresses may be waiting for
  theirs; beyond, a new one is closed at once.
* **accept() failing** (out of descriptors) is logged once a minute with a count, not once per
  attempt (on every listener of the server's loop: ``ssh.start_server`` installs it).

No aiohttp here: the SSH side imports this module without it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .ssh_login import LOGIN_GRACE, MAX_CONNECTIONS_PER_ADDRESS, MAX_UNAUTHENTICATED

__all__ = ["ConnectionGuard", "quiet_accept_errors"]

log = logging.getLogger("colosseum.web")

ACCEPT_LOG_EVERY = 60.0  # seconds between two lines about accept() failing


def loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class ConnectionGuard:
    """``loop.create_server(guard.wrap(factory), ...)``, ``guard.middleware`` in the app."""

    def __init__(
        self,
        *,
        per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        half_open: int = MAX_UNAUTHENTICATED,
        grace: float = LOGIN_GRACE,
        uncapped: Callable[[str], bool] = loopback,
    ) -> None:
        self.per_address = per_address
        self.half_open = half_open
        self.grace = grace
        self.uncapped = uncapped  # addresses not capped per address (the reverse proxy's)
        self.connections: dict[str, int] = {}  # address -> open connections
        self.waiting: dict[Any, _Guarded] = {}  # transport -> its connection, no request yet
        self.refused = 0
        self.timed_out = 0

    def wrap(self, factory: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        return lambda: _Guarded(self, factory)

    def answered(self, transport: Any) -> None:
        """A complete request came on ``transport``: it no longer waits for one."""
        found = self.waiting.pop(transport, None)
        if found is not None:
            found.stop_timer()

    async def middleware(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        """(aiohttp's middleware: every request that reached a handler was complete)"""
        self.answered(request.transport)
        return await handler(request)

    middleware.__middleware_version__ = 1  # type: ignore[attr-defined]  # (aiohttp's ``web.middleware``)


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, counted, timed, and closed when over a cap."""

    def __init__(self, guard: ConnectionGuard, factory: Callable[[], asyncio.Protocol]) -> None:
        self.guard = guard
        self.factory = factory
        self.inner: asyncio.Protocol | None = None
        self.address = ""
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        g = self.guard
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        n = g.connections.get(self.address, 0) + 1
        g.connections[self.address] = n
        self.transport = transport
        if (n > g.per_address and not g.uncapped(self.address)) or len(g.waiting) >= g.half_open:
            g.refused += 1
            if g.refused <= 100 or g.refused % 1000 == 0:
                log.warning(
                    "web: connection from %s closed at once (%d from there, %d waiting for a request; "
                    "%d refused so far)",
                    self.address,
                    n,
                    len(g.waiting),
                    g.refused,
                )
            transport.abort()
            return
        g.waiting[transport] = self
        self.timer = asyncio.get_running_loop().call_later(g.grace, self._too_slow)
        self.inner = self.factory()
        self.inner.connection_made(transport)

    def _too_slow(self) -> None:
        self.timer = None
        if self.transport is not None and self.guard.waiting.pop(self.transport, None) is not None:
            self.guard.timed_out += 1
            self.transport.abort()

    def stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        g = self.guard
        self.stop_timer()
        if self.transport is not None:
            g.waiting.pop(self.transport, None)
        left = g.connections.get(self.address, 1) - 1
        if left > 0:
            g.connections[self.address] = left
        else:
            g.connections.pop(self.address, None)
        if self.inner is not None:
            self.inner.connection_lost(exc)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """asyncio's "socket.accept() out of system resource" (a listening socket with no
    descriptor left, retried each second by every listener) logged once a minute with how many
    there were, every other error as before.  Returns what puts the loop's handler back."""
    previous = loop.get_exception_handler()
    state = {"last": 0.0, "unsaid": 0}

    def handler(lp: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            now = time.monotonic()
            if now - state["last"] < ACCEPT_LOG_EVERY:
                state["unsaid"] += 1
                return
            log.error(
                "accept() fails: %s (out of descriptors? %d times more since the last line)",
                context.get("exception"),
                state["unsaid"],
            )
            state["last"], state["unsaid"] = now, 0
            return
        if previous is not None:
            previous(lp, context)
        else:
            lp.default_exception_handler(context)

    loop.set_exception_handler(handler)
    return lambda: loop.set_exception_handler(previous)
