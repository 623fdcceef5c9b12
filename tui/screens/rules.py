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


class RulesScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="rules.close"),
        Binding("r", "close", "Close", show=False, id="rules.close-r"),
    ]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; background: $background 40%; }
    RulesScreen > VerticalScroll { width: 90%; max-width: 96; height: 90%; border: heavy $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, client: GameClient, setup: Any = None) -> None:
        super().__init__()
        self.client = client
        self.setup = setup

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="rules-body", can_focus=True)
        scroll.border_title = Text(f"{self.client.spec.title}: the rules in short")
        scroll.border_subtitle = "Escape closes"
        with scroll:
            yield Static(self.client.rules_text(self.setup))

    def on_mount(self) -> None:
        self.query_one("#rules-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
