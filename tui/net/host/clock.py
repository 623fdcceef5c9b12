"""A table's decision clock: the seat to act, when a person plays it, has ``--turn-timeout``
seconds for each decision; then a bot stands in for it, as for a dropped connection.

The clock knows seats and action counts only: the table says which seat a person must decide
for now (``run``) and what happens when the time is up (``on_time_up``).  A decision taken back
keeps the time it had, with a little to think again (``UNDO_MIN_LEFT``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

#: seconds a decision has at least after it is taken back (the clock is not reset by undoing)
UNDO_MIN_LEFT = 15.0


class Clock:
    """``deadline`` (wall clock, 0: no clock) and ``seat`` (-1: none) are what clients are sent."""

    def __init__(self, on_time_up: Callable[[int, int], None]) -> None:
        self.deadline = 0.0
        self.seat = -1
        self._on_time_up = on_time_up
        self._handle: asyncio.TimerHandle | None = None
        self._n = -1
        # each decision's deadline (seat, actions before it): a decision taken back keeps its time
        self._deadlines: dict[tuple[int, int], float] = {}

    def run(self, seat: int, n: int, timeout: float) -> None:
        """The clock for ``seat`` deciding after ``n`` actions (``seat`` < 0 or ``timeout`` <= 0:
        no clock); the same decision keeps its running clock, a new one starts it again."""
        if seat < 0 or timeout <= 0:
            self.stop()
            return
        if self._handle is not None and self.seat == seat and self._n == n:
            return
        self.stop()
        self.seat, self._n = seat, n
        now = time.time()
        before = self._deadlines.get((seat, n))
        self.deadline = max(before, now + min(timeout, UNDO_MIN_LEFT)) if before else now + timeout
        self._deadlines[(seat, n)] = self.deadline
        self._handle = asyncio.get_running_loop().call_later(self.deadline - now, self._up, seat, n)

    def _up(self, seat: int, n: int) -> None:
        self._handle = None
        self._on_time_up(seat, n)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        self.deadline, self.seat, self._n = 0.0, -1, -1

    def forget_before(self, n: int) -> None:
        """Decisions made before ``n`` actions can no longer be taken back: their times go."""
        for key in [k for k in self._deadlines if k[1] < n]:
            del self._deadlines[key]
