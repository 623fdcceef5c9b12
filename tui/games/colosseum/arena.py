"""Colosseum's panels: the 2x2 layout of a game, shared by the game screen and the game-log viewer
(the game body of Colosseum's client part).

Left: the board over a log (the game screen's ``LogPanel``, the viewer's history); right: the
impresarios over the viewed hand.  The widths live here only, so the two screens cannot drift
apart.  From 110x32 up (the whole screen) the arena is ``wide``: the board gets 60 columns.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widget import Widget

from colosseum.core.events import Event
from colosseum.tui.widgets.log import LogPanel

from .board import BoardPanel
from .hand import HandPanel
from .players import PlayersPanel

#: the smallest screen (columns, rows) that gets the wide board
WIDE_AT = (110, 32)


class Arena(Horizontal):
    """Board (id ``board``) and ``log`` on the left, players (id ``players``) and hand (id
    ``hand``) on the right."""

    DEFAULT_CSS = """
    Arena { height: 1fr; }
    Arena > #arena-left { width: 41; height: 1fr; }
    Arena > #arena-right { width: 1fr; height: 1fr; }
    Arena #board { width: 41; }
    Arena .arena-log { height: 1fr; min-height: 4; }
    Arena #hand { height: 1fr; min-height: 4; }
    Arena.wide > #arena-left { width: 60; }
    Arena.wide #board { width: 60; height: 12; }
    """

    def __init__(self, log: Widget, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._log = log
        log.add_class("arena-log", update=log.is_attached)  # (a new one is styled when mounted)

    def compose(self) -> ComposeResult:
        with Vertical(id="arena-left"):
            yield BoardPanel(id="board")
            yield self._log
        with Vertical(id="arena-right"):
            yield PlayersPanel(id="players")
            yield HandPanel(id="hand")

    def on_resize(self, event: Resize) -> None:
        size = self.screen.size
        self.set_class(size.width >= WIDE_AT[0] and size.height >= WIDE_AT[1], "wide")


class ColosseumBody(Arena):
    """The arena as the shell's game body (``client.GameBody``)."""

    def show(self, state: Any, seat: int, marks: Any, *, chosen: bool = False) -> None:
        self.query_one(BoardPanel).show(state, seat, marks=marks)
        self.query_one(PlayersPanel).show(state, seat, marks=marks)
        self.query_one(HandPanel).show(state, seat, marks=marks)

    def show_events(self, events: list[Event]) -> None:
        for log in self.query(LogPanel):
            log.show_events(events)

    def toggle_detail(self) -> None:
        """The hand panel shows (or stops showing) each spectacle's needs, holdings, missing
        types and strip, which fit by themselves only in a wide panel."""
        self.query_one(HandPanel).toggle_detail()

    def set_preview(self, value: Any) -> None:
        self.query_one(BoardPanel).set_preview(frozenset(value or ()))
