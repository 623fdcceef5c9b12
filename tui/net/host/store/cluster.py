"""Several hosts, one lobby (PostgreSQL the only shared part): hosts register with a heartbeat,
each table is owned by one host through a lease, and a table's log is rows of the database.

* A **lease** is taken when it is free or expired, renewed by its owner, and each take-over
  raises its generation (also a host's taking its own table again).  The generation **fences**:
  a host writes a table's log only with the generation it holds, checked in the same
  transaction as the write with the lease's row locked, so a host that was paused past its
  lease and taken over cannot append any more.  A lease that ran out with nobody taking it over
  is still its holder's (D-105: a database outage moves no table).
* **Log lines** are the file's lines, digest chain and all (``core.gamelog.Chain`` makes them);
  an action is acknowledged only once its line is committed; ``export_log`` writes the file
  form, which ``colosseum view`` and ``resume`` read.

Times are the hosts' clocks (kept by NTP): a lease's length (seconds) is far above their drift,
and the generation, not the time, is what keeps two hosts from writing the same table.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from colosseum.tui.net.host.store import schema as S

__all__ = [
    "Fenced",
    "Lease",
    "LiveTable",
    "acquire",
    "append",
    "claim_host",
    "export_log",
    "finished",
    "finished_since",
    "heartbeat",
    "leave_host",
    "live_hosts",
    "live_tables",
    "publish",
    "renew",
    "shared_secret",
    "unpublish",
]

#: the channel the hosts LISTEN on: a table's id each time its description changes
CHANNEL = "colosseum_tables"

#: a lease's length: a host found dead is replaced this long after its last renewal (tests and
#: drills shorten it with COLOSSEUM_LEASE_SECONDS)
LEASE_SECONDS = float(os.environ.get("COLOSSEUM_LEASE_SECONDS", "15") or 15)


class Fenced(Exception):
    """This host no longer owns the table (another host took its lease over)."""


@dataclass(frozen=True)
class Lease:
    table_id: str
    host: str
    gen: int
    until: float


async def heartbeat(conn: AsyncConnection, host: str, address: str, *, now: float | None = None) -> None:
    """Register ``host`` (or say it is alive)."""
    at = time.time() if now is None else now
    done = await conn.execute(update(S.hosts).where(S.hosts.c.id == host).values(address=address, seen=at))
    if done.rowcount == 0:
        await conn.execute(insert(S.hosts).values(id=host, address=address, started=at, seen=at))


async def claim_host(
    conn: AsyncConnection, host: str, *, within: float = LEASE_SECONDS, now: float | None = None
) -> float | None:
    """``host`` registered as starting now, unless a host of that id is alive (heard from in the
    last ``within`` seconds): then how many seconds ago it was heard from, and nothing changed."""
    at = time.time() if now is None else now
    query = select(S.hosts.c.seen).where(S.hosts.c.id == host)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = (await conn.execute(query)).first()
    if row is None:
        try:
            async with conn.begin_nested():
                await conn.execute(insert(S.hosts).values(id=host, address="", started=at, seen=at))
        except IntegrityError:  # another of that id registered in between
            return 0.0
        return None
    if row.seen > at - within:
        return max(0.0, at - float(row.seen))
    await conn.execute(update(S.hosts).where(S.hosts.c.id == host).values(started=at, seen=at))
    return None


async def leave_host(conn: AsyncConnection, host: str) -> None:
    """``host`` stopped: another of its id may start at once."""
    await conn.execute(update(S.hosts).where(S.hosts.c.id == host).values(seen=0.0))


async def live_hosts(
    conn: AsyncConnection, *, within: float = 3 * LEASE_SECONDS, now: float | None = None
) -> dict[str, str]:
    """The hosts heard from lately: id -> address."""
    at = time.time() if now is None else now
    rows = await conn.execute(select(S.hosts.c.id, S.hosts.c.address).where(S.hosts.c.seen >= at - within))
    return {r.id: r.address for r in rows}


async def owner(conn: AsyncConnection, table_id: str) -> Lease | None:
    row = (await conn.execute(select(S.leases).where(S.leases.c.table_id == table_id))).first()
    return Lease(row.table_id, row.host, row.gen, row.until) if row is not None else None


async def acquire(
    conn: AsyncConnection, table_id: str, host: str, *, seconds: float = LEASE_SECONDS, now: float | None = None
) -> Lease | None:
    """Take ``table_id`` for ``host`` if it is free, expired or already ``host``'s; None while
    another host's lease lasts.  A take-over raises the generation, also of ``host``'s own
    lease: taking its table again (after a write in doubt, or a second process of its id) fences
    whatever the earlier holder might still write (D-105)."""
    at = time.time() if now is None else now
    held = await _locked(conn, table_id)
    if held is None:
        try:
            await conn.execute(insert(S.leases).values(table_id=table_id, host=host, gen=1, until=at + seconds))
        except IntegrityError:  # another host took it in between
            return None
        return Lease(table_id, host, 1, at + seconds)
    if held.until > at and held.host != host:
        return None
    gen = held.gen + 1
    done = await conn.execute(
        update(S.leases)
        .where(and_(S.leases.c.table_id == table_id, S.leases.c.gen == held.gen))
        .values(host=host, gen=gen, until=at + seconds)
    )
    return Lease(table_id, host, gen, at + seconds) if done.rowcount == 1 else None


async def renew(
    conn: AsyncConnection, lease: Lease, *, seconds: float = LEASE_SECONDS, now: float | None = None
) -> Lease:
    """Extend a lease this host still holds; Fenced if it does not.  The generation fences: a
    lease that ran out while nobody took it over (the database itself was away longer than a
    lease) is still its holder's, and renewed (D-105)."""
    at = time.time() if now is None else now
    done = await conn.execute(
        update(S.leases)
        .where(
            and_(
                S.leases.c.table_id == lease.table_id,
                S.leases.c.host == lease.host,
                S.leases.c.gen == lease.gen,
            )
        )
        .values(until=at + seconds)
    )
    if done.rowcount != 1:
        raise Fenced(f"table {lease.table_id}: the lease of generation {lease.gen} is lost")
    return Lease(lease.table_id, lease.host, lease.gen, at + seconds)


