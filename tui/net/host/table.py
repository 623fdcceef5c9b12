"""The table server: authoritative games held by the ``colosseum serve`` process.

``TableServer`` listens on a local socket (a unix socket in the data folder, or loopback TCP)
for the client processes the SSH server spawns.  A client proves who it is with a token the SSH
server minted for the authenticated SSH identity (``make_token``: an HMAC with the secret kept
in the data folder, so tokens survive a restart).

A ``Table`` holds one game.  Only the connection holding the seat named in an action may send
it, and only when that seat is to act (deal proposals and withdrawals from any seated player,
as the engine allows, ``may_propose``).  The engine applies it; the action is appended and
flushed to the table's game log *before* it is acknowledged or broadcast; every connection at
the table (players and spectators) receives the resulting state.  Bots play bot seats, and
after ``bot_timeout`` seconds they stand in for a player whose connection dropped, until that
player comes back (same identity -> same seat).

Files in the data folder::

    tables/<id>.json     table description (seats, holders, flags), rewritten atomically
    games/<id>.jsonl     the game log (see ``gamelog_io``): header, then one line per action
                         and per chat line, flushed as written
    secret               the token key (0600)
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import itertools
import json
import logging
import os
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from colosseum.core import Action, Event, GameSetup, RuleError, State, apply, legal, may_propose, new_game, to_act
from colosseum.core.actions import ProposeDeal
from colosseum.core.bots import BOTS, make_bot
from colosseum.core.catalog import OPTIONS, VARIANTS

from . import gamelog_io
from . import protocol as P

log = logging.getLogger("colosseum.net")

ANY_SEAT_ACTIONS = ("ProposeDeal", "CancelDeal", "ConstructionForAquila")
MAX_CHAT = 400
MAX_TABLES = 500
WRITE_BUFFER_LIMIT = 4 << 20  # a client this far behind is dropped
HELLO_TIMEOUT = 10.0
MAX_MESSAGES_PER_SECOND = 1000  # a client process sends a few per second; test drivers more


def default_bot() -> str:
    return "greedy" if "greedy" in BOTS else "random"


# ---------------------------------------------------------------------------- tokens


def load_secret(data: Path) -> bytes:
    path = data / "secret"
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key.hex())
        return key


def make_token(secret: bytes, player: str, name: str) -> str:
    body = base64.urlsafe_b64encode(json.dumps([player, name]).encode()).decode()
    mac = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def check_token(secret: bytes, token: str) -> tuple[str, str] | None:
    try:
        body, mac = token.rsplit(".", 1)
        good = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(good, mac):
            return None
        player, name = json.loads(base64.urlsafe_b64decode(body.encode()))
        return str(player), str(name)
    except Exception:
        return None


# ---------------------------------------------------------------------------- tables


class SeatMeta(msgspec.Struct, kw_only=True):
    kind: str  # 'human' or a bot name
    holder: str = ""  # identity of the human holding it
    name: str = ""  # holder's display name


class TableMeta(msgspec.Struct, kw_only=True):
    id: str
    name: str
    variant: str
    options: list[str]
    allow_takeover: bool
    creator: str
    creator_name: str
    seats: list[SeatMeta]
    status: str = "waiting"  # waiting, playing, over
    seed: int | None = None
    created: float = 0.0


@dataclass(eq=False)
class Conn:
    """One client process's connection."""

    id: int
    writer: asyncio.StreamWriter
    player: str = ""
    name: str = ""
    tables: dict[str, int] = field(default_factory=dict)  # table id -> seat (-1 watching)
    closed: bool = False

    def send(self, msg: P._Msg) -> None:
        self.send_frame(P.encode(msg))

    def send_frame(self, frame: bytes) -> None:
        """An encoded message (``P.encode``): a broadcast encodes once for every connection."""
        if self.closed:
            return
        try:
            self.writer.write(frame)
            if self.writer.transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
                log.warning("conn %s (%s): too far behind, dropped", self.id, self.name)
                self.close()
        except (ConnectionError, RuntimeError):
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.writer.close()
            except Exception:  # pragma: no cover
                pass


