"""The new-game screen: 3-5 players, a name and a seat type for each (human, or a bot),
an optional seed, the variant and the 2007 auction option."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Static

from colosseum.tui.widgets.forms import AsciiCheckbox, Cycle
from colosseum.tui.widgets.keybar import KeyBar

DEFAULT_NAMES = ("Becky", "Kat", "Laura", "Marcus", "Titus")


def bot_names() -> list[str]:
    """The bot levels a seat can be given, by name players know (``greedy`` is ``normal``)."""
    from colosseum.core.bots import LEVELS

    return ["normal", *(lv for lv in LEVELS if lv != "normal"), "random"]


@dataclass
class NewGameSettings:
    players: int = 4
    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    kinds: list[str] = field(default_factory=lambda: ["human"] + ["normal"] * 4)
    seed: int | None = None
    variant: str = "grand"
    options: tuple[str, ...] = ()


class NewGameScreen(Screen):
    class Chosen(Message):
        """The player pressed Start: the app starts this game (messages up, not a call into the app)."""

        def __init__(self, settings: NewGameSettings, seed: int) -> None:
            super().__init__()
            self.settings = settings
            self.seed = seed

    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="newgame.start"),
        Binding("escape", "cancel", "Back", id="newgame.back"),
    ]
    DEFAULT_CSS = """
    NewGameScreen #ng-center { height: 1fr; }
    NewGameScreen #ng-title { height: 1; width: 1fr; background: $panel; color: $primary; text-style: bold; padding: 0 1; }
    NewGameScreen #ng-body { width: 1fr; max-width: 80; height: 1fr; border: round $primary 60%; border-title-color: $primary; padding: 0 1; }
    NewGameScreen .row { height: 1; margin: 0 0 1 0; }
    NewGameScreen .seat-row { height: 1; margin: 0; }
    NewGameScreen .lbl { width: 10; height: 1; color: $text-muted; }
    NewGameScreen .seat-no { width: 3; height: 1; }
    NewGameScreen .name { width: 24; }
    NewGameScreen .kind { width: 14; margin-left: 1; }
    NewGameScreen #ng-players { width: 8; }
    NewGameScreen #ng-seed { width: 14; }
    NewGameScreen #ng-variant { width: 12; }
    NewGameScreen #ng-a07 { margin-left: 2; height: 1; border: none; padding: 0; }
    NewGameScreen #ng-seats { height: auto; margin: 0 0 1 0; }
    NewGameScreen #ng-start { margin: 0 0 0 10; }
    NewGameScreen #ng-hint { color: $text-muted; height: auto; margin-top: 1; }
    """

    def __init__(self, settings: NewGameSettings | None = None, *, can_cancel: bool = False) -> None:
        super().__init__()
        self.settings = settings or NewGameSettings()
        self.can_cancel = can_cancel

    def compose(self) -> ComposeResult:
        s = self.settings
        bots = bot_names()
        kinds = [("human", "human")] + [(f"bot: {b}", b) for b in bots]
        yield Static(" COLOSSEUM  New game", id="ng-title")
        body = VerticalScroll(id="ng-body")
        body.styles.margin = 0
        body.border_title = "The Grand Spectacle"
        with Center(id="ng-center"), body:
            with Horizontal(classes="row"):
                yield Label("Players", classes="lbl")
                yield Cycle([(str(n), n) for n in (3, 4, 5)], s.players, id="ng-players")
            with Vertical(id="ng-seats"):
                for i in range(5):
                    kind = s.kinds[i] if s.kinds[i] in ("human", *bots) else bots[0]
                    with Horizontal(classes="seat-row", id=f"ng-seat-{i}"):
                        yield Label(f"{i + 1}", classes="seat-no")
                        inp = Input(
                            s.names[i],
                            placeholder=f"player {i + 1}",
                            compact=True,
                            classes="name",
                            id=f"ng-name-{i}",
                            max_length=16,
                        )
                        inp.cursor_blink = False
                        yield inp
                        yield Cycle(kinds, kind, classes="kind", id=f"ng-kind-{i}")
            with Horizontal(classes="row"):
                yield Label("Seed", classes="lbl")
                seed = Input(
                    "" if s.seed is None else str(s.seed),
                    placeholder="random",
                    compact=True,
                    type="integer",
                    id="ng-seed",
                )
                seed.cursor_blink = False
                yield seed
            with Horizontal(classes="row"):
                yield Label("Variant", classes="lbl")
                yield Cycle(
                    [("grand", "grand"), ("classic", "classic"), ("original", "original")], s.variant, id="ng-variant"
                )
                yield AsciiCheckbox("2007 auctions", "auction-2007" in s.options, compact=True, id="ng-a07")
            yield Button("Start game", variant="primary", compact=True, id="ng-start")
            yield Static(
                "Tab moves between fields, Left/Right change a choice, ctrl+s starts.  Seats with a bot play "
                "themselves; several human seats share this keyboard (hot seat).",
                id="ng-hint",
            )
        yield KeyBar()

    # the first name has the focus from the start (focusing another field first and moving the
    # focus on mount would restyle the whole form twice more)
    AUTO_FOCUS = "#ng-name-0"

    def on_mount(self) -> None:
        self._show_rows(self.settings.players)

    def _show_rows(self, n: int) -> None:
        for i in range(5):
            self.query_one(f"#ng-seat-{i}").display = i < n

    def on_cycle_changed(self, event: Cycle.Changed) -> None:
        if event.cycle.id == "ng-players" and isinstance(event.value, int):
            self._show_rows(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ng-start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "cancel":
            return self.can_cancel
        return True

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.app.pop_screen()

    def read(self) -> NewGameSettings | None:
        """The settings as entered, or None (with a notification) when they do not make a game."""
        n = self.query_one("#ng-players", Cycle).value
        n = int(n) if isinstance(n, int) else 4
        names = [self.query_one(f"#ng-name-{i}", Input).value.strip() for i in range(5)]
        kinds = [str(self.query_one(f"#ng-kind-{i}", Cycle).value) for i in range(5)]
        used = names[:n]
        if any(not x for x in used):
            self.notify("Every player needs a name.", severity="error")
            return None
        if len({x.lower() for x in used}) != n:
            self.notify("Player names must differ.", severity="error")
            return None
        seed_text = self.query_one("#ng-seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.notify("The seed is a whole number (or empty for a random one).", severity="error")
            return None
        variant = str(self.query_one("#ng-variant", Cycle).value)
        options = ("auction-2007",) if self.query_one("#ng-a07", Checkbox).value else ()
        return NewGameSettings(players=n, names=names, kinds=kinds, seed=seed, variant=variant, options=options)

    def action_start(self) -> None:
        s = self.read()
        if s is None:
            return
        seed = s.seed if s.seed is not None else secrets.randbelow(1_000_000)
        self.post_message(self.Chosen(s, seed))
