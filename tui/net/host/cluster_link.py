"""A host's line to the shared database when several hosts serve one lobby (issue 30).

The tables run on the hub's event loop and write each log line *before* the action is
acknowledged (``core.logwriter``: today's file, then its mirror).  So that a line's commit can be
awaited from that synchronous path, the database is spoken to from a thread of its own with its
own event loop and engine: ``call`` blocks the caller until the transaction commits (or raises
:class:`ClusterError`, an OSError, as a full disk would), ``submit`` does not block (the lobby's
descriptions, the heartbeat).  The thread also LISTENs for other hosts' table changes.

A host's tables cost one round trip to the database per logged line on the hub's loop: measured
by ``benchmarks/bench_cluster.py``; that is the design's limit on actions per second per host.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .store import cluster
from .store.db import make_engine

log = logging.getLogger("colosseum.net.cluster")

T = TypeVar("T")

CALL_TIMEOUT = 5.0  # seconds a logged line may wait for its commit before the move is refused


class ClusterError(OSError):
    """The database did not take a write (``fenced``: this host no longer owns the table;
    ``unknown``: no answer in time, it may have been written all the same)."""

    def __init__(self, message: str, *, fenced: bool = False, unknown: bool = False) -> None:
        super().__init__(message)
        self.fenced = fenced
        self.unknown = unknown


def _failure(err: BaseException) -> ClusterError:
    if isinstance(err, cluster.Fenced):
        return ClusterError(str(err), fenced=True)
    if isinstance(err, ClusterError):
        return err
    text = str(getattr(err, "orig", None) or err).strip().splitlines()
    return ClusterError(f"the database refused: {text[0] if text else type(err).__name__}")


#: asyncpg's errors of a server that cannot be reached or used just now (connection failures,
#: a server starting, shutting down or in recovery, no connection free): raised as they are
#: while connecting, else as the cause of SQLAlchemy's error
_AWAY = (
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.TooManyConnectionsError,
)


def _out_of_touch(err: BaseException) -> bool:
    """``err`` says the database could not be reached (or the connection to it was lost), not
    that it refused what was asked (a fence, a transaction's own error, a misuse of the driver)."""
    seen: BaseException | None = err
    for _ in range(4):  # SQLAlchemy's error, the adapter's, asyncpg's
        if seen is None:
            return False
        if isinstance(seen, (OSError, OperationalError, *_AWAY)):  # (TimeoutError is an OSError)
            return True
        if isinstance(seen, DBAPIError) and seen.connection_invalidated:
            return True
        seen = getattr(seen, "orig", None) or seen.__cause__
    return False


class ClusterLink:
    """``ClusterLink(url).start()``; ``call(fn)`` runs ``fn(conn)`` in a transaction on the
    link's thread and returns its result; ``close()``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop = asyncio.new_event_loop()
        self.engine: AsyncEngine | None = None
        self._thread = threading.Thread(target=self._run, name="colosseum-db", daemon=True)
        self._listener: Any = None

    def start(self) -> None:
        # in touch from now on: a host started just after an outage (a service manager restarts
        # one that could not start) waits as one back from it would (ADOPT_AFTER, D-105)
        self.failed_at = time.monotonic()
        self._thread.start()
        self.call(lambda c: _noop(c))  # the database answers (else ClusterError now)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.engine = make_engine(self.url)
        self.loop.run_forever()

    async def _in_transaction(self, fn: Callable[[AsyncConnection], Awaitable[T]], ordered: bool = False) -> T:
        assert self.engine is not None
        if ordered:  # one after another, in the order submitted (the lobby's descriptions)
            if self._order is None:
                self._order = asyncio.Lock()
            async with self._order, self.engine.begin() as conn:
                return await fn(conn)
        async with self.engine.begin() as conn:
            return await fn(conn)

    _order: asyncio.Lock | None = None

    def submit(
        self, fn: Callable[[AsyncConnection], Awaitable[T]], *, ordered: bool = False
    ) -> concurrent.futures.Future[T]:
        """Run ``fn`` in a transaction on the link's thread; the future has its result.
        ``ordered``: after every other ordered one submitted before it."""
        return asyncio.run_coroutine_threadsafe(self._in_transaction(fn, ordered), self.loop)

    def call(
        self, fn: Callable[[AsyncConnection], Awaitable[T]], timeout: float = CALL_TIMEOUT, *, ordered: bool = False
    ) -> T:
        """``fn`` committed, its result; ClusterError (an OSError) if the database refused or did
        not answer in ``timeout`` seconds (``fenced`` if the table is no longer this host's;
        ``unknown`` if it may have committed all the same: a transaction is never cut off
        half-way, that would leave its connection unusable)."""
        future = self.submit(fn, ordered=ordered)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            raise self._failed(ClusterError("the database did not answer in time", unknown=True)) from None
        except Exception as err:  # noqa: BLE001 - whatever the driver raises is one line here
            raise self._failed(_failure(err), err) from None

    async def acall(self, fn: Callable[[AsyncConnection], Awaitable[T]], timeout: float = CALL_TIMEOUT) -> T:
        """``call`` awaited on another loop (the hub's) without blocking it."""
        future = asyncio.wrap_future(self.submit(fn))
        done, _ = await asyncio.wait({future}, timeout=timeout)  # (never cancels the transaction)
        if not done:
            raise self._failed(ClusterError("the database did not answer in time", unknown=True))
        try:
            return future.result()
        except Exception as err:  # noqa: BLE001 - whatever the driver raises is one line here
            raise self._failed(_failure(err), err) from None

    #: time.monotonic() of the last call that did not reach the database (``calm_for``)
    failed_at = float("-inf")

    def _failed(self, err: ClusterError, cause: BaseException | None = None) -> ClusterError:
        if err.unknown or (cause is not None and _out_of_touch(cause)):
            self.failed_at = time.monotonic()
        return err

    def calm_for(self) -> float:
        """Seconds since a call of this link last failed to reach the database (no answer in
        time, no connection): how long this host has been in touch with it.  A fence or an
        error of the transaction's own is an answer."""
        return time.monotonic() - self.failed_at

    def listen(self, heard: Callable[[str], None]) -> None:
        """Call ``heard(table_id)`` (on the link's thread) when any host changes a table
        (PostgreSQL's LISTEN; on another database the lobby's periodic refresh does it)."""
        if not self.url.startswith("postgresql"):
            return
        asyncio.run_coroutine_threadsafe(self._listen(heard), self.loop)

    async def _listen(self, heard: Callable[[str], None]) -> None:
        assert self.engine is not None
        while True:
            try:
                raw = await self.engine.raw_connection()
                driver: Any = raw.driver_connection  # asyncpg's connection
                await driver.add_listener(cluster.CHANNEL, lambda _c, _pid, _chan, payload: heard(str(payload)))
                self._listener = raw
                return
            except (OSError, DBAPIError, OperationalError) as err:  # the database is away: again soon
                log.warning("cannot listen for table changes: %s", err)
                await asyncio.sleep(2.0)

    def close(self) -> None:
        async def stop() -> None:
            if self._listener is not None:
                try:
                    self._listener.invalidate()
                except Exception:  # noqa: BLE001 - closing anyway
                    pass
            if self.engine is not None:
                await self.engine.dispose()

        if self._thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(stop(), self.loop).result(5.0)
            except (concurrent.futures.TimeoutError, OSError, DBAPIError):
                pass
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5.0)


async def _noop(conn: AsyncConnection) -> None:
    from sqlalchemy import text

    await conn.execute(text("SELECT 1"))
