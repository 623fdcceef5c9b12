"""The client process the SSH server starts on each connection's pseudo-terminal:
``python -m colosseum.tui.net.client`` (the table server's address and this player's token
come in ``COLOSSEUM_NET_ADDRESS`` / ``COLOSSEUM_NET_TOKEN``).

Lobby first (``lobby.LobbyApp``), then the game in the same client as local play
(``colosseum.tui.app.ColosseumApp``) over a ``RemoteSession``; leaving the game (Ctrl+Q)
returns to the lobby, the seat stays held.  Ctrl+T in the game: say something at the table.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from colosseum.core.errors import RuleError

from .host import protocol as P
from .host.proto_client import NetError
from .hosts import HostsClient
from .remote import RemoteClient, RemoteSession
from .remote_app import CRASH_LINE, RemoteAppMixin, setup_client_log

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.content import Content

    from colosseum.core.events import Event


def settle_memory() -> None:
    """Collect what starting up left behind, then keep the survivors (modules, the app, its
    widgets) out of later collections.

    A full collection walks every object of the client's ~40 MB heap; with fifty clients on
    two cores such collections, starting together when a table begins, held screens back by
    over a second in the load benchmark (``benchmarks/bench_ssh_load.py``).  Objects made
    after this are collected as usual."""
    gc.collect()
    gc.freeze()


class _GameApp(Protocol):
    """What ``main`` needs of the game app (Textual is imported only when a game opens)."""

    hung_up: bool
    next_table: tuple[str, int] | None
    rejoined: P.Joined | None

    def run(self) -> object: ...


def _game_app(session: RemoteSession, theme: str | None, home: RemoteClient | None = None) -> _GameApp:
    """The game client with a chat key and a key that hands one's seat to a bot.  ``home``:
    the connection to this client's own host (the session's may be another host's)."""
    client = home or session.client
    from rich.text import Text
    from textual.binding import Binding
    from textual.css.query import NoMatches
    from textual.screen import ModalScreen
    from textual.widgets import Input

    from colosseum.tui.app import ColosseumApp
    from colosseum.tui.text import fit
    from colosseum.tui.widgets.lines import set_border_label

    class Say(ModalScreen[None]):
        BINDINGS = [Binding("escape", "dismiss", "Cancel")]
        # box drawing, not Input's block-element borders
        DEFAULT_CSS = (
            "Say { align: center bottom; } "
            "Say Input, Say Input:focus { width: 80%; margin-bottom: 2; border: round $accent; }"
        )

        def compose(self) -> ComposeResult:
            yield Input(placeholder="say to the table (Enter to send, Escape to cancel)", max_length=300)

        def on_input_submitted(self, event: Input.Submitted) -> None:
            if self._said:  # a second Enter typed ahead: the line went, the box is closing
                return
            self._said = True
            if event.value.strip():
                try:
                    session.say(event.value.strip())
                except RuleError as err:  # the connection is lost: said where the player looks
                    self.app.notify(f"Not sent: {err}", severity="error", markup=False)
            self.dismiss()

        _said = False

    class RematchAsk(ModalScreen[bool]):
        """Another player asks for a rematch: y accepts, n (or Escape) declines."""

        BINDINGS = [Binding("y", "answer(True)", "Accept"), Binding("n,escape", "answer(False)", "Decline")]
        DEFAULT_CSS = "RematchAsk { align: center middle; } RematchAsk Static { width: 60; max-width: 100%; height: auto; border: round $accent; padding: 0 1; background: $surface; }"

        def __init__(self, note: str) -> None:
            super().__init__()
            self.note = note

        def compose(self) -> ComposeResult:
            from colosseum.tui.plain import Static
            from colosseum.tui.widgets.keybar import KeyBar

            words = "The same seats again, new chance, the next player starts."
            yield Static(Text(f"{self.note}\n{words}\n\ny: accept   n: decline"))
            yield KeyBar()

        def action_answer(self, yes: bool) -> None:
            self.dismiss(yes)

    from pathlib import Path

    from colosseum.tui import app as app_module

    css = ColosseumApp.CSS_PATH
    if isinstance(css, str):
        css = str(Path(app_module.__file__).parent / css)

    from textual.app import App

    from colosseum.tui.commands import ColosseumCommands

    class NetCommands(ColosseumCommands):
        """The game's commands less the local ones (a new game)."""

        def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
            return [c for c in super()._commands() if c[0] != "New game"]

    class NetGameApp(RemoteAppMixin, ColosseumApp):
        CSS_PATH = css  # relative paths are taken from the subclass's module: pin the app's
        COMMANDS = App.COMMANDS | {lambda: NetCommands}
        BINDINGS = ColosseumApp.BINDINGS + [
            Binding("ctrl+t", "say", "Talk", id="net.say", priority=True),
            Binding("ctrl+b", "autopilot", "Bot plays for me", id="net.autopilot", priority=True),
        ]
        hung_up = False
        _warned: tuple[float, int] = (0.0, 0)
        _clock_shown: str | None = None
        _board_label: Content | None = None  # the arena panel's bottom border before the clock took it
        _board_label_kept = False

        #: (table, seat) of a rematch everyone accepted: the client sits there next
        next_table: tuple[str, int] | None = None
        #: the same table found again on another host after its host was lost (issue 30)
        rejoined: P.Joined | None = None
        _finding = False

        def _quit_title(self) -> str:
            return "Stop watching?" if session.seat < 0 else "Back to the lobby?"

        def _quit_question(self) -> str:
            if session.seat < 0:
                return "Back to the lobby: the game goes on without you watching."
            away = "the table waits for your moves" if session.table.turn_hours else "a bot plays it while you are away"
            return f"Your seat stays yours: {away}, and the table in the lobby takes you back to it."

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            if action == "autopilot":  # a spectator has no seat for a bot to play; nor has a game over
                return session.seat >= 0 and not session.rules.is_over(session.state)
            return super().check_action(action, parameters)

        def on_mount(self) -> None:
            # (before the game screen's first frame: what the server says from then on is heard;
            # ColosseumApp.on_mount runs after this one)
            session.add_listener(self._server_said)
            session.add_table_listener(self._seat_changed)

        def on_ready(self) -> None:
            self.call_after_refresh(settle_memory)  # the game is on screen: a quiet moment
            self.set_interval(1.0, self._clock_tick)
            # (called where the session drains the server's messages: handled in the app's turn)
            session.rematch_listeners.append(self._rematch_heard)

        def _seat_changed(self, table: P.TableInfo) -> None:
            """Ctrl+B's label says what it does now: a bot plays the seat, or the player again."""
            label = "Play my seat again" if session.autopilot else "Bot plays for me"
            keys = self._bindings.key_to_bindings
            for key, found in keys.items():
                if any(b.action == "autopilot" and b.description != label for b in found):
                    keys[key] = [replace(b, description=label) if b.action == "autopilot" else b for b in found]
                    self.refresh_bindings()

        def _server_said(self, state: object, events: list[Event]) -> None:
            """What the server tells this connection (our seat moved to our newer connection,
            our time ran out, it cannot save) is in the log, and said where the player looks."""
            if session.lost:
                return  # (the lost host is said by _find_table)
            for e in events:
                if e.kind == "net":
                    self.notify(e.text, severity="warning", markup=False, timeout=8)

        def _rematch_heard(self, msg: P.RematchState) -> None:
            self.call_later(self._rematch, msg)

        def _rematch(self, msg: P.RematchState) -> None:
            """A rematch asked, answered, refused or begun (``host.rematch``)."""
            if msg.new_table and session.seat >= 0:
                self.next_table = (msg.new_table, session.seat)
                self.exit()
                return
            mine = msg.answers[session.seat] if 0 <= session.seat < len(msg.answers) else "-"
            asking = any(isinstance(s, RematchAsk) for s in self.screen_stack)
            if mine == "" and "asked" in msg.answers and not msg.new_table and "no" not in msg.answers:
                if not asking:  # one question, however often it is said
                    self.push_screen(RematchAsk(msg.note), self._rematch_answered)
                return
            if asking and isinstance(self.screen, RematchAsk):  # the offer ended (declined, someone left)
                self.screen.dismiss(None)
            if msg.note:
                self.notify(msg.note, markup=False, timeout=6)

        def _rematch_answered(self, yes: bool | None) -> None:
            if yes is not None:  # (None: the offer ended before the answer)
                session.ask_rematch(yes)

        def _clock_tick(self) -> None:
            """The table's clock: the seconds left to the seat to act, under the arena, and
            a warning to everyone when they run short."""
            if session.lost and not client.closed.is_set():  # (this client's own host is up)
                self._find_table()
                return
            left = session.time_left()
            seat = session.clock_seat
            names = session.rules.names(session.state)
            mine = seat == session.seat and not session.autopilot
            shown = None
            if left is not None and 0 <= seat < len(names):
                # in the panel's bottom border: a long or wide name cut to a fixed cell budget
                who = "you" if mine else fit(names[seat], 16)
                secs = max(0, int(left))
                when = f"{secs // 60}:{secs % 60:02d}" if secs >= 100 else f"{secs} s"  # (a time bank)
                if secs >= 7200:  # a turn-based table's hours
                    when = f"{secs // 3600} h {secs % 3600 // 60:02d} min"
                shown = Text(f" clock: {who} {when} ")
            self._show_clock(shown)
            if left is None or seat < 0:
                return
            mark = next((m for m in sorted(CLOCK_WARNINGS) if left <= m), None)
            if mark is None or self._warned == (session.deadline, mark):
                return
            self._warned = (session.deadline, mark)
            who = "You have" if mine else f"{names[seat]} has"
            self.notify(
                f"{who} {max(0, int(left))} s left to act; then a bot plays the seat.",
                severity="warning" if mine else "information",
                markup=False,
                timeout=4,
            )

        def _show_clock(self, text: Text | None) -> None:
            """In the arena panel's bottom border (Text: a name is not markup), where the
            panel's own words (Municipium's legend) come back once no clock runs; set only
            when it changes, and then only that row is drawn again (``set_border_label``)."""
            if (text.plain if text else None) == self._clock_shown:
                return
            game = self.game_screen()
            if game is None:
                return
            try:
                board = game.query_one("#board")
            except NoMatches:
                return
            if not self._board_label_kept:  # the panel's own words there (Municipium's legend)
                self._board_label_kept, self._board_label = True, board._border_subtitle
            # (its row only: it changes every second); no clock: the panel's own words again
            set_border_label(board, text if text is not None else self._board_label, bottom=True)
            self._clock_shown = text.plain if text else None

        def _find_table(self) -> None:
            """The host serving the table was lost: ask for the table again every few seconds
            (its lease runs out and another host takes it over); once it is back, this app
            ends and the client is at the table again, on its new host."""
            if self._finding:
                return
            if self.rejoined is None and not getattr(self, "_told", False):
                self._told = True
                self.notify(
                    "The table's host was lost: the table comes back on another in a few seconds (Ctrl+Q: the lobby).",
                    severity="warning",
                    markup=False,
                    timeout=20,
                )
            self._finding = True

            def attempt() -> None:
                try:
                    if session.seat >= 0:
                        joined = client.join(session.table_id, session.seat)
                    else:
                        joined = client.watch(session.table_id)
                except NetError:
                    time.sleep(2.0)
                    self.call_from_thread(setattr, self, "_finding", False)
                    return
                self.call_from_thread(self._found, joined)

            threading.Thread(target=attempt, name="find-table", daemon=True).start()

        def _found(self, joined: P.Joined) -> None:
            self.rejoined = joined
            self.exit()

        def action_say(self) -> None:
            self.push_screen(Say())

        def action_autopilot(self) -> None:
            if session.seat < 0:
                return
            on = not session.autopilot
            try:
                session.set_autopilot(on)
            except RuleError as err:
                self.notify(str(err), severity="error", markup=False)
                return
            self.notify("A bot plays your seat (Ctrl+B to take it back)." if on else "You play your seat again.")

        def _hangup(self) -> None:
            self.hung_up = True
            super()._hangup()

    if session.seat < 0:  # a spectator: the players' screens are drawn first (net.priority)
        from .priority import yield_to_players

        yield_to_players()
    title = "watching" if session.seat < 0 else f"seat {session.seat + 1}"
    app = NetGameApp(session, bot_delay=0.0, theme=theme, exit_at_end=False)
    app.sub_title = f"table {session.table_id} | {title}"
    return app


