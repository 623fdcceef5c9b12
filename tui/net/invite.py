"""The lobby's box for a private table's code (``i``): the code as its creator gave it (D-78)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from colosseum.tui.plain import Label
from colosseum.tui.widgets.keybar import KeyBar

__all__ = ["CodeScreen"]


class CodeScreen(ModalScreen[str | None]):
    """The code of a private table, as its creator gave it (case and dashes do not matter)."""

    BINDINGS = [Binding("escape", "dismiss", "Back")]
    DEFAULT_CSS = """
    CodeScreen { align: center middle; }
    CodeScreen #code-box { width: 50; max-width: 100%; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    CodeScreen Input, CodeScreen Input:focus { border: round $accent; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="code-box"):
            yield Label(Text("The code of a private table (Enter: go there)"))
            yield Input(placeholder="e.g. K7QX2M4P", max_length=20)
        yield KeyBar()

    def on_mount(self) -> None:
        self.set_focus(self.query_one(Input))  # at once: for the keys typed right after i

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)
