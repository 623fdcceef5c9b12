"""Several hosts, one lobby (issue 30): ``colosseum serve --database postgresql+asyncpg://...
--host-id NAME --peer-listen ADDR`` runs one host of a server whose only shared part is the
database (``store.cluster``; the design and its limits: docs/architecture.md, "Several hosts").

* **Hosts** register with a heartbeat; each serves its tables to the others' client processes
  on its peer address (TCP; the same client protocol, tokens signed with the servers' shared
  secret, which lives in the database).
* **Each table is one host's** through a lease: taken when the table is made (or adopted),
  renewed every few seconds, fenced by its generation.  Its log lines go to the database *as
  well as* the host's file, in the same write (``LogWriter.mirror``): an action is acknowledged
  only once its line is committed there, and a host that lost the lease cannot append.
* **One lobby**: each host publishes its live tables' descriptions; every host lists them all
  (LISTEN/NOTIFY, and a refresh every few seconds).  A player on host A who joins, watches or
  comes back to a table of host B is sent there (``Elsewhere``: B's address and a token): the
  client process opens a second connection to B for that table.
* **Failover**: a host that stops renewing (killed, cut off) loses its tables when their leases
  run out; any live host adopts each one from its logged lines (bots and clocks resume; its
  players are away until they come back, as after a restart), at once when a player asks for
  it, else within a few seconds.  A lease nobody took over stays its holder's even once it ran
  out, and a host back in touch with the database after an outage of its own waits a lease's
  length before adopting, so that an outage of the database moves no table (D-105).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

from . import peertls
from . import protocol as P
from .cluster_link import ClusterError, ClusterLink
from .cluster_mirror import LogMirror
from .conn import Conn
from .files import write_private
from .hub import TableServer
from .invites import clean_code, may_see
from .lobbylist import list_page
from .meta import TableMeta, load_meta
from .store import cluster
from .table import Table

log = logging.getLogger("colosseum.net.cluster")

RENEW_EVERY = cluster.LEASE_SECONDS / 3  # a lease is renewed twice before it could run out
RETRY_EVERY = min(1.0, RENEW_EVERY)  # renewals tried again this soon while the database is away
#: A host adopts another's table whose lease ran out only once it has itself been in touch with
#: the database this long: after an outage every lease has run out, and their owners (alive,
#: renewing within RETRY_EVERY of its end) keep them (D-105).
ADOPT_AFTER = cluster.LEASE_SECONDS
SWEEP_EVERY = 1.0  # the lobby's descriptions published, the others' refreshed, orphans adopted
REFRESH_EVERY = 5.0  # the others' tables read again even without a NOTIFY


class ClusterServer(TableServer):
    """A ``TableServer`` that is one host of several sharing ``link``'s database."""

    def __init__(
        self, data: Path | str, *, link: ClusterLink, host_id: str, peer_address: str, peer_tls: bool = False, **kw: Any
    ) -> None:
        super().__init__(data, **kw)
        self.peer_tls = peer_tls  # the peer port speaks TLS (its certificate pinned: host/peertls.py)
        self.link = link
        self.host_id = host_id
        self.peer_listen = peer_address  # tcp:HOST:PORT this host's tables are served on
        self.peer_address = peer_address  # what the other hosts are told (the port once known)
        self.leases: dict[str, cluster.Lease] = {}
        self.others: dict[str, cluster.LiveTable] = {}  # the other hosts' live tables
        self.others_meta: dict[str, TableMeta] = {}
        self.published: dict[str, bytes] = {}  # what this host last published of each table
        self._peer: asyncio.AbstractServer | None = None
        self._stale = asyncio.Event()
        self._last_refresh = 0.0
        self.lost_tables = 0
        self.adopted = 0
        self.unshared: dict[str, tuple[bytes, bytes]] = {}  # finished games not yet in the database
        self.history_seq = 0  # the last of the others' finished games copied

    # ---------------------------------------------------------------- starting and stopping
    def load_tables(self) -> None:
        """A host's tables are in the database: its own from before a restart are adopted
        like anybody else's once their leases run out (``sweep``)."""

    async def start(self) -> None:
        from .store import StoreError

        if (ago := await self.link.acall(lambda c: cluster.claim_host(c, self.host_id))) is not None:
            self.link.close()
            raise StoreError(
                f"--host-id {self.host_id}: a host of that id is running (heard from {ago:.0f} s ago; "
                f"if it was killed, the id is free in {max(1.0, cluster.LEASE_SECONDS - ago):.0f} s)"
            )
        self._claimed = True
        fresh = secrets.token_bytes(32).hex()
        self.secret = bytes.fromhex(await self.link.acall(lambda c: cluster.shared_secret(c, fresh)))
        host, _, port = self.peer_listen.removeprefix("tcp:").rpartition(":")
        tls, fp = None, ""
        if self.peer_tls:  # (before anything is started: a bad pair leaves nothing half-made)
            try:
                cert, key = peertls.ensure_cert(self.data, self.host_id)
                tls, fp = peertls.server_context(cert, key), peertls.fingerprint(cert)
            except (OSError, ValueError) as err:  # (ssl.SSLError is an OSError)
                raise StoreError(
                    f"--peer-tls: {self.data / peertls.CERT_FILE} and {peertls.KEY_FILE} do not make a certificate "
                    f"and its key ({err}); remove both to have new ones made"
                ) from None
        await super().start()
        self._peer = await asyncio.start_server(self._serve, host, int(port), limit=P.MAX_MESSAGE + 16, ssl=tls)
        real = self._peer.sockets[0].getsockname()[1]
        self.peer_address = peertls.tls_address(host, real, fp) if tls else f"tcp:{host}:{real}"
        await self.link.acall(lambda c: cluster.heartbeat(c, self.host_id, self.peer_address))
        loop = asyncio.get_running_loop()

        def heard(_table: str) -> None:  # (on the link's thread)
            loop.call_soon_threadsafe(self._stale.set)

        self.link.listen(heard)
        for job in (self._renewing, self._sweeping):
            task = loop.create_task(job())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        log.info("host %s: one of several, tables served to the others on %s", self.host_id, self.peer_address)

    async def close(self) -> None:
        """Stop serving; the tables' leases are given up so that the other hosts take them over
        at once (not only once they run out)."""
        for task in list(self._tasks):
            task.cancel()
        if self._peer is not None:
            self._peer.close()
        leases = list(self.leases.values())
        self.leases.clear()
        await super().close()

        async def give_up(c: Any) -> None:
            for lease in leases:
                await cluster.release(c, lease)
            if self._claimed:  # (another of this id may start at once)
                await cluster.leave_host(c, self.host_id)

        try:
            await self.link.acall(give_up)
        except ClusterError as err:
            log.warning("host %s: leases not given up (they run out): %s", self.host_id, err)
        self.link.close()

    _claimed = False  # this host registered its id (none other of it was running)

    # ---------------------------------------------------------------- leases
    async def _renewing(self) -> None:
        while True:
            held = list(self.leases.values())

            async def renew_all(c: Any, held: list[cluster.Lease] = held) -> list[cluster.Lease | str]:
                await cluster.heartbeat(c, self.host_id, self.peer_address)
                out: list[cluster.Lease | str] = []
                for lease in held:
                    try:
                        async with c.begin_nested():
                            out.append(await cluster.renew(c, lease))
                    except cluster.Fenced as err:
                        out.append(str(err))
                return out

            wait = RENEW_EVERY
            try:
                for lease, now in zip(held, await self.link.acall(renew_all), strict=True):
                    if self.leases.get(lease.table_id) is not lease:
                        continue  # given up or taken again meanwhile
                    if isinstance(now, str):
                        self.lose(lease.table_id, now)
                    else:
                        self.leases[lease.table_id] = now
            except ClusterError as err:
                log.warning("host %s: the database does not answer: %s", self.host_id, err)
                wait = RETRY_EVERY  # its leases renewed as soon as it answers again
            await asyncio.sleep(wait)

    def lease(self, table_id: str) -> cluster.Lease | None:
        """Take ``table_id`` for this host now (None: another host holds it)."""

        def take(c: Any) -> Any:
            return cluster.acquire(c, table_id, self.host_id)

        found: cluster.Lease | None = self.link.call(take)
        if found is not None:
            self.leases[table_id] = found
        return found

    def lose(self, table_id: str, why: str) -> None:
        """This host no longer owns ``table_id`` (another host took it over, or a write to it is
        in doubt): the table leaves this host; whoever was at it is sent back to find it."""
        self.leases.pop(table_id, None)
        self.published.pop(table_id, None)
        t = self.tables.pop(table_id, None)
        if t is None:
            return
        self.lost_tables += 1
        log.warning("table %s: no longer this host's (%s)", table_id, why)
        told = P.Error(
            message=f"Table {t.meta.name} moved to another server host: back to it in a moment.",
            code="moved_host",
            table=table_id,
        )
        for c in list(t.conns):
            t.seats.drop(c, t.id)
            c.send(told)
        t.close()
        self._stale.set()

    # ---------------------------------------------------------------- tables made and kept
    def open_table(self, conn: Conn, meta: TableMeta, sit: int) -> Table | None:
        try:
            if self.lease(meta.id) is None:
                self.refuse(conn, "that table's name is taken on another host: try again", code="disk")
                return None
        except ClusterError as err:
            log.error("table %s: not made, no lease: %s", meta.id, err)
            self.refuse(conn, "the server's database does not answer: try again in a moment", code="disk")
            return None
        t = super().open_table(conn, meta, sit)
        if t is None:
            self._release(meta.id)
        return t

    def make_table(self, meta: TableMeta) -> Table:
        """A table of this host, its log's lines mirrored to the database.  A new one (a
        rematch's) is leased here; without the lease (the database away, or another host
        holds it) its first write fails as a full disk's would, and it is not made."""
        if meta.id not in self.leases:
            try:
                self.lease(meta.id)
            except ClusterError as err:
                log.warning("table %s: no lease: %s", meta.id, err)
        t = Table(self, meta)
        t.record.mirror = LogMirror(self, meta.id, 1)
        return t

    def save_meta(self, meta: TableMeta) -> None:
        super().save_meta(meta)
        t = self.tables.get(meta.id)
        if t is not None and meta.status != "over" and meta.id in self.leases:
            self._publish(t, wait=True)

    def _publish(self, t: Table, *, wait: bool) -> None:
        meta, info = msgspec.json.encode(t.meta), msgspec.json.encode(t.info())
        if self.published.get(t.id) == meta + info:
            return
        self.published[t.id] = meta + info
        tid, status = t.id, t.meta.status

        def publish(c: Any) -> Any:
            return cluster.publish(c, tid, self.host_id, status, meta, info)

        if wait:
            try:
                self.link.call(publish, ordered=True)
            except ClusterError as err:  # the sweep publishes it again
                log.warning("table %s: not published: %s", tid, err)
                self.published.pop(tid, None)
        else:
            future = self.link.submit(publish, ordered=True)
            future.add_done_callback(lambda f: f.exception() and self.published.pop(tid, None))

    def _release(self, table_id: str) -> None:
        lease = self.leases.pop(table_id, None)
        self.published.pop(table_id, None)

        async def gone(c: Any) -> None:
            await cluster.unpublish(c, table_id)
            if lease is not None:
                await cluster.release(c, lease)

        self.link.submit(gone, ordered=True)

    def _to_history(self, meta: TableMeta, entry: P.HistoryInfo) -> None:
        super()._to_history(meta, entry)
        self._release(meta.id)
        self.unshared[meta.id] = (msgspec.json.encode(entry), msgspec.json.encode(meta))
        self._share_finished()

    def _share_finished(self) -> None:
        """This host's finished games into the database, for the others' histories (again at
        the next sweep if the database did not take them)."""
        for tid, (entry, meta) in list(self.unshared.items()):

            def share(c: Any, tid: str = tid, entry: bytes = entry, meta: bytes = meta) -> Any:
                return cluster.finished(c, tid, self.host_id, entry, meta)

            def done(f: Any, tid: str = tid) -> None:
                if not f.exception():
                    self.unshared.pop(tid, None)

            self.link.submit(share).add_done_callback(done)

    async def copy_history(self) -> None:
        """The other hosts' finished games into this host's history (its list, ``m`` mine, the
        review and forks read the data folder): each game's description and log, then its line."""
        while True:

            def since(c: Any, seq: int = self.history_seq) -> Any:
                return cluster.finished_since(c, seq)

            rows: list[tuple[int, str, str, bytes, bytes]] = await self.link.acall(since)
            for seq, tid, host, entry_json, meta_json in rows:
                self.history_seq = seq
                if host == self.host_id or (self.data / "history" / f"{tid}.json").exists():
                    continue
                try:
                    entry = msgspec.json.decode(entry_json, type=P.HistoryInfo)
                    meta = load_meta(meta_json)
                    log_bytes: bytes = await self.link.acall(partial(cluster.export_log, table_id=tid))
                    if log_bytes:
                        write_private(self.data / "games" / f"{tid}.jsonl", log_bytes, sync=False)
                    TableServer._to_history(self, meta, entry)
                except (msgspec.DecodeError, msgspec.ValidationError, ValueError, OSError) as err:
                    log.error("finished game %s of host %s not copied: %s", tid, host, err)
            if len(rows) < 200:
                return

    # ---------------------------------------------------------------- the one lobby
    async def _sweeping(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._stale.wait(), SWEEP_EVERY)
            except TimeoutError:
                pass
            try:
                self.sweep()
                if self._stale.is_set() or time.monotonic() - self._last_refresh > REFRESH_EVERY:
                    self._stale.clear()
                    self._last_refresh = time.monotonic()
                    self.heard(await self.link.acall(cluster.live_tables))
                    await self.copy_history()
                    self._share_finished()
            except ClusterError as err:
                log.warning("host %s: the lobby is not refreshed: %s", self.host_id, err)
            except Exception:  # noqa: BLE001 - one bad row must not stop the lobby
                log.exception("host %s: sweep failed", self.host_id)

    def sweep(self) -> None:
        """This host's tables published as they are now; those that left, unpublished."""
        for tid, t in list(self.tables.items()):
            if tid in self.leases and t.meta.status != "over":
                self._publish(t, wait=False)
        for tid in [k for k in self.leases if k not in self.tables or self.tables[k].meta.status == "over"]:
            self._release(tid)

    def heard(self, rows: list[cluster.LiveTable]) -> None:
        """The database's live tables: the others' kept for the lobby; any whose lease ran out
        is adopted (first come, first served: the lease decides)."""
        now = time.time()
        others: dict[str, cluster.LiveTable] = {}
        for row in rows:
            if row.id in self.tables:  # this host's (a finished one's row may be read before it goes)
                continue
            if self.orphaned(row, now):
                if self.adopt(row) is not None:
                    continue
            others[row.id] = row
            if row.id not in self.others or self.others[row.id].meta != row.meta:
                try:
                    self.others_meta[row.id] = load_meta(row.meta)
                except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
                    continue
        self.others = others
        for tid in [k for k in self.others_meta if k not in others]:
            del self.others_meta[tid]

    def orphaned(self, row: cluster.LiveTable, now: float | None = None) -> bool:
        """``row``'s table is this host's to adopt: its own (dropped after a failed write), one
        whose host gave it up as it stopped (no lease: a rolling restart's), or another's whose
        lease ran out, once this host has been in touch with the database for ADOPT_AFTER
        (after an outage of its own, or a start, the owner may be renewing: D-105)."""
        if row.host == self.host_id or row.gen == 0:
            return True
        at = time.time() if now is None else now
        return row.until <= at and self.link.calm_for() >= ADOPT_AFTER

    def adopt(self, row: cluster.LiveTable) -> Table | None:
        """Take over ``row``'s table whose owner is gone: the lease, then the table from its
        description and logged lines, as after a restart.  None if another host was first."""
        tid = row.id
        try:
            if self.lease(tid) is None:
                return None
            data = self.link.call(lambda c: cluster.export_log(c, tid))
            meta = load_meta(row.meta)
        except (ClusterError, msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
            log.warning("table %s: not adopted: %s", tid, err)
            self.leases.pop(tid, None)
            return None
        old = self.tables.pop(tid, None)
        if old is not None:
            old.close()
        path = self.data / "games" / f"{tid}.jsonl"
        try:
            if data:
                write_private(path, data)
                meta.status = "playing" if meta.status == "waiting" else meta.status
            elif path.exists():
                os.unlink(path)
            t = self.make_table(meta)
            self.tables[tid] = t
            self.others.pop(tid, None)  # this host's now: the lobby and ``held`` count it once
            self.others_meta.pop(tid, None)
            if data:
                t.record.mirror = LogMirror(self, tid, data.count(b"\n") + 1)
                t.restore()
            if t.meta.status == "over":  # its last action was logged, the rest not yet done
                self.tables.pop(tid, None)
                self.record_result(t)
                self._to_history(t.meta, t.history())
                t.close()
                return None
            self.save_meta(t.meta)
        except Exception:  # noqa: BLE001 - a table that cannot be adopted must not stop the others
            log.exception("table %s: not adopted", tid)
            self.tables.pop(tid, None)
            self.leases.pop(tid, None)
            return None
        self.adopted += 1
        log.info("table %s: adopted from host %s (%d actions)", tid, row.host, len(t.actions))
        if t.meta.status == "playing":
            t.update_clock()
            t.kick()
        return t

    # ---------------------------------------------------------------- requests for others' tables
    def table_of(self, conn: Conn, tid: str, ref: int = -1) -> Table | None:
        row = self.others.get(tid) if tid not in self.tables else None
        if row is not None and self.orphaned(row):
            self.adopt(row)  # its host is gone (or it is this host's, dropped): this one takes it now
        return super().table_of(conn, tid, ref)

    def look_again(self, tid: str, *, now: bool = False) -> None:
        """A table this host has not heard of yet (made a moment ago on another, a rematch's):
        the lobby read again now, at most twice a second (``now``: whatever this host knew)."""
        if not now and (tid in self.tables or tid in self.others or time.monotonic() - self._looked < 0.5):
            return
        self._looked = time.monotonic()
        try:
            self.heard(self.link.call(cluster.live_tables))
        except ClusterError as err:
            log.warning("host %s: the lobby is not refreshed: %s", self.host_id, err)

    _looked = 0.0

    def elsewhere(self, conn: Conn, tid: str, *, check: bool = True) -> bool:
        """``tid`` is another host's: ``conn`` is told where (True), or it is nobody's (False)."""
        if tid in self.tables:
            return False
        self.look_again(tid)
        row, meta = self.others.get(tid), self.others_meta.get(tid)
        if row is None or meta is None or (check and not may_see(meta, conn.player)):
            return False
        if self.orphaned(row):  # nobody's, or this host's
            if self.adopt(row) is not None:
                return False  # served here now
            self.look_again(tid, now=True)  # (what this host knew was old: its owner renewed)
            row = self.others.get(tid)
            if row is None or self.orphaned(row):
                return False
        conn.send(
            P.Elsewhere(table=tid, address=row.address, token=self.token_for(conn.player, conn.name, conn.address))
        )
        return True

    def handle(self, conn: Conn, msg: P._Msg) -> None:
        if isinstance(msg, P.JoinCode) and msg.code:  # a private table of another host's
            code = clean_code(msg.code)  # (the code is what lets the asker see it: not ``may_see``)
            found = next((tid for tid, m in self.others_meta.items() if code and m.code == code), None)
            if found is not None and self.elsewhere(conn, found, check=False):
                return
        super().handle(conn, msg)

    def join(self, conn: Conn, tid: str, seat: int) -> None:
        if not self.elsewhere(conn, tid):
            super().join(conn, tid, seat)

    def watch(self, conn: Conn, tid: str) -> None:
        if not self.elsewhere(conn, tid):
            super().watch(conn, tid)

    def held(self, conn: Conn) -> list[tuple[str, int]]:
        mine = super().held(conn)
        for tid, meta in self.others_meta.items():
            if tid not in self.tables:
                mine.extend((tid, i) for i, s in enumerate(meta.seats) if s.holder == conn.player)
        return mine

    def list_tables(self, conn: Conn, msg: P.ListTables) -> None:
        page = list_page(self, conn, msg)
        if msg.history or not self.others:
            conn.send(page)
            return
        # every host's live tables, in the order of ``lobbylist``: waiting first, then by age
        offset, limit = max(0, msg.offset), max(0, min(msg.limit, P.PAGE_MAX))
        live: list[tuple[tuple[bool, float, str], Callable[[], P.TableInfo]]] = [
            ((t.meta.status != "waiting", t.meta.created, t.id), t.info)
            for t in self.tables.values()
            if t.meta.status != "over" and may_see(t.meta, conn.player)
        ]
        infos: dict[str, bytes] = {}
        for tid, meta in self.others_meta.items():
            row = self.others.get(tid)
            if row is not None and tid not in self.tables and meta.status != "over" and may_see(meta, conn.player):
                infos[tid] = row.info
                live.append(((meta.status != "waiting", meta.created, tid), _decoder(row.info)))
        live.sort(key=lambda x: x[0])
        tables = [make() for _, make in live[offset : offset + limit]]
        yours = set(page.your_move)
        for info in tables:
            if info.id in infos and 0 <= info.to_act < len(info.seats):
                meta = self.others_meta[info.id]
                if meta.seats[info.to_act].holder == conn.player and not info.seats[info.to_act].standin:
                    yours.add(info.id)
        conn.send(msgspec.structs.replace(page, tables=tables, total=len(live), offset=offset, your_move=sorted(yours)))

    def new_id(self) -> str:
        while True:
            tid = super().new_id()
            if tid not in self.others:
                return tid


def _decoder(info: bytes) -> Callable[[], P.TableInfo]:
    return lambda: msgspec.json.decode(info, type=P.TableInfo)


async def cluster_server(
    data: Path,
    database: str | None,
    host_id: str,
    peer_listen: str | None,
    settings: dict[str, Any],
    peer_tls: bool = False,
) -> ClusterServer:
    """The table server of host ``host_id`` of several sharing ``database`` (started by the
    caller); StoreError, one line, if that cannot be."""
    from .store import StoreError

    check_arguments(database, host_id)
    assert database is not None
    link = ClusterLink(database)
    try:
        await asyncio.get_running_loop().run_in_executor(None, link.start)
    except ClusterError as err:
        link.close()
        raise StoreError(f"the database for several hosts cannot be used: {err}") from None
    return ClusterServer(
        data,
        link=link,
        host_id=host_id,
        peer_address=f"tcp:{peer_listen or '127.0.0.1:0'}",
        peer_tls=peer_tls,
        **settings,
    )


def check_arguments(database: str | None, host_id: str) -> None:
    """StoreError (one line) unless ``host_id`` and ``database`` can make a host of several."""
    from .store import StoreError

    if not database or not database.startswith("postgresql"):
        raise StoreError("several hosts share a PostgreSQL database: give --database postgresql+asyncpg://...")
    if not re.fullmatch(r"[0-9A-Za-z_.-]{1,80}", host_id):
        raise StoreError(f"--host-id {host_id[:80]!r}: letters, digits, '.', '_' and '-' (80 at most)")
