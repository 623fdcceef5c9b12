"""A table: one authoritative game of any game the program knows, held by ``colosseum serve``.

The game runs through its rules alone (``core.registry``: ``new_game``, ``apply``, ``to_act``,
``player_view``, the bots): nothing here names a game.  Only the connection holding the seat
named in an action may send it, and only when the rules let that seat act (``Rules.may_act``:
its turn, or an action out of turn such as a deal); the rules apply it; the action is appended
and synced to the table's game log *before* it is acknowledged or broadcast; every connection at
the table receives the resulting position as its seat may see it (``Rules.player_view(state,
seat)``; spectators: seat None): no seed, no secret, no generator state, nothing hidden.

The table's parts, each in its module: who sits where and the stand-ins (``seats``), the
decision clock (``clock``), the talk (``chat``), taking back (``takeback``), the game log
(``gamelog_io.TableLog``), the bots (``botplay``), what a seat could foresee and the review
(``seen``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.gamelog import UndoLine
from colosseum.core.options import SetupBase
from colosseum.core.registry import spec
from colosseum.core.rng import new_secret
from colosseum.core.undo import UndoReach, took_back_text

from . import protocol as P
from .botplay import BotPlay, Pace
from .chat import Chat, with_talk
from .clock import Clock
from .conn import Conn
from .finished import fork_position
from .gamelog_io import TableLog
from .limits import unsaved
from .meta import TableMeta, default_bot, seat_names, time_bank
from .results import SERVER_NAME, history_line, settle_rated
from .seats import Seats
from .seen import positions, seen_setup
from .takeback import Takebacks, undo_refusal
from .tempo import turn_seconds

log = logging.getLogger("colosseum.net")

NOT_STARTED = "The server could not save the game's start: the table waits (its creator can start it, Ctrl+S)."
EVENTS_SENT = 600  # events a joining client gets (its log panel); the game log has them all


class Server(Pace, Protocol):
    """What a table needs of the server holding it (``hub.TableServer``): the bots' timings
    and budget (``botplay.Pace``), and these."""

    @property
    def data(self) -> Path: ...
    @property
    def bot_timeout(self) -> float: ...
    @property
    def turn_timeout(self) -> float: ...

    def save_meta(self, meta: TableMeta) -> None: ...
    def finished(self, table: Table) -> None: ...
    def maybe_forget(self, table: Table) -> None: ...


class Table:
    """One game and everyone at it.  ``server`` gives the data folder, the timings and
    ``save_meta``; the hub routes each request to the table it names.  ValueError for a game
    this program does not know."""

    def __init__(self, server: Server, meta: TableMeta) -> None:
        self.server = server
        self.meta = meta
        self.spec = spec(meta.game)
        self.rules = self.spec.rules()
        self.setup: SetupBase | None = None
        self.state: Any = None
        self.record = TableLog(server.data / "games" / f"{meta.id}.jsonl")
        self.seats = Seats(meta)
        self.talk = Chat(meta.id)
        self.talk.at = lambda: len(self.actions)  # (0 while the table waits: before the first move)
        self.clock = Clock(self._time_up, bank=time_bank(meta), on_moved=self.changed)
        self.takebacks = Takebacks(self.rules)
        self.botplay = BotPlay(self, server)
        self.origin = ""  # the address its creator connected from (the per-address cap; memory only)

    # ---------------------------------------------------------------- what the parts hold
    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def log_path(self) -> Path:
        return self.record.path

    @property
    def log(self) -> Any:
        """The game log's writer (``core.logwriter.LogWriter``; None before the game)."""
        return self.record.writer

    @property
    def actions(self) -> list[Any]:
        return self.record.actions

    @property
    def events(self) -> list[Event]:
        return self.record.events

    @property
    def chat(self) -> list[P.ChatLine]:
        return self.talk.lines

    @property
    def conns(self) -> dict[Conn, int]:
        return self.seats.conns

    @property
    def present(self) -> dict[int, Conn]:
        return self.seats.present

    @property
    def standin(self) -> set[int]:
        return self.seats.standin

    @property
    def composing(self) -> dict[int, float]:
        return self.botplay.composing

    def composers(self, active: int) -> list[int]:
        return self.botplay.composers(active)

    @property
    def playing(self) -> bool:
        return self.meta.status == "playing" and self.state is not None

    def to_act(self) -> int:
        """The seat to act in the table's game (-1: none, or no game yet)."""
        return self.rules.to_act(self.state) if self.state is not None else -1

    # ---------------------------------------------------------------- views
    def info(self) -> P.TableInfo:
        m = self.meta
        names = self.rules.names(self.state) if self.state is not None else ()
        seats = [
            P.SeatInfo(
                kind=s.kind,
                name=s.name if s.holder else (names[i] if i < len(names) else ""),
                holder=bool(s.holder),
                present=i in self.seats.present,
                standin=i in self.seats.standin,
            )
            for i, s in enumerate(m.seats)
        ]
        return P.TableInfo(
            id=m.id,
            name=m.name,
            game=m.game,
            status=m.status,
            seats=seats,
            options=dict(m.options),
            edition=m.edition,
            progress=self.rules.progress(self.state) if self.state is not None else "",
            allow_takeover=m.allow_takeover,
            hints=m.hints,
            creator=m.creator_name,
            creator_seat=next((i for i, s in enumerate(m.seats) if s.holder and s.holder == m.creator), -1),
            spectators=self.seats.spectators(),
            actions=len(self.actions),
            deadline=self.clock.deadline,
            clock_seat=self.clock.seat,
            rated=m.rated,
            to_act=self.to_act() if m.status == "playing" else -1,
            code=m.code,
            banks=self.clock.banks(),
            turn_hours=m.turn_hours,
            decision_seconds=0.0 if m.bank or m.turn_hours else self.server.turn_timeout,
        )

    def view(self, seat: int | None) -> bytes:
        """The position as ``seat`` sees it, in the game's JSON (None: a spectator)."""
        return self.rules.encode(self.rules.player_view(self.state, seat))

    def seen_setup(self) -> bytes | None:
        return self.rules.encode(seen_setup(self.setup)) if self.setup is not None else None

    def joined(self, seat: int) -> P.Joined:
        started = self.state is not None
        return P.Joined(
            table=self.info(),
            seat=seat,
            setup=self.seen_setup(),
            state=self.view(seat if seat >= 0 else None) if started else None,
            actions=[self.rules.encode(a) for a in self.actions],
            # a game's talk is in its log, each line where it was said; a waiting table's apart
            events=with_talk(self.events, self.record.marks, self.talk.recent(), EVENTS_SENT) if started else [],
            chat=[] if started else self.talk.recent(),
        )

    def broadcast(self, msg: P._Msg) -> None:
        """A message that is the same for everyone at the table (encoded once)."""
        if not self.seats.conns:
            return  # bots playing for nobody: nothing to encode
        frame = P.encode(msg)
        for c in list(self.seats.conns):
            c.send_frame(frame)

    def broadcast_game(self, make: Callable[[bytes], P._Msg]) -> None:
        """A message holding the position: ``make(view)`` for each seat's view, encoded once
        for every connection that sees the same."""
        views: dict[int, bytes] = {}
        frames: dict[bytes, bytes] = {}
        for c, seat in list(self.seats.conns.items()):
            seat = seat if self.seats.present.get(seat) is c else -1
            view = views.get(seat)
            if view is None:
                view = views[seat] = self.view(seat if seat >= 0 else None)
            frame = frames.get(view)
            if frame is None:
                frame = frames[view] = P.encode(make(view))
            c.send_frame(frame)

    def changed(self) -> None:
        self.update_clock()
        if not self.seats.conns:
            return
        if self.state is None:
            self.broadcast(P.TableChanged(table=self.info()))
            return
        info, setup, n = self.info(), self.seen_setup(), len(self.actions)
        self.broadcast_game(lambda view: P.TableChanged(table=info, setup=setup, state=view, n=n))

    def save_meta(self) -> None:
        self.server.save_meta(self.meta)

    # ---------------------------------------------------------------- seats
    def controller_is_bot(self, seat: int) -> bool:
        return not self.seats.person_plays(seat)

    def bot_for(self, seat: int) -> Any:
        return self.botplay.bot_for(seat)

    def sit(self, conn: Conn, seat: int) -> str | None:
        """Seat ``conn``; None or the reason it is refused."""
        why = self.seats.refusal(conn, seat, to_act=self.to_act())
        if why is not None:
            return why
        taken_over = (
            self.state is not None and self.meta.seats[seat].kind != "human" and not self.meta.seats[seat].holder
        )
        self.seats.sit(conn, seat, self.id)
        self.save_meta()
        log.info("table %s: %s (%s) sits at seat %d", self.id, conn.name, conn.player[:20], seat)
        if taken_over:  # the game goes on under the seat's name: the talk says who plays it now
            self.announce(
                f"{conn.name} takes over seat {seat + 1} ({self.rules.names(self.state)[seat]}) from the bot."
            )
        if self.meta.status == "waiting" and self.seats.everyone_seated():
            try:
                self.start()
            except OSError as err:  # seated all the same; the table waits to be started again
                log.error("table %s: the game could not start: %s", self.id, err)
                self.broadcast(P.Error(message=NOT_STARTED, code="disk"))
        return None

    def announce(self, note: str) -> None:
        """The server's line in the table's talk (so in its log, and to whoever joins)."""
        if (line := self.talk.say(SERVER_NAME, -1, note)) is not None:
            self.broadcast(line)

    def watch(self, conn: Conn) -> None:
        seat = self.seats.watch(conn, self.id)
        if seat is not None:
            self.left_seat(seat)

    def drop(self, conn: Conn) -> None:
        seat = self.seats.drop(conn, self.id)
        if seat is not None:
            self.left_seat(seat)
        self.server.maybe_forget(self)

    def left_seat(self, seat: int) -> None:
        waiting = self.meta.status == "waiting"
        name, holder = self.meta.seats[seat].name, self.meta.seats[seat].holder
        self.seats.left(seat, waiting=waiting)
        self.botplay.left(seat)
        if waiting:  # nothing has been played yet: the seat is free again
            log.info("table %s: %s leaves seat %d", self.id, name, seat)
            self.seats.pass_creator(holder)
            self.save_meta()
        else:
            log.info("table %s: seat %d absent", self.id, seat)
            self.arm_timer(seat)
        self.changed()

    def arm_timer(self, seat: int) -> None:
        if self.meta.status != "over" and not self.meta.turn_hours:  # (turn-based: the table waits)
            self.seats.arm(seat, self.server.bot_timeout, self._stand_in)

    def _stand_in(self, seat: int) -> None:
        if seat in self.seats.present or self.meta.status == "over":
            return
        self.seats.standin.add(seat)
        log.info("table %s: a bot stands in for seat %d", self.id, seat)
        self.changed()
        self.kick()

    def autopilot(self, conn: Conn, on: bool) -> str | None:
        """The seated player lets a bot play their seat (``on``) or takes it back."""
        seat = self.seats.seat_of(conn)
        if seat is None or seat < 0:
            return "only a seated player can hand their seat to a bot"
        if on:
            self.seats.standin.add(seat)
        else:
            self.seats.standin.discard(seat)
        log.info("table %s: seat %d autopilot %s", self.id, seat, "on" if on else "off")
        self.changed()
        self.kick()
        return None

    # ---------------------------------------------------------------- the decision clock
    def update_clock(self) -> None:
        """Run the clock for the seat to act if a person plays it; a new decision (another
        seat, or another action) starts it again."""
        seat = self.to_act() if self.meta.status == "playing" else -1
        if seat >= 0 and self.controller_is_bot(seat):
            seat = -1
        timeout, new = turn_seconds(self.meta, len(self.actions)) if self.meta.turn_hours else (0.0, False)
        self.clock.run(seat, len(self.actions), timeout or self.server.turn_timeout)
        if new:  # a turn-based table's deadline survives a restart
            self.save_meta()

    def _time_up(self, seat: int, n: int) -> None:
        if self.meta.status != "playing" or len(self.actions) != n or self.to_act() != seat:
            return
        if self.controller_is_bot(seat):
            return
        self.seats.standin.add(seat)
        log.info("table %s: seat %d ran out of time, a bot stands in", self.id, seat)
        conn = self.seats.present.get(seat)
        if conn is not None:
            conn.send(P.Error(message="Time is up: a bot plays your seat now (Ctrl+B: play it again).", code="clock"))
        self.changed()
        self.kick()

    # ---------------------------------------------------------------- the game
    def start(self) -> None:
        """Every seat is taken (or the creator starts now): bots for the free seats, the
        players' names, the game's chance (a new secret from the operating system, or the seed
        the table was made with on a server that allows it: tests), and the game begins."""
        m = self.meta
        before = ([s.kind for s in m.seats], m.rated)
        try:
            self._begin()
        except OSError:  # not saved (a full disk; the database away): as before, to try again
            for s, kind in zip(m.seats, before[0], strict=True):
                s.kind = kind
            m.rated, self.setup, self.state = before[1], None, None
            self.record.abandon()
            raise
        m.status, m.started = "playing", time.time()
        self.save_meta()
        log.info("table %s: %s starts (%s)", self.id, self.spec.title, ", ".join(seat_names(m.seats)))
        self.changed()
        self.kick()

    def _begin(self) -> None:
        m = self.meta
        for s in m.seats:
            if s.kind == "human" and not s.holder:
                s.kind = default_bot(self.rules)
        names = seat_names(m.seats)
        seed, secret = (0, new_secret()) if m.seed is None else (m.seed, "")
        if m.fork_of:  # a fork: the parent's position, its log begun (host.finished)
            self.setup, self.state = fork_position(self)
        else:
            self.setup = self.spec.make_setup(names, seed=seed, secret=secret, **m.options)
            self.state = self.rules.new_game(self.setup)
        self.takebacks.begin(self.state, len(self.actions), edge="the game was forked here" if m.fork_of else "")
        unrated = settle_rated(m)  # said in the talk (so in the log, and to whoever joins)
        if unrated:
            self.announce(unrated)
        self.record.begin(self.setup, [s.kind for s in m.seats], self.talk.lines)

    def restore(self) -> None:
        """Reload a started table from its game log, after a restart: the game replayed, the
        log reopened to go on, the talk, every seated player away until they come back."""
        loaded, state = self.record.restore(self.rules)
        if loaded.rules is not None and loaded.rules.spec.name != self.spec.name:
            raise ValueError(f"table {self.id}: its log is of {loaded.rules.spec.name}, not {self.spec.name}")
        self.setup, self.state = loaded.setup, state
        n = len(self.actions)
        # who decided the moves before the restart is not known: nothing before it is taken back
        self.takebacks.begin(state, n, edge="the server restarted since" if n else "")
        self.talk.reload(P.ChatLine(table=self.id, **c) for c in loaded.chat)
        if self.rules.is_over(state) and self.meta.status != "over":
            self.meta.status = "over"
            self.save_meta()
        for seat in self.seats.away():
            self.arm_timer(seat)

    def commit(self, action: Any, *, by_person: bool = False) -> list[Event]:
        """Apply ``action`` (RuleError: nothing changed), log it durably (OSError: nothing
        changed), then broadcast.  ``by_person``: a seated player sent it (a bot's move cannot
        be taken back)."""
        assert self.state is not None
        before = self.state
        state, events = self.rules.apply(before, action)
        over = self.rules.to_act(state) < 0
        self.record.append(action, events, final=over)  # written and synced before anyone hears of it
        self.state = state
        n = len(self.actions)
        self.takebacks.remember(before, action, state, n, by_person=by_person)
        self.clock.forget_before(self.takebacks.base)
        if over:
            self.meta.status = "over"
        self.update_clock()
        if self.seats.conns:  # (nobody watching a table of bots: no view to make)
            packed = [self.rules.encode(action)]
            deadline, clock_seat = self.clock.deadline, self.clock.seat
            self.broadcast_game(
                lambda view: P.Update(
                    table=self.id,
                    n=n,
                    actions=packed,
                    events=events,
                    state=view,
                    deadline=deadline,
                    clock_seat=clock_seat,
                )
            )
            self.broadcast_reach()
        if over:
            self.game_over()
        return events

    def game_over(self) -> None:
        """The last action is logged and sent: close the log (talk after the game is not
        recorded), stop the clocks, and hand the table to the finished games."""
        self.record.close()
        self.seats.stop()
        self.save_meta()
        log.info("table %s: game over", self.id)
        self.changed()
        self.server.finished(self)

    def close(self) -> None:
        """Stop everything the table runs (bots, timers, clock) and close its log."""
        self.botplay.stop()
        self.seats.stop()
        self.clock.stop()
        self.record.close()

    def kick(self) -> None:
        self.botplay.kick()

    def history(self) -> P.HistoryInfo:
        return history_line(self)  # this finished game as the history list shows it

    # ---------------------------------------------------------------- a connection's requests
    def act(self, conn: Conn, msg: P.Act) -> P.Error | None:
        """A player's action: decoded with the game's types, checked, committed (None), or the
        refusal."""
        try:
            action = self.rules.decode_action(msg.action)
        except (msgspec.DecodeError, ValueError) as err:
            return P.Error(message=f"not an action of {self.spec.title}: {err}", code="malformed", ref=msg.ref)
        why = self.check_act(conn, action, msg.at)
        if why is not None:
            return P.Error(message=why, ref=msg.ref)
        try:
            self.commit(action, by_person=True)
        except RuleError as err:
            return P.Error(message=err.detail, code="rule", rule=err.rule, ref=msg.ref)
        except OSError as err:  # the move could not be saved, so it did not happen
            log.error("table %s: game log not written: %s", self.id, err)
            return P.Error(message=unsaved(err, "that move"), ref=msg.ref)
        return None

    def check_act(self, conn: Conn, action: Any, at: int) -> str | None:
        """None if ``conn`` may send ``action`` now, else the reason it may not."""
        seat = self.seats.seat_of(conn)
        if seat is None:
            return "you are not at this table"
        if seat < 0:
            return "spectators cannot act"
        if not self.playing:
            return "the game is not running" if self.meta.status == "waiting" else "the game is over"
        player = getattr(action, "player", None)
        if player != seat:
            return f"you hold seat {seat + 1}, not seat {player + 1 if isinstance(player, int) else '?'}"
        if at >= 0 and at != len(self.actions):
            return "the game moved on before your action arrived; look again"
        if self.rules.may_act(self.state, seat, action):
            return None
        actor = self.to_act()
        if actor < 0:
            return "nobody is to act"
        return f"it is {self.rules.names(self.state)[actor]}'s turn, not yours"

    def say(self, conn: Conn, text: str) -> None:
        line = self.talk.say(conn.name, self.conns.get(conn, -1), text)
        if line is None:
            return
        try:
            self.record.chat(line)
        except OSError as err:  # chat is not worth stopping a table for; the moves are
            log.error("table %s: chat not saved: %s", self.id, err)
        self.broadcast(line)

    def review(self, conn: Conn, msg: P.Review) -> P.Positions | str:
        """The game so far as ``conn``'s seat sees it (``Positions``), or why not."""
        seat = self.seats.seat_of(conn)
        if seat is None:
            return "you are not at this table"
        if self.setup is None:
            return "the game has not started"
        return positions(
            self.rules,
            self.setup,
            self.actions,
            self.record.events_of,
            seat if seat >= 0 else None,
            table=self.id,
            start=msg.start,
            ref=msg.ref,
            reseed=(self.meta.fork_at, self.meta.reseed) if self.meta.reseed is not None else None,
        )

    # ---------------------------------------------------------------- taking back
    def reach(self, seat: int) -> UndoReach:
        """How far ``seat`` may take back now: its own decisions since anyone else (person,
        bot or stand-in) acted, not across chance or anything hidden that came to light."""
        if not self.playing or not self.record.open:
            return UndoReach(seat=seat, reason="the game is over" if self.meta.status == "over" else "not started")
        return self.takebacks.reach(seat, self.actions)

    def reach_info(self) -> P.Reach:
        seats = []
        for i, s in enumerate(self.meta.seats):
            if s.holder:
                r = self.reach(i)
                seats.append(P.SeatReach(targets=list(r.targets), reason=r.reason, short=r.short))
            else:
                seats.append(P.SeatReach())
        return P.Reach(table=self.id, n=len(self.actions), seats=seats)

    def broadcast_reach(self) -> None:
        """After each change of a game people play (a table of bots has nothing to take back)."""
        if self.seats.conns and self.state is not None and any(s.holder for s in self.meta.seats):
            self.broadcast(self.reach_info())

    def undo(self, conn: Conn, msg: P.Undo) -> str | None:
        """Take back ``msg.count`` of the decisions of ``conn``'s seat: None, or the reason it
        is refused (nothing changed).  The undo line is written (and synced) before anyone
        hears of it; every connection at the table then receives ``Undone``."""
        seat = self.seats.seat_of(conn)
        if (why := undo_refusal(self, seat, msg)) is not None or seat is None:
            return why  # (a seat of None is always refused)
        reach = self.reach(seat)
        at, n = reach.targets[msg.count - 1], len(self.actions)
        name = self.rules.names(self.state)[seat]
        decisions = [(self.actions[k], self.record.events_of(k)) for k in range(at, n)]
        text = took_back_text(self.rules, name, decisions)
        line = UndoLine(undo=at + 1, through=n, seat=seat, name=name, time=time.time(), text=text)
        dropped, note = self.record.take_back(at, line)  # OSError: nothing was taken back
        self.state = self.takebacks.position(at)
        self.takebacks.rewind(at)
        log.info("table %s: seat %d took back %d action(s) to %d", self.id, seat, n - at, at)
        self.update_clock()
        if self.seats.conns:
            deadline, clock_seat = self.clock.deadline, self.clock.seat
            self.broadcast_game(
                lambda view: P.Undone(
                    table=self.id,
                    n=at,
                    state=view,
                    seat=seat,
                    event=note,
                    dropped=dropped,
                    deadline=deadline,
                    clock_seat=clock_seat,
                )
            )
            self.broadcast_reach()
        return None

    def compose(self, conn: Conn, on: bool) -> str | None:
        """A seated player opened (``on``) or closed a dialog for an action out of turn."""
        seat = self.seats.seat_of(conn)
        if seat is None or seat < 0:
            return "only a seated player composes deals"
        self.botplay.compose(seat, on)
        return None
