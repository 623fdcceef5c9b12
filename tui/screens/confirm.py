"""A yes/no question over the current screen (quitting a game in progress)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True for ``y``, False for ``n`` or Escape.  Enter answers nothing (a
    modal screen keeps it from the screens underneath): a dialog underneath gave it another
    meaning a moment ago ("enter place gates"), and a player pressing it from habit must not
    leave the game unasked.  The screen has its own key bar: the one underneath showed through,
    naming that screen's keys."""

    BINDINGS = [
        Binding("y", "answer(True)", "yes", id="confirm.yes"),
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
        yield KeyBar()  # this question's keys, not those of the screen underneath

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
