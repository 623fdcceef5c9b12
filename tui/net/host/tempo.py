"""Turn-based tables (issue 26, D-77): each decision has hours, not seconds, and the table waits
for players who are away (no bot stands in for an absent player, only for a decision whose time
ran out).  A decision's deadline is kept in the table's description, so a restart of the server
goes on with the time that was left."""

from __future__ import annotations

import time

from .meta import TableMeta

__all__ = ["MAX_TURN_HOURS", "turn_seconds"]

MAX_TURN_HOURS = 14 * 24.0  # two weeks a move at most


def turn_seconds(meta: TableMeta, n: int, now: float | None = None) -> tuple[float, bool]:
    """The seconds left for the decision after ``n`` actions at a turn-based table, and whether
    its deadline is new (the description is then saved)."""
    now = time.time() if now is None else now
    new = meta.turn_at != n or meta.turn_deadline <= 0
    if new:
        meta.turn_at, meta.turn_deadline = n, now + meta.turn_hours * 3600.0
    return max(1.0, meta.turn_deadline - now), new
