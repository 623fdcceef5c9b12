"""Who is at a table: its seats (``TableMeta.seats``: a bot's, or a person's once held), the
connections (players and spectators), who is present, and the bots that stand in.

A dropped connection keeps its seat (same identity: same seat); after the server's
``bot_timeout`` a bot stands in for the absent player until they sit again.  A player may also
hand their seat to a bot (``Autopilot``), and the clock does when a decision takes too long.
Leaving a table that has not started frees the seat.  Taking over a bot's seat (when the
table's creator allowed it) is for any game, between that bot's turns.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from . import protocol as P
from .conn import Conn
from .meta import TableMeta

log = logging.getLogger("colosseum.net")

#: Said to a player's older connection when the same player sits at its table from a newer one
#: (``Error`` code ``moved``, with the table): the seat goes with the newer connection.
MOVED = "You sat down at this table from another connection: your seat is there now, and here you watch."


class Seats:
    def __init__(self, meta: TableMeta) -> None:
        self.meta = meta
        self.conns: dict[Conn, int] = {}  # every connection at the table -> seat / -1
        self.present: dict[int, Conn] = {}  # seat -> the connection holding it now
        self.absent_since: dict[int, float] = {}
        self.standin: set[int] = set()
        self.timers: dict[int, asyncio.TimerHandle] = {}

    @property
    def count(self) -> int:
        return len(self.meta.seats)

    def person_plays(self, seat: int) -> bool:
        """A person holds ``seat`` and plays it (no bot stands in for them)."""
        s = self.meta.seats[seat]
        return s.kind == "human" and bool(s.holder) and seat not in self.standin

    def held(self, seat: int) -> bool:
        return bool(self.meta.seats[seat].holder)

    def seat_of(self, conn: Conn) -> int | None:
        """The seat ``conn`` plays (None: not at the table; -1: watching, or its seat was
        taken by the same player's newer connection)."""
        seat = self.conns.get(conn)
        if seat is not None and seat >= 0 and self.present.get(seat) is not conn:
            return -1
        return seat

    def spectators(self) -> int:
        return sum(1 for s in self.conns.values() if s < 0)

    def everyone_seated(self) -> bool:
        return all(s.kind != "human" or s.holder for s in self.meta.seats)

    # ---------------------------------------------------------------- sitting down
    def refusal(self, conn: Conn, seat: int, *, to_act: int) -> str | None:
        """Why ``conn`` may not sit at ``seat`` now (None: it may).  ``to_act``: the seat the
        game waits for (-1: none, or no game yet)."""
        m = self.meta
        if not 0 <= seat < len(m.seats):
            return f"there is no seat {seat}"
        s = m.seats[seat]
        if s.holder == conn.player:
            return None  # back to one's own seat (reconnect)
        if any(o.holder == conn.player for o in m.seats):
            return "you already hold a seat at this table"
        if s.kind == "human" and not s.holder:
            return "that seat is not free" if m.status != "waiting" else None
        if s.kind != "human" and not s.holder:
            if not m.allow_takeover:
                return "the table's creator did not allow taking over bot seats"
            if m.status == "over":
                return "the game is over"
            if to_act == seat:
                return "a bot's seat can be taken over only between its turns"
            return None
        return f"seat {seat + 1} is held by {s.name}"

    def sit(self, conn: Conn, seat: int, table: str) -> None:
        """Seat ``conn`` (``refusal`` said it may): a bot's seat taken over becomes a person's;
        the same player's older connection, if any, is moved to watching."""
        s = self.meta.seats[seat]
        if s.kind != "human" and not s.holder:
            s.kind = "human"
        s.holder, s.name = conn.player, conn.name
        old = self.present.get(seat)
        if old is not None and old is not conn:
            # the same player connected again elsewhere: the newer connection holds the seat
            self.conns[old] = -1
            old.tables[table] = -1
            old.send(P.Error(message=MOVED, code="moved", table=table))
        prev = self.conns.get(conn)
        if prev is not None and prev >= 0 and prev != seat:
            self.present.pop(prev, None)
        self.present[seat] = conn
        self.conns[conn] = seat
        conn.tables[table] = seat
        self.absent_since.pop(seat, None)
        self.standin.discard(seat)
        t = self.timers.pop(seat, None)
        if t:
            t.cancel()

    def pass_creator(self, leaver: str) -> None:
        """The creator of a waiting table left their seat: the first person still seated may
        start it now (as a table's admin passes on at Board Game Arena), else nobody could."""
        m = self.meta
        if leaver != m.creator:
            return
        heir = next((s for s in m.seats if s.holder), None)
        if heir is not None:
            log.info("table %s: %s left; %s may start it now", m.id, m.creator_name, heir.name)
            m.creator, m.creator_name = heir.holder, heir.name

    def watch(self, conn: Conn, table: str) -> int | None:
        """``conn`` watches; the seat it held here (if any) is left (returned)."""
        prev = self.conns.get(conn)
        self.conns[conn] = -1
        conn.tables[table] = -1
        return prev if prev is not None and prev >= 0 and self.present.get(prev) is conn else None

    def drop(self, conn: Conn, table: str) -> int | None:
        """``conn`` leaves the table; the seat it held (if any) is returned."""
        seat = self.conns.pop(conn, None)
        conn.tables.pop(table, None)
        return seat if seat is not None and seat >= 0 and self.present.get(seat) is conn else None

    def left(self, seat: int, *, waiting: bool) -> None:
        """The connection at ``seat`` left: before the game, the seat is free again; during it,
        its player is away (``arm`` a stand-in)."""
        self.present.pop(seat, None)
        if waiting:
            s = self.meta.seats[seat]
            s.holder = s.name = ""
        else:
            self.absent_since[seat] = time.monotonic()

    # ---------------------------------------------------------------- stand-ins
    def arm(self, seat: int, delay: float, stand_in: Callable[[int], None]) -> None:
        """In ``delay`` seconds a bot stands in for ``seat`` (``stand_in(seat)``) unless its
        player is back."""
        old = self.timers.pop(seat, None)
        if old:
            old.cancel()
        self.timers[seat] = asyncio.get_running_loop().call_later(delay, self._fire, seat, stand_in)

    def _fire(self, seat: int, stand_in: Callable[[int], None]) -> None:
        self.timers.pop(seat, None)
        stand_in(seat)

    def away(self) -> list[int]:
        """After a restart: every held seat's player is away until they come back."""
        held = [i for i, s in enumerate(self.meta.seats) if s.holder]
        for i in held:
            self.absent_since[i] = time.monotonic()
        return held

    def stop(self) -> None:
        for t in self.timers.values():
            t.cancel()
        self.timers.clear()
