"""The lobby of a networked client: list tables, create one, join a seat, watch a game.

``LobbyApp(client).run()`` leaves ``app.result`` set to the ``Joined`` of a table whose game
has started (the caller then opens the game on ``client.session_for(result)``), or None when
the player quits.  Keyboard only: arrows to choose, Enter to join, s to watch (spectate), n for
a new table, r to refresh, ] and [ for the next or previous page of tables (PgDn/PgUp scroll the
page shown), h for the finished games, L for the leaderboard (and players' profiles), w for a
one-time link that signs a browser in (a server with ``--web``), q to quit.

Everything a user typed (player names, table names, chat) is shown as plain text (``Text``),
never read as markup: ``[/]`` as a table name is just three characters.
"""

from __future__ import annotations

import asyncio
import functools
import signal
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist

from colosseum.tui.base import BaseApp, exit_soon_after_hangup
from colosseum.tui.plain import Label, OptionList, Static
from colosseum.tui.widgets.keybar import KeyBar

from .entering import EnteringMixin
from .host import protocol as P
from .host.proto_client import NetError
from .invite import CodeScreen
from .newtable import CreateTable
from .ranks import LeaderboardScreen, WebLinkScreen
from .remote import RemoteClient
from .remote_app import RemoteAppMixin
from .waiting import WaitingScreen, game_text

if TYPE_CHECKING:
    from colosseum.tui.viewer import ViewerScreen


def seats_text(t: P.TableInfo) -> str:
    parts = []
    for s in t.seats:
        if s.kind == "human" and not s.holder:
            parts.append("(free)")
        elif s.holder:
            mark = "" if s.present else ("*" if not s.standin else "+bot")
            parts.append(f"{s.name}{mark}")
        else:
            parts.append(f"[{s.kind}]")
    return ", ".join(parts)


def free_seats(t: P.TableInfo) -> list[int]:
    if t.status != "waiting":
        return []
    return [i for i, s in enumerate(t.seats) if s.kind == "human" and not s.holder]


