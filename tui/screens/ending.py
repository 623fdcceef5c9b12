"""The end screen's frame: the game's title, its result as the game's client part tells it
(``GameClient.end_text``: the ranking and how it was decided), scrollable; Escape back to the
board, ``n`` a new game."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen

from colosseum.tui.client import GameClient
from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar


class EndScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Board", id="end.back"),
        Binding("n", "app.new_game", "New game", id="end.new"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center top; }
    EndScreen > #end-title { height: 1; width: 1fr; background: $panel; color: $primary; text-style: bold; padding: 0 1; }
    EndScreen > VerticalScroll { border: round $primary 60%; border-title-color: $primary; padding: 0 1; }
    """

    def __init__(self, client: GameClient, state: Any) -> None:
        super().__init__()
        self.client = client
        self.state = state

    def compose(self) -> ComposeResult:
        yield Static(f" {self.client.spec.title.upper()}  Game over: the final ranking", id="end-title")
        scroll = VerticalScroll(id="end-body", can_focus=True)
        scroll.border_title = "Result"
        with scroll:
            yield Static(id="end-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self._draw()
        self.query_one("#end-body").focus()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        text = self.client.end_text(
            self.state, theme=self.app.theme, dark=self.app.current_theme.dark, width=self.size.width - 6
        )
        self.query_one("#end-text", Static).update(text)

    def action_back(self) -> None:
        self.app.pop_screen()
