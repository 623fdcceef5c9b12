"""Reviewing a saved Municipium game (``colosseum view FILE`` on a Municipium log): the game
screen's board, families and log, at any position of the game, stepped through with the keys.

Position ``i`` is the state after the first ``i`` actions (0: before the first placement).  The
log panel shows the events up to the position.  Nothing is played here: the log is only read.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from colosseum.core.games.municipium import Event, State
from colosseum.core.timeline import GameLog, Timeline
from colosseum.tui.base import BaseApp
from colosseum.tui.plain import Static
from colosseum.tui.text import fit
from colosseum.tui.widgets.keybar import KeyBar

from .panels import BoardPanel, LogPanel, MuniHeader, PlayersPanel


class MuniViewerScreen(Screen[None]):
    """One saved game, at ``position``."""

    AUTO_FOCUS = ""  # nothing: the arrows step through the game (the log takes them once focused: l)
    DEFAULT_CSS = """
    MuniViewerScreen { layout: vertical; }
    MuniViewerScreen #where { height: 1; background: $panel; color: $foreground; }
    MuniViewerScreen #main { height: 1fr; }
    MuniViewerScreen #left { width: 46; height: 1fr; }
    MuniViewerScreen #log { width: 1fr; height: 1fr; }
    """
    BINDINGS = [
        Binding("right,full_stop", "step(1)", "Next", id="mview.next", key_display="->"),
        Binding("left,comma", "step(-1)", "Back", id="mview.prev", key_display="<-"),
        Binding("n", "turn(1)", "Next turn", id="mview.next-turn"),
        Binding("p", "turn(-1)", "Prev turn", id="mview.prev-turn"),
        Binding("home", "go(0)", "Start", id="mview.start"),
        Binding("end", "go(-1)", "End", id="mview.end"),
        Binding("l", "focus_log", "Log", id="mview.log"),
        Binding("escape", "unfocus", "Board", show=False, id="mview.unfocus"),
        Binding("q", "app.quit", "Quit", id="mview.quit"),
    ]

    def __init__(self, log: GameLog, position: int | None = None) -> None:
        super().__init__()
        self.game_log = log
        self.timeline: Timeline = log.timeline
        self.position = self.timeline.end if position is None else max(0, min(position, self.timeline.end))
        self._marks = [0]  # events before position i
        self._events: list[Event] = []

    def compose(self) -> ComposeResult:
        yield MuniHeader(id="header")
        yield Static(id="where")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardPanel(id="board")
                yield PlayersPanel(id="players")
            yield LogPanel(id="log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show()

    def state_at(self, i: int) -> State:
        st: State = self.timeline.state(i)  # a Municipium timeline
        return st

    def events_to(self, i: int) -> list[Event]:
        """Every event up to position ``i`` (computed once, kept)."""
        while len(self._marks) <= i:
            self._events.extend(self.timeline.events(len(self._marks)))
            self._marks.append(len(self._events))
        return self._events[: self._marks[i]]

    def show(self) -> None:
        i = self.position
        st = self.state_at(i)
        self.query_one(MuniHeader).show(st)
        self.query_one(BoardPanel).show(st)
        self.query_one(PlayersPanel).show(st)
        log = self.query_one(LogPanel)
        log.state = st
        log.back = 0
        log.show_events(self.events_to(i))
        self.query_one("#where", Static).update(self.where_text())
        self.refresh_bindings()

    def where_text(self) -> Text:
        end = self.timeline.end
        name = self.game_log.path.name if self.game_log.path is not None else "game"
        t = Text(no_wrap=True, overflow="crop")
        t.append(" VIEW ", Style(bold=True, reverse=True))
        t.append(f" action {self.position} of {end}  ")
        if self.game_log.error is not None:
            t.append("damaged log: valid part only  ", Style(bold=True))
        width = max(10, (self.size.width or 80) - t.cell_len - 1)
        t.append(fit(name, width), Style(dim=True))
        return t

    # ------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        forward = bool(parameters) and isinstance(parameters[0], int) and parameters[0] > 0
        if action in ("step", "turn"):
            return self.position < self.timeline.end if forward else self.position > 0
        return True

    def _go_to(self, i: int) -> None:
        i = max(0, min(i, self.timeline.end))
        if i != self.position:
            self.position = i
            self.show()

    def action_step(self, delta: int) -> None:
        self._go_to(self.position + delta)

    def action_turn(self, delta: int) -> None:
        tl = self.timeline
        # a Municipium turn is what the timeline calls a round (one player's turn)
        self._go_to(tl.next("round", self.position) if delta > 0 else tl.prev("round", self.position))

    def action_go(self, where: int) -> None:
        self._go_to(self.timeline.end if where < 0 else where)

    def action_focus_log(self) -> None:
        self.query_one(LogPanel).focus()

    def action_unfocus(self) -> None:
        self.set_focus(None)


class MuniViewerApp(BaseApp):
    TITLE = "Municipium: a saved game"

    def __init__(self, log: GameLog, *, theme: str | None = None, position: int | None = None) -> None:
        super().__init__(theme=theme)
        self.game_log = log
        self.position = position

    def get_default_screen(self) -> Screen[None]:
        return MuniViewerScreen(self.game_log, self.position)


def view_muni_log(log: GameLog, *, theme: str | None = None) -> int:
    """``colosseum view`` on a Municipium log: the exit status."""
    app = MuniViewerApp(log, theme=theme)
    app.run()
    return app.return_code or 0