class LobbyScreen(Screen[None]):
    #: what leaves the key bar first when it does not fit (the two lines above it name every key)
    KEYBAR_SPARE = ("refresh", "mine", "code", "web_link", "account", "leaderboard", "history")
    BINDINGS = [
        Binding("enter", "join", "Join", show=True),
        Binding("j", "join", "Join", show=False),
        Binding("s", "watch", "Watch"),
        # (priority: handled before the next key is passed on, so that what is typed right
        # after it goes to the form's first field, not to the lobby underneath)
        Binding("n", "new", "New table", priority=True),
        Binding("r", "refresh", "Refresh"),
        Binding("h", "history", "Finished"),
        Binding("h", "live", "Live tables"),  # (the same key, back from the finished games)
        Binding("m", "mine", "Mine/all"),
        Binding("i", "code", "Code", priority=True),
        Binding("L", "leaderboard", "Leaderboard"),
        Binding("a", "account", "Account"),
        Binding("w", "web_link", "Web link"),
        Binding("right_square_bracket", "page(1)", "Next page", key_display="]", show=False),
        Binding("left_square_bracket", "page(-1)", "Prev page", key_display="[", show=False),
        Binding("q", "quit_lobby", "Quit"),
    ]
    LIVE_COLUMNS = ("Table", "Name", "Game", "Status", "Players", "Free", "Watching", "Progress", "Options")
    HISTORY_COLUMNS = ("Table", "Name", "Game", "Players", "Winner", "Moves", "Ended", "Options")

    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    #title { height: 3; content-align: left middle; padding: 0 1; text-style: bold; }
    #tables { height: 1fr; }
    #hint { height: 2; padding: 0 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        app = cast("LobbyApp", self.app)
        yield Static(Text(f"Lobby - you are {app.client.name}"), id="title")
        table: DataTable[Text] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.add_columns(*self.LIVE_COLUMNS)
        yield table
        yield Static(Text(self.HINT), id="hint")
        yield KeyBar()  # ASCII only (Textual's Footer draws an ambiguous-width bar)

    HINT = (
        "Enter join | s watch | n new | h finished | L ratings | w web link | q quit\n"
        "i a private table's code | a account | ] [ pages   (* away, +bot: a bot plays)"
    )
    HISTORY_HINT = "Enter review (f there: play from a position) | m mine/all | h live tables | q quit\n] [ pages"

    page_offset = 0
    history = False
    mine = False  # the finished games: only mine
    your_move: frozenset[str] = frozenset()  # the tables where it is my move, last heard
    total = 0
    _shown: bytes | None = None

    def on_mount(self) -> None:
        self.tables: dict[str, P.TableInfo] = {}
        self.finished: dict[str, P.HistoryInfo] = {}
        self.action_refresh()
        self.set_interval(2.0, self.action_refresh)
        self.query_one(DataTable).focus()

    def action_page(self, step: int) -> None:
        offset = max(0, self.page_offset + step * P.PAGE_MAX)
        if offset >= self.total and step > 0:
            return
        self.page_offset = offset
        self.action_refresh()

    def action_history(self) -> None:
        """The finished games (their logs stay on the server), or back to the live tables."""
        self.history = not self.history
        self.page_offset = 0
        self.query_one("#hint", Static).update(Text(self.HISTORY_HINT if self.history else self.HINT))
        dt = self.query_one(DataTable)
        dt.clear(columns=True)
        dt.add_columns(*(self.HISTORY_COLUMNS if self.history else self.LIVE_COLUMNS))
        self._shown = None
        self.refresh_bindings()  # the live tables' keys (check_action) leave the bar, or come back
        self.action_refresh()

    def action_live(self) -> None:
        """Back from the finished games to the live tables."""
        if self.history:
            self.action_history()

    def action_mine(self) -> None:
        """The finished games: only mine, or everyone's."""
        if not self.history:
            self.mine = True
            self.action_history()
        else:
            self.mine = not self.mine
            self.page_offset = 0
            self._shown = None
            self.action_refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("watch", "new", "leaderboard") and self.history:
            return None  # shown dimmed: keys of the live tables
        if action == "history":
            return not self.history
        if action == "live":
            return self.history
        return True

    going_said = ""  # a request of a table under way, said under the title
    pager_shown = 0

    def _show_pager(self, shown: int) -> None:
        app = cast("LobbyApp", self.app)
        self.pager_shown = shown
        what = ("my finished games" if self.mine else "finished games") if self.history else "tables"
        one = what[:-1] if self.total == 1 else what  # "1-1 of 1 table"
        where = f"{self.page_offset + 1}-{self.page_offset + shown} of {self.total} {one}" if shown else f"no {what}"
        moves = len(self.your_move)
        turn = f"Your move at {moves} table{'s' if moves != 1 else ''}.  " if moves else ""
        going = f"\n{self.going_said}" if self.going_said else ""
        self.query_one("#title", Static).update(Text(f"{turn}Lobby - you are {app.client.name}   [{where}]{going}"))

    def _heard_your_move(self, tables: list[str]) -> None:
        """Where it is my move now; the bell when it became my move at another table."""
        now = frozenset(tables)
        new = now - self.your_move
        if new and self._shown is not None:  # (not at the first look: that is the title's line)
            self.app.bell()
            self.notify(f"Your move at table {sorted(new)[0]}.", markup=False, timeout=6)
        if now != self.your_move:
            self._shown = None  # the title says it
        self.your_move = now

    def action_refresh(self) -> None:
        app = cast("LobbyApp", self.app)
        try:
            page = app.client.list_page(self.page_offset, history=self.history, mine=self.mine)
        except NetError as exc:
            if app.client.closed.is_set():
                app.exit()  # the server is gone: nothing to do here
                return
            self.notify(str(exc), severity="error", markup=False)
            return
        if page.offset and not (page.tables or page.history):
            self.page_offset = max(0, page.total - 1) // P.PAGE_MAX * P.PAGE_MAX  # the list shrank
            return
        self.total = page.total
        if not self.history:
            app.held = {tid: seat for tid, seat in app.client_held}
            self._heard_your_move(page.your_move)
        import msgspec

        sig = msgspec.msgpack.encode([page, sorted(app.held.items())])
        if sig == self._shown:
            return  # nothing changed: no redraw
        self._shown = sig
        dt = self.query_one(DataTable)
        keep = dt.cursor_row
        dt.clear()
        if self.history:
            self._show_history(dt, page.history, keep)
            return
        # the server's order (waiting tables first, oldest first); an id said twice shown once
        firsts: dict[str, P.TableInfo] = {}
        order = [firsts.setdefault(t.id, t) for t in page.tables if t.id not in firsts]
        for t in order:
            status = t.status
            if t.id in app.held:
                status += " (your seat)"
            # Text, not str: a DataTable reads a str as markup, and names are the players' own
            cells = (
                t.id,
                t.name,
                game_text(t.game, ""),
                status,
                seats_text(t),
                str(len(free_seats(t))),
                str(t.spectators),
                t.progress,
                ", ".join(
                    x
                    for x in (
                        "private" if t.code else "",
                        f"{t.turn_hours:g} h a move" if t.turn_hours else ("time bank" if t.banks else ""),
                        "rated" if t.rated else "",
                        t.edition,
                        "hints" if t.hints else "",
                    )
                    if x
                ),
            )
            dt.add_row(*(Text(c) for c in cells), key=t.id)
        if order:
            dt.move_cursor(row=min(max(keep, 0), len(order) - 1))
        self.tables = {t.id: t for t in order}
        self._show_pager(len(order))

    def _show_history(self, dt: DataTable[Text], said: list[P.HistoryInfo], keep: int) -> None:
        import time

        firsts: dict[str, P.HistoryInfo] = {}
        games = [firsts.setdefault(g.id, g) for g in said if g.id not in firsts]  # an id said twice: once
        for g in games:
            cells = (
                g.id,
                g.name,
                game_text(g.game, ""),
                ", ".join(g.players),
                g.winner,
                str(g.actions or ""),
                time.strftime("%Y-%m-%d %H:%M", time.localtime(g.ended)) if g.ended else "",
                g.edition,
            )
            dt.add_row(*(Text(c) for c in cells), key=g.id)
        if games:
            dt.move_cursor(row=min(max(keep, 0), len(games) - 1))
        self.tables = {}
        self.finished = {g.id: g for g in games}
        self._show_pager(len(games))

    def _cursor_key(self) -> str | None:
        dt = self.query_one(DataTable)
        if dt.row_count == 0:
            return None
        try:
            key = dt.coordinate_to_cell_key(dt.cursor_coordinate).row_key.value
        except CellDoesNotExist:
            return None
        return key if isinstance(key, str) else None

    def selected(self) -> P.TableInfo | None:
        key = self._cursor_key()
        return self.tables.get(key) if key is not None else None

    def action_join(self) -> None:
        app = cast("LobbyApp", self.app)
        if self.history:
            game = self.finished.get(self._cursor_key() or "")
            if game is not None:
                app.review(game.id, game.game, game.name)
            return
        t = self.selected()
        if t is None:
            self.notify("No table chosen: press n to create one.")
            return
        if t.id in app.held:
            app.enter(lambda: app.client.join(t.id, app.held[t.id]), table=t.id)
            return
        free = free_seats(t)
        if free:
            app.enter(lambda: app.client.join(t.id, free[0]), table=t.id)
            return
        if t.allow_takeover and t.status == "playing":
            bots = [i for i, s in enumerate(t.seats) if s.kind != "human" and not s.holder]
            if bots:
                self.app.push_screen(SeatPicker(t, bots))
                return
        self.notify("No free seat at this table: press s to watch.", severity="warning")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_watch(self) -> None:
        app = cast("LobbyApp", self.app)
        t = self.selected()
        if t is None:
            return
        if t.id in app.held:  # one's own table: back to one's seat, as Enter (D-108)
            self.action_join()
            return
        app.enter(lambda: app.client.watch(t.id), table=t.id)

    def action_leaderboard(self) -> None:
        t = self.selected()
        self.app.push_screen(LeaderboardScreen(t.game if t is not None else None))

    def action_account(self) -> None:
        from .account import AccountScreen

        def back(_: None) -> None:
            self._shown = None  # the title names me (a new name)
            self.action_refresh()

        self.app.push_screen(AccountScreen(), back)

    def action_web_link(self) -> None:
        app = cast("LobbyApp", self.app)
        try:
            link = app.client.web_link()
        except NetError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.app.push_screen(WebLinkScreen(link))

    async def action_new(self) -> None:
        await self.app.push_screen(CreateTable())  # (its name field has the keys typed next)

    async def action_code(self) -> None:
        """A private table's code: sit there (or watch it when its seats are taken)."""
        app = cast("LobbyApp", self.app)

        def chosen(code: str | None) -> None:
            if code:
                app.enter(lambda: app.client.join_code(code))

        await self.app.push_screen(CodeScreen(), chosen)

    def action_quit_lobby(self) -> None:
        self.app.exit()


