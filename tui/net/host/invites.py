"""Private tables and their invitation codes (issue 26, D-78).

A table created ``private`` gets a code of 8 letters and digits (no look-alikes: about 10^12
codes).  Only the people it concerns see it: its creator, whoever holds a seat, and whoever came
with the code (``JoinCode``, in the lobby or as ``ssh -t ... join CODE``); for anyone else it is
not there (not listed, and "no table" to a join or watch by its id).  A finished private game is
listed to those who played it.  Guessing codes is bounded: a connection gets a few wrong codes
a minute, then waits.
"""

from __future__ import annotations

import secrets
import time
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import protocol as P
from .conn import Conn
from .meta import TableMeta

if TYPE_CHECKING:
    from .hub import TableServer

__all__ = ["ALPHABET", "CODE_LENGTH", "clean_code", "join_code", "may_see", "new_code"]

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1: read aloud or copied by hand
CODE_LENGTH = 8
WRONG_PER_MINUTE = 5  # wrong codes a connection may try in a minute

_wrong: weakref.WeakKeyDictionary[Conn, list[float]] = weakref.WeakKeyDictionary()


def new_code(tables: Iterable[Any]) -> str:
    """A code no live table has."""
    taken = {t.meta.code for t in tables}
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def clean_code(text: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[: CODE_LENGTH * 2]


def may_see(meta: TableMeta, player: str) -> bool:
    """Whether ``player`` (an identity) may see the table of ``meta``."""
    if not meta.code or player == meta.creator or player in meta.invited:
        return True
    return any(s.holder == player for s in meta.seats)


def join_code(server: TableServer, conn: Conn, msg: P.JoinCode) -> None:
    """``conn`` comes with a code: it may see that table from now on, and sits at its first
    free seat while it waits for players, else watches."""
    now = time.monotonic()
    tries = [t for t in _wrong.get(conn, []) if now - t < 60.0]
    if len(tries) >= WRONG_PER_MINUTE:
        server.refuse(conn, "too many wrong codes: wait a minute", code="flood")
        return
    code = clean_code(msg.code)
    table = next((t for t in server.tables.values() if code and t.meta.code == code), None)
    if table is None or table.meta.status == "over":
        _wrong[conn] = [*tries, now]
        server.refuse(conn, f"no table has the code {code[: CODE_LENGTH * 2]!r}")
        return
    m = table.meta
    if not may_see(m, conn.player):
        m.invited.append(conn.player)
        server.save_meta(m)
    held = next((i for i, s in enumerate(m.seats) if s.holder == conn.player), None)
    free = [i for i, s in enumerate(m.seats) if s.kind == "human" and not s.holder]
    if held is not None:
        server.join(conn, table.id, held)
    elif m.status == "waiting" and free:
        server.join(conn, table.id, free[0])
    else:
        server.watch(conn, table.id)
