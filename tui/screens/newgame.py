"""The new-game screen, for every game: the game, its players (each game its own range), a name
and a seat type for each (human, or a bot level of that game), an optional seed, and the game's
options, made from its option specs (``widgets.options``).  It opens with the settings chosen
last time (``settings.toml``, ``[new_game]``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from colosseum.core.names import printable
from colosseum.core.options import DEFAULT_GAME
from colosseum.tui.base import StyledOnMount
from colosseum.tui.plain import Static
from colosseum.tui.widgets.forms import Cycle, FormButton, FormInput
from colosseum.tui.widgets.keybar import KeyBar
from colosseum.tui.widgets.options import OptionError, option_rows, read_options, row_id, set_players

DEFAULT_NAMES = ("Becky", "Kat", "Laura", "Marcus", "Titus")
#: seats a form offers rows for (the most any game of this program has)
MAX_SEATS = 5
PREFIX = "ng-opt"


def bot_names(game: str | None = None) -> list[str]:
    """The bot levels a seat can be given, by name players know (``greedy`` is ``normal``);
    ``random`` last, for trying things out."""
    from colosseum.core.registry import spec

    levels = spec(game).bot_levels
    return ["normal", *(lv for lv in levels if lv != "normal"), "random"]


def player_counts(game: str | None) -> tuple[int, ...]:
    from colosseum.core.registry import spec

    return spec(game).player_counts


def games_offered(*, discover: bool = False) -> list[tuple[str, object]]:
    """(title, name) of each game (``discover``: also those other distributions register,
    which costs reading their metadata: after the first frame)."""
    from colosseum.core.registry import game_names, spec

    out: list[tuple[str, object]] = []
    for name in game_names(discover=discover):
        try:
            out.append((spec(name).title, name))
        except ValueError:  # a game that cannot be loaded is not offered
            continue
    return out


@dataclass
class NewGameSettings:
    players: int = 4
    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    kinds: list[str] = field(default_factory=lambda: ["human"] + ["normal"] * 4)
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the game's options, by field name
    game: str = DEFAULT_GAME  # a name of core.registry

    def remembered(self) -> dict[str, Any]:
        """What the settings file keeps of these for next time (no seed: a new game each time)."""
        return {
            "game": self.game,
            "players": self.players,
            "names": list(self.names),
            "kinds": list(self.kinds),
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items() if v is not None},
        }

    @classmethod
    def from_remembered(cls, data: dict[str, Any] | None) -> NewGameSettings:
        """Settings from what the file kept; what is missing or not understood is the default."""
        out = cls()
        if not data:
            return out
        if isinstance(data.get("game"), str):
            out.game = data["game"]
        if isinstance(data.get("players"), int) and not isinstance(data.get("players"), bool):
            out.players = data["players"]
        # a name with ESC in it (kept by an older program) is shown with "?" (core.names)
        names = [printable(x) for x in data.get("names", []) if isinstance(x, str)][:MAX_SEATS]
        out.names = names + list(DEFAULT_NAMES[len(names) :])
        kinds = [str(x) for x in data.get("kinds", []) if isinstance(x, str)][:MAX_SEATS]
        out.kinds = kinds + out.kinds[len(kinds) :]
        options = data.get("options", {})
        if isinstance(options, dict):
            out.options = {str(k): tuple(v) if isinstance(v, list) else v for k, v in options.items()}
        return out


class NewGameScreen(StyledOnMount, Screen[None]):
    class Chosen(Message):
        """The player pressed Start: the app starts this game (messages up, not a call into the app)."""

        def __init__(self, settings: NewGameSettings, seed: int) -> None:
            super().__init__()
            self.settings = settings
            self.seed = seed

    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="newgame.start"),
        Binding("escape", "cancel", "Back", id="newgame.back"),
        Binding("f2", "app.statistics", "Statistics", id="newgame.stats"),
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
    NewGameScreen .opt-row { margin: 0; }
    NewGameScreen .opt-row.-last { margin: 0 0 1 0; }
    NewGameScreen .opt-group { width: auto; height: 1; margin-right: 3; }
    NewGameScreen .opt-label { height: 1; color: $text-muted; }
    NewGameScreen .opt-flag { margin-right: 2; height: 1; border: none; padding: 0; }
    NewGameScreen .seat-no { width: 3; height: 1; }
    NewGameScreen .name { width: 24; }
    NewGameScreen .kind { width: 14; margin-left: 1; }
    NewGameScreen #ng-players { width: 8; }
    NewGameScreen #ng-seed { width: 14; }
    NewGameScreen #ng-seats { height: auto; margin: 0 0 1 0; }
    NewGameScreen #ng-start { margin: 0 0 0 10; }
    NewGameScreen #ng-hint { color: $text-muted; height: auto; margin-top: 1; }
    """

    def __init__(self, settings: NewGameSettings | None = None, *, can_cancel: bool = False) -> None:
        super().__init__()
        self.settings = settings or NewGameSettings()
        self.can_cancel = can_cancel

    def _spec(self, game: str) -> Any:
        from colosseum.core.registry import spec

        return spec(game)

    def _first_game(self, wanted: str) -> str:
        """The game the screen opens on: the one chosen last time, if this program knows it."""
        from colosseum.core.registry import game_names

        try:
            self._spec(wanted)
        except ValueError:
            return game_names(discover=False)[0]
        return wanted

    def compose(self) -> ComposeResult:
        # Only what is shown is composed (the seats in play, the game's own option rows): a
        # hidden row is mounted when it is first shown, so the first frame comes sooner.
        s = self.settings
        game = self._first_game(s.game)
        # only the game shown is offered for the first frame; the others (their specs loaded)
        # once it is drawn (_discover_games)
        offered: list[tuple[str, object]] = [(self._spec(game).title, game)]
        counts = player_counts(game)
        players = s.players if s.players in counts else self._spec(game).default_players
        yield Static(" COLOSSEUM  New game", id="ng-title")
        body = VerticalScroll(id="ng-body")
        body.styles.margin = 0
        body.border_title = Text(self._spec(game).title)
        with body:
            with Horizontal(classes="row"):
                yield Static("Game", classes="lbl")
                yield Cycle(offered, game, id="ng-game")
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
            yield from self._option_rows(game, players)
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

    def on_mount(self) -> None:
        # the other games (and those other distributions register): once the first frame is drawn
        self.call_after_refresh(self._discover_games)

    def _discover_games(self) -> None:
        """Every game: this program's, those registered, those other distributions register."""
        offered = games_offered(discover=True)
        cycle = self.query_one("#ng-game", Cycle)
        if offered != cycle.options:
            self._reoffer(cycle, offered, cycle.value)

    def _seat_kind(self, i: int, game: str) -> str:
        """Seat ``i``'s type as the settings give it, where ``game`` offers it."""
        kind = self.settings.kinds[i] if i < len(self.settings.kinds) else "normal"
        bots = bot_names(game)
        return kind if kind in ("human", *bots) else bots[0]

    def _seat_row(self, i: int, game: str) -> Horizontal:
        name = FormInput(
            self.settings.names[i] if i < len(self.settings.names) else "",
            placeholder=f"player {i + 1}",
            compact=True,
            classes="name",
            id=f"ng-name-{i}",
            max_length=24,  # (a server keeps 24 columns of a name; the panels cut longer ones with ~)
        )
        name.cursor_blink = False
        kind = Cycle(self._kind_options(game), self._seat_kind(i, game), classes="kind", id=f"ng-kind-{i}")
        return Horizontal(Static(f"{i + 1}", classes="seat-no"), name, kind, classes="seat-row", id=f"ng-seat-{i}")

    def _option_rows(self, game: str, players: int) -> list[Horizontal]:
        values = self.settings.options if game == self.settings.game else {}
        rows = option_rows(self._spec(game).options, PREFIX, game, values, players)
        if rows:
            rows[-1].add_class("-last")
        return rows

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
        set_players(self, self._spec(self.game).options, PREFIX, n)

    def _show_game(self, game: str) -> None:
        """The choices of ``game``: its player counts, bot levels and options."""
        if not self.query(f"#{row_id(PREFIX, game)}"):
            # the rows of each game in the order they were first shown, before the Start button
            rows = self._option_rows(game, int(str(self.query_one("#ng-players", Cycle).value)))
            if rows:
                self.query_one("#ng-body").mount_all(rows, before="#ng-start")
        for row in self.query(".opt-row"):
            row.display = row.has_class(f"{PREFIX}-{game}")
        self.query_one("#ng-body").border_title = Text(self._spec(game).title)
        counts = player_counts(game)
        players = self.query_one("#ng-players", Cycle)
        old = players.value if isinstance(players.value, int) else self._spec(game).default_players
        nearest = min(counts, key=lambda n: abs(n - old))  # as many seats as the game has room for
        self._reoffer(players, [(str(n), n) for n in counts], nearest)
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.can_cancel
        return True

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.app.pop_screen()

    def read(self) -> NewGameSettings | None:
        """The settings as entered, or None (with a notification) when they do not make a game."""
        game = self.game
        found = self._spec(game)
        n = self.query_one("#ng-players", Cycle).value
        n = int(n) if isinstance(n, int) else found.default_players
        # seats never shown keep the settings' names and types
        shown = len(self._seats())
        names = [self.query_one(f"#ng-name-{i}", Input).value.strip() for i in range(shown)]
        names += [self.settings.names[i] for i in range(shown, MAX_SEATS)]
        kinds = [str(self.query_one(f"#ng-kind-{i}", Cycle).value) for i in range(shown)]
        kinds += [self._seat_kind(i, game) for i in range(shown, MAX_SEATS)]
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
        try:
            options = read_options(self, found.options, PREFIX)
            found.make_setup(used, seed=0, **{k: v for k, v in options.items() if v is not None})
        except OptionError as err:
            self.notify(str(err), severity="error", markup=False)
            return None
        options = {k: v for k, v in options.items() if v != next(o.default for o in found.options if o.name == k)}
        return NewGameSettings(players=n, names=names, kinds=kinds, seed=seed, options=options, game=game)

    def options_shown(self) -> Any:
        """A setup of the game and options the form shows (the rules screen shows their rules),
        or None when the options do not make one."""
        found = self._spec(self.game)
        try:
            options = read_options(self, found.options, PREFIX)
            names = list(found.default_names[: found.default_players])
            return found.make_setup(names, seed=0, **{k: v for k, v in options.items() if v is not None})
        except (OptionError, ValueError, LookupError):
            return None

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
