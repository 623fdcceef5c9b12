"""``paused_gc()``: the cyclic garbage collector held off while a search plays its playouts.

A playout allocates tens of thousands of short-lived tuples, lists and floats, every one freed
by its reference count (a playout makes no reference cycles); each 700 of them the collector
nevertheless walked the young objects, and every tenth time the older ones too: 8 % of a
playout's CPU time on a bare interpreter, more in a process that holds a whole client or server.
While any thread is inside ``paused_gc()`` the collector does not run by itself; it is enabled
again (if it was enabled before the first thread came in) when the last one leaves, and
collects then whatever cycles other threads made meanwhile; a process forked meanwhile starts with
the collector as it was.  It changes no choice of any bot.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def paused_gc() -> Iterator[None]:
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            if _was_enabled:
                gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            if _holders > 0:  # (0 in a child forked inside: it starts afresh)
                _holders -= 1
                if _holders == 0 and _was_enabled:
                    gc.enable()


def _after_fork_in_child() -> None:
    """A process forked while another thread played out starts with the collector as it was
    before the pause, and with nobody inside."""
    global _lock, _holders
    _lock = threading.Lock()
    if _holders and _was_enabled:
        gc.enable()
    _holders = 0


os.register_at_fork(after_in_child=_after_fork_in_child)
