"""The connection hub: the table server's socket, the client connections and their requests.

``TableServer`` listens on a local socket (a unix socket in the data folder, or loopback TCP)
for the client processes the SSH server spawns.  A client proves who it is with a token
(``tokens``) in ``Hello``; then each request is dispatched to the table it names (``table``).
A table may hold any game the program knows (``core.registry``); the hub names none.  The data
folder's files are described in ``files``.

Only live tables (waiting or playing) are held in memory.  A finished table leaves as soon as
nobody looks at it any more (its log and history line stay on disk), and a waiting table that
everyone left is removed: memory does not grow with the number of games played.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from colosseum.core.options import BASE_FIELDS, OptionError
from colosseum.core.registry import spec

from . import protocol as P
from .botbudget import BotBudget
from .botplay import COMPOSE_CAP, TRADE_WINDOW
from .conn import Conn
from .files import append_private, count_lines, private_dir, write_private
from .finished import fork_table, history_of, review_game
from .invites import join_code, may_see, new_code
from .limits import IDLE_TIMEOUT, IdleTables, begin, table_limits, unsaved
from .limits import MAX_TABLES_PER_PLAYER as MAX_TABLES_PER_PLAYER  # (where tests look for it)
from .lobbylist import list_page, web_link
from .meta import SeatMeta, TableMeta, edition_of, load_meta
from .names import clean_text
from .rematch import rematch, rematch_gone
from .results import Recorder, finished_game, rated_refusal
from .table import Table
from .tempo import MAX_TURN_HOURS
from .tokens import load_secret, make_token, token_parts

if TYPE_CHECKING:
    from .store import Store

log = logging.getLogger("colosseum.net")

MAX_TABLE_NAME = P.TABLE_NAME_CELLS
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
        turn_timeout: float = 90.0,
        address: str | None = None,
        fixed_seeds: bool = False,
        store: Store | None = None,
        idle_timeout: float = IDLE_TIMEOUT,
    ) -> None:
        self.data = Path(data)
        self.store = store  # the lobby's database (None: results stay in the files only)
        self.recorder = Recorder(store) if store is not None else None
        #: makes a one-time web link for (identity, name): the web gateway's, with ``--web``
        self.link_for: Callable[[str, str], str] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        private_dir(self.data)
        for sub in ("tables", "games", "history"):
            private_dir(self.data / sub)
        self.secret = load_secret(self.data)
        self.bot_timeout = bot_timeout
        self.bot_delay = bot_delay
        self.turn_timeout = turn_timeout  # seconds a person has for one decision (0: no clock)
        self.trade_window = TRADE_WINDOW  # seconds a bot's turn stays open for actions out of turn
        self.compose_cap = COMPOSE_CAP  # seconds an open dialog holds a bot's move at most
        self.budget = BotBudget()  # every table's bots share it (botbudget)
        self.idle = IdleTables(self, idle_timeout)  # ends tables nobody uses (limits; 0: never)
        # A table made with a seed replays a known game: its creator would know every roll to
        # come.  Only a server told so (tests, benchmarks) takes one; else each game's chance
        # comes from a secret drawn by the operating system (core.rng).
        self.fixed_seeds = fixed_seeds
        self.history_count = 0
        sock = (self.data / "tables.sock").resolve()
        # a unix socket path is limited to ~107 bytes: loopback TCP (tokens still required) beyond
        self.address = address or (f"unix:{sock}" if len(str(sock)) < 100 else "tcp:127.0.0.1:0")
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self._ids = itertools.count(1)
        self._server: asyncio.AbstractServer | None = None
        self.refusals = 0

    def token_for(self, player: str, name: str, address: str = "") -> str:
        return make_token(self.secret, player, name, address)

    # ---------------------------------------------------------------- persistence
    def save_meta(self, meta: TableMeta) -> None:
        if meta.status == "over" or meta.id not in self.tables:
            return  # a finished or forgotten table's description is in history/ now, or gone
        write_private(self.data / "tables" / f"{meta.id}.json", msgspec.json.encode(meta))

    def load_tables(self) -> None:
        self.history_count = count_lines(self.data / "history.jsonl")
        for path in sorted((self.data / "tables").glob("*.json")):
            try:
                meta = load_meta(path.read_bytes())
                if meta.status == "over":  # finished before this version kept a history
                    self._to_history(meta, history_of(meta))
                    continue
                table = self.make_table(meta)
                self.tables[meta.id] = table
                if meta.status != "waiting":
                    table.restore()
                if table.meta.status == "over":  # its last action was logged, not yet noted
                    self.tables.pop(meta.id, None)
                    self.record_result(table)
                    self._to_history(table.meta, table.history())
                    table.close()
                    continue
                log.info("table %s: reloaded (%s, %d actions)", meta.id, meta.status, len(table.actions))
            except Exception:  # noqa: BLE001 - one unreadable table must not keep the others from being served
                self.tables.pop(path.stem, None)
                log.exception("could not reload table from %s", path)
        for table in self.tables.values():
            if table.meta.status == "playing":
                table.update_clock()
                table.kick()

    # ---------------------------------------------------------------- finished and empty tables
    def _to_history(self, meta: TableMeta, entry: P.HistoryInfo) -> None:
        # no fsync: the game log holds what matters, and it is complete and flushed
        write_private(self.data / "history" / f"{meta.id}.json", msgspec.json.encode(meta), sync=False)
        try:
            os.unlink(self.data / "tables" / f"{meta.id}.json")
        except FileNotFoundError:
            pass
        append_private(self.data / "history.jsonl", msgspec.json.encode(entry) + b"\n")
        self.history_count += 1

    def finished(self, table: Table) -> None:
        """A game ended: its result to the store, it goes to the history; the table leaves
        memory once nobody is at it."""
        self.record_result(table)
        self._to_history(table.meta, table.history())
        self.maybe_forget(table)

    def record_result(self, table: Table) -> None:
        if self.recorder is None:
            return
        game = finished_game(table)
        if game is not None:
            self.recorder.add(game)

    def maybe_forget(self, table: Table) -> None:
        """Drop a finished table nobody looks at, or a waiting one everybody left."""
        self.idle.touch(table)  # (someone just left it)
        if table.meta.status == "over":
            rematch_gone(table)  # someone left: an open rematch ends
        if table.conns or self.tables.get(table.id) is not table:
            return
        if table.meta.status == "over":
            log.info("table %s: finished, out of memory", table.id)
        elif table.meta.status == "waiting" and not any(s.holder for s in table.meta.seats):
            log.info("table %s: everybody left before it started, removed", table.id)
            try:
                os.unlink(self.data / "tables" / f"{table.id}.json")
            except FileNotFoundError:
                pass
        else:
            return
        del self.tables[table.id]
        table.close()

    def new_id(self) -> str:
        while True:
            tid = secrets.token_hex(3)
            # finished tables leave memory but keep their logs: an id is never used twice
            if tid not in self.tables and not (self.data / "games" / f"{tid}.jsonl").exists():
                return tid

    # ---------------------------------------------------------------- serving
    async def start(self) -> None:
        self.load_tables()
        if self.recorder is not None and self.recorder.store.pending.path.exists():
            self.recorder.kick()  # results that waited for the database
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
        self.idle.start()

    async def close(self) -> None:
        self.idle.stop()
        if self._server is not None:
            self._server.close()
        for c in list(self.conns):
            c.close()
        for t in self.tables.values():
            t.close()
        if self.recorder is not None:
            await self.recorder.close()
        if self.store is not None:
            await self.store.close()

    def refuse(
        self,
        conn: Conn,
        why: str,
        code: str = "refused",
        ref: int = -1,
        rule: str = "",
        table: str = "",
        *,
        last: bool = False,
    ) -> None:
        """Refuse ``conn``'s message with ``why`` (logged as ``Conn.log_refusal`` says)."""
        self.refusals += 1
        conn.log_refusal(time.monotonic(), code, why, table, last=last)
        conn.send(P.Error(message=why, code=code, ref=ref, rule=rule, table=table))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Conn(id=next(self._ids), writer=writer)
        self.conns.add(conn)
        try:
            await self._session(conn, reader)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        except P.ProtocolError as exc:
            self.refuse(conn, str(exc), code="malformed", last=True)
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
            who = token_parts(self.secret, msg.token)
            if who is None:
                self.refuse(conn, "bad token", code="auth")
                return
            hello = msg
            conn.player, conn.name, conn.address = who
        conn.send(P.Welcome(version=P.PROTOCOL_VERSION, player=conn.player, name=conn.name, seats=self.held(conn)))
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
        if t is None or not may_see(t.meta, conn.player):  # a private table: as if there were none
            self.refuse(conn, f"no table {tid!r}", code="unknown_table", ref=ref)
            return None
        return t

    def handle(self, conn: Conn, msg: P._Msg) -> None:
        """One request of a client that has said hello."""
        match msg:
            case P.Act():
                self.act(conn, msg)
            case P.ListTables():
                self.list_tables(conn, msg)
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
            case P.Undo():
                self.undo(conn, msg)
            case P.Composing(table=tid, on=on):
                self.composing(conn, tid, on)
            case P.Review():
                self.review(conn, msg)
            case P.Leaderboard() | P.Profile() | P.Account():
                self.lobby_info(conn, msg)
            case P.WebLinkRequest():
                web_link(self, conn)
            case P.JoinCode():
                join_code(self, conn, msg)
            case P.ReviewGame() | P.ForkGame() | P.Rematch():
                self.lobby_game(conn, msg)

    def lobby_game(self, conn: Conn, msg: P.ReviewGame | P.ForkGame | P.Rematch) -> None:
        """A finished game's review or fork (``finished``), a rematch (``rematch``)."""
        if isinstance(msg, P.Rematch):
            rematch(self, conn, msg)
            return
        found = review_game(self, conn, msg) if isinstance(msg, P.ReviewGame) else fork_table(self, conn, msg)
        if isinstance(found, str):
            self.refuse(conn, found, ref=msg.ref if isinstance(msg, P.ReviewGame) else -1)
        elif isinstance(found, TableMeta):
            self.open_table(conn, found, msg.sit if isinstance(msg, P.ForkGame) else -1)
        else:
            conn.send(found)

    def lobby_info(self, conn: Conn, msg: P.Leaderboard | P.Profile | P.Account) -> None:
        """A leaderboard, a profile or one's account, answered from the store while the tables go on."""
        if self.store is None:
            self.refuse(conn, "this server keeps no ratings")
            return
        from .lobbyinfo import reply

        task = asyncio.get_running_loop().create_task(reply(self, self.store, conn, msg))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def make_table(self, meta: TableMeta) -> Table:
        return Table(self, meta)  # (several hosts: each line of its log to the database too)

    def act(self, conn: Conn, msg: P.Act) -> None:
        t = self.table_of(conn, msg.table, msg.ref)
        if t is None:
            return
        err = t.act(conn, msg)
        if err is not None:
            self.refuse(conn, err.message, code=err.code, ref=msg.ref, rule=err.rule, table=t.id)
            return
        conn.send(P.Ack(ref=msg.ref, n=len(t.actions)))
        t.kick()

    def review(self, conn: Conn, msg: P.Review) -> None:
        """The game so far as the asker's seat sees it (the review, ``v``)."""
        t = self.table_of(conn, msg.table, msg.ref)
        if t is None:
            return
        answer = t.review(conn, msg)
        if isinstance(answer, str):
            self.refuse(conn, answer, ref=msg.ref, table=t.id)
            return
        conn.send(answer)

    def undo(self, conn: Conn, msg: P.Undo) -> None:
        """A seated player takes back their last decision(s) (``Table.undo`` says when not)."""
        t = self.table_of(conn, msg.table, msg.ref)
        if t is None:
            return
        try:
            why = t.undo(conn, msg)
        except OSError as err:  # the undo line could not be saved, so nothing was taken back
            log.error("table %s: game log not written: %s", t.id, err)
            why = unsaved(err, "that take-back")
        if why is not None:
            self.refuse(conn, why, ref=msg.ref, table=t.id)
            return
        conn.send(P.Ack(ref=msg.ref, n=len(t.actions)))
        t.kick()

    def composing(self, conn: Conn, tid: str, on: bool) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        why = t.compose(conn, on)
        if why is not None:
            self.refuse(conn, why, table=t.id)

    def held(self, conn: Conn) -> list[tuple[str, int]]:
        """The seats ``conn``'s player holds at live tables."""
        return [
            (t.id, i)
            for t in self.tables.values()
            if t.meta.status != "over"
            for i, s in enumerate(t.meta.seats)
            if s.holder == conn.player
        ]

    def list_tables(self, conn: Conn, msg: P.ListTables) -> None:
        """A page of the live tables or of the finished games (``lobbylist``)."""
        conn.send(list_page(self, conn, msg))

    def join(self, conn: Conn, tid: str, seat: int) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        if t.meta.status == "over":
            self.refuse(conn, "the game is over")
            return
        why = t.sit(conn, seat)
        if why is not None:
            self.refuse(conn, why)
            return
        conn.send(t.joined(seat))
        if t.state is not None:
            conn.send(t.reach_info())
        t.changed()
        t.kick()

    def watch(self, conn: Conn, tid: str) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        if t.meta.status == "over" and conn not in t.conns:
            self.refuse(conn, "the game is over")
            return
        t.watch(conn)
        conn.send(t.joined(-1))
        t.changed()

    def leave(self, conn: Conn, tid: str) -> None:
        t = self.tables.get(tid)
        if t is not None:
            t.drop(conn)
            if self.tables.get(tid) is t:
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
            try:
                t.start()
            except OSError as err:  # not saved: the table waits as it was (``Table.start``)
                log.error("table %s: the game could not start: %s", t.id, err)
                self.refuse(conn, "the server could not save the game's start; try again", code="disk")

    def say(self, conn: Conn, tid: str, text: str) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        if t not in [self.tables.get(x) for x in conn.tables]:
            self.refuse(conn, "you are not at this table")
            return
        if not conn.may_say(time.monotonic()):
            self.refuse(conn, "you are talking too fast; wait a little", code="flood", table=t.id)
            return
        t.say(conn, text)

    def autopilot(self, conn: Conn, tid: str, on: bool) -> None:
        t = self.table_of(conn, tid)
        if t is None:
            return
        why = t.autopilot(conn, on)
        if why is not None:
            self.refuse(conn, why, table=t.id)

    def create_refusal(self, conn: Conn, msg: P.CreateTable) -> str | None:
        """Why the table ``msg`` asks for cannot be made (None: it can): the game's own player
        counts, bots and options (``GameSpec.make_setup``), and the server's limits."""
        try:
            game = spec(msg.game)
        except ValueError as err:
            return str(err)
        if not game.min_players <= len(msg.seats) <= game.max_players:
            return f"a {game.title} table has {game.min_players} to {game.max_players} seats"
        bots = game.rules().bot_names()
        if any(k != "human" and k not in bots for k in msg.seats):
            return f"seat kinds are 'human' or a bot: {', '.join(bots)}"
        if set(msg.options) & set(BASE_FIELDS):
            return "the players, the seed and the secret are not options"
        try:
            game.make_setup(game.default_names[: len(msg.seats)], seed=0, **msg.options)
        except OptionError as err:
            return str(err)
        except TypeError:  # an option named as a parameter of make_setup
            return f"{game.title} has no such options: {', '.join(sorted(msg.options))}"
        if msg.sit >= 0 and (msg.sit >= len(msg.seats) or msg.seats[msg.sit] != "human"):
            return "you can sit only at a human seat"
        if msg.rated and (why := rated_refusal(msg, has_store=self.store is not None)):
            return why
        if msg.seed is not None and not self.fixed_seeds:
            return "this server draws every game's chance itself: a table cannot choose its seed"
        return table_limits(self.tables.values(), conn)  # in all, per player, per address

    def create(self, conn: Conn, msg: P.CreateTable) -> None:
        why = self.create_refusal(conn, msg)
        if why:
            return self.refuse(conn, why)
        tid = self.new_id()
        name = clean_text(msg.name, MAX_TABLE_NAME) or clean_text(f"{conn.name}'s table", MAX_TABLE_NAME)
        meta = TableMeta(
            id=tid,
            name=name,
            game=msg.game,
            options=dict(msg.options),
            edition=edition_of(spec(msg.game), msg.options),
            allow_takeover=msg.allow_takeover,
            hints=msg.hints,
            creator=conn.player,
            creator_name=conn.name,
            seats=[SeatMeta(kind=k) for k in msg.seats],
            seed=msg.seed,
            created=time.time(),
            rated=msg.rated,
            code=new_code(self.tables.values()) if msg.private else "",
            bank=max(0, min(msg.bank, 7 * 86400)),
            increment=max(0, min(msg.increment, 3600)) if msg.bank > 0 else 0,
            turn_hours=max(0.0, min(msg.turn_hours, MAX_TURN_HOURS)),
        )
        self.open_table(conn, meta, msg.sit)

    def open_table(self, conn: Conn, meta: TableMeta, sit: int) -> Table | None:
        """A new table of ``meta``: ``conn`` sits at ``sit`` (or watches: -1); None when the
        disk refused it (``conn`` is told, nothing is left of it: ``limits.begin``)."""
        t = self.make_table(meta)
        t.origin = conn.address
        self.tables[meta.id] = t
        if why := begin(self, t, conn, sit):
            self.refuse(conn, why, code="disk")
            return None
        log.info("table %s (%s) created by %s: %s", meta.id, meta.game, conn.name, ",".join(s.kind for s in meta.seats))
        conn.send(t.joined(sit if sit >= 0 else -1))
        t.kick()
        return t
