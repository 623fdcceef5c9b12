"""A table: one authoritative game held by the ``colosseum serve`` process.

Only the connection holding the seat named in an action may send it, and only when that seat
is to act (deal proposals and withdrawals from any seated player, as the engine allows,
``may_propose``).  The engine applies it; the action is appended and flushed to the table's
game log *before* it is acknowledged or broadcast; every connection at the table (players and
spectators) receives the resulting state as a player may see it (``player_view``: no seed, no
generator state).  Bots play bot seats, and after ``bot_timeout`` seconds they stand in for a
player whose connection dropped, until that player comes back (same identity -> same seat).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from colosseum.core.gamelog import UndoLine
from colosseum.core.games.colosseum import (
    Action,
    Event,
    GameSetup,
    RuleError,
    State,
    apply,
    may_propose,
    new_game,
    to_act,
)
from colosseum.core.games.colosseum.actions import EndTurn, ProposeDeal
from colosseum.core.games.colosseum.bots import BOTS, Bot, deal_offer, make_bot
from colosseum.core.games.colosseum.components import OPTIONS, VARIANTS
from colosseum.core.games.colosseum.offers import safe_action
from colosseum.core.games.colosseum.queries import ANY_SEAT_ACTIONS
from colosseum.core.games.colosseum.rules import RULES
from colosseum.core.games.colosseum.spec import SPEC
from colosseum.core.games.colosseum.view import player_view, setup_view
from colosseum.core.logwriter import LogWriter
from colosseum.core.rng import new_secret
from colosseum.core.undo import UndoReach, chance_in, seat_undo_reach, took_back_text

from . import gamelog_io
from . import protocol as P
from .names import clean_text

if TYPE_CHECKING:
    from .hub import TableServer

log = logging.getLogger("colosseum.net")

MAX_CHAT = 400
CHAT_BURST, CHAT_WINDOW = 8, 10.0  # chat lines per connection, per seconds
CHAT_KEPT = 200  # chat lines a table keeps in memory (the log has them all)
WRITE_BUFFER_LIMIT = 4 << 20  # a client this far behind is dropped


#: seconds a bot's trade turn stays open for offers from the humans at the table
TRADE_WINDOW = 4.0
#: seconds a player's open deal dialog holds a bot's trade turn at most (a silent or idle
#: client must not stall the table)
COMPOSE_CAP = 60.0
#: positions a table keeps for taking back (chance or another seat's move comes far sooner)
UNDO_KEEP = 64
#: seconds a decision has at least after it is taken back (the clock is not reset by undoing)
UNDO_MIN_LEFT = 15.0


def default_bot() -> str:
    """The level a bot plays an empty or absent seat at (the level players choose by name)."""
    return "normal" if "normal" in BOTS else "random"


class SeatMeta(msgspec.Struct, kw_only=True):
    kind: str  # 'human' or a bot name
    holder: str = ""  # identity of the human holding it
    name: str = ""  # holder's display name


#: names the bots at a table play under (as in a local game): a person tells "Kat" from
#: "Laura" at a glance, where "Normal bot" and "Normal bot 2" cut to the same few cells
BOT_NAMES = ("Kat", "Laura", "Marcus", "Titus", "Becky", "Aurelia", "Cassius", "Decima")


def seat_names(seats: list[SeatMeta]) -> list[str]:
    """The players' names for a game starting with ``seats``: each person's own name, each bot
    a name from ``BOT_NAMES`` no person at the table uses (case-insensitively), all unique."""
    taken = {s.name.strip().casefold() for s in seats if s.holder and s.name.strip()}
    pool = [n for n in BOT_NAMES if n.casefold() not in taken]
    names: list[str] = []
    for i, s in enumerate(seats):
        if s.holder:
            base = s.name.strip() or f"Player {i + 1}"
        else:
            base = pool.pop(0) if pool else f"Bot {i + 1}"
        name, k = base, 2
        while name.casefold() in {n.casefold() for n in names}:
            name, k = f"{base} {k}", k + 1
        names.append(name)
    return names


class TableMeta(msgspec.Struct, kw_only=True):
    id: str
    name: str
    variant: str
    options: list[str]
    allow_takeover: bool
    creator: str
    creator_name: str
    hints: bool = False  # players may ask the hard bot (a table's metadata from before reads as no)
    seats: list[SeatMeta]
    status: str = "waiting"  # waiting, playing, over
    seed: int | None = None
    created: float = 0.0
    game: str = "colosseum"  # a name of core.games.GAMES (host.muni_table holds Municipium's)


def bot_seed(setup: Any, seat: int) -> int:
    """The seed of the bot playing ``seat`` of a game of ``setup`` (None: not begun): from the
    game's secret where it has one, so that not even the bots' tie-breaks can be foreseen."""
    if setup is None:
        return seat
    if setup.secret:
        digest = hashlib.blake2b(f"bot {seat}".encode(), key=bytes.fromhex(setup.secret)[:64], digest_size=8)
        return int.from_bytes(digest.digest(), "little")
    return int(setup.seed) * 31 + seat


@dataclass(eq=False)
class Conn:
    """One client process's connection."""

    id: int
    writer: asyncio.StreamWriter
    player: str = ""
    name: str = ""
    tables: dict[str, int] = field(default_factory=dict)  # table id -> seat (-1 watching)
    closed: bool = False
    said: list[float] = field(default_factory=list)  # when its recent chat lines came

    def may_say(self, now: float) -> bool:
        """At most ``CHAT_BURST`` lines in ``CHAT_WINDOW`` seconds (chat is kept in memory and
        in the game log: a flood must not grow either)."""
        self.said = [t for t in self.said if now - t < CHAT_WINDOW]
        if len(self.said) >= CHAT_BURST:
            return False
        self.said.append(now)
        return True

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
            except (OSError, RuntimeError):  # pragma: no cover - a transport already torn down
                pass