class SeatPicker(ModalScreen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Back")]

    def __init__(self, table: P.TableInfo, seats: list[int]) -> None:
        super().__init__()
        self.table = table
        self.seats = seats

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Label(Text(f"Take over a bot's seat at {self.table.name} (between its turns):"))
            yield OptionList(*[Text(f"Seat {i + 1}: {self.table.seats[i].kind} bot") for i in self.seats])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = cast("LobbyApp", self.app)
        seat = self.seats[event.option_index]
        self.dismiss()
        app.enter(lambda: app.client.join(self.table.id, seat), table=self.table.id)


class LobbyApp(EnteringMixin, RemoteAppMixin, BaseApp):
    TITLE = "Lobby"  # the server hosts Colosseum and Municipium tables
    # (not on the bar: the lobby's own q says Quit, and a waiting table's Escape goes back to it)
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(self, client: RemoteClient, *, theme: str | None = None, rejoin: bool = False, code: str = "") -> None:
        super().__init__(theme=theme)
        self.client = client
        self.rejoin = rejoin
        self.code = code  # a private table's code to go to first (``ssh -t ... join CODE``)
        self.result: P.Joined | None = None
        self.held: dict[str, int] = {}
        self.waiting: WaitingScreen | None = None
        self.viewing = ""  # the finished game in the viewer
        self.viewing_seat = -1  # the seat I played in it
        self.hung_up = False
        self._lobby_loop: asyncio.AbstractEventLoop | None = None

    @property
    def client_held(self) -> list[tuple[str, int]]:
        return [(t, s) for t, s in getattr(self.client, "last_held", [])]

    def on_mount(self) -> None:
        self._lobby_loop = asyncio.get_running_loop()
        try:
            self._lobby_loop.add_signal_handler(signal.SIGHUP, self._hangup)
        except (NotImplementedError, RuntimeError, ValueError):  # pragma: no cover - no signals here
            pass
        self.client.table_listeners.append(self._from_reader)
        self.push_screen(LobbyScreen())
        if self.code:
            code, self.code = self.code, ""
            self.call_after_refresh(self.enter, lambda: self.client.join_code(code))
        elif self.rejoin:
            self.call_after_refresh(self._rejoin)

    def _rejoin(self) -> None:
        """Back after a dropped connection: straight to the game where we hold a seat."""
        try:
            tables = {t.id: t for t in self.client.list_tables()}
        except NetError:
            return
        for tid, seat in self.client.last_held:
            t = tables.get(tid) or self.client.tables.get(tid)
            if t is None or t.status == "playing":  # (a table past the first page: try it)
                name = t.name if t is not None else tid
                self.notify(f"Back at table {name}, seat {seat + 1}.", markup=False)
                self.enter(functools.partial(self.client.join, tid, seat), keep_trying=True, table=tid)
                return

    def show_going(self, text: str) -> None:
        """A request of a table under way (``text``; '': done), said on the screen the player
        looks at: under the lobby's title, on a waiting table's screen, else as a note."""
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.going_said = text
                if screen.is_mounted:
                    screen._show_pager(screen.pager_shown)
            elif isinstance(screen, WaitingScreen):
                screen.set_going(text)
        if text and self.screen_stack and not isinstance(self.screen, (LobbyScreen, WaitingScreen)):
            self.notify(text, markup=False)

    def _hangup(self) -> None:
        self.hung_up = True
        exit_soon_after_hangup()
        self.exit()

    class TableNews(Message):
        """What the server said of a table (or a refusal), from the connection's reader thread."""

        def __init__(self, msg: P._Msg) -> None:
            super().__init__()
            self.msg = msg

    def _from_reader(self, msg: P._Msg) -> None:
        """On the reader thread: hand over to the app without blocking (as a message, so that
        it is handled in the app's context: a timer set there runs)."""
        if self._lobby_loop is None:
            return
        try:
            self.post_message(self.TableNews(msg))
        except RuntimeError:  # the loop is closed: the lobby has ended
            pass

    def on_lobby_app_table_news(self, news: TableNews) -> None:
        self._table_message(news.msg)

    def _table_message(self, msg: P._Msg) -> None:
        w = self.waiting
        if isinstance(msg, P.Error):
            if msg.code == "moved_host":  # the host let the table go, or went away
                if w is not None and msg.table == w.joined.table.id and not w.finding:
                    self.notify(msg.message, severity="warning", markup=False, timeout=20)
                    self._find_waiting(w)
                return
            if msg.code == "moved" and w is not None and msg.table == w.joined.table.id:
                w.watch_only()  # our seat went to our newer connection
            self.notify(msg.message, severity="warning", markup=False)
            return
        if isinstance(msg, P.ChatLine):
            if w is not None and w.is_attached and msg.table == w.joined.table.id:
                w.add_chat(msg)
            return
        if self.result is not None or w is None or not isinstance(msg, P.TableChanged):
            return
        if msg.table.id == w.joined.table.id:
            self._waiting_table(w, msg.table, started=msg.state is not None)

    def _waiting_table(self, w: WaitingScreen, t: P.TableInfo, *, started: bool = False) -> None:
        """News of the table the player waits at (``started``: with the game's state)."""
        if t.status == "over":  # closed while waiting (nobody joined): the lobby says why
            self.waiting = None
            if self.screen is w:
                self.pop_screen()
            if isinstance(self.screen, LobbyScreen):
                self.screen.action_refresh()  # the closed table off the list
        elif started or t.status == "playing":
            # the game started: sit again to get the full picture, atomically with its updates
            # (once: while that is under way, the news of others sitting again changes nothing)
            seat, tid = w.joined.seat, t.id
            self.enter(lambda: self.client.join(tid, seat) if seat >= 0 else self.client.watch(tid), table=tid)
        else:
            w.show(t)

    def review(self, game: str, kind: str, title: str) -> None:
        """A finished game in the viewer, move by move, as this player saw it."""
        from colosseum.core.errors import RuleError

        from .review import finished_viewer

        try:
            screen, self.viewing_seat = finished_viewer(self.client, game, kind, title)
        except (NetError, RuleError, ValueError) as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.viewing = game
        self.push_screen(screen)

    def on_viewer_screen_play_from(self, message: ViewerScreen.PlayFrom) -> None:
        """``f`` in a finished game's viewer: who plays each seat, then a new table from there
        (this player at their own seat if a person plays it, else at the first such seat; more
        people's seats wait for others; the server always draws new chance from there)."""
        from colosseum.tui.screens.playfrom import PlayFromChoice, PlayFromScreen

        message.stop()
        game, at = self.viewing, message.at

        def chosen(choice: PlayFromChoice | None) -> None:
            if choice is None:
                return
            if "human" not in choice.kinds:
                self.notify("Choose a seat for yourself (human).", severity="warning")
                return
            mine = self.viewing_seat  # my own seat when I played it, else the first person's
            sit = (
                mine if 0 <= mine < len(choice.kinds) and choice.kinds[mine] == "human" else choice.kinds.index("human")
            )
            self.enter(lambda: self.client.fork(game, at, list(choice.kinds), sit))

        self.push_screen(PlayFromScreen(message.game_log, at), chosen)

    def _entered(self, joined: P.Joined) -> None:
        if joined.state is not None:
            self.result = joined
            self.waiting = None
            self.exit()
            return
        if self.waiting is not None:
            self.waiting.joined = joined
            self.waiting.show(joined.table)
            return
        self.waiting = WaitingScreen(joined)
        self.push_screen(self.waiting)
        # the news that the game started may have come before this answer, and found no
        # waiting screen: what the connection last heard of the table tells
        heard = self.client.tables.get(joined.table.id)
        if heard is not None and heard.status != "waiting":
            self._waiting_table(self.waiting, heard)

    def on_unmount(self) -> None:
        try:
            self.client.table_listeners.remove(self._from_reader)
        except ValueError:
            pass
