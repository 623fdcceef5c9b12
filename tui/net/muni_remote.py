"""A Municipium table's game in a networked client: ``MuniRemoteSession`` (the session the
Municipium game screen reads, held by the server) and ``MuniNetScreen`` (that screen with the
table's keys: leave, talk, let a bot play).

The server sends Municipium's game in ``protocol.GameMsg`` (``host.muni_wire``).
:func:`attach` makes a :class:`~colosseum.tui.net.remote.RemoteClient` hand those to the table's
session (and keep the latest ``MuniGame`` of each table, which may arrive before the ``Joined``
that asked for it); everything else takes the client's usual way.  Chat lines, table changes and
the clock's warnings reach the session as a Colosseum ``RemoteSession`` gets them.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

import msgspec
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Input

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.games.municipium import MuniAction, MuniSetup, State
from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM
from colosseum.tui.game_session import Seat
from colosseum.tui.municipium.screen import MuniGameScreen

from .host import muni_wire as W
from .host import protocol as P
from .remote import RemoteClient, TableLink

log = logging.getLogger("colosseum.net.client")

Listener = Callable[[State, list[Event]], None]
GAME_WAIT = 5.0  # seconds a join waits for its table's game to arrive


def attach(client: RemoteClient) -> None:
    """Route ``GameMsg`` to Municipium sessions (once per client; the reader thread calls the
    route, so this is in place before any table is joined)."""
    if getattr(client, "muni_games", None) is not None:
        return
    games: dict[str, W.MuniGame] = {}
    arrived = threading.Condition()
    client.muni_games = games  # type: ignore[attr-defined]
    client.muni_arrived = arrived  # type: ignore[attr-defined]
    route = client._route

    def muni_route(msg: P._Msg) -> None:
        if not isinstance(msg, P.GameMsg):
            route(msg)
            return
        try:
            body = W.decode(msg.body)
        except msgspec.DecodeError as err:
            log.warning("table %s: unreadable game message: %s", msg.table, err)
            return
        if isinstance(body, W.MuniGame):
            with arrived:
                games[msg.table] = body
                arrived.notify_all()
        session = client.sessions.get(msg.table)
        if isinstance(session, MuniRemoteSession):
            session._post(body)

    client._route = muni_route  # type: ignore[method-assign]


def wait_game(client: RemoteClient, table: str, timeout: float = GAME_WAIT) -> W.MuniGame | None:
    """The latest ``MuniGame`` of ``table`` (waiting up to ``timeout`` for the first)."""
    games: dict[str, W.MuniGame] = client.muni_games  # type: ignore[attr-defined]
    arrived: threading.Condition = client.muni_arrived  # type: ignore[attr-defined]
    with arrived:
        arrived.wait_for(lambda: table in games or client.closed.is_set(), timeout)
        return games.get(table)


class MuniRemoteSession(TableLink):
    """A table's Municipium game, held by the server.  ``submit`` sends the action and waits
    for the server's answer: the new state (pushed to every client) or a RuleError with the
    server's message.  Chat lines arrive as events of kind ``"chat"``."""

    def __init__(self, client: RemoteClient, joined: P.Joined, game: W.MuniGame) -> None:
        self.client = client
        self.table = joined.table
        self.table_id = joined.table.id
        self.seat = joined.seat
        self.setup: MuniSetup = game.setup
        self.seats = tuple(Seat(kind=s.kind) for s in joined.table.seats)
        self._state: State = game.state
        self._actions: list[MuniAction] = list(game.actions)
        self._events: list[Event] = list(game.events)
        for c in joined.chat:
            self._events.append(self._chat_event(c))
        self._listeners: list[Listener] = []
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.lost = False
        self.deadline = joined.table.deadline
        self.clock_seat = joined.table.clock_seat
        client.sessions[self.table_id] = self  # type: ignore[assignment]  # chat, table changes, the end

    def waiting_for(self) -> int:
        return MUNICIPIUM.to_act(self._state)

    # ---------------------------------------------------------------- acting
    def submit(self, action: MuniAction) -> list[Event]:
        self._may_act()
        self.drain()
        body = W.encode(W.MuniAct(action=action, at=len(self._actions)))
        reply = self._request(lambda ref: P.GameMsg(table=self.table_id, body=body, ref=ref))
        if isinstance(reply, P.Error):
            raise RuleError(reply.rule or "G-0", reply.message)
        return self.drain(until=reply.n)  # the update for it came before the Ack

    # ---------------------------------------------------------------- incoming
    def drain(self, until: int = -1) -> list[Event]:
        mine: list[Event] = []
        while True:
            try:
                msg = self._inbox.get_nowait()
            except queue.Empty:
                break
            if msg is None:
                self.lost = True
                self._notify([Event(kind="net", text="Connection to the server lost.")])
            elif isinstance(msg, W.MuniUpdate):
                if msg.n <= len(self._actions):
                    continue
                self._state = msg.state
                self._actions.extend(msg.actions)
                self._events.extend(msg.events)
                self.deadline, self.clock_seat = msg.deadline, msg.clock_seat
                if msg.n == until:
                    mine = list(msg.events)
                self._notify(list(msg.events))
            elif isinstance(msg, W.MuniGame):
                if len(msg.actions) > len(self._actions):  # (a reload: the whole game again)
                    self._state, self._actions, self._events = msg.state, list(msg.actions), list(msg.events)
                    self._notify([])
            elif isinstance(msg, P.ChatLine):
                ev = self._chat_event(msg)
                self._events.append(ev)
                self._notify([ev])
            elif isinstance(msg, P.Error):
                ev = Event(kind="net", text=msg.message)
                self._events.append(ev)
                self._notify([ev])
            elif isinstance(msg, P.TableChanged):
                before = self.local_seats()
                self.table = msg.table
                self.deadline, self.clock_seat = msg.table.deadline, msg.table.clock_seat
                self.seats = tuple(Seat(kind=s.kind) for s in msg.table.seats)
                if self.local_seats() != before:
                    self._notify([])
        return mine

    def _notify(self, events: list[Event]) -> None:
        for fn in list(self._listeners):
            try:
                fn(self._state, events)
            except Exception:  # noqa: BLE001 - a widget's bug must not kill the session
                log.exception("listener failed")


