"""A yes/no question over the current screen (quitting a game in progress)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from colosseum.tui.plain import Static


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True for ``y`` (or Enter), False for ``n`` or Escape."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "yes", id="confirm.yes", key_display="y"),
        Binding("n,escape", "answer(False)", "no", id="confirm.no", key_display="n/esc"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; background: $background 40%; }
    ConfirmScreen > Vertical {
        width: 60; max-width: 100%; height: auto; border: round $warning; background: $surface; padding: 0 1;
    }
    ConfirmScreen #confirm-keys { margin-top: 1; color: $text-muted; }
    """

    def __init__(self, title: str, text: str | Text) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Text(self.title_text)
            yield Static(self.text, id="confirm-text", markup=False)
            yield Static("y yes    n or esc no", id="confirm-keys", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
