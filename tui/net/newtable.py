"""The lobby's new-table form: the game, its seats (a person or one of its bot levels), its
options (made from its option specs, as on the new-game screen), take-overs, hints, whether
it is rated and whether it is private (a code).  It sends
``CreateTable(seats, name, game, options={field: value}, allow_takeover, hints, sit, rated, private)``: one
message for every game (the options that differ from their defaults, as JSON values)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Select

from colosseum.core.options import OptionError
from colosseum.core.registry import game_names, spec
from colosseum.tui.plain import Label, Static
from colosseum.tui.widgets.forms import AsciiCheckbox, ascii_select_arrows
from colosseum.tui.widgets.keybar import KeyBar
from colosseum.tui.widgets.options import option_rows, read_options, row_id, set_players

from .host import protocol as P


class _Lobby(Protocol):
    """What the form asks of the lobby's app (``lobby.LobbyApp``: it imports this form)."""

    client: Any

    def enter(self, request: Callable[[], Any]) -> None: ...


#: seat rows the new-table form has (the most any game of this program seats)
MAX_SEATS = 5
#: the id prefix of the new-table form's option fields
PREFIX = "ct-opt"


def seat_choices(game: str | None) -> list[tuple[str, str]]:
    """A seat of a ``game`` table: a person, one of its bot levels (random last, to try things
    out), or no seat."""
    levels = spec(game).bot_levels
    bots = ("normal", *(lv for lv in levels if lv != "normal"), "random")
    return [("human (a player)", "human"), *((f"{b} bot", b) for b in bots), ("- no seat", "")]


def game_choices() -> list[tuple[str, str]]:
    return [(spec(name).title, name) for name in game_names(discover=False)]


