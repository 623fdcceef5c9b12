""" "Play from here": who plays each seat of a game started from a position of another.

The players keep their names; each seat is played by a person (at this keyboard) or a bot.
The dialog only asks: it dismisses with a :class:`PlayFromChoice` (or None), and the app makes
the fork (``colosseum.tui.fork``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Select

from colosseum.core.timeline import GameLog
from colosseum.tui.plain import Label, Static
from colosseum.tui.widgets.forms import AsciiCheckbox, ascii_select_arrows
from colosseum.tui.widgets.keybar import KeyBar

from .newgame import bot_names


@dataclass(frozen=True)
class PlayFromChoice:
    kinds: tuple[str, ...]  # "human" or a bot name, per seat
    reseed: bool  # new chance after the fork point


def where(log: GameLog, at: int) -> str:
    """``action 40 of 134, round 3, Invest`` (the game's own words for where it is)."""
    from colosseum.tui.client import load_client

    return f"action {at} of {len(log.actions)}, {load_client(log.spec).where(log.timeline.state(at))}"


class PlayFromScreen(ModalScreen[PlayFromChoice | None]):
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="playfrom.start"),
        Binding("escape", "cancel", "Cancel", id="playfrom.cancel"),
    ]
    DEFAULT_CSS = """
    PlayFromScreen { align: center middle; }
    PlayFromScreen #pf-box { width: 60; max-width: 100%; height: auto; border: round $primary; background: $surface; padding: 0 1; }
    PlayFromScreen .pf-row { height: 1; }
    PlayFromScreen .pf-name { width: 20; height: 1; }
    PlayFromScreen .pf-kind { width: 18; }
    PlayFromScreen #pf-where { height: auto; color: $text-muted; margin-bottom: 1; }
    PlayFromScreen #pf-reseed { height: 1; border: none; padding: 0; margin-top: 1; }
    PlayFromScreen #pf-buttons { height: 1; margin-top: 1; }
    PlayFromScreen #pf-cancel { margin-left: 2; }
    """

    def __init__(self, log: GameLog, at: int) -> None:
        super().__init__()
        self.game_log = log
        self.at = at

    def compose(self) -> ComposeResult:
        bots = bot_names(self.game_log.game)
        kinds = [("human", "human")] + [(f"bot: {b}", b) for b in bots]
        box = Vertical(id="pf-box")
        box.border_title = "Play from here"
        with box:
            yield Static(Text(f"A new game from {where(self.game_log, self.at)}."), id="pf-where")
            for i, name in enumerate(self.game_log.setup.players):
                old = self.game_log.seats[i] if i < len(self.game_log.seats) else "human"
                value = old if old in ("human", *bots) else bots[0]
                with Horizontal(classes="pf-row"):
                    yield Label(Text(f"{i + 1} {name}"), classes="pf-name")
                    yield Select(
                        kinds, value=value, allow_blank=False, compact=True, classes="pf-kind", id=f"pf-kind-{i}"
                    )
            yield AsciiCheckbox("New chance from here (reseed)", False, compact=True, id="pf-reseed")
            with Horizontal(id="pf-buttons"):
                yield Button("Start", variant="primary", compact=True, id="pf-start")
                yield Button("Cancel", compact=True, id="pf-cancel")
        yield KeyBar()

    def on_mount(self) -> None:
        ascii_select_arrows(self)
        self.query_one("#pf-kind-0", Select).focus()

    def choice(self) -> PlayFromChoice:
        kinds = tuple(
            str(self.query_one(f"#pf-kind-{i}", Select).value) for i in range(len(self.game_log.setup.players))
        )
        return PlayFromChoice(kinds=kinds, reseed=self.query_one("#pf-reseed", Checkbox).value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "pf-start":
            self.action_start()
        elif event.button.id == "pf-cancel":
            self.action_cancel()

    def action_start(self) -> None:
        self.dismiss(self.choice())

    def action_cancel(self) -> None:
        self.dismiss(None)
