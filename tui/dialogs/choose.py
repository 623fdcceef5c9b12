"""The plain chooser: a list of the actions open to the seat to act, for a decision no dialog of
the game serves (and for every decision of a game without a client part of its own).  The
actions, their words and what a highlighted one would show on the panels come from the game's
client part (by default ``rules.legal_actions`` and ``rules.describe``)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets.option_list import Option

from colosseum.tui.base import submit_or_notify
from colosseum.tui.client import GameClient
from colosseum.tui.plain import Label, OptionList
from colosseum.tui.session import GameSession
from colosseum.tui.widgets.preview import Preview


class ActionChooser(ModalScreen[bool | None]):
    """Dismissed with True once it has acted, None when closed (Escape)."""

    DEFAULT_CSS = """
    ActionChooser { align: right bottom; background: $background 0%; }
    ActionChooser > Vertical { width: 39; height: auto; max-height: 70%; border: heavy $accent; background: $surface; padding: 0 1; margin: 0 0 1 0; }
    ActionChooser OptionList { height: auto; max-height: 16; border: none; }
    ActionChooser Label { width: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "Close", id="choose.close")]

    def __init__(self, session: GameSession[Any, Any], seat: int, client: GameClient) -> None:
        super().__init__()
        self.session = session
        self.seat = seat
        self.client = client
        self._actions: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.client.prompt(self.session.state)[1]), id="choose-prompt")
            yield OptionList(id="choose-list")

    def on_mount(self) -> None:
        self._fill()
        self.query_one(OptionList).focus()

    def _fill(self) -> None:
        st = self.session.state
        self._actions = list(self.client.chooser_actions(st))
        ol = self.query_one(OptionList)
        ol.clear_options()
        ol.add_options([Option(Text(self.client.chooser_words(st, a))) for a in self._actions])
        if self._actions:
            ol.highlighted = 0
        self.query_one("#choose-prompt", Label).update(Text(self.client.prompt(st)[1]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        i = event.option_index
        if not 0 <= i < len(self._actions):
            return
        shown = self.client.chooser_preview(self.session.state, self._actions[i])
        if shown is not None:
            self.app.post_message(Preview(shown))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        i = event.option_index
        if not 0 <= i < len(self._actions):
            return
        if submit_or_notify(self, self.session, self._actions[i]):
            self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(None)
