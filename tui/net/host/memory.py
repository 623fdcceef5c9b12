"""What the client processes really use, for the memory budget (``ssh_login.Hub.full``).

A client's proportional set size (PSS: the pages it shares with the other sessions, forked
from one process, divided among the sharers; ``host.forks``) costs the kernel a walk of its
memory (a few ms for a client): measured for all of them at once off the event loop, at most
every ``EVERY`` seconds.  Until a client has been measured it counts as ``SESSION_MB`` (what a
client started afresh may reach), so a burst of new sessions cannot slip past the budget.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from .options import SESSION_MB

EVERY = 5.0  # seconds between two measurements


def rss_mb(pid: int) -> float:
    """What a process really uses: its proportional set size, else its resident size."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


class _Client(Protocol):
    @property
    def pid(self) -> int: ...


class MemoryMeter:
    """The clients' memory: ``used(clients)`` from the last measurement (started again when
    it is older than ``EVERY`` seconds), ``SESSION_MB`` for each client not measured yet."""

    def __init__(self) -> None:
        self.sizes: dict[int, float] = {}  # pid -> MB at the last measurement
        self.at = float("-inf")
        self._task: asyncio.Task[dict[int, float]] | None = None

    def used(self, clients: Iterable[_Client]) -> float:
        pids = [c.pid for c in clients]
        if time.monotonic() - self.at >= EVERY and (self._task is None or self._task.done()):
            self.at = time.monotonic()
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop (a script, a test): measure now
                self.sizes = _measure(pids)
            else:
                self._task = loop.create_task(asyncio.to_thread(_measure, pids))
                self._task.add_done_callback(self._measured)
        return sum(self.sizes.get(pid, SESSION_MB) for pid in pids)

    def _measured(self, task: asyncio.Task[dict[int, float]]) -> None:
        if not task.cancelled() and task.exception() is None:
            self.sizes = task.result()


def _measure(pids: list[int]) -> dict[int, float]:
    return {pid: rss_mb(pid) for pid in pids}
