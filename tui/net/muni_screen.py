"""The Municipium game screen at a server's table (``MuniNetScreen``): Municipium's own screen
with the table's keys (leave, talk, let a bot play) over a ``RemoteSession``.

(Until the shell's one game screen serves every game at a table: the lobby opens this for a
Municipium table, Colosseum's app for a Colosseum table.)
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Input

from colosseum.tui.municipium.screen import MuniGameScreen

from .remote import RemoteSession


class SayScreen(ModalScreen[None]):
    """One line to the table (Enter sends, Escape cancels); shown as plain text to everyone."""

    BINDINGS = [Binding("escape", "dismiss", "Cancel", id="muninet.say-cancel")]
    # box drawing, not Input's block-element borders
    DEFAULT_CSS = (
        "SayScreen { align: center bottom; } "
        "SayScreen Input, SayScreen Input:focus { width: 80%; margin-bottom: 2; border: round $accent; }"
    )

    def __init__(self, session: RemoteSession) -> None:
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

    def __init__(self, session: RemoteSession, **kw: Any) -> None:
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
