"""The shell's plain client: what a game without a client part of its own (``GameSpec.client_path
== ""``, such as the tests' Nim) is played with.  Everything comes from its ``Rules``: a text
panel of the state (the players with their letters, who is to act, their scores, how far the
game is, the last events; ``i`` adds the actions open to the player to act) beside the log, and
the shell's plain chooser over ``rules.legal_actions`` for every decision."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from colosseum.core.events import Event
from colosseum.tui.client import GameClient
from colosseum.tui.text import fit, pad, wrap
from colosseum.tui.widgets.lines import LinePanel
from colosseum.tui.widgets.log import LogPanel
from colosseum.tui.widgets.style import player_marks, seat_style

BOLD = Style(bold=True)
DIM = Style(dim=True)
#: the last events the panel repeats under the players
LAST_EVENTS = 4


class StatePanel(LinePanel):
    """The state in words, from the rules."""

    DEFAULT_CSS = """
    StatePanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; }
    """

    def __init__(self, client: GameClient, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.client = client
        self.state: Any = None
        self.seat = -1
        self.events: list[Event] = []
        self.detail = False
        self.border_title = Text(client.spec.title)

    def show(self, state: Any, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.redraw()

    def build_lines(self) -> list[Text]:
        st = self.state
        if st is None:
            return []
        rules = self.client.spec.rules()
        width = self.content_region.width or 36
        theme = self.app.theme
        names = rules.names(st)
        letters = player_marks(list(names), theme)
        scores = rules.scores(st)
        actor = rules.to_act(st)
        word = rules.score_word(st)
        lines = [Text(fit(rules.progress(st) or self.client.prompt(st)[1], width), BOLD)]
        for s, name in enumerate(names):
            t = Text()
            t.append(">" if s == actor else " ", BOLD)
            t.append("*" if s == self.seat else " ", BOLD)
            t.append(f"{letters[s]} ", seat_style(theme, s))
            right = f" {scores[s]} {word}"
            t.append(pad(name, max(4, width - 4 - len(right))), seat_style(theme, s))
            t.append(right)
            lines.append(t)
        lines.append(Text(""))
        lines.append(Text(fit(self.client.prompt(st)[1], width), seat_style(theme, actor) if actor >= 0 else BOLD))
        if self.detail and actor >= 0:
            lines.append(Text("Open to them:", DIM))
            for action in self.client.chooser_actions(st):
                lines += [Text(x) for x in wrap(self.client.chooser_words(st, action), width, indent="  ")]
        said = [e.text for e in self.events if e.text][-LAST_EVENTS:]
        if said:
            lines.append(Text("Last:", DIM))
            for text in said:
                lines += [Text(x, DIM) for x in wrap(text, width, indent="  ")]
        return lines


class PlainBody(Horizontal):
    """The state panel (id ``board``) on the left, the log (the viewer: its history) on the right."""

    DEFAULT_CSS = """
    PlainBody { height: 1fr; }
    PlainBody > #plain-left { width: 42; height: 1fr; }
    PlainBody > .plain-log { width: 1fr; height: 1fr; }
    """

    def __init__(self, client: GameClient, log: Widget) -> None:
        super().__init__()
        self.client = client
        self._log = log
        log.add_class("plain-log")

    def compose(self) -> ComposeResult:
        with Vertical(id="plain-left"):
            yield StatePanel(self.client, id="board")
        yield self._log

    def show(self, state: Any, seat: int, marks: Any, *, chosen: bool = False) -> None:
        self.query_one(StatePanel).show(state, seat)

    def show_events(self, events: list[Event]) -> None:
        panel = self.query_one(StatePanel)
        panel.events = list(events)
        panel.redraw()
        for log in self.query(LogPanel):
            log.show_events(events)

    def toggle_detail(self) -> None:
        panel = self.query_one(StatePanel)
        panel.detail = not panel.detail
        panel.redraw()

    def set_preview(self, value: Any) -> None:
        """The plain panels show no previews."""


class PlainClient(GameClient):
    """The client of a game with none of its own."""

    detail_help = ("Actions open", "The actions open to the player to act (i)")

    def body(self, history: Widget | None = None) -> Widget:
        return PlainBody(self, history if history is not None else LogPanel(id="log"))

    def help_panels(self) -> list[tuple[str, str]]:
        return [
            (
                "The game",
                "'>' who is to act, '*' the player viewed (1-5), each score; the last events; "
                "i adds the actions open to the player to act",
            ),
            ("Log", "every event, newest at the bottom; focus it with l and scroll with the arrows"),
            ("Choosing", "a list of the actions open to you: arrows move, Enter takes one, Escape closes"),
        ]


CLIENT = PlainClient()