class SayScreen(ModalScreen[None]):
    """One line to the table (Enter sends, Escape cancels); shown as plain text to everyone."""

    BINDINGS = [Binding("escape", "dismiss", "Cancel", id="muninet.say-cancel")]
    # box drawing, not Input's block-element borders
    DEFAULT_CSS = (
        "SayScreen { align: center bottom; } "
        "SayScreen Input, SayScreen Input:focus { width: 80%; margin-bottom: 2; border: round $accent; }"
    )

    def __init__(self, session: MuniRemoteSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield Input(placeholder="say to the table (Enter to send, Escape to cancel)", max_length=300)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.session.say(event.value.strip())
        self.dismiss()


class MuniNetScreen(MuniGameScreen):
    """The Municipium game screen at a server's table: Ctrl+T talks to the table, Ctrl+L
    leaves it (back to the lobby), Ctrl+B lets a bot play the seat (or takes it back); the
    table's clock stands under the board."""

    BINDINGS = [
        Binding("ctrl+t", "say", "Talk", id="muninet.say"),
        Binding("ctrl+l", "leave_table", "Leave", id="muninet.leave"),
        Binding("ctrl+b", "autopilot", "Bot plays", id="muninet.autopilot"),
    ]

    def __init__(self, session: MuniRemoteSession, **kw: Any) -> None:
        super().__init__(session, bot_delay=0.0, **kw)
        self.remote = session
        self._clock_shown: str | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._clock_tick)

    def _clock_tick(self) -> None:
        """The seconds left to the seat to act, in the board's bottom border (a name is Text,
        never markup); set only when it changes, since a border title repaints its panel."""
        left = self.remote.time_left()
        seat = self.remote.clock_seat
        st = self.remote.state
        shown: Text | None = None
        if left is not None and 0 <= seat < len(st.players):
            who = "you" if seat == self.remote.seat and not self.remote.autopilot else st.players[seat].name
            shown = Text(f" clock: {who} {max(0, int(left))} s ")
        if (shown.plain if shown else None) == self._clock_shown:
            return
        try:
            board = self.query_one("#board")
        except NoMatches:
            return
        board.border_subtitle = shown
        self._clock_shown = shown.plain if shown else None

    def action_say(self) -> None:
        self.app.push_screen(SayScreen(self.remote))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "autopilot":
            return self.remote.seat >= 0
        return super().check_action(action, parameters)

    def action_autopilot(self) -> None:
        on = not self.remote.autopilot
        self.remote.set_autopilot(on)
        self.notify("A bot plays your seat (Ctrl+B: play it again)." if on else "You play your seat again.")

    def action_leave_table(self) -> None:
        self.remote.leave()
        self.app.pop_screen()

    def _game_over(self) -> None:
        if not self._end_shown:
            self._end_shown = True
            self.action_end_screen()  # (never exits the lobby's app)