CLOCK_WARNINGS = (30, 10)  # seconds left when the table is told


def _follow(client: HostsClient, table: tuple[str, int] | None) -> P.Joined | None:
    """Sit at the rematch's table (None: back to the lobby)."""
    if table is None:
        return None
    try:
        joined = client.join(*table)
    except NetError:
        return None
    return joined if joined.state is not None else None


def main(argv: list[str] | None = None) -> int:
    """The client process; a failure is logged for the server's operator and the remote user
    sees one line, never a traceback."""
    setup_client_log()
    try:
        return _main(argv)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - whatever fails, the remote user must not see a traceback
        logging.getLogger("colosseum.net.client").exception("the client failed")
        sys.stdout.write(f"\r\n{CRASH_LINE}\r\n")
        sys.stdout.flush()
        return 1


def _main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="colosseum-net-client")
    ap.add_argument("--address", default=os.environ.get("COLOSSEUM_NET_ADDRESS"))
    ap.add_argument("--theme", default=os.environ.get("COLOSSEUM_THEME") or None)
    args = ap.parse_args(argv)
    token = os.environ.pop("COLOSSEUM_NET_TOKEN", "")
    code = os.environ.pop("COLOSSEUM_NET_JOIN", "")
    if not args.address or not token:
        print("colosseum: this program is started by `colosseum serve`", file=sys.stderr)
        return 2
    try:
        client = HostsClient(args.address, token)
    except (OSError, NetError) as exc:
        sys.stdout.write(f"\r\nColosseum: cannot reach the game server: {exc}\r\n")
        return 1
    from colosseum.tui.base import exit_soon_after_hangup

    from .lobby import LobbyApp

    def _watch_server() -> None:
        # the table server is gone (or we are leaving): never outlive it, even if the
        # terminal's shutdown wedges
        client.closed.wait()
        exit_soon_after_hangup(5.0)

    threading.Thread(target=_watch_server, name="server-watch", daemon=True).start()
    settle_memory()
    first = True
    try:
        while not client.closed.is_set():
            # reconnect: back to one's game; ``ssh -t ... join CODE``: to that private table
            lobby = LobbyApp(client, theme=args.theme, rejoin=first, code=code if first else "")
            first = False
            lobby.run()
            if lobby.hung_up or lobby.result is None:
                break
            joined: P.Joined | None = lobby.result
            while joined is not None:  # the game, then its rematch's, while everyone plays on
                session = client.session_for(joined)
                app = _game_app(session, args.theme, client)
                app.run()
                if app.rejoined is not None and not app.hung_up:  # the table moved host: on with it
                    joined = app.rejoined
                    continue
                client.leave(joined.table.id)
                if app.hung_up:
                    return 0
                joined = _follow(client, app.next_table)
    finally:
        client.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
