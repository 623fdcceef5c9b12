"""The 2x2 panel layout of a game, shared by the game screen and the game-log viewer.

Left: the board over a log (the game screen's ``LogPanel``, the viewer's history); right: the
impresarios over the viewed hand.  The widths live here only, so the two screens cannot drift
apart.  From 110x32 up (the whole screen) the arena is ``wide``: the board gets 60 columns.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widget import Widget

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
        log.add_class("arena-log")

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
