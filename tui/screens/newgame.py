"""The new-game screen: the game (Colosseum or Municipium), its players (3-5 for Colosseum, 2-4
for Municipium), a name and a seat type for each (human, or a bot level), an optional seed, and
the game's own choices: Colosseum's variant and 2007 auctions, Municipium's short game and single
chamber citizen (M-13)."""

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
GAMES = (("Colosseum", "colosseum"), ("Municipium", "municipium"))
BODY_TITLES = {"colosseum": "The Grand Spectacle", "municipium": "Municipium"}


def bot_names(game: str = "colosseum") -> list[str]:
    """The bot levels a seat can be given, by name players know (``greedy`` is ``normal``);
    ``random`` last, for trying things out."""
    from colosseum.core.games import game_kind

    levels = game_kind(game).bot_levels
    return ["normal", *(lv for lv in levels if lv != "normal"), "random"]


def player_counts(game: str) -> tuple[int, ...]:
    from colosseum.core.games import game_kind

    kind = game_kind(game)
    return tuple(range(kind.min_players, kind.max_players + 1))


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
    NewGameScreen #ng-center { height: 1fr; }
    NewGameScreen #ng-title { height: 1; width: 1fr; background: $panel; color: $primary; text-style: bold; padding: 0 1; }
    NewGameScreen #ng-body { width: 1fr; max-width: 80; height: 1fr; border: round $primary 60%; border-title-color: $primary; padding: 0 1; }
    NewGameScreen .row { height: 1; margin: 0 0 1 0; }
    NewGameScreen .seat-row { height: 1; margin: 0; }
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
        s = self.settings
        game = s.game if s.game in BODY_TITLES else "colosseum"
        bots = bot_names(game)
        kinds = self._kind_options(game)
        yield Static(" COLOSSEUM  New game", id="ng-title")
        body = VerticalScroll(id="ng-body")
        body.styles.margin = 0
        body.border_title = BODY_TITLES[game]
        with Center(id="ng-center"), body:
            with Horizontal(classes="row"):
                yield Label("Game", classes="lbl")
                yield Cycle(list(GAMES), game, id="ng-game")
                yield Label("Players", classes="lbl2")
                counts = player_counts(game)
                players = s.players if s.players in counts else counts[-1]
                yield Cycle([(str(n), n) for n in counts], players, id="ng-players")
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
            with Horizontal(classes="row", id="ng-colosseum-row"):
                yield Label("Variant", classes="lbl")
                yield Cycle(
                    [("grand", "grand"), ("classic", "classic"), ("original", "original")], s.variant, id="ng-variant"
                )
                yield AsciiCheckbox("2007 auctions", "auction-2007" in s.options, compact=True, id="ng-a07")
            with Horizontal(classes="row", id="ng-muni-row"):
                # M-13: the short game (4 decurions) and the translator's single chamber citizen
                yield Label("Options", classes="lbl")
                yield AsciiCheckbox("short game", "short" in s.options, compact=True, classes="opt", id="ng-short")
                yield AsciiCheckbox(
                    "single chamber citizen", "single-chamber" in s.options, compact=True, classes="opt", id="ng-single"
                )
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
        players = self.query_one("#ng-players", Cycle).value
        self._show_rows(players if isinstance(players, int) else self.settings.players)
        self._show_game(self.game)

    @property
    def game(self) -> str:
        return str(self.query_one("#ng-game", Cycle).value)

    @staticmethod
    def _kind_options(game: str) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = [("human", "human")]
        return out + [(f"bot: {b}", b) for b in bot_names(game)]

    def _show_rows(self, n: int) -> None:
        for i in range(5):
            self.query_one(f"#ng-seat-{i}").display = i < n

    def _show_game(self, game: str) -> None:
        """The choices of ``game``: its player counts, bot levels and options."""
        self.query_one("#ng-colosseum-row").display = game == "colosseum"
        self.query_one("#ng-muni-row").display = game == "municipium"
        self.query_one("#ng-body").border_title = BODY_TITLES.get(game, game)
        counts = player_counts(game)
        players = self.query_one("#ng-players", Cycle)
        self._reoffer(players, [(str(n), n) for n in counts], counts[-1])
        self._show_rows(int(str(players.value)))
        kinds = self._kind_options(game)
        for i in range(5):
            self._reoffer(self.query_one(f"#ng-kind-{i}", Cycle), kinds, "normal")

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
        game = self.game
        n = self.query_one("#ng-players", Cycle).value
        n = int(n) if isinstance(n, int) else player_counts(game)[-1]
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
        if game == "municipium":
            chosen = (("short", "#ng-short"), ("single-chamber", "#ng-single"))
            options = tuple(o for o, sel in chosen if self.query_one(sel, Checkbox).value)
        else:
            options = ("auction-2007",) if self.query_one("#ng-a07", Checkbox).value else ()
        return NewGameSettings(
            players=n, names=names, kinds=kinds, seed=seed, variant=variant, options=options, game=game
        )

    def action_start(self) -> None:
        s = self.read()
        if s is None:
            return
        seed = s.seed if s.seed is not None else secrets.randbelow(1_000_000)
        self.post_message(self.Chosen(s, seed))
