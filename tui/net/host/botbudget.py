"""The bots' share of the server: every bot decision of every table goes through one budget, so
the bots of many tables cannot starve the server (issue 24: 50 tables of hard bots took it to
100 % CPU, a message's round trip from 0.6 ms to 91 ms).

* **Slots.** At most ``slots`` bot decisions run at once over the whole server (one by default:
  a decision off the event loop still holds the interpreter's lock while it computes, so more
  threads would only take turns with the server's own work).
* **A share of the time.** After a decision that took ``u`` seconds its slot rests
  ``u * (1 - share) / share`` seconds: the bots use at most ``share`` of a slot's time, and the
  server's event loop (people's moves, screens, talk) has the rest.
* **People first.** A decision at a table a person is at (seated or watching) goes before the
  decisions of tables nobody looks at, which wait in the order they came.
* **Think time shrinks under load.** A bot that thinks for a time (the search bots) gets its
  own time when nobody waits, and ``its time / (1 + waiting)`` when others wait, never less
  than ``least`` seconds: with many tables each decision is shorter, and the tables go on.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

SLOTS = 1
SHARE = 0.75  # of a slot's time the bots may use
LEAST_THINK = 0.05  # seconds a thinking bot gets at least


class BotBudget:
    """The server's one budget for bot decisions (``decision``)."""

    def __init__(self, slots: int = SLOTS, share: float = SHARE, least: float = LEAST_THINK) -> None:
        self.slots = max(1, slots)
        self.share = min(1.0, max(0.05, share))
        self.least = least
        self.busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # (0 person, 1 none), order
        self._order = itertools.count()
        self._rest_until = 0.0  # (monotonic) no decision starts before: the last one's rest
        # figures for the operator and the tests
        self.decisions = 0
        self.seconds = 0.0  # spent deciding
        self.most_at_once = 0
        self.most_waiting = 0

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def think(self, own: float) -> float:
        """Seconds a bot whose own think time is ``own`` gets for a decision now."""
        return max(min(own, self.least), own / (1 + len(self._waiting)))

    @asynccontextmanager
    async def decision(self, *, person: bool) -> AsyncIterator[BotBudget]:
        """Wait for a slot (``person``: a person is at the table, so it goes first), the rest
        of the last decision, then decide within the block; its time is counted."""
        await self._acquire(person)
        try:
            rest = self._rest_until - time.monotonic()
            if rest > 0:
                await asyncio.sleep(rest)
            started = time.monotonic()
            try:
                yield self
            finally:
                used = time.monotonic() - started
                self.decisions += 1
                self.seconds += used
                self._rest_until = time.monotonic() + used * (1 - self.share) / self.share
        finally:
            self._release()

    async def _acquire(self, person: bool) -> None:
        if self.busy < self.slots and not self._waiting:
            self._take()
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if person else 1, next(self._order), fut))
        self.most_waiting = max(self.most_waiting, len(self._waiting))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # granted as it was cancelled: pass it on
                self._release()
            else:
                self._waiting = [w for w in self._waiting if w[2] is not fut]
                heapq.heapify(self._waiting)
            raise

    def _take(self) -> None:
        self.busy += 1
        self.most_at_once = max(self.most_at_once, self.busy)

    def _release(self) -> None:
        self.busy -= 1
        while self._waiting and self.busy < self.slots:
            _, _, fut = heapq.heappop(self._waiting)
            if not fut.done():
                self._take()
                fut.set_result(None)

    def stats(self) -> str:
        return (
            f"bot decisions {self.decisions} ({self.seconds:.1f} s), waiting {self.waiting}, "
            f"most waiting {self.most_waiting}"
        )
