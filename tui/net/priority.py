"""Spectators' screens yield the processor to the players' screens, and to one another in turn.

When a move is made, every screen at the table redraws at the same moment: at a busy table of
twenty screens on two cores, with the processor shared equally, every screen shows the move only
when nearly all are done.  A client process that starts watching a table lowers its own priority
(the players' processes keep theirs) to one of several levels spread over the spectators, so the
players' screens are drawn first and the spectators' one after another rather than all last.
The work is the same, only its order changes: at one table every screen is drawn sooner, the
last too; when several tables move together a low-priority screen also waits behind the other
tables' players, so the slowest screens can come later while the median comes sooner.

Linux with "autogroup" scheduling (``/proc/sys/kernel/sched_autogroup_enabled``; each SSH
session's client is its own session and so its own group) weighs groups, not processes, so the
level is written to ``/proc/self/autogroup``; elsewhere the process's nice value is raised.  A
process may lower its priority but not raise it back: a spectator who sits down later keeps the
spectator's level until the connection ends (measured in ``tui/net/README.md``, "Load").
"""

from __future__ import annotations

import contextlib
import os

#: the spectators' levels (nice values): each step of 2 is about 1.5x less processor when all are busy
LEVELS = (2, 4, 6, 8, 10, 12, 14, 16, 18)

_lowered = False


def spectator_level(pid: int | None = None) -> int:
    """The level of the spectator process ``pid`` (spread over ``LEVELS`` by process id)."""
    return LEVELS[(os.getpid() if pid is None else pid) % len(LEVELS)]


def _autogroup() -> bool:
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as fh:
            return fh.read().strip() == "1"
    except OSError:
        return False


def yield_to_players() -> int | None:
    """Lower this process's priority to its spectator level (once); the level set, or None
    (already lowered, or the system refused: nothing else changes)."""
    global _lowered
    if _lowered:
        return None
    _lowered = True
    level = spectator_level()
    done = False
    # (the group is the session's: only a process that leads its own session, as every client
    # process does, may set it without touching others)
    if _autogroup() and os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError):
            with open("/proc/self/autogroup", "w") as fh:
                fh.write(str(level))
            done = True
    with contextlib.suppress(OSError, AttributeError):  # (the process's own value, as elsewhere)
        os.setpriority(os.PRIO_PROCESS, 0, max(level, os.getpriority(os.PRIO_PROCESS, 0)))
        done = True
    return level if done else None
