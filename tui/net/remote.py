"""The client side of the table protocol.

``RemoteClient`` is one connection from a client process to the table server (a blocking
socket and a reader thread, so that ``GameSession.submit`` can stay synchronous).
``RemoteSession`` is the ``GameSession`` of one table over that connection, whatever its game:
it reads the game's values with the types of the game the table names (``protocol.Codec``), never
applies an action itself (it sends ``Act`` and takes the state the server pushes, its seat's
view), and for the review asks the server for the positions it could not work out itself
(``Review``: chance not yet revealed stays unrevealed).  Listeners are called on the thread of
the event loop that was running when they were added (the app's), never on the reader thread.

The asyncio client of the same protocol (tests, benchmarks) is ``host.proto_client.ProtoClient``.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import itertools
import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from colosseum.core.events import Event
from colosseum.core.gamelog import UndoLine
from colosseum.core.timeline import Timeline
from colosseum.core.undo import UndoReach
from colosseum.tui.session import SERVER_HINT_THINK, GameSession, Seat

from . import watchdog
from .host import protocol as P
from .host.proto_client import NetError
from .host.sockets import connect_socket
from .lobby_requests import REPLY_TIMEOUT, LobbyRequests, ServerSaid, refusal

log = logging.getLogger("colosseum.net.client")

_TRACE = None
if os.environ.get("COLOSSEUM_NET_TRACE"):  # timing of pushed updates, for the load benchmark
    _TRACE = open(os.environ["COLOSSEUM_NET_TRACE"], "a", buffering=1)

HELLO_TIMEOUT = 10.0
#: what a game's screen says when the connection is gone
LOST = "the connection to the server is lost"

_Reply = TypeVar("_Reply", bound=P._Msg)


class RemoteClient(LobbyRequests):
    def __init__(self, address: str, token: str, *, client: str = "tui") -> None:
        self.address = address
        self.sock = connect_socket(address)
        self._send_lock = threading.Lock()
        self._request_lock = threading.RLock()  # the replies come on one queue
        self._frames = P.FrameBuffer()
        self._pending: list[P._Msg] = []
        self.replies: queue.Queue[P._Msg] = queue.Queue()
        self.acks: dict[int, tuple[threading.Event, list[P._Msg]]] = {}  # ref -> its answer
        self.sessions: dict[str, RemoteSession] = {}
        self.tables: dict[str, P.TableInfo] = {}
        self.table_listeners: list[Callable[[P._Msg], None]] = []
        self.closed = threading.Event()
        self._refs = itertools.count(1)
        self._in_request = False
        self.heard = time.monotonic()  # when the server last said anything (``watchdog``)
        self.silent = False  # the games on this connection were told the server is silent
        self.sock.settimeout(HELLO_TIMEOUT)  # a host that takes connections but never greets
        try:
            self.send(P.Hello(version=P.PROTOCOL_VERSION, token=token, client=client))
            first = self._read_one()
            if not isinstance(first, P.Welcome):
                raise NetError(first.message if isinstance(first, P.Error) else f"unexpected answer {first}")
        except BaseException:
            self.sock.close()
            raise
        self.sock.settimeout(None)
        self.welcome = first
        self.player, self.name = first.player, first.name
        self.last_held: list[tuple[str, int]] = [(t, s) for t, s in first.seats]
        self._thread = threading.Thread(target=self._reader, name="colosseum-net", daemon=True)
        self._thread.start()
        self._watcher = threading.Thread(target=watchdog.watch, args=(self,), name="colosseum-net-watch", daemon=True)
        self._watcher.start()

    # ---------------------------------------------------------------- wire
    def send(self, msg: P._Msg) -> None:
        data = P.encode(msg)
        with self._send_lock:
            self.sock.sendall(data)

    def _read_one(self) -> P._Msg:
        while not self._pending:
            data = self.sock.recv(65536)
            if not data:
                raise NetError("the server closed the connection")
            watchdog.heard(self)
            self._pending.extend(P.decode(b) for b in self._frames.feed(data))
        return self._pending.pop(0)

    def tell_games(self, text: str, code: str) -> None:
        """Said in the log of every game on this connection (and where the player looks)."""
        for s in list(self.sessions.values()):
            s._post(P.Error(message=text, code=code, table=s.table_id))

    def _reader(self) -> None:
        try:
            while True:
                self._route(self._read_one())
        except (OSError, NetError, P.ProtocolError) as exc:
            log.info("connection to the table server ended: %s", exc)
        finally:
            self.closed.set()
            for ev, box in list(self.acks.values()):
                box.append(P.Error(message="connection to the server lost", code="closed"))
                ev.set()
            self.replies.put(P.Error(message="connection to the server lost", code="closed"))
            for s in list(self.sessions.values()):
                s._post(None)

    def _route(self, msg: P._Msg) -> None:
        if isinstance(msg, P.Pong):
            return  # the watchdog's question answered: hearing it was the point
        if isinstance(msg, (P.Ack, P.Error, P.Positions)) and msg.ref > 0 and msg.ref in self.acks:
            ev, box = self.acks[msg.ref]
            box.append(msg)
            ev.set()
            return
        if isinstance(msg, (P.Update, P.ChatLine, P.Undone, P.Reach, P.RematchState)):
            s = self.sessions.get(msg.table)
            if s is not None:
                s._post(msg)
            elif isinstance(msg, P.ChatLine):
                for fn in list(self.table_listeners):  # a waiting table's talk, for the lobby
                    fn(msg)
            return
        if isinstance(msg, P.Error) and msg.code in ("clock", "disk"):
            for s in list(self.sessions.values()):  # our time ran out, the server cannot save: said in the game's log
                s._post(msg)
            for fn in list(self.table_listeners):
                fn(msg)
            return
        if isinstance(msg, P.TableChanged):
            self.tables[msg.table.id] = msg.table
            s = self.sessions.get(msg.table.id)
            if s is not None:
                s._post(msg)
            for fn in list(self.table_listeners):
                fn(msg)
            return
        if isinstance(msg, P.Joined) and msg.state is not None:
            # registered here, on the reader thread, so no Update after it can be missed
            try:
                self.sessions[msg.table.id] = RemoteSession(self, msg)
            except ValueError as exc:  # a game this program cannot play: the request says so
                log.warning("table %s: %s", msg.table.id, exc)
        if isinstance(msg, P.Error) and msg.code in ("moved", "flood") and msg.table in self.sessions:
            # said in that game: our seat went to our newer connection (we watch), or our line
            # of talk was refused (too many too fast)
            self.sessions[msg.table]._post(msg)
            return
        if isinstance(msg, P.Error) and (msg.code in ("moved", "ended") or not self._in_request):
            for fn in list(self.table_listeners):  # shown to the player by the lobby
                fn(msg)
            return
        self.replies.put(msg)

    def request(self, msg: P._Msg, want: type[_Reply], timeout: float = REPLY_TIMEOUT) -> _Reply:
        """Send ``msg`` and wait for its answer of type ``want`` (an ``Error`` raises NetError);
        one request at a time (the lobby's, and a thread's finding a table again)."""
        with self._request_lock:
            return self._request(msg, want, timeout)

    def _request(self, msg: P._Msg, want: type[_Reply], timeout: float) -> _Reply:
        while True:  # drop stale replies
            try:
                self.replies.get_nowait()
            except queue.Empty:
                break
        if self.closed.is_set():
            raise NetError(LOST)
        self._in_request = True
        try:
            try:
                self.send(msg)
            except OSError as exc:
                raise NetError(f"{LOST} ({exc})") from None
            end = time.monotonic() + timeout
            while True:
                try:
                    reply = self.replies.get(timeout=0.2)
                except queue.Empty:
                    if self.closed.is_set():
                        raise NetError(LOST) from None
                    if time.monotonic() > end:
                        raise NetError("the server did not answer") from None
                    continue
                if isinstance(reply, P.Error):
                    raise NetError(reply.message)
                if isinstance(reply, want):
                    return reply
        finally:
            self._in_request = False

    def start_table(self, table: str) -> None:
        self.send(P.Start(table=table))

    def leave(self, table: str) -> None:
        self.sessions.pop(table, None)
        try:
            self.send(P.Leave(table=table))
        except OSError:
            pass

    def session_for(self, joined: P.Joined) -> RemoteSession:
        """The GameSession of a table whose game has started (``joined.state`` set)."""
        s = self.sessions.get(joined.table.id)
        if s is None or s.seat != joined.seat:
            s = RemoteSession(self, joined)
            self.sessions[joined.table.id] = s
        return s

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class RemoteSession(GameSession):
    """A table's game, held by the server.  ``submit`` sends the action and waits for the
    server's answer: the new state (pushed to every client) or a RuleError with the server's
    message.  Chat lines arrive as events of kind ``"chat"``."""

    def __init__(self, client: RemoteClient, joined: P.Joined) -> None:
        if joined.state is None or joined.setup is None:
            raise ValueError("the table's game has not started")
        self.client = client
        self.table = joined.table
        self.table_id = joined.table.id
        self.seat = joined.seat
        self.codec = P.Codec.of(joined.table.game)  # ValueError: a game this program lacks
        self.setup = self.codec.setup(joined.setup)
        self.seats = tuple(Seat(kind=s.kind) for s in joined.table.seats)
        self._state: Any = self.codec.state(joined.state)
        self._actions: list[Any] = self.codec.actions(joined.actions)
        self._events: list[Event] = list(joined.events)
        for c in joined.chat:
            self._events.append(self._chat_event(c))
        self._listeners: list[Callable[[Any, list[Event]], None]] = []
        self._table_listeners: list[Callable[[P.TableInfo], None]] = []
        self._inbox: queue.Queue[P._Msg | None] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._context: contextvars.Context | None = None
        self.lost = False
        self._arrived: dict[int, float] = {}
        self.deadline = joined.table.deadline  # the table's clock (wall clock; 0: none)
        self.clock_seat = joined.table.clock_seat
        self._reach: P.Reach | None = None  # how far each seat may take back (the server says)
        self._undone: P.Undone | None = None  # the last take-back heard of
        self._holds: set[object] = set()
        self.rematch_listeners: list[Callable[[P.RematchState], None]] = []  # on the app's loop

    # ---------------------------------------------------------------- what the screen reads
    @property
    def state(self) -> Any:
        if self._loop is None:
            self.drain()
        return self._state

    @property
    def events(self) -> list[Event]:
        return self._events

    @property
    def actions(self) -> list[Any]:
        return self._actions

    def add_listener(self, fn: Callable[[Any, list[Event]], None]) -> None:
        self._remember_loop()
        self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[Any, list[Event]], None]) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def add_table_listener(self, fn: Callable[[P.TableInfo], None]) -> None:
        self._remember_loop()
        self._table_listeners.append(fn)

    @property
    def spectator(self) -> bool:
        return self.seat < 0

    @property
    def autopilot(self) -> bool:
        """A bot plays this seat for its (present) holder."""
        return self.seat >= 0 and self.table.seats[self.seat].standin

    def local_seats(self) -> tuple[int, ...]:
        """This connection's seat (none for a spectator, or while a bot plays it for us)."""
        return (self.seat,) if self.seat >= 0 and not self.autopilot else ()

    def waiting_for(self) -> int:
        return self.rules.to_act(self._state)

    def bot_to_act(self) -> bool:
        return False  # the server plays every bot

    async def run_bots(self, delay: float = 0.0) -> None:
        return None

    def time_left(self) -> float | None:
        """Seconds the seat to act has left (``clock_seat``), None without a clock."""
        if self.deadline <= 0 or self.clock_seat < 0:
            return None
        return self.deadline - time.time()

    # ---------------------------------------------------------------- acting
    def _may_act(self) -> None:
        """Raise RuleError if this connection cannot send an action now."""
        if self.seat < 0:
            raise ServerSaid("spectators cannot act")
        if self.lost or self.client.closed.is_set():
            raise ServerSaid(LOST)

    def _send(self, msg: P._Msg) -> None:
        """``msg`` to the server; ServerSaid when the socket refuses it (a broken pipe, a reset:
        the server gone before the reader thread heard so)."""
        try:
            self.client.send(msg)
        except OSError:
            raise ServerSaid(LOST) from None

    def _request(self, make: Callable[[int], P._Msg]) -> P._Msg:
        """Send the message ``make(ref)`` with a fresh ``ref`` and wait for its answer (an
        ``Ack``, an ``Error``, or what the request asks for)."""
        if self.client.silent:  # (the watchdog's): sent now, it might count long after
            raise ServerSaid(watchdog.NOT_SENT)
        ref = next(self.client._refs)
        ev, box = threading.Event(), list[P._Msg]()
        self.client.acks[ref] = (ev, box)
        try:
            self._send(make(ref))
            end = time.monotonic() + REPLY_TIMEOUT
            while not ev.wait(watchdog.WATCH_EVERY):
                if self.client.silent:  # the screen waits no longer than the watchdog
                    raise ServerSaid(watchdog.UNANSWERED)
                if time.monotonic() > end:
                    raise ServerSaid("the server did not answer")
        finally:
            self.client.acks.pop(ref, None)
        return box[0]

    def submit(self, action: Any) -> list[Event]:
        self._may_act()
        self.drain()
        at = len(self._actions)
        data = self.codec.pack(action)
        reply = self._request(lambda ref: P.Act(table=self.table_id, action=data, ref=ref, at=at))
        if isinstance(reply, P.Error):
            raise refusal(reply)
        assert isinstance(reply, P.Ack)
        # the Update for this action came before the Ack on the same stream
        return self.drain(until=reply.n)

    def say(self, text: str) -> None:
        """A line to the table's chat; ServerSaid when it cannot be sent."""
        self._send(P.Say(table=self.table_id, text=text))

    def set_autopilot(self, on: bool) -> None:
        """Ask the server to let a bot play this seat (or stop); ServerSaid when it cannot be
        asked."""
        self._send(P.Autopilot(table=self.table_id, on=on))

    def leave(self) -> None:
        self.client.leave(self.table_id)

    # ---------------------------------------------------------------- hints
    #: a server's client process thinks for the asker on the server's cores: shorter there
    hint_max_think = SERVER_HINT_THINK

    def offers_hint(self) -> bool:
        """A table's creator may allow hints: the asker's own client process thinks on the
        player's view (no generator state: the search samples its own luck), and the hint is
        shown to the asker only, not written to the table's log (D-28)."""
        return bool(self.table.hints)

    # ---------------------------------------------------------------- the review
    def review_timeline(self) -> Timeline:
        """The game so far as this seat sees it, position by position, for the review (``v``):
        the server sends the actions, their events and the positions this client cannot work
        out from the one before (where chance or something hidden came in); every other
        position is the one before with the action applied.  Nothing not yet revealed is in it
        (D-33).  RuleError if the server cannot be asked."""
        if self.lost or self.client.closed.is_set():
            raise ServerSaid(LOST)
        from .review import fetch_timeline

        return fetch_timeline(lambda start: self._request(functools.partial(self._review, start)), self.codec)[0]

    def _review(self, start: int, ref: int) -> P.Review:
        return P.Review(table=self.table_id, ref=ref, start=start)

    @property
    def seat_view(self) -> int | None:
        """The seat whose view this connection sees (None: a spectator's)."""
        return self.seat if self.seat >= 0 else None

    # ---------------------------------------------------------------- taking back
    @property
    def offers_undo(self) -> bool:
        """A seated player may take back their own last decisions (the server says how far)."""
        return self.seat >= 0

    def undo_reach(self, seat: int | None = None) -> UndoReach:
        """How far this connection's seat may take back, as the server last said: only its own
        decisions since anyone else acted, never across chance (``core.undo.seat_undo_reach``)."""
        if self.seat < 0:
            return super().undo_reach(seat)
        if self.rules.is_over(self._state):
            return UndoReach(seat=self.seat, reason="the game is over", short="game over")
        r = self._reach
        if r is None or r.n != len(self._actions) or not 0 <= self.seat < len(r.seats):
            return UndoReach(seat=self.seat, reason="nothing to take back yet", short="nothing yet")
        mine = r.seats[self.seat]
        return UndoReach(seat=self.seat, targets=tuple(mine.targets), reason=mine.reason, short=mine.short)

    def undo(self, seat: int | None = None) -> UndoLine:
        """Ask the server to take back this seat's last decision; RuleError with its reason if
        it may not.  Every client (this one too) rewinds when ``Undone`` arrives."""
        if self.seat < 0:
            raise ServerSaid("spectators cannot take anything back")
        if self.lost or self.client.closed.is_set():
            raise ServerSaid(LOST)
        self.drain()
        at = len(self._actions)
        reply = self._request(lambda ref: P.Undo(table=self.table_id, seat=self.seat, count=1, ref=ref, at=at))
        if isinstance(reply, P.Error):
            raise refusal(reply)
        assert isinstance(reply, P.Ack)
        self.drain()  # the Undone came before the Ack on the same stream
        done = self._undone
        text = done.event.text if done is not None else ""
        n = done.n if done is not None else reply.n
        name = self.rules.names(self._state)[self.seat]
        return UndoLine(undo=n + 1, through=at, seat=self.seat, name=name, time=time.time(), text=text)

    # ---------------------------------------------------------------- rematch
    @property
    def offers_rematch(self) -> bool:
        """A player of a table's finished game may ask for a rematch (the others answer: D-76)."""
        return self.seat >= 0 and self.rules.is_over(self._state)

    def ask_rematch(self, accept: bool = True) -> None:
        """Ask for a rematch, or accept one (``accept`` False: decline)."""
        self._send_quietly(P.Rematch(table=self.table_id, accept=accept))

    # ---------------------------------------------------------------- composing out of turn
    def hold(self, reason: object) -> None:
        """A dialog for an action out of turn opened (the deal dialog): a bot's move waits for
        it (the server holds it while any seated player composes, for a while)."""
        first = not self._holds
        self._holds.add(reason)
        if first and self.seat >= 0:
            self._send_quietly(P.Composing(table=self.table_id, on=True))

    def release(self, reason: object) -> None:
        if reason not in self._holds:
            return  # (every dialog closing releases; only the deal dialog held)
        self._holds.discard(reason)
        if not self._holds and self.seat >= 0:
            self._send_quietly(P.Composing(table=self.table_id, on=False))

    def _send_quietly(self, msg: P._Msg) -> None:
        try:
            self._send(msg)
        except ServerSaid:  # the reader thread reports the lost connection
            pass

    # ---------------------------------------------------------------- incoming
    def _remember_loop(self) -> None:
        """The loop (and context) of the app that listens: the reader thread's news is drained
        there, in the app's context (a timer a listener sets runs; Textual's ``active_app``)."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._loop is not running:
            self._loop, self._context = running, contextvars.copy_context()
            running.call_soon(self.drain)  # what arrived before the loop was known

    def _post(self, msg: P._Msg | None) -> None:
        """Called on the reader thread (None: the connection is lost)."""
        if _TRACE is not None and isinstance(msg, P.Update):
            self._arrived[msg.n] = time.monotonic()
        self._inbox.put(msg)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self.drain, context=self._context)
            except RuntimeError:
                pass

    @staticmethod
    def _chat_event(c: P.ChatLine) -> Event:
        return Event(kind="chat", text=f"{c.name}: {c.text}", seat=c.seat)

    def drain(self, until: int = -1) -> list[Event]:
        """Take in what the server pushed; returns the events of the update reaching
        ``until`` actions (for ``submit``)."""
        mine: list[Event] = []
        while True:
            try:
                msg = self._inbox.get_nowait()
            except queue.Empty:
                break
            if msg is None:
                self.lost = True
                self._notify(self._state, [Event(kind="net", text="Connection to the server lost.")])
            elif isinstance(msg, P.Update):
                if msg.n <= len(self._actions):
                    continue  # already have it
                self._state = self.codec.state(msg.state)
                self._actions.extend(self.codec.actions(msg.actions))
                self._events.extend(msg.events)
                self.deadline, self.clock_seat = msg.deadline, msg.clock_seat
                if msg.n == until:
                    mine = list(msg.events)
                t1 = time.monotonic()
                self._notify(self._state, list(msg.events))
                if _TRACE is not None:
                    t0 = self._arrived.pop(msg.n, t1)
                    _TRACE.write(
                        f"{os.getpid()} {msg.n} queued {1000 * (t1 - t0):.1f} ms "
                        f"listeners {1000 * (time.monotonic() - t1):.1f} ms\n"
                    )
            elif isinstance(msg, P.Undone):
                self._rewind(msg)
            elif isinstance(msg, P.RematchState):
                for listen in list(self.rematch_listeners):
                    listen(msg)
            elif isinstance(msg, P.Reach):
                self._reach = msg
                self._notify(self._state, [])  # the undo key's count changes
            elif isinstance(msg, P.ChatLine):
                ev = self._chat_event(msg)
                self._events.append(ev)
                self._notify(self._state, [ev])
            elif isinstance(msg, P.Error):
                if msg.code == "moved":
                    self.seat = -1  # the server shows this connection a spectator's view from now
                ev = Event(kind="net", text=msg.message)
                self._events.append(ev)
                self._notify(self._state, [ev])
            elif isinstance(msg, P.TableChanged):
                mine_before = self.local_seats()
                self.table = msg.table
                self.deadline, self.clock_seat = msg.table.deadline, msg.table.clock_seat
                self.seats = tuple(Seat(kind=s.kind) for s in msg.table.seats)
                for fn in list(self._table_listeners):
                    fn(msg.table)
                if self.local_seats() != mine_before:
                    self._notify(self._state, [])  # e.g. autopilot off: the screen offers our move again
        return mine

    def _rewind(self, msg: P.Undone) -> None:
        """A seat took decisions back: back to ``msg.n`` actions, the withdrawn actions' events
        out of the log (talk stays), the note of what was taken back in."""
        if msg.n > len(self._actions):
            return  # (cannot happen on one ordered stream: nothing to go back from)
        del self._actions[msg.n :]
        drop, k = msg.dropped, len(self._events)
        while drop > 0 and k > 0:
            k -= 1
            if self._events[k].kind not in ("chat", "net"):
                del self._events[k]
                drop -= 1
        self._events.append(msg.event)
        self._state = self.codec.state(msg.state)
        self.deadline, self.clock_seat = msg.deadline, msg.clock_seat
        self._undone = msg
        self._notify(self._state, [msg.event])

    def _notify(self, state: Any, events: list[Event]) -> None:
        for fn in list(self._listeners):
            try:
                fn(state, events)
            except Exception:  # noqa: BLE001 - a widget's bug must not kill the session
                log.exception("listener failed")
