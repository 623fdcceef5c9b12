"""The table server's limits on tables (issue 24: 100 free identities filled the 500-table cap,
and tables nobody looked at played on; a full disk at creation left a phantom waiting table).

* **Tables per address.** Besides the 500 live tables in all and the 5 one player may have
  made (``table_limits``), the players of one source address (the SSH or web client's,
  carried by the token) may have made at most ``MAX_TABLES_PER_ADDRESS`` live tables: new
  names and passwords are free, addresses are not.  Which address made a table is kept in
  memory only (``Table.origin``): after a restart the tables reloaded count for nobody.
* **Idle tables end** (``IdleTables``, after ``idle_timeout`` seconds, 0: never; a turn-based
  table after two of its turns if that is longer): a waiting
  table nobody has joined (nor left) for that long is closed, and whoever waits at it is told;
  a game no person has been at (seated or watching) for that long is ended: the server's line
  saying so goes into its talk and its log, which is kept, and it goes to the finished games
  (no winner; a rated game is not rated).  Its players who are in the lobby are told.
* **A table made whole or not at all** (``unmake``): when the disk refuses the new table's
  description or log, the table leaves memory and its files go; the creator gets one line.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from . import protocol as P
from .conn import Conn
from .results import SERVER_NAME

if TYPE_CHECKING:
    from .hub import TableServer
    from .table import Table

log = logging.getLogger("colosseum.net")

MAX_TABLES = 500  # live tables (waiting or playing)
MAX_TABLES_PER_PLAYER = 5  # live tables one player created
MAX_TABLES_PER_ADDRESS = 10  # live tables the players of one address have made
IDLE_TIMEOUT = 1800.0  # seconds: a waiting table nobody joins, a game nobody is at
NOT_SAVED = "The server cannot save a new table just now (its disk may be full); try again later."
NOT_SAVED_DB = "The server's database does not answer just now: a new table cannot be saved; try again later."


def database_away(err: BaseException) -> bool:
    """``err`` is the database of several hosts not taking a write (not the disk)."""
    from .cluster_link import ClusterError

    return isinstance(err, ClusterError)


def unsaved(err: BaseException, what: str) -> str:
    """What a player is told when ``what`` ("that move", "that take-back") could not be saved,
    so did not happen: the database of several hosts away (a moment's wait) or the disk; or the
    database did not answer in time, and it may have been saved all the same."""
    if database_away(err) and getattr(err, "unknown", False):  # (the table is reloaded from it)
        return f"the server's database did not answer in time: {what} counts if it reached it"
    if database_away(err) and not getattr(err, "fenced", False):
        return f"the server's database does not answer just now: {what} was not saved; try again in a moment"
    return f"the server could not save {what}; try again"


def table_limits(tables: Iterable[Table], conn: Conn) -> str | None:
    """Why ``conn`` may not make one more table (None: it may): the live tables in all, those
    its player made, those the players of its address made."""
    live = [t for t in tables if t.meta.status != "over"]
    if len(live) >= MAX_TABLES:
        return "too many tables"
    if sum(1 for t in live if t.meta.creator == conn.player) >= MAX_TABLES_PER_PLAYER:
        return f"you have {MAX_TABLES_PER_PLAYER} open tables already"
    if conn.address and sum(1 for t in live if t.origin == conn.address) >= MAX_TABLES_PER_ADDRESS:
        return f"Your address has made {MAX_TABLES_PER_ADDRESS} open tables already: join one, or wait for one to end."
    return None


def begin(server: TableServer, t: Table, conn: Conn, sit: int) -> str | None:
    """The new table ``t`` saved, its creator seated at ``sit`` (or watching, and a table of
    bots only started): None, or the creator's line when the disk refused it (nothing is left
    of it)."""
    try:
        server.save_meta(t.meta)
        if sit >= 0:
            t.sit(conn, sit)
        else:
            t.watch(conn)
            if all(s.kind != "human" for s in t.meta.seats):
                t.start()  # bots only: a game to watch
    except OSError as err:
        return unmake(server, t, err)
    return None


def unmake(server: TableServer, t: Table, err: OSError) -> str:
    """A table whose creation failed half-way (the disk refused it): out of memory and off the
    disk, nothing half-made left.  Returns the line for its creator."""
    log.error("table %s: not created, the server could not save it: %s", t.id, err)
    if server.tables.get(t.id) is t:
        del server.tables[t.id]
    for c in list(t.conns):
        t.seats.drop(c, t.id)
    t.close()
    data = server.data
    for path in (data / "tables" / f"{t.id}.json", data / "tables" / f"{t.id}.tmp", data / "games" / f"{t.id}.jsonl"):
        _remove(path)
    return NOT_SAVED_DB if database_away(err) else NOT_SAVED


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as err:  # pragma: no cover - a folder the server cannot write to at all
        log.error("could not remove %s: %s", path, err)


def span(seconds: float) -> str:
    """``seconds`` in words: '48 hours', '30 minutes', '1 minute', '2 seconds'."""
    if seconds >= 7200:
        n, unit = round(seconds / 3600), "hour"
    elif seconds >= 60:
        n, unit = round(seconds / 60), "minute"
    else:
        n, unit = max(1, round(seconds)), "second"
    return f"{n} {unit}{'s' if n != 1 else ''}"


class IdleTables:
    """Ends the tables nobody uses (see the module's text); ``sweep`` looks at every table."""

    def __init__(self, server: TableServer, timeout: float) -> None:
        self.server = server
        self.timeout = timeout
        self.seen: dict[str, float] = {}  # table -> when (monotonic) a person was last at it
        self.holders: dict[str, tuple[str, ...]] = {}  # waiting table -> who sat, when last seen
        self._task: asyncio.Task[None] | None = None

    @property
    def every(self) -> float:
        """Seconds between two sweeps: a tenth of the timeout, at most a minute."""
        return max(0.02, min(60.0, self.timeout / 10))

    def start(self) -> None:
        if self.timeout > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def touch(self, t: Table) -> None:
        """A person was at ``t`` until now (they leave it)."""
        self.seen[t.id] = time.monotonic()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                self.sweep()
            except Exception:  # noqa: BLE001 - one table's failure must not stop the sweeps
                log.exception("idle tables: sweep failed")

    def limit(self, t: Table) -> float:
        """Seconds ``t`` may go unused: the timeout, or two of a turn-based table's turns
        (its players come by now and then; a decision out of time is played by a bot)."""
        return max(self.timeout, 2 * 3600 * t.meta.turn_hours)

    def sweep(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        tables = self.server.tables
        for tid, t in list(tables.items()):
            status = t.meta.status
            if status == "waiting":
                holders = tuple(s.holder for s in t.meta.seats)
                if self.holders.get(tid) != holders:  # someone sat down or left: it lives on
                    self.holders[tid], self.seen[tid] = holders, now
                elif now - self.seen[tid] >= self.limit(t):
                    self.close_waiting(t)
            elif status == "playing":
                if t.conns:
                    self.seen[tid] = now
                elif now - self.seen.setdefault(tid, now) >= self.limit(t):
                    self.end_game(t)
        for book in (self.seen, self.holders):
            for tid in [k for k in book if k not in tables]:
                del book[tid]

    def close_waiting(self, t: Table) -> None:
        """Nobody joined ``t`` for ``timeout``: whoever waits there is told and goes back to
        the lobby (``TableChanged``, status over); the table is gone."""
        why = f"Table {t.meta.name} was closed: nobody joined it in {span(self.limit(t))}."
        log.info("table %s: waiting, nobody joined in %.0f s, closed", t.id, self.limit(t))
        t.broadcast(P.Error(message=why, code="ended"))
        t.meta.status = "over"
        t.changed()
        for c in list(t.conns):
            t.seats.drop(c, t.id)
        del self.server.tables[t.id]
        t.close()
        _remove(self.server.data / "tables" / f"{t.id}.json")

    def end_game(self, t: Table) -> None:
        """No person was at the game ``t`` for ``timeout``: its bots stop, the server's line
        goes into its talk and its log (kept, unfinished), and it goes to the finished games;
        its players connected elsewhere (the lobby) are told."""
        server = self.server
        note = f"The table was ended: no one had been at it for {span(self.limit(t))}."
        log.info("table %s: nobody at it for %.0f s, ended after %d actions", t.id, self.limit(t), len(t.actions))
        t.botplay.stop()
        line = t.talk.say(SERVER_NAME, -1, note)
        if line is not None:
            try:
                t.record.chat(line)
            except OSError as err:  # the log stays as it was: still complete up to here
                log.error("table %s: the end's note not saved: %s", t.id, err)
            t.broadcast(line)
        t.meta.status = "over"
        t.record.close()
        t.seats.stop()
        t.clock.stop()
        t.changed()
        names = list(t.rules.names(t.state)) if t.state is not None else []
        entry = P.HistoryInfo(
            id=t.id,
            name=t.meta.name,
            players=names or [s.name or f"{s.kind} bot" for s in t.meta.seats],
            game=t.meta.game,
            edition=t.meta.edition,
            ended=time.time(),
            actions=len(t.actions),
        )
        server._to_history(t.meta, entry)
        players = {s.holder for s in t.meta.seats if s.holder}
        told = P.Error(
            message=f"Table {t.meta.name} was ended: no one had been at it for {span(self.limit(t))}.", code="ended"
        )
        for c in list(server.conns):
            if c.player in players and c not in t.conns:
                c.send(told)
        server.maybe_forget(t)