class Table:
    def __init__(self, server: TableServer, meta: TableMeta) -> None:
        self.server = server
        self.meta = meta
        self.setup: GameSetup | None = None
        self.state: State | None = None
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self.chat: list[P.ChatLine] = []
        self.conns: dict[Conn, int] = {}  # every connection at the table -> seat / -1
        self.present: dict[int, Conn] = {}  # seat -> the connection holding it now
        self.absent_since: dict[int, float] = {}
        self.standin: set[int] = set()
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.bots: dict[int, object] = {}
        self.log: gamelog_io.LogWriter | None = None
        self._bot_task: asyncio.Task | None = None

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def log_path(self) -> Path:
        return self.server.data / "games" / f"{self.id}.jsonl"

    # ---------------------------------------------------------------- views
    def info(self) -> P.TableInfo:
        m = self.meta
        seats = []
        for i, s in enumerate(m.seats):
            seats.append(
                P.SeatInfo(
                    kind=s.kind,
                    name=s.name if s.holder else (self.setup.players[i] if self.setup else ""),
                    holder=bool(s.holder),
                    present=i in self.present,
                    standin=i in self.standin,
                )
            )
        st = self.state
        return P.TableInfo(
            id=m.id,
            name=m.name,
            variant=m.variant,
            options=list(m.options),
            status=m.status,
            seats=seats,
            round=st.round if st else 0,
            phase=st.phase if st else "",
            allow_takeover=m.allow_takeover,
            creator=m.creator_name,
            spectators=sum(1 for s in self.conns.values() if s < 0),
            actions=len(self.actions),
        )

    def joined(self, seat: int) -> P.Joined:
        return P.Joined(
            table=self.info(),
            seat=seat,
            setup=self.setup,
            state=self.state,
            actions=list(self.actions),
            events=self.events[-600:],
            chat=self.chat[-100:],
        )

    def broadcast(self, msg: P._Msg) -> None:
        frame = P.encode(msg)
        for c in list(self.conns):
            c.send_frame(frame)

    def changed(self) -> None:
        self.broadcast(P.TableChanged(table=self.info(), setup=self.setup, state=self.state))

    def save_meta(self) -> None:
        self.server.save_meta(self.meta)

    # ---------------------------------------------------------------- seats
    def controller_is_bot(self, seat: int) -> bool:
        s = self.meta.seats[seat]
        return s.kind != "human" or not s.holder or seat in self.standin

    def bot_for(self, seat: int):
        kind = self.meta.seats[seat].kind
        name = kind if kind != "human" else default_bot()
        bot = self.bots.get(seat)
        if bot is None or getattr(bot, "name", name) != name:
            seed = (self.setup.seed if self.setup else 0) * 31 + seat
            bot = make_bot(name, seed=seed)
            self.bots[seat] = bot
        return bot

    def sit(self, conn: Conn, seat: int) -> str | None:
        """Seat ``conn``; None or the reason it is refused."""
        m = self.meta
        if not 0 <= seat < len(m.seats):
            return f"there is no seat {seat}"
        s = m.seats[seat]
        if s.holder == conn.player:
            pass  # back to one's own seat (reconnect)
        elif any(o.holder == conn.player for o in m.seats):
            return "you already hold a seat at this table"
        elif s.kind == "human" and not s.holder:
            if m.status != "waiting":
                return "that seat is not free"
        elif s.kind != "human" and not s.holder:
            if not m.allow_takeover:
                return "the table's creator did not allow taking over bot seats"
            if m.status == "over":
                return "the game is over"
            if self.state is not None and to_act(self.state) == seat:
                return "a bot's seat can be taken over only between its turns"
            s.kind = "human"
        else:
            return f"seat {seat + 1} is held by {s.name}"
        s.holder, s.name = conn.player, conn.name
        old = self.present.get(seat)
        if old is not None and old is not conn:
            # the same player connected again elsewhere: the newer connection holds the seat
            self.conns[old] = -1
            old.tables[self.id] = -1
            old.send(P.Error(message="you took this seat from another connection", code="moved"))
        prev = self.conns.get(conn)
        if prev is not None and prev >= 0 and prev != seat:
            self.present.pop(prev, None)
        self.present[seat] = conn
        self.conns[conn] = seat
        conn.tables[self.id] = seat
        self.absent_since.pop(seat, None)
        self.standin.discard(seat)
        t = self.timers.pop(seat, None)
        if t:
            t.cancel()
        self.save_meta()
        log.info("table %s: %s (%s) sits at seat %d", self.id, conn.name, conn.player[:20], seat)
        if m.status == "waiting" and all(x.kind != "human" or x.holder for x in m.seats):
            self.start()
        return None

    def watch(self, conn: Conn) -> None:
        prev = self.conns.get(conn)
        if prev is not None and prev >= 0:
            self.left_seat(prev)
        self.conns[conn] = -1
        conn.tables[self.id] = -1

    def drop(self, conn: Conn) -> None:
        seat = self.conns.pop(conn, None)
        conn.tables.pop(self.id, None)
        if seat is not None and seat >= 0 and self.present.get(seat) is conn:
            self.left_seat(seat)

    def left_seat(self, seat: int) -> None:
        self.present.pop(seat, None)
        if self.meta.status == "waiting":
            # nothing has been played yet: the seat is free again
            s = self.meta.seats[seat]
            log.info("table %s: %s leaves seat %d", self.id, s.name, seat)
            s.holder = s.name = ""
            self.save_meta()
            self.changed()
            return
        self.absent_since[seat] = time.monotonic()
        log.info("table %s: seat %d absent", self.id, seat)
        self.arm_timer(seat)
        self.changed()

    def arm_timer(self, seat: int) -> None:
        old = self.timers.pop(seat, None)
        if old:
            old.cancel()
        if self.meta.status == "over":
            return
        loop = asyncio.get_running_loop()
        self.timers[seat] = loop.call_later(self.server.bot_timeout, self._stand_in, seat)

    def _stand_in(self, seat: int) -> None:
        self.timers.pop(seat, None)
        if seat in self.present or self.meta.status == "over":
            return
        self.standin.add(seat)
        log.info("table %s: a bot stands in for seat %d", self.id, seat)
        self.changed()
        self.kick()

    # ---------------------------------------------------------------- game
    def start(self) -> None:
        m = self.meta
        for s in m.seats:
            if s.kind == "human" and not s.holder:
                s.kind = default_bot()
        names: list[str] = []
        for i, s in enumerate(m.seats):
            base = (s.name if s.holder else f"{s.kind.title()} bot").strip() or f"Player {i + 1}"
            name = base
            k = 2
            while name in names:
                name = f"{base} {k}"
                k += 1
            names.append(name)
        seed = m.seed if m.seed is not None else random.randrange(1 << 31)
        m.seed = seed
        self.setup = GameSetup(players=tuple(names), seed=seed, variant=m.variant, options=tuple(m.options))
        self.state = new_game(self.setup)
        self.log = gamelog_io.LogWriter.create(self.log_path, self.setup, [s.kind for s in m.seats])
        for line in self.chat:
            self.log.chat(line)
        m.status = "playing"
        self.save_meta()
        log.info("table %s: game starts (%s)", self.id, ", ".join(names))
        self.changed()
        self.kick()

    def restore(self) -> None:
        """Reload a started table from its game log."""
        loaded = gamelog_io.load(self.log_path)
        self.setup = loaded.setup
        state = new_game(loaded.setup)
        for a in loaded.actions:
            state, ev = apply(state, a)
            self.actions.append(a)
            self.events.extend(ev)
        self.state = state
        self.chat = [P.ChatLine(table=self.id, **c) for c in loaded.chat]
        if self.meta.status != "over":
            self.log = gamelog_io.LogWriter.reopen(self.log_path, loaded)
        if to_act(state) < 0 and self.meta.status != "over":
            self.meta.status = "over"
            self.save_meta()
        for i, s in enumerate(self.meta.seats):
            if s.holder:
                self.absent_since[i] = time.monotonic()
                self.arm_timer(i)

    def commit(self, action: Action) -> list[Event]:
        """Apply ``action`` (RuleError: nothing changed), log it durably, then broadcast."""
        assert self.state is not None and self.log is not None
        state, events = apply(self.state, action)
        self.log.action(action)  # written and flushed before anyone hears of it
        self.state = state
        self.actions.append(action)
        self.events.extend(events)
        self.broadcast(P.Update(table=self.id, n=len(self.actions), actions=[action], events=events, state=state))
        if to_act(state) < 0:
            self.meta.status = "over"
            self.log.close()  # the game is complete; talk after it is not recorded
            for t in self.timers.values():
                t.cancel()
            self.timers.clear()
            self.save_meta()
            log.info("table %s: game over", self.id)
            self.changed()
        return events

    def check_act(self, conn: Conn, msg: P.Act) -> str | None:
        """None if ``conn`` may send this action now, else the reason it may not."""
        seat = self.conns.get(conn)
        if seat is None:
            return "you are not at this table"
        if seat < 0 or self.present.get(seat) is not conn:
            return "spectators cannot act"
        if self.meta.status != "playing" or self.state is None:
            return "the game is not running" if self.meta.status == "waiting" else "the game is over"
        a = msg.action
        if a.player != seat:
            return f"you hold seat {seat + 1}, not seat {a.player + 1}"
        if msg.at >= 0 and msg.at != len(self.actions):
            return "the game moved on before your action arrived; look again"
        if type(a).__name__ in ANY_SEAT_ACTIONS:
            if isinstance(a, ProposeDeal) and not may_propose(self.state, seat):
                return "no deal can be proposed now"
            return None
        actor = to_act(self.state)
        if actor != seat:
            return f"it is {self.state.players[actor].name}'s turn, not yours" if actor >= 0 else "nobody is to act"
        return None

    def kick(self) -> None:
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        delay = self.server.bot_delay
        while self.meta.status == "playing" and self.state is not None:
            seat = to_act(self.state)
            if seat < 0 or not self.controller_is_bot(seat):
                return
            await asyncio.sleep(delay)
            if self.state is None or to_act(self.state) != seat or not self.controller_is_bot(seat):
                continue
            try:
                action = self.bot_for(seat).act(self.state)
                try:
                    self.commit(action)
                except RuleError:
                    self.commit(legal(self.state).actions[-1])  # a bot must never stall a table
            except Exception:  # pragma: no cover - keep the table alive whatever a bot does
                log.exception("table %s: bot for seat %d failed", self.id, seat)
                return

    def say(self, conn: Conn, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())[:MAX_CHAT].strip()
        if not text:
            return
        seat = self.conns.get(conn, -1)
        line = P.ChatLine(table=self.id, name=conn.name, text=text, seat=seat, time=time.time())
        self.chat.append(line)
        if self.log is not None:
            self.log.chat(line)
        self.broadcast(line)