async def release(conn: AsyncConnection, lease: Lease) -> None:
    await conn.execute(delete(S.leases).where(and_(S.leases.c.table_id == lease.table_id, S.leases.c.gen == lease.gen)))


def _holds(held: Lease | None, lease: Lease) -> bool:
    """``lease``'s holder still owns the table: the lease row is its host's, of its generation."""
    return held is not None and held.host == lease.host and held.gen == lease.gen


async def _locked(conn: AsyncConnection, table_id: str) -> Lease | None:
    query = select(S.leases).where(S.leases.c.table_id == table_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = (await conn.execute(query)).first()
    return Lease(row.table_id, row.host, row.gen, row.until) if row is not None else None


async def append(conn: AsyncConnection, lease: Lease, first: int, lines: Sequence[bytes]) -> None:
    """Append ``lines`` (numbered from ``first``) to the table's log, fenced: Fenced unless this
    host still holds ``lease``'s generation, checked in this transaction with the lease's row
    locked (a take-over raises the generation, so a lease that ran out is still the holder's
    until another host takes it: D-105); a number already written (another host's) is Fenced
    too."""
    held = await _locked(conn, lease.table_id)
    if not _holds(held, lease):
        raise Fenced(f"table {lease.table_id}: not this host's (generation {lease.gen}) to write")
    try:
        await conn.execute(
            insert(S.log_lines),
            [
                {"table_id": lease.table_id, "n": first + k, "body": line.decode("utf-8"), "gen": lease.gen}
                for k, line in enumerate(lines)
            ],
        )
    except IntegrityError:
        raise Fenced(f"table {lease.table_id}: line {first} is written already") from None


async def drop_lines(conn: AsyncConnection, lease: Lease) -> None:
    """A log begun for a game that did not start after all: its lines gone (fenced as
    ``append``), so that the start tried again begins it afresh."""
    held = await _locked(conn, lease.table_id)
    if not _holds(held, lease):
        raise Fenced(f"table {lease.table_id}: not this host's (generation {lease.gen}) to write")
    await conn.execute(delete(S.log_lines).where(S.log_lines.c.table_id == lease.table_id))


async def lines(conn: AsyncConnection, table_id: str) -> list[bytes]:
    """The table's log lines in order (without their newlines)."""
    rows = await conn.execute(
        select(S.log_lines.c.body).where(S.log_lines.c.table_id == table_id).order_by(S.log_lines.c.n)
    )
    return [r.body.encode("utf-8") for r in rows]


async def line_count(conn: AsyncConnection, table_id: str) -> int:
    found = await conn.execute(select(func.count()).select_from(S.log_lines).where(S.log_lines.c.table_id == table_id))
    return int(found.scalar_one())


async def export_log(conn: AsyncConnection, table_id: str) -> bytes:
    """The table's log in the file form (what a single host's ``games/TABLE.jsonl`` holds)."""
    return b"".join(line + b"\n" for line in await lines(conn, table_id))


# ---------------------------------------------------------------- one lobby (0003)
@dataclass(frozen=True)
class LiveTable:
    """A live table as every host's lobby knows it: its description, its owner's lease (None:
    never leased) and where that owner serves its tables."""

    id: str
    status: str
    meta: bytes  # JSON of host.meta.TableMeta
    info: bytes  # JSON of protocol.TableInfo
    host: str  # the lease's holder (else the last publisher)
    gen: int
    until: float
    address: str  # the holder's peer address ("" if the host is not registered)


async def publish(conn: AsyncConnection, table_id: str, host: str, status: str, meta: bytes, info: bytes) -> None:
    """The owner's description of a live table, for every host's lobby (NOTIFY on PostgreSQL)."""
    values = {"host": host, "status": status, "meta": meta.decode(), "info": info.decode(), "updated": time.time()}
    done = await conn.execute(update(S.cluster_tables).where(S.cluster_tables.c.id == table_id).values(**values))
    if done.rowcount == 0:
        try:
            async with conn.begin_nested():
                await conn.execute(insert(S.cluster_tables).values(id=table_id, **values))
        except IntegrityError:  # published by another in between: ours is the newer
            await conn.execute(update(S.cluster_tables).where(S.cluster_tables.c.id == table_id).values(**values))
    await _notify(conn, table_id)


async def unpublish(conn: AsyncConnection, table_id: str) -> None:
    """A table left the lobby (finished, or everybody left it before it began)."""
    await conn.execute(delete(S.cluster_tables).where(S.cluster_tables.c.id == table_id))
    await _notify(conn, table_id)


async def _notify(conn: AsyncConnection, table_id: str) -> None:
    if conn.dialect.name == "postgresql":
        await conn.execute(select(func.pg_notify(CHANNEL, table_id)))


async def live_tables(conn: AsyncConnection) -> list[LiveTable]:
    """Every live table of every host, with its lease and its owner's address."""
    t, ls, h = S.cluster_tables, S.leases, S.hosts
    rows = await conn.execute(
        select(t.c.id, t.c.status, t.c.meta, t.c.info, t.c.host, ls.c.host.label("holder"), ls.c.gen, ls.c.until)
        .select_from(t.outerjoin(ls, ls.c.table_id == t.c.id))
        .order_by(t.c.id)
    )
    found = list(rows)
    addresses = {r.id: r.address for r in await conn.execute(select(h.c.id, h.c.address))}
    out = []
    for r in found:
        holder = r.holder or r.host
        out.append(
            LiveTable(
                r.id,
                r.status,
                r.meta.encode(),
                r.info.encode(),
                holder,
                int(r.gen or 0),
                float(r.until or 0.0),
                addresses.get(holder, ""),
            )
        )
    return out


async def shared_secret(conn: AsyncConnection, fresh: str) -> str:
    """The servers' shared secret (what signs the tokens one host gives for another's tables):
    the one in the database, else ``fresh`` becomes it."""
    key = "cluster_secret"
    row = (await conn.execute(select(S.store_meta.c.value).where(S.store_meta.c.key == key))).first()
    if row is not None:
        return str(row.value)
    try:
        async with conn.begin_nested():
            await conn.execute(insert(S.store_meta).values(key=key, value=fresh))
    except IntegrityError:  # another host wrote it first
        row = (await conn.execute(select(S.store_meta.c.value).where(S.store_meta.c.key == key))).first()
        assert row is not None
        return str(row.value)
    return fresh


# ---------------------------------------------------------------- finished games (0003)
async def finished(conn: AsyncConnection, table_id: str, host: str, entry: bytes, meta: bytes) -> None:
    """A game ended on ``host``: its history line and description, for every host's history."""
    try:
        async with conn.begin_nested():
            await conn.execute(
                insert(S.cluster_history).values(id=table_id, host=host, entry=entry.decode(), meta=meta.decode())
            )
    except IntegrityError:  # said already (a retry)
        return
    await _notify(conn, f"h:{table_id}")


async def finished_since(conn: AsyncConnection, seq: int, limit: int = 200) -> list[tuple[int, str, str, bytes, bytes]]:
    """Finished games after ``seq``: (seq, id, host, history line, description), oldest first."""
    h = S.cluster_history
    rows = await conn.execute(select(h).where(h.c.seq > seq).order_by(h.c.seq).limit(limit))
    return [(int(r.seq), r.id, r.host, r.entry.encode(), r.meta.encode()) for r in rows]