class CreateTable(ModalScreen[None]):
    """The game, its seats (a person or one of its bot levels), its options (made from its option
    specs, as on the new-game screen), who may take over bot seats, whether players may ask for
    hints.  Compact fields on one line each, so the form fits an 80x24 terminal, drawn in ASCII
    and box drawing."""

    BINDINGS = [
        Binding("escape", "dismiss", "Cancel", id="lobby.create-cancel"),
        Binding("ctrl+s", "create", "Create", id="lobby.create"),
    ]
    DEFAULT_CSS = """
    CreateTable { align: center middle; }
    #form { width: 72; max-width: 100%; height: auto; max-height: 100%; border: round $accent;
            border-title-color: $accent; padding: 0 1; background: $surface; }
    #form .row { height: 1; margin: 0 0 1 0; }
    #form .seat-row { height: 1; }
    #form .lbl { width: 10; height: 1; color: $text-muted; }
    #form Select { width: 1fr; }
    #form Input { width: 1fr; }
    #form Checkbox { height: 1; border: none; padding: 0; }
    #form .opt-row { margin: 0; }
    #form .opt-group { width: auto; height: 1; margin-right: 3; }
    #form .opt-label { height: 1; color: $text-muted; }
    #form .opt-flag { margin-right: 2; height: 1; border: none; padding: 0; }
    #form .opt-group Input { width: 8; }
    #form Input.bank { width: 10; }
    #form #hints { margin-right: 3; }
    #ct-hint { color: $text-muted; height: auto; margin-bottom: 1; }
    #buttons { height: 1; margin-top: 1; }
    #buttons Button { margin-right: 2; }
    """

    def compose(self) -> ComposeResult:
        defaults = ["human", "human", "human", "normal", ""]
        first = game_choices()[0][1]
        with Vertical(id="form") as form:
            form.border_title = "New table"
            yield Static("Seat 1 is yours.  Tab moves, Enter opens a list, ctrl+s creates.", id="ct-hint")
            with Horizontal(classes="row"):
                yield Label("Name", classes="lbl")
                yield Input(placeholder="optional (Enter creates the table)", id="name", max_length=40, compact=True)
            with Horizontal(classes="seat-row"):
                yield Label("Game", classes="lbl")
                yield Select(game_choices(), value=first, allow_blank=False, compact=True, id="game")
            choices = seat_choices(first)
            for i in range(MAX_SEATS):
                with Horizontal(classes="seat-row"):
                    yield Label(f"Seat {i + 1}", classes="lbl")
                    yield Select(choices, value=defaults[i], allow_blank=False, compact=True, id=f"seat{i}")
            yield from option_rows(spec(first).options, PREFIX, first, {}, MAX_SEATS)
            yield AsciiCheckbox("players may take over bot seats between turns", compact=True, id="takeover")
            with Horizontal(classes="seat-row"):
                yield AsciiCheckbox("private (a code)", compact=True, id="private")
                yield Label("   turn-based, hours a move ", classes="opt-label")
                yield Input(placeholder="no", max_length=3, compact=True, id="turn-hours", classes="bank")
            with Horizontal(classes="seat-row"):
                yield Label("Time bank", classes="lbl")
                yield Input(placeholder="minutes", max_length=4, compact=True, id="bank", classes="bank")
                yield Label(" + seconds per decision ", classes="opt-label")
                yield Input(placeholder="0", max_length=3, compact=True, id="increment", classes="bank")
            with Horizontal(classes="seat-row"):
                yield AsciiCheckbox("players may ask the bot for hints (h)", compact=True, id="hints")
                yield AsciiCheckbox("rated (2+ people)", compact=True, id="rated")
            with Horizontal(id="buttons"):
                yield Button("Create", variant="primary", compact=True, id="create")
                yield Button("Cancel", compact=True, id="cancel")
        yield KeyBar()  # this form's keys, not the lobby's underneath

    def on_mount(self) -> None:
        ascii_select_arrows(self)
        self.query_one("#seat0", Select).disabled = True  # the creator's own seat
        self._show_game(self.game)
        self.set_focus(self.query_one("#name", Input))  # at once: for the keys typed right after n

    @property
    def game(self) -> str:
        return str(self.query_one("#game", Select).value)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            self._show_game(str(event.value))
        elif str(event.select.id).startswith("seat"):
            set_players(self, spec(self.game).options, PREFIX, len(self._seats()))

    def _show_game(self, game: str) -> None:
        """The choices of ``game``: its seats (as many as it seats, its bot levels) and options."""
        found = spec(game)
        if not self.query(f"#{row_id(PREFIX, game)}"):
            rows = option_rows(found.options, PREFIX, game, {}, found.max_players)
            if rows:
                self.query_one("#form").mount_all(rows, before="#takeover")
        for row in self.query(".opt-row"):
            row.display = row.has_class(f"{PREFIX}-{game}")
        choices = seat_choices(game)
        values = [v for _, v in choices]
        for i in range(MAX_SEATS):
            sel = self.query_one(f"#seat{i}", Select)
            old = sel.value
            sel.set_options(choices)
            if i >= found.max_players:
                sel.value = ""
            else:
                sel.value = old if old in values else "normal"
            if sel.parent is not None:
                sel.parent.display = i < found.max_players

    def _seats(self) -> list[str]:
        rows = [self.query_one(f"#seat{i}", Select) for i in range(MAX_SEATS)]
        seats = [str(sel.value) for sel in rows if sel.parent is not None and sel.parent.display]
        return [s for s in seats if s]

    def action_create(self) -> None:
        self.create()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss()
            return
        self.create()

    #: the table was asked for: a second Enter (typed ahead) asks for no second table
    _sent = False

    def create(self) -> None:
        if self._sent:
            return
        seats = self._seats()
        game = self.game
        found = spec(game)
        low, high = found.min_players, found.max_players
        if not low <= len(seats) <= high:
            self.notify(f"A {found.title} table has {low} to {high} seats.", severity="error")
            return
        try:
            chosen = read_options(self, found.options, PREFIX)
            found.make_setup(found.default_names[:1] * len(seats), seed=0, **chosen)
        except OptionError as err:
            self.notify(str(err), severity="error", markup=False)
            return
        defaults = {o.name: o.default for o in found.options}
        options = {k: list(v) if isinstance(v, tuple) else v for k, v in chosen.items() if v != defaults.get(k)}
        name = self.query_one("#name", Input).value.strip()
        if cell_len(name) > P.TABLE_NAME_CELLS:  # (the field counts characters, the server cells)
            self.notify(
                f"The table's name is too long: {P.TABLE_NAME_CELLS} columns at most, and a wide"
                f" character such as 漢 takes two ({cell_len(name)} now).",
                severity="error",
            )
            return
        kw: dict[str, object] = dict(
            seats=seats,
            name=name,
            game=game,
            allow_takeover=self.query_one("#takeover", Checkbox).value,
            hints=self.query_one("#hints", Checkbox).value,
            sit=0,
        )
        if self.query_one("#rated", Checkbox).value:  # (an older server knows no ``rated``)
            if kw["hints"]:
                self.notify("A rated table gives no hints: choose one or the other.", severity="error")
                return
            kw["rated"] = True
        if self.query_one("#private", Checkbox).value:
            kw["private"] = True
        hours = self.query_one("#turn-hours", Input).value.strip()
        if hours:
            if not hours.isdigit() or int(hours) <= 0:
                self.notify("A turn-based table gives whole hours a move.", severity="error")
                return
            kw["turn_hours"] = int(hours)
        bank, increment = (self.query_one(f"#{i}", Input).value.strip() for i in ("bank", "increment"))
        if bank or increment:  # (blank: the server's clock for each decision)
            if not bank.isdigit() or not (increment or "0").isdigit() or int(bank) <= 0:
                self.notify("A time bank is whole minutes (and seconds per decision).", severity="error")
                return
            kw["bank"], kw["increment"] = int(bank) * 60, int(increment or "0")
        if options:  # (the options away from their defaults, by field, as JSON values)
            kw["options"] = options
        app = cast("_Lobby", self.app)
        self._sent = True
        self.dismiss()
        app.enter(lambda: app.client.create_table(**kw))
