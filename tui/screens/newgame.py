"""The new-game screen: the game (Colosseum or Municipium), its players (3-5 for Colosseum, 2-4
for Municipium), a name and a seat type for each (human, or a bot level), an optional seed, and
the game's own choices: Colosseum's variant and 2007 auctions, Municipium's short game and single
chamber citizen (M-13)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from colosseum.tui.plain import Static
from colosseum.tui.widgets.forms import Cycle, FormButton, FormCheckbox, FormInput
from colosseum.tui.widgets.keybar import KeyBar

DEFAULT_NAMES = ("Becky", "Kat", "Laura", "Marcus", "Titus")
GAMES = (("Colosseum", "colosseum"), ("Municipium", "municipium"))
BODY_TITLES = {"colosseum": "The Grand Spectacle", "municipium": "Municipium"}


def bot_names(game: str = "colosseum") -> list[str]:
    """The bot levels a seat can be given, by name players know (``greedy`` is ``normal``);
    ``random`` last, for trying things out."""
    from colosseum.core.registry import spec

    levels = spec(game).bot_levels
    return ["normal", *(lv for lv in levels if lv != "normal"), "random"]


def player_counts(game: str) -> tuple[int, ...]:
    from colosseum.core.registry import spec

    return spec(game).player_counts


@dataclass
class NewGameSettings:
    players: int = 4
    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    kinds: list[str] = field(default_factory=lambda: ["human"] + ["normal"] * 4)
    seed: int | None = None
    variant: str = "grand"
    options: tuple[str, ...] = ()
    game: str = "colosseum"  # a name of core.games.GAMES


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
    NewGameScreen { align-horizontal: center; }
    NewGameScreen #ng-title { dock: top; height: 1; width: 1fr; background: $panel; color: $primary; text-style: bold; padding: 0 1; }
    NewGameScreen #ng-body { width: 1fr; max-width: 80; height: 1fr; border: round $primary 60%; border-title-color: $primary; padding: 0 1; }
    NewGameScreen .row { height: 1; margin: 0 0 1 0; }
    NewGameScreen .seat-row { height: 1; margin: 0; }
    /* the field names are plain Statics (Label adds only styles these set, and its variants' CSS) */
    NewGameScreen .lbl { width: 10; height: 1; color: $text-muted; }
    NewGameScreen #ng-game { width: 16; }
    NewGameScreen .lbl2 { width: 9; height: 1; margin-left: 3; color: $text-muted; }
    NewGameScreen .opt { margin-right: 2; height: 1; border: none; padding: 0; }
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
        # Only what is shown is composed (the seats in play, the game's own options row): a
        # hidden row is mounted when it is first shown, so the first frame comes sooner.
        s = self.settings
        game = s.game if s.game in BODY_TITLES else "colosseum"
        counts = player_counts(game)
        players = s.players if s.players in counts else counts[-1]
        yield Static(" COLOSSEUM  New game", id="ng-title")
        body = VerticalScroll(id="ng-body")
        body.styles.margin = 0
        body.border_title = Text(BODY_TITLES[game])
        with body:
            with Horizontal(classes="row"):
                yield Static("Game", classes="lbl")
                yield Cycle(list(GAMES), game, id="ng-game")
                yield Static("Players", classes="lbl2")
                yield Cycle([(str(n), n) for n in counts], players, id="ng-players")
            with Vertical(id="ng-seats"):
                for i in range(players):
                    yield self._seat_row(i, game)
            with Horizontal(classes="row"):
                yield Static("Seed", classes="lbl")
                seed = FormInput(
                    "" if s.seed is None else str(s.seed),
                    placeholder="random",
                    compact=True,
                    type="integer",
                    id="ng-seed",
                )
                seed.cursor_blink = False
                yield seed
            yield self._options_row(game)
            yield FormButton("Start game", id="ng-start")
            yield Static(
                "Tab moves between fields, Left/Right change a choice, ctrl+s starts.  Seats with a bot play "
                "themselves; several human seats share this keyboard (hot seat).",
                id="ng-hint",
            )
        yield KeyBar()

    # the first name has the focus from the start (focusing another field first and moving the
    # focus on mount would restyle the whole form twice more)
    AUTO_FOCUS = "#ng-name-0"

    def _seat_kind(self, i: int, game: str) -> str:
        """Seat ``i``'s type as the settings give it, where ``game`` offers it."""
        kind = self.settings.kinds[i]
        bots = bot_names(game)
        return kind if kind in ("human", *bots) else bots[0]

    def _seat_row(self, i: int, game: str) -> Horizontal:
        name = FormInput(
            self.settings.names[i],
            placeholder=f"player {i + 1}",
            compact=True,
            classes="name",
            id=f"ng-name-{i}",
            max_length=16,
        )
        name.cursor_blink = False
        kind = Cycle(self._kind_options(game), self._seat_kind(i, game), classes="kind", id=f"ng-kind-{i}")
        return Horizontal(Static(f"{i + 1}", classes="seat-no"), name, kind, classes="seat-row", id=f"ng-seat-{i}")

    def _options_row(self, game: str) -> Horizontal:
        s = self.settings
        if game == "municipium":
            # M-13: the short game (4 decurions) and the translator's single chamber citizen
            return Horizontal(
                Static("Options", classes="lbl"),
                FormCheckbox("short game", "short" in s.options, classes="opt", id="ng-short"),
                FormCheckbox("single chamber citizen", "single-chamber" in s.options, classes="opt", id="ng-single"),
                classes="row",
                id="ng-muni-row",
            )
        variants = [("grand", "grand"), ("classic", "classic"), ("original", "original")]
        return Horizontal(
            Static("Variant", classes="lbl"),
            Cycle(variants, s.variant, id="ng-variant"),
            FormCheckbox("2007 auctions", "auction-2007" in s.options, id="ng-a07"),
            classes="row",
            id="ng-colosseum-row",
        )

    @property
    def game(self) -> str:
        return str(self.query_one("#ng-game", Cycle).value)

    @staticmethod
    def _kind_options(game: str) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = [("human", "human")]
        return out + [(f"bot: {b}", b) for b in bot_names(game)]

    def _seats(self) -> list[Widget]:
        """The seat rows composed so far (seat 0 first)."""
        return list(self.query_one("#ng-seats").children)

    def _show_rows(self, n: int) -> None:
        rows = self._seats()
        missing = [self._seat_row(i, self.game) for i in range(len(rows), n)]
        if missing:
            self.query_one("#ng-seats").mount_all(missing)
        for i, row in enumerate(rows):
            row.display = i < n

    def _show_game(self, game: str) -> None:
        """The choices of ``game``: its player counts, bot levels and options."""
        rows = {"colosseum": "#ng-colosseum-row", "municipium": "#ng-muni-row"}
        if not self.query(rows[game]):
            # (the Colosseum row stays before Municipium's, as the fields' Tab order)
            before = "#ng-muni-row" if game == "colosseum" else "#ng-start"
            self.query_one("#ng-body").mount(self._options_row(game), before=before)
        for name, selector in rows.items():
            for row in self.query(selector):
                row.display = name == game
        self.query_one("#ng-body").border_title = Text(BODY_TITLES.get(game, game))
        counts = player_counts(game)
        players = self.query_one("#ng-players", Cycle)
        self._reoffer(players, [(str(n), n) for n in counts], counts[-1])
        kinds = self._kind_options(game)
        for i in range(len(self._seats())):
            self._reoffer(self.query_one(f"#ng-kind-{i}", Cycle), kinds, "normal")
        self._show_rows(int(str(players.value)))

    @staticmethod
    def _reoffer(cycle: Cycle, options: list[tuple[str, object]], fallback: object) -> None:
        """Give ``cycle`` other choices, keeping its value where the new ones have it."""
        old = cycle.value
        cycle.options = list(options)
        values = [v for _, v in options]
        cycle.value = old if old in values else fallback  # (Changed only when the place moves)
        cycle.refresh()

    def on_cycle_changed(self, event: Cycle.Changed) -> None:
        if event.cycle.id == "ng-players" and isinstance(event.value, int):
            self._show_rows(event.value)
        elif event.cycle.id == "ng-game":
            self._show_game(str(event.value))

    def on_form_button_pressed(self, event: FormButton.Pressed) -> None:
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
        game = self.game
        n = self.query_one("#ng-players", Cycle).value
        n = int(n) if isinstance(n, int) else player_counts(game)[-1]
        # seats never shown keep the settings' names and types
        shown = len(self._seats())
        names = [self.query_one(f"#ng-name-{i}", Input).value.strip() for i in range(shown)]
        names += [self.settings.names[i] for i in range(shown, 5)]
        kinds = [str(self.query_one(f"#ng-kind-{i}", Cycle).value) for i in range(shown)]
        kinds += [self._seat_kind(i, game) for i in range(shown, 5)]
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
        variants = self.query("#ng-variant").results(Cycle)
        variant = next((str(v.value) for v in variants), self.settings.variant)
        if game == "municipium":
            chosen = (("short", "#ng-short"), ("single-chamber", "#ng-single"))
            options = tuple(o for o, sel in chosen if self.query_one(sel, FormCheckbox).value)
        else:
            options = ("auction-2007",) if self.query_one("#ng-a07", FormCheckbox).value else ()
        return NewGameSettings(
            players=n, names=names, kinds=kinds, seed=seed, variant=variant, options=options, game=game
        )

    def action_start(self) -> None:
        s = self.read()
        if s is None:
            return
        if s.seed is None:
            import secrets

            seed = secrets.randbelow(1_000_000)
        else:
            seed = s.seed
        self.post_message(self.Chosen(s, seed))