# ---------------------------------------------------------------------------- server


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
            except Exception:
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
        except Exception:  # pragma: no cover
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
        if isinstance(msg, P.Act):
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
        elif isinstance(msg, P.ListTables):
            held = [
                (t.id, i) for t in self.tables.values() for i, s in enumerate(t.meta.seats) if s.holder == conn.player
            ]
            conn.send(P.Tables(tables=[t.info() for t in self.tables.values()], held=held))
        elif isinstance(msg, P.CreateTable):
            self.create(conn, msg)
        elif isinstance(msg, P.Join):
            t = self.table_of(conn, msg.table)
            if t is None:
                return
            why = t.sit(conn, msg.seat)
            if why is not None:
                self.refuse(conn, why)
                return
            conn.send(t.joined(msg.seat))
            t.changed()
            t.kick()
        elif isinstance(msg, P.Watch):
            t = self.table_of(conn, msg.table)
            if t is None:
                return
            t.watch(conn)
            conn.send(t.joined(-1))
            t.changed()
        elif isinstance(msg, P.Leave):
            t = self.tables.get(msg.table)
            if t is not None:
                t.drop(conn)
                t.changed()
        elif isinstance(msg, P.Start):
            t = self.table_of(conn, msg.table)
            if t is None:
                return
            if t.meta.creator != conn.player:
                self.refuse(conn, "only the table's creator can start it")
            elif t.meta.status != "waiting":
                self.refuse(conn, "the game has started")
            else:
                t.start()
        elif isinstance(msg, P.Say):
            t = self.table_of(conn, msg.table)
            if t is None:
                return
            if t not in [self.tables.get(x) for x in conn.tables]:
                self.refuse(conn, "you are not at this table")
                return
            t.say(conn, msg.text)
        elif isinstance(msg, P.Autopilot):
            t = self.table_of(conn, msg.table)
            if t is None:
                return
            seat = t.conns.get(conn, -1)
            if seat < 0 or t.present.get(seat) is not conn:
                self.refuse(conn, "only a seated player can hand their seat to a bot", table=t.id)
                return
            if msg.on:
                t.standin.add(seat)
            else:
                t.standin.discard(seat)
            log.info("table %s: seat %d autopilot %s", t.id, seat, "on" if msg.on else "off")
            t.changed()
            t.kick()
        elif isinstance(msg, P.Ping):
            conn.send(P.Pong(ref=msg.ref))

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
