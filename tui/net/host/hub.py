"""The connection hub: the table server's socket, the client connections and their requests.

``TableServer`` listens on a local socket (a unix socket in the data folder, or loopback TCP)
for the client processes the SSH server spawns.  A client proves who it is with a token
(``tokens``) in ``Hello``; then each request is dispatched to the table it names (``table``).

Files in the data folder::

    tables/<id>.json     table description (seats, holders, flags), rewritten atomically
    games/<id>.jsonl     the game log (see ``gamelog_io``): header, then one line per action
                         and per chat line, flushed as written
    secret               the token key (0600)
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import secrets
import time
from pathlib import Path

import msgspec

from colosseum.core import RuleError
from colosseum.core.bots import BOTS
from colosseum.core.catalog import OPTIONS, VARIANTS

from . import protocol as P
from .table import Conn, SeatMeta, Table, TableMeta
from .tokens import check_token, load_secret, make_token

log = logging.getLogger("colosseum.net")

MAX_TABLES = 500
HELLO_TIMEOUT = 10.0
MAX_MESSAGES_PER_SECOND = 1000  # a client process sends a few per second; test drivers more


class TableServer:
    """Holds every table; serves client processes on ``address`` ('unix:PATH' or
    'tcp:127.0.0.1:PORT')."""

    def __init__(
        self,
        data: Path | str,
        *,
        bot_timeout: float = 120.0,
        bot_delay: float = 0.5,
        address: str | None = None,
    ) -> None:
        self.data = Path(data)
        for sub in ("tables", "games"):
            (self.data / sub).mkdir(parents=True, exist_ok=True)
        self.secret = load_secret(self.data)
        self.bot_timeout = bot_timeout
        self.bot_delay = bot_delay
        sock = (self.data / "tables.sock").resolve()
        # a unix socket path is limited to ~107 bytes: loopback TCP (tokens still required) beyond
        self.address = address or (f"unix:{sock}" if len(str(sock)) < 100 else "tcp:127.0.0.1:0")
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self._ids = itertools.count(1)
        self._server: asyncio.AbstractServer | None = None
        self.refusals = 0

    def token_for(self, player: str, name: str) -> str:
        return make_token(self.secret, player, name)

    # ---------------------------------------------------------------- persistence
    def save_meta(self, meta: TableMeta) -> None:
        path = self.data / "tables" / f"{meta.id}.json"
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(msgspec.json.encode(meta))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def load_tables(self) -> None:
        for path in sorted((self.data / "tables").glob("*.json")):
            try:
                meta = msgspec.json.decode(path.read_bytes(), type=TableMeta)
                table = Table(self, meta)
                if meta.status != "waiting":
                    table.restore()
                self.tables[meta.id] = table
                log.info("table %s: reloaded (%s, %d actions)", meta.id, meta.status, len(table.actions))
            except Exception:  # noqa: BLE001 - one unreadable table must not keep the others from being served
                log.exception("could not reload table from %s", path)
        for table in self.tables.values():
            if table.meta.status == "playing":
                table.kick()

    def new_id(self) -> str:
        while True:
            tid = secrets.token_hex(3)
            if tid not in self.tables:
                return tid

    # ---------------------------------------------------------------- serving
    async def start(self) -> None:
        self.load_tables()
        kind, _, rest = self.address.partition(":")
        if kind == "unix":
            try:
                os.unlink(rest)
            except FileNotFoundError:
                pass
            self._server = await asyncio.start_unix_server(self._serve, path=rest, limit=P.MAX_MESSAGE + 16)
            os.chmod(rest, 0o600)
        else:
            host, _, port = rest.rpartition(":")
            self._server = await asyncio.start_server(self._serve, host, int(port), limit=P.MAX_MESSAGE + 16)
            if port == "0":
                sock = self._server.sockets[0].getsockname()
                self.address = f"tcp:{sock[0]}:{sock[1]}"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for c in list(self.conns):
            c.close()
        for t in self.tables.values():
            if t._bot_task:
                t._bot_task.cancel()
            for h in t.timers.values():
                h.cancel()
            if t.log:
                t.log.close()

    def refuse(
        self, conn: Conn, why: str, code: str = "refused", ref: int = -1, rule: str = "", table: str = ""
    ) -> None:
        self.refusals += 1
        log.warning(
            "refused (%s) conn %s %s%s: %s", code, conn.id, conn.name or "?", f" at table {table}" if table else "", why
        )
        conn.send(P.Error(message=why, code=code, ref=ref, rule=rule))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Conn(id=next(self._ids), writer=writer)
        self.conns.add(conn)
        try:
            await self._session(conn, reader)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        except P.ProtocolError as exc:
            self.refuse(conn, str(exc), code="malformed")
        except Exception:  # noqa: BLE001 - one connection's failure must not end the server
            log.exception("conn %s failed", conn.id)
        finally:
            self.conns.discard(conn)
            for tid in list(conn.tables):
                t = self.tables.get(tid)
                if t:
                    t.drop(conn)
            conn.close()

    async def _session(self, conn: Conn, reader: asyncio.StreamReader) -> None:
        hello = None
        while hello is None:
            try:
                body = await asyncio.wait_for(P.read_frame(reader), HELLO_TIMEOUT)
            except TimeoutError:
                self.refuse(conn, "no hello", code="auth")
                return
            if body is None:
                return
            try:
                msg = P.decode(body)
            except P.ProtocolError as exc:
                self.refuse(conn, str(exc), code="malformed")
                return
            if not isinstance(msg, P.Hello):
                self.refuse(conn, "say hello first", code="auth")
                return
            if msg.version != P.PROTOCOL_VERSION:
                self.refuse(conn, f"protocol version {msg.version} is not {P.PROTOCOL_VERSION}", code="version")
                return
            who = check_token(self.secret, msg.token)
            if who is None:
                self.refuse(conn, "bad token", code="auth")
                return
            hello = msg
            conn.player, conn.name = who
        held = [
            (t.id, i)
            for t in self.tables.values()
            if t.meta.status != "over"
            for i, s in enumerate(t.meta.seats)
            if s.holder == conn.player
        ]
        conn.send(P.Welcome(version=P.PROTOCOL_VERSION, player=conn.player, name=conn.name, seats=held))
        log.info("conn %s: %s (%s) connected", conn.id, conn.name, conn.player[:24])
        window, count = time.monotonic(), 0
        while not conn.closed:
            body = await P.read_frame(reader)
            if body is None:
                return
            count += 1
            if count > MAX_MESSAGES_PER_SECOND:
                now = time.monotonic()
                if now - window < 1.0:
                    self.refuse(conn, "too many messages", code="flood")
                    return
                window, count = now, 1
            try:
                msg = P.decode(body)
            except P.ProtocolError as exc:
                self.refuse(conn, str(exc), code="malformed")
                continue
            if not isinstance(msg, P.CLIENT_MESSAGES) or isinstance(msg, P.Hello):
                self.refuse(conn, f"unexpected message {type(msg).__name__}", code="malformed")
                continue
            self.handle(conn, msg)

    def table_of(self, conn: Conn, tid: str, ref: int = -1) -> Table | None:
        t = self.tables.get(tid)
        if t is None:
            self.refuse(conn, f"no table {tid!r}", code="unknown_table", ref=ref)
        return t

    def handle(self, conn: Conn, msg: P._Msg) -> None:
        """One request of a client that has said hello."""
        match msg:
            case P.Act():
                self.act(conn, msg)
            case P.ListTables():
                self.list_tables(conn)
            case P.CreateTable():
                self.create(conn, msg)
            case P.Join(table=tid, seat=seat):
                self.join(conn, tid, seat)
            case P.Watch(table=tid):
                self.watch(conn, tid)
            case P.Leave(table=tid):
                self.leave(conn, tid)
            case P.Start(table=tid):
                self.start_table(conn, tid)
            case P.Say(table=tid, text=text):
                self.say(conn, tid, text)
            case P.Autopilot(table=tid, on=on):
                self.autopilot(conn, tid, on)
            case P.Ping(ref=ref):
                conn.send(P.Pong(ref=ref))

    def act(self, conn: Conn, msg: P.Act) -> None:
        t = self.table_of(conn, msg.table, msg.ref)
        if t is None:
            return
        why = t.check_act(conn, msg)
        if why is not None:
            self.refuse(conn, why, ref=msg.ref, table=t.id)
            return
        try:
            t.commit(msg.action)
        except RuleError as err:
            self.refuse(conn, err.detail, code="rule", ref=msg.ref, rule=err.rule, table=t.id)
            return
        conn.send(P.Ack(ref=msg.ref, n=len(t.actions)))
        t.kick()

    def list_tables(self, conn: Conn) -> None:
        held = [(t.id, i) for t in self.tables.values() for i, s in enumerate(t.meta.seats) if s.holder == conn.player]
        conn.send(P.Tables(tables=[t.info() for t in self.tables.values()], held=held))

    def join(self, conn: Conn, tid: str, seat: int) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        why = t.sit(conn, seat)
        if why is not None:
            self.refuse(conn, why)
            return
        conn.send(t.joined(seat))
        t.changed()
        t.kick()

    def watch(self, conn: Conn, tid: str) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        t.watch(conn)
        conn.send(t.joined(-1))
        t.changed()

    def leave(self, conn: Conn, tid: str) -> None:
        t = self.tables.get(tid)
        if t is not None:
            t.drop(conn)
            t.changed()

    def start_table(self, conn: Conn, tid: str) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        if t.meta.creator != conn.player:
            self.refuse(conn, "only the table's creator can start it")
        elif t.meta.status != "waiting":
            self.refuse(conn, "the game has started")
        else:
            t.start()

    def say(self, conn: Conn, tid: str, text: str) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        if t not in [self.tables.get(x) for x in conn.tables]:
            self.refuse(conn, "you are not at this table")
            return
        t.say(conn, text)

    def autopilot(self, conn: Conn, tid: str, on: bool) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        seat = t.conns.get(conn, -1)
        if seat < 0 or t.present.get(seat) is not conn:
            self.refuse(conn, "only a seated player can hand their seat to a bot", table=t.id)
            return
        if on:
            t.standin.add(seat)
        else:
            t.standin.discard(seat)
        log.info("table %s: seat %d autopilot %s", t.id, seat, "on" if on else "off")
        t.changed()
        t.kick()

    def create(self, conn: Conn, msg: P.CreateTable) -> None:
        n = len(msg.seats)
        if not 3 <= n <= 5:
            return self.refuse(conn, "a table has 3 to 5 seats")
        if any(k != "human" and k not in BOTS for k in msg.seats):
            return self.refuse(conn, f"seat kinds are 'human' or a bot: {', '.join(sorted(BOTS))}")
        if msg.variant not in VARIANTS:
            return self.refuse(conn, f"unknown variant {msg.variant!r}")
        if any(o not in OPTIONS for o in msg.options):
            return self.refuse(conn, "unknown option")
        if msg.sit >= 0 and (msg.sit >= n or msg.seats[msg.sit] != "human"):
            return self.refuse(conn, "you can sit only at a human seat")
        if sum(1 for t in self.tables.values() if t.meta.status != "over") >= MAX_TABLES:
            return self.refuse(conn, "too many tables")
        tid = self.new_id()
        name = "".join(ch for ch in msg.name if ch.isprintable())[:40] or f"{conn.name}'s table"
        meta = TableMeta(
            id=tid,
            name=name,
            variant=msg.variant,
            options=list(msg.options),
            allow_takeover=msg.allow_takeover,
            creator=conn.player,
            creator_name=conn.name,
            seats=[SeatMeta(kind=k) for k in msg.seats],
            seed=msg.seed,
            created=time.time(),
        )
        t = Table(self, meta)
        self.tables[tid] = t
        self.save_meta(meta)
        log.info("table %s created by %s: %s", tid, conn.name, ",".join(msg.seats))
        if msg.sit >= 0:
            t.sit(conn, msg.sit)
            conn.send(t.joined(msg.sit))
        else:
            t.watch(conn)
            if all(k != "human" for k in msg.seats):
                t.start()  # bots only: a game to watch
            conn.send(t.joined(-1))
        t.kick()
