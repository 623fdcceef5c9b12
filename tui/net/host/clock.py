"""A table's decision clock: the seat to act, when a person plays it, has ``--turn-timeout``
seconds for each decision; then a bot stands in for it, as for a dropped connection.

A table with a time bank (``TimeBank``, chess style: D-77) gives each seat ``base`` seconds for
the whole game and ``increment`` more for each decision it finishes: the clock of the seat to
act runs down its bank, and what a decision used is taken from it when the next decision
begins.  A seat whose bank ran out has the increment for each later decision (at least
``MIN_DECISION``).

The clock knows seats and action counts only: the table says which seat a person must decide
for now (``run``) and what happens when the time is up (``on_time_up``).  A decision taken back
keeps the time it had, with a little to think again (``UNDO_MIN_LEFT``).

A clock whose time ran out while the host itself was stopped (paused, frozen, its machine
asleep: the timer fires more than ``LATE`` seconds after its deadline) does not hand the seat to
a bot: its player was waiting for a host that did not answer (they were told so), so the
decision gets ``UNDO_MIN_LEFT`` seconds from now, and the table tells everyone (``on_moved``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

#: seconds a decision has at least after it is taken back (the clock is not reset by undoing)
UNDO_MIN_LEFT = 15.0
MIN_DECISION = 10.0  # seconds a decision has at least once a seat's bank is spent
#: a timer this many seconds late fired after the host was stopped, not after the player's time
LATE = 3.0


class TimeBank:
    """Each seat's seconds left (``left``: the list is the table's description's, so it is
    saved with it) and the seconds added per decision finished."""

    def __init__(self, left: list[float], increment: float) -> None:
        self.left = left
        self.increment = increment

    def timeout(self, seat: int) -> float:
        left = self.left[seat]
        return left if left > 0 else max(self.increment, MIN_DECISION)

    def spend(self, seat: int, used: float) -> None:
        self.left[seat] = max(0.0, self.left[seat] - used) + self.increment


class Clock:
    """``deadline`` (wall clock, 0: no clock) and ``seat`` (-1: none) are what clients are sent."""

    def __init__(
        self,
        on_time_up: Callable[[int, int], None],
        bank: TimeBank | None = None,
        on_moved: Callable[[], None] | None = None,
    ) -> None:
        self.bank = bank
        self._on_moved = on_moved
        self._began = 0.0  # when the running decision's clock started (a time bank's)
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
        if seat < 0 or (timeout <= 0 and self.bank is None):
            self.stop()
            return
        if self._handle is not None and self.seat == seat and self._n == n:
            return
        self.stop()
        self.seat, self._n = seat, n
        now = time.time()
        if self.bank is not None:  # the seat's bank, not a time per decision
            self._began = now
            self.deadline = now + self.bank.timeout(seat)
            self._handle = asyncio.get_running_loop().call_later(self.deadline - now, self._up, seat, n)
            return
        before = self._deadlines.get((seat, n))
        self.deadline = max(before, now + min(timeout, UNDO_MIN_LEFT)) if before else now + timeout
        self._deadlines[(seat, n)] = self.deadline
        self._handle = asyncio.get_running_loop().call_later(self.deadline - now, self._up, seat, n)

    def _up(self, seat: int, n: int) -> None:
        self._handle = None
        now = time.time()
        if now - self.deadline > LATE:  # the host was stopped meanwhile: not the player's time
            self.deadline = self._deadlines[(seat, n)] = now + UNDO_MIN_LEFT
            self._handle = asyncio.get_running_loop().call_later(UNDO_MIN_LEFT, self._up, seat, n)
            if self._on_moved is not None:
                self._on_moved()
            return
        if self.bank is not None:
            self.bank.left[seat] = 0.0  # spent: a bot stands in (the decisions after get the increment)
        self._on_time_up(seat, n)

    def banks(self) -> list[float]:
        """Each seat's seconds left in its bank (the running decision's not yet taken off);
        empty without a time bank."""
        return [round(x, 1) for x in self.bank.left] if self.bank is not None else []

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            if self.bank is not None and self.seat >= 0:  # the decision ends: its time is spent
                self.bank.spend(self.seat, time.time() - self._began)
        self._handle = None
        self.deadline, self.seat, self._n = 0.0, -1, -1

    def forget_before(self, n: int) -> None:
        """Decisions made before ``n`` actions can no longer be taken back: their times go."""
        for key in [k for k in self._deadlines if k[1] < n]:
            del self._deadlines[key]
