"""A table waiting for its players (the lobby's next screen after creating or joining one):
who sits where, chat meanwhile, and Ctrl+S for the table's creator to start at once with bots in
the free seats.  Names, table names and chat are plain text (``Text``), never markup."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, RichLog

from colosseum.core.registry import spec
from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

from .host import protocol as P

if TYPE_CHECKING:
    from .lobby import LobbyApp


def game_text(game: str, edition: str) -> str:
    """A table's game and its options in words ("Colosseum: Original 2007")."""
    try:
        title = spec(game).title
    except ValueError:
        title = game
    return f"{title}: {edition}" if edition else title


NOT_SENT = "Not sent: the connection to the table's host is lost (it is being found again)."


class WaitingScreen(Screen[None]):
    """A table waiting for its players; chat meanwhile.  The creator may start at once."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start now (bots for free seats)"),
        Binding("escape", "back", "Lobby"),
    ]
    DEFAULT_CSS = """
    #seats { height: auto; padding: 1 2; }
    #chat { height: 1fr; border: round $panel; }
    #say, #say:focus { border: round $accent; }  /* box drawing, not Input's block borders */
    """

    def __init__(self, joined: P.Joined) -> None:
        super().__init__()
        self.joined = joined
        self._ready = False
        self.finding = False  # its host let the table go: the lobby is finding it again
        self.going = ""  # the lobby's request of the table under way (the game started: sitting again)

    def compose(self) -> ComposeResult:
        yield Static(id="seats")
        yield RichLog(id="chat", wrap=True, markup=False)
        yield Input(placeholder="say something (Enter to send)", id="say", max_length=300)
        yield KeyBar()  # ASCII only (Textual's Footer draws an ambiguous-width bar)

    def on_mount(self) -> None:
        self._ready = True
        self.show(self.joined.table)
        for c in self.joined.chat:
            self.add_chat(c)
        self.set_focus(self.query_one(Input))  # at once: for the keys typed while it was asked for

    def add_chat(self, line: P.ChatLine) -> None:
        self.query_one(RichLog).write(Text(f"{line.name}: {line.text}"))

    def watch_only(self) -> None:
        """This connection no longer holds its seat (the player sat from another one): it
        watches, and goes on watching when the game starts."""
        self.joined = P.Joined(table=self.joined.table, seat=-1, chat=self.joined.chat)
        self.show(self.joined.table)

    def starts_it(self, t: P.TableInfo | None = None) -> bool:
        """This connection's player made the table (or was passed it): Ctrl+S starts it."""
        t = self.joined.table if t is None else t
        return self.joined.seat >= 0 and self.joined.seat == t.creator_seat

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.starts_it() and not self.finding if action == "start" else True

    def set_finding(self, finding: bool) -> None:
        if finding != self.finding:
            self.finding = finding
            self.show(self.joined.table)

    def set_going(self, text: str) -> None:
        if text != self.going:
            self.going = text
            self.show(self.joined.table)

    def show(self, t: P.TableInfo) -> None:
        passed = self._ready and self.starts_it(t) and not self.starts_it()
        self.joined = P.Joined(table=t, seat=self.joined.seat, chat=self.joined.chat)
        if not self._ready:  # (news of the table before the screen is up: shown on mounting)
            return
        self.refresh_bindings()
        if passed:
            self.notify("The table's creator left: you may start it now (Ctrl+S).", markup=False)
        what = game_text(t.game, t.edition)
        rated = " | rated" if t.rated else ""
        lines = [f"Table {t.id} | {t.name} | {what}{rated} - waiting for players", ""]
        for i, s in enumerate(t.seats):
            who = s.name if s.holder else ("free" if s.kind == "human" else f"{s.kind} bot")
            you = "  <- you" if i == self.joined.seat else ""
            lines.append(f"  Seat {i + 1}: {who}{you}")
        lines.append("")
        if t.decision_seconds:  # (said before the game: the clock is the server's, not the form's)
            lines.append(
                f"Each decision has {t.decision_seconds:g} s; then a bot plays the seat (Ctrl+B: play it again)."
            )
        if self.finding:
            lines.append("The table's host changed: finding the table again...")
        if self.going:
            lines.append(self.going)
        if self.joined.seat < 0:
            lines.append("You watch this table.")
        if t.code:
            lines.append(f"Private: invite people with the code {t.code} (i in the lobby, or")
            lines.append(f"ssh -t ... join {t.code}).")
        if self.starts_it(t):
            lines.append("The game starts when every human seat is taken.  Ctrl+S: start now with bots.")
        else:
            lines.append("The game starts when every human seat is taken, or when the table's creator")
            lines.append(f"({t.creator}) starts it with bots." if t.creator else "starts it with bots.")
        self.query_one("#seats", Static).update(Text("\n".join(lines)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text or self._send(P.Say(table=self.joined.table.id, text=text)):
            event.input.value = ""

    def action_start(self) -> None:
        """Asked first: starting gives the free seats to bots for good (before, a second
        Ctrl+S of the new-table form, where it creates, started the new table at once)."""
        from colosseum.tui.screens.confirm import ConfirmScreen

        free = sum(1 for s in self.joined.table.seats if s.kind == "human" and not s.holder)
        seats = "the free seat" if free == 1 else f"the {free} free seats"
        text = Text(f"Bots play {seats} from now on: nobody else can join this table.")

        def answer(yes: bool | None) -> None:
            if yes and self.starts_it() and not self.finding:
                self._send(P.Start(table=self.joined.table.id))

        self.app.push_screen(ConfirmScreen("Start now?", text), answer)

    def _send(self, msg: P._Msg) -> bool:
        """``msg`` to the table's host; False (said on screen) when the connection is lost."""
        try:
            cast("LobbyApp", self.app).client.send(msg)
        except OSError:
            self.notify(NOT_SENT, severity="warning", markup=False)
            return False
        return True

    def action_back(self) -> None:
        app = cast("LobbyApp", self.app)
        app.waiting = None
        app.client.leave(self.joined.table.id)
        self.app.pop_screen()