class Table:
    """One game and everyone at it.  ``server`` (the hub) gives the data folder, the bot
    timings and ``save_meta``; the hub routes each request to the table it names."""

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
        self.bots: dict[int, Bot] = {}
        self.log: LogWriter | None = None
        self._bot_task: asyncio.Task[None] | None = None
        # the decision clock: the seat to act has until ``deadline`` (wall clock), then a bot
        # stands in for it, as for a dropped connection
        self.deadline = 0.0
        self.clock_seat = -1
        self._clock: asyncio.TimerHandle | None = None
        self._clock_n = -1
        # taking back: the recent positions (``_states[0]`` is after ``_base`` actions), whether
        # each action since was a person's decision, where each action's events start
        # (``_marks[k]``: events after k actions) and each decision's deadline
        self._states: list[State] = []
        self._base = 0
        self._by_person: list[bool] = []
        self._edge = ""
        self._marks: list[int] = [0]
        self._deadlines: dict[tuple[int, int], float] = {}
        # deal dialogs open: seat -> since (monotonic); bots that offered a deal: trade turn -> seats
        self.composing: dict[int, float] = {}
        self._compose_first: dict[int, tuple[tuple[int, int] | None, float]] = {}
        self._offered: dict[tuple[int, int], set[int]] = {}

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
            hints=m.hints,
            creator=m.creator_name,
            spectators=sum(1 for s in self.conns.values() if s < 0),
            actions=len(self.actions),
            deadline=self.deadline,
            clock_seat=self.clock_seat,
        )

    def seen_setup(self) -> GameSetup | None:
        """The setup as players may see it (no seed)."""
        return setup_view(self.setup) if self.setup is not None else None

    def seen_state(self) -> State | None:
        """The state as players may see it (``player_view``)."""
        return player_view(self.state) if self.state is not None else None

    def joined(self, seat: int) -> P.Joined:
        return P.Joined(
            table=self.info(),
            seat=seat,
            setup=self.seen_setup(),
            state=self.seen_state(),
            actions=list(self.actions),
            events=self.events[-600:],
            chat=self.chat[-100:],
        )

    def broadcast(self, msg: P._Msg) -> None:
        if not self.conns:
            return  # bots playing for nobody: nothing to encode
        frame = P.encode(msg)
        for c in list(self.conns):
            c.send_frame(frame)

    def changed(self) -> None:
        self.update_clock()
        if not self.conns:
            return
        self.broadcast(P.TableChanged(table=self.info(), setup=self.seen_setup(), state=self.seen_state()))

    def save_meta(self) -> None:
        self.server.save_meta(self.meta)

    # ---------------------------------------------------------------- a new table of this game
    #: a player's ``Joined`` carries the game itself (Municipium's follows it in a ``GameMsg``)
    JOINED_HAS_GAME = True

    @staticmethod
    def refusal(msg: P.CreateTable) -> str | None:
        """Why this game cannot have the table ``msg`` asks for (None: it can)."""
        if not 3 <= len(msg.seats) <= 5:
            return "a table has 3 to 5 seats"
        if any(k != "human" and k not in BOTS for k in msg.seats):
            return f"seat kinds are 'human' or a bot: {', '.join(sorted(BOTS))}"
        if msg.variant not in VARIANTS:
            return f"unknown variant {msg.variant!r}"
        if any(o not in OPTIONS for o in msg.options):
            return "unknown option"
        return None

    @staticmethod
    def meta_fields(msg: P.CreateTable) -> dict[str, Any]:
        """The game's own fields of the new table's ``TableMeta``."""
        return dict(variant=msg.variant, options=list(msg.options), allow_takeover=msg.allow_takeover, hints=msg.hints)

    # ---------------------------------------------------------------- seats
    def controller_is_bot(self, seat: int) -> bool:
        s = self.meta.seats[seat]
        return s.kind != "human" or not s.holder or seat in self.standin

    def bot_for(self, seat: int) -> Bot:
        kind = self.meta.seats[seat].kind
        name = kind if kind != "human" else default_bot()
        bot = self.bots.get(seat)
        if bot is None or getattr(bot, "name", name) != name:
            bot = make_bot(name, seed=bot_seed(self.setup, seat))
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
        self.server.maybe_forget(self)

    def left_seat(self, seat: int) -> None:
        self.present.pop(seat, None)
        self.composing.pop(seat, None)
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

    # ---------------------------------------------------------------- the decision clock
    def to_act(self) -> int:
        """The seat to act in the table's game (-1: none, or no game yet)."""
        return to_act(self.state) if self.state is not None else -1

    def update_clock(self) -> None:
        """Run the clock for the seat to act if a person plays it; a new decision (another
        seat, or another action) starts it again."""
        timeout = self.server.turn_timeout
        seat = self.to_act() if self.meta.status == "playing" else -1
        if seat < 0 or timeout <= 0 or self.controller_is_bot(seat):
            self.stop_clock()
            return
        if self._clock is not None and self.clock_seat == seat and self._clock_n == len(self.actions):
            return
        self.stop_clock()
        n = len(self.actions)
        self.clock_seat, self._clock_n = seat, n
        now = time.time()
        # a decision taken back keeps the time it had (with a little to think again)
        before = self._deadlines.get((seat, n))
        self.deadline = max(before, now + min(timeout, UNDO_MIN_LEFT)) if before else now + timeout
        self._deadlines[(seat, n)] = self.deadline
        self._clock = asyncio.get_running_loop().call_later(self.deadline - now, self._time_up, seat, n)

    def stop_clock(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
        self._clock = None
        self.deadline, self.clock_seat, self._clock_n = 0.0, -1, -1

    def _time_up(self, seat: int, n: int) -> None:
        self._clock = None
        if self.meta.status != "playing" or len(self.actions) != n or self.to_act() != seat:
            return
        if self.controller_is_bot(seat):
            return
        self.standin.add(seat)
        log.info("table %s: seat %d ran out of time, a bot stands in", self.id, seat)
        conn = self.present.get(seat)
        if conn is not None:
            conn.send(P.Error(message="Time is up: a bot plays your seat now (Ctrl+B: play it again).", code="clock"))
        self.changed()
        self.kick()

    def _stand_in(self, seat: int) -> None:
        self.timers.pop(seat, None)
        if seat in self.present or self.meta.status == "over":
            return
        self.standin.add(seat)
        log.info("table %s: a bot stands in for seat %d", self.id, seat)
        self.changed()
        self.kick()

    # ---------------------------------------------------------------- game
    def seat_the_game(self) -> tuple[list[str], int, str]:
        """At the start: bots for the human seats nobody took, the players' names, and the
        game's chance: a new secret from the operating system (``core.rng``: no player can
        predict a draw), or the seed the table was made with (servers that allow it: tests)."""
        m = self.meta
        for s in m.seats:
            if s.kind == "human" and not s.holder:
                s.kind = default_bot()
        if m.seed is None:
            return seat_names(m.seats), 0, new_secret()
        return seat_names(m.seats), m.seed, ""

    def start(self) -> None:
        m = self.meta
        names, seed, secret = self.seat_the_game()
        self.setup = SPEC.make_setup(names, seed=seed, secret=secret, variant=m.variant, options=tuple(m.options))
        self.state = new_game(self.setup)
        self._states, self._base, self._by_person, self._marks = [self.state], 0, [], [0]
        self.begin_play(self.setup, f"game starts ({', '.join(names)})")

    def begin_play(self, setup: GameSetup, started: str) -> None:
        """The game of ``setup`` has begun: its log (with the talk so far), the table playing,
        the bots on.  ``started``: the server log's words."""
        m = self.meta
        self.log = gamelog_io.create(self.log_path, setup, [s.kind for s in m.seats])
        for line in self.chat:
            self.log.append_chat(gamelog_io.chat_line(line, self.log.count))
        m.status = "playing"
        self.save_meta()
        log.info("table %s: %s", self.id, started)
        self.changed()
        self.kick()

    def restore(self) -> None:
        """Reload a started table from its game log."""
        loaded = gamelog_io.load(self.log_path)
        self.setup = loaded.setup
        state = new_game(loaded.setup)
        # the notes of what was taken back stand after the position they went back to
        notes: dict[int, list[UndoLine]] = {}
        for at, line in loaded.undos:
            for k in [k for k in notes if k > at]:
                del notes[k]
            notes.setdefault(at, []).append(line)

        def noted(st: State) -> None:
            for line in notes.get(len(self.actions), ()):
                self.events.append(Event(kind="undo", text=line.text, seat=line.seat, round=st.round, phase=st.phase))
            self._marks.append(len(self.events))

        self._marks = []
        noted(state)
        for a in loaded.actions:
            state, ev = apply(state, a)
            self.actions.append(a)
            self.events.extend(ev)
            noted(state)
        self.state = state
        # who decided the moves before the restart is not known: nothing before it is taken back
        self._states, self._base, self._by_person = [state], len(self.actions), []
        self._edge = "the server restarted since" if self.actions else ""
        self.restored(loaded, over=to_act(state) < 0)

    def restored(self, loaded: gamelog_io.Loaded, *, over: bool) -> None:
        """After a restart, the game replayed from ``loaded`` (``over``: it has ended): the talk,
        the log reopened to go on, every seated player away until they come back."""
        self.chat = [P.ChatLine(table=self.id, **c) for c in loaded.chat]
        if self.meta.status != "over":
            self.log = gamelog_io.reopen(self.log_path, loaded)
        if over and self.meta.status != "over":
            self.meta.status = "over"
            self.save_meta()
        for i, s in enumerate(self.meta.seats):
            if s.holder:
                self.absent_since[i] = time.monotonic()
                self.arm_timer(i)

    def commit(self, action: Action, *, by_person: bool = False) -> list[Event]:
        """Apply ``action`` (RuleError: nothing changed), log it durably, then broadcast.
        ``by_person``: a seated player sent it (a bot's move cannot be taken back)."""
        assert self.state is not None and self.log is not None
        before = self.state
        state, events = apply(before, action)
        # written and synced before anyone hears of it; the last action carries the end line
        self.log.append_action(action, final=to_act(state) < 0)
        self.state = state
        self.actions.append(action)
        self.events.extend(events)
        self._marks.append(len(self.events))
        self._remember(before, state, by_person)
        if to_act(state) < 0:
            self.meta.status = "over"
        self.update_clock()
        if self.conns:  # (nobody watching a table of bots: no view to make)
            self.broadcast(
                P.Update(
                    table=self.id,
                    n=len(self.actions),
                    actions=[action],
                    events=events,
                    state=player_view(state),
                    deadline=self.deadline,
                    clock_seat=self.clock_seat,
                )
            )
            self.broadcast_reach()
        if self.meta.status == "over":
            self.game_over()
        return events

    def game_over(self) -> None:
        """The last action is logged and sent: close the log (talk after the game is not
        recorded), stop the clocks, and hand the table to the finished games."""
        assert self.log is not None
        self.log.close()
        for t in self.timers.values():
            t.cancel()
        self.timers.clear()
        self.save_meta()
        log.info("table %s: game over", self.id)
        self.changed()
        self.server.finished(self)

    def close(self) -> None:
        """Stop everything the table runs (bots, timers, clock) and close its log."""
        if self._bot_task is not None:
            self._bot_task.cancel()
        for h in self.timers.values():
            h.cancel()
        self.timers.clear()
        self.stop_clock()
        if self.log is not None:
            self.log.close()

    def history(self) -> P.HistoryInfo:
        """This finished game as the history list shows it."""
        st = self.state
        winner = ""
        if st is not None and st.result is not None and 0 <= st.result.winner < len(st.players):
            winner = st.players[st.result.winner].name
        players = list(self.setup.players) if self.setup else [s.name or f"{s.kind} bot" for s in self.meta.seats]
        return P.HistoryInfo(
            id=self.id,
            name=self.meta.name,
            variant=self.meta.variant,
            players=players,
            winner=winner,
            ended=time.time(),
            actions=len(self.actions),
        )

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
        if type(a) in ANY_SEAT_ACTIONS:
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
            if seat < 0:
                return
            if not self.controller_is_bot(seat):
                if not await self._offer(delay):
                    return
                continue
            await asyncio.sleep(delay)
            if self.state is None or to_act(self.state) != seat or not self.controller_is_bot(seat):
                continue
            try:
                bot, before = self.bot_for(seat), self.state
                if getattr(bot, "thinks", False):  # the search bot: off the server's event loop
                    action = await asyncio.to_thread(bot.act, before)
                    if self.state is not before:
                        continue
                else:
                    action = bot.act(before)
                if await self._trade_window(seat, action):
                    continue  # someone proposed a deal meanwhile: the bot thinks again
                try:
                    self.commit(action)
                except RuleError:
                    self.commit(safe_action(self.state))  # a bot must never stall a table
            except Exception:  # noqa: BLE001 - a bot's bug must stop its table's bots, not the server
                log.exception("table %s: bot for seat %d failed", self.id, seat)
                return

    async def _offer(self, delay: float) -> bool:
        """A bot's deal for the person whose trade turn it is, after the bots' delay (so the
        person may still take back their last decision first).  True if one was proposed."""
        st = self.state
        if st is None or st.phase != "trade" or st.trade is None or st.trade.deal is not None:
            return False
        if self.controller_is_bot(st.trade.active) or not may_propose(st, st.trade.active):
            return False
        await asyncio.sleep(delay)
        if self.state is not st:
            return True  # the game moved on: look again
        deal = self.bot_offer()
        if deal is None:
            return False
        try:
            self.commit(deal)
        except RuleError:  # the valuation found a deal the rules refuse: no offer
            log.warning("table %s: seat %d's deal refused by the rules", self.id, deal.player)
            return False
        return True

    async def _trade_window(self, seat: int, action: Action) -> bool:
        """Before a bot ends its trade turn, give the humans at the table a moment to propose
        a deal (G-4: anyone may), and while one of them composes a deal, hold the bot's ending
        or its own offer.  True if the game moved on meanwhile."""
        # paced with the bots: fast tables (tests, bot-only play) hardly wait
        window = min(float(getattr(self.server, "trade_window", TRADE_WINDOW)), 20 * float(self.server.bot_delay))
        st = self.state
        if st is None or st.phase != "trade" or st.trade is None or st.trade.deal is not None:
            return False
        if isinstance(action, ProposeDeal):
            window = 0.0  # the bot's own offer waits only for a player composing one (it would displace it)
        elif not isinstance(action, EndTurn):
            return False
        if not any(not self.controller_is_bot(s) and s != seat and may_propose(st, s) for s in range(st.n)):
            return False
        if window <= 0 and not self.composers(seat):
            return False
        loop = asyncio.get_running_loop()
        end = loop.time() + window
        # while a player composes a deal the turn stays open (up to ``COMPOSE_CAP``)
        while self.state is st and (loop.time() < end or self.composers(seat)):
            await asyncio.sleep(0.05)
        return self.state is not st

    def say(self, conn: Conn, text: str) -> None:
        text = clean_text(text, MAX_CHAT)
        if not text:
            return
        seat = self.conns.get(conn, -1)
        line = P.ChatLine(table=self.id, name=conn.name, text=text, seat=seat, time=time.time())
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        if self.log is not None and not self.log.closed:
            try:
                self.log.append_chat(gamelog_io.chat_line(line, self.log.count))
            except OSError as err:  # chat is not worth stopping a table for; the moves are
                log.error("table %s: chat not saved: %s", self.id, err)
        self.broadcast(line)

    # ---------------------------------------------------------------- taking back
    def _remember(self, before: State, after: State, by_person: bool) -> None:
        """Keep the position after the action just committed, for taking back: only back to
        the last chance event (nothing before it can be taken back) and at most ``UNDO_KEEP``."""
        if chance_in(RULES, before, after):
            self._states, self._base, self._by_person = [before, after], len(self.actions) - 1, [by_person]
        else:
            self._states.append(after)
            self._by_person.append(by_person)
            if len(self._by_person) > UNDO_KEEP:
                del self._states[0], self._by_person[0]
                self._base += 1
                self._edge = "that is as far back as a table keeps"
        for key in [k for k in self._deadlines if k[1] < self._base]:
            del self._deadlines[key]

    def reach(self, seat: int) -> UndoReach:
        """How far ``seat`` may take back now: its own decisions since anyone else (person,
        bot or stand-in) acted, not across chance (``core.undo.seat_undo_reach``)."""
        if self.state is None or self.meta.status != "playing" or self.log is None:
            return UndoReach(seat=seat, reason="the game is over" if self.meta.status == "over" else "not started")
        if not self._states:  # (a table made without start or restore)
            return UndoReach(seat=seat, reason="nothing to take back yet", short="nothing yet")
        return seat_undo_reach(
            RULES, self._states, self.actions[self._base :], seat, self._by_person, start=self._base, edge=self._edge
        )

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
        if self.conns and self.state is not None:
            self.broadcast(self.reach_info())

    def undo(self, conn: Conn, msg: P.Undo) -> str | None:
        """Take back ``msg.count`` of the decisions of ``conn``'s seat: None, or the reason it
        is refused (nothing changed).  The undo line is written (and synced) before anyone
        hears of it; every connection at the table then receives ``Undone``."""
        seat = self.conns.get(conn)
        if seat is None:
            return "you are not at this table"
        if seat < 0 or self.present.get(seat) is not conn:
            return "spectators cannot take anything back"
        if self.meta.status != "playing" or self.state is None or self.log is None:
            return "the game is not running" if self.meta.status == "waiting" else "the game is over"
        if msg.seat != seat:
            return f"you hold seat {seat + 1}, not that seat"
        if msg.at >= 0 and msg.at != len(self.actions):
            return "the game moved on before your request arrived; look again"
        reach = self.reach(seat)
        if msg.count < 1:
            return "take back at least one decision"
        if not reach.targets:
            return reach.reason
        if msg.count > reach.steps:
            few = f"only {reach.steps} of your decisions can be taken back"
            return f"{few}: {reach.reason}" if reach.reason else few
        at, n = reach.targets[msg.count - 1], len(self.actions)
        name = self.state.players[seat].name
        decisions = [(self.actions[k], self.events[self._marks[k] : self._marks[k + 1]]) for k in range(at, n)]
        text = took_back_text(RULES, name, decisions)
        line = UndoLine(undo=at + 1, through=n, seat=seat, name=name, time=time.time(), text=text)
        self.log.append_undo(line)  # OSError: nothing was taken back
        state = self._states[at - self._base]
        dropped = len(self.events) - self._marks[at]
        del self.actions[at:], self.events[self._marks[at] :], self._marks[at + 1 :]
        del self._states[at - self._base + 1 :], self._by_person[at - self._base :]
        event = Event(kind="undo", text=text, seat=seat, round=state.round, phase=state.phase)
        self.events.append(event)
        self._marks[at] += 1
        self.state = state
        log.info("table %s: seat %d took back %d action(s) to %d", self.id, seat, n - at, at)
        self.update_clock()
        if self.conns:
            self.broadcast(
                P.Undone(
                    table=self.id,
                    n=at,
                    state=player_view(state),
                    seat=seat,
                    event=event,
                    dropped=dropped,
                    deadline=self.deadline,
                    clock_seat=self.clock_seat,
                )
            )
            self.broadcast_reach()
        return None

    # ---------------------------------------------------------------- offers
    def compose(self, conn: Conn, on: bool) -> str | None:
        """A seated player opened (``on``) or closed the deal dialog."""
        seat = self.conns.get(conn, -1)
        if seat < 0 or self.present.get(seat) is not conn:
            return "only a seated player composes deals"
        if on:
            # the cap counts from the first opening in this trade turn: closing and opening
            # the dialog again does not start it afresh
            st = self.state
            turn = (st.round, st.trade.active) if st is not None and st.trade is not None else None
            first = self._compose_first.get(seat)
            since = first[1] if first is not None and first[0] == turn and turn is not None else time.monotonic()
            self._compose_first[seat] = (turn, since)
            self.composing[seat] = since
        else:
            self.composing.pop(seat, None)
        return None

    def composers(self, active: int) -> list[int]:
        """Seats (other than ``active``) composing a deal now, while no deal is on the table;
        a dialog open longer than ``COMPOSE_CAP`` seconds holds nothing any more."""
        st = self.state
        if st is None or st.phase != "trade" or st.trade is None or st.trade.deal is not None:
            return []
        now = time.monotonic()
        cap = float(getattr(self.server, "compose_cap", COMPOSE_CAP))
        return [s for s, since in self.composing.items() if s != active and s in self.present and now - since < cap]

    def bot_offer(self) -> ProposeDeal | None:
        """A deal a bot offers the person whose trade turn it is, if a bot's valuation finds
        one (each bot at most once per trade turn); None otherwise."""
        st = self.state
        if st is None or st.phase != "trade" or st.trade is None or st.trade.deal is not None:
            return None
        active = st.trade.active
        if self.controller_is_bot(active) or active in self.composing or not may_propose(st, active):
            return None
        offered = self._offered.setdefault((st.round, active), set())
        if len(self._offered) > 4:  # only the current trade turn matters
            for key in [k for k in self._offered if k != (st.round, active)]:
                del self._offered[key]
        for seat in range(st.n):
            if seat == active or seat in offered or not self.controller_is_bot(seat):
                continue
            offered.add(seat)
            offer = deal_offer(self.bot_for(seat), st, seat)
            if offer is not None:
                return offer
        return None
