"""The rules screen's frame: the game's rules in short, as its client part gives them
(``GameClient.rules_text``) for the edition and options in play (``setup``; None: the game's
first edition), scrollable; Escape or ``r`` closes."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from colosseum.tui.client import GameClient
from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar


class PageScreen(ModalScreen[None]):
    """A page of text over the game, about its client's game in ``setup``'s edition,
    scrollable; Escape (or the key that opened it: each page's bindings) closes it.  ``NAME``
    names its ids."""

    NAME = "page"
    #: after the game's title in the border
    WHAT = ""
    DEFAULT_CSS = """
    PageScreen { align: center middle; background: $background 40%; }
    PageScreen > VerticalScroll { width: 90%; max-width: 96; height: 90%; border: heavy $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, client: GameClient, setup: Any = None) -> None:
        super().__init__()
        self.client = client
        self.setup = setup

    def body(self) -> Any:
        """What the page shows (a Rich renderable; user text never markup)."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id=f"{self.NAME}-body", can_focus=True)
        scroll.border_title = Text(f"{self.client.spec.title}: {self.WHAT}")
        scroll.border_subtitle = "Escape closes"
        with scroll:
            yield Static(self.body(), id=f"{self.NAME}-text")
        yield KeyBar()  # the page's keys, not the game's underneath

    def on_mount(self) -> None:
        self.query_one(f"#{self.NAME}-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class RulesScreen(PageScreen):
    BINDINGS = [
        Binding("escape", "close", "close", id="rules.close"),
        Binding("r", "close", "close", show=False, id="rules.close-r"),
    ]
    NAME = "rules"
    WHAT = "the rules in short"

    def body(self) -> Any:
        return self.client.rules_text(self.setup)
