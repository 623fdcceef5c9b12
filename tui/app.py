"""The Textual application: ``run_app(args)`` (``colosseum`` / ``colosseum play``) and
``run_session(session, ...)`` (also used by ``colosseum resume``).

Screens and widgets are imported when first needed so the first screen comes up fast.
"""

from __future__ import annotations

import gc
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App, SystemCommand
from textual.binding import Binding

from colosseum.themes import THEME_NAMES

from .base import BaseApp, exit_soon_after_hangup

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from textual.command import Provider
    from textual.screen import Screen

    from colosseum.core.timeline import GameLog

    from .screens.game import GameScreen
    from .screens.newgame import NewGameScreen, NewGameSettings
    from .screens.playfrom import PlayFromChoice
    from .session import GameSession, LocalSession
    from .viewer import ViewerScreen
    from .widgets.board import PreviewSpaces

DEFAULT_NAMES = ("Becky", "Kat", "Laura", "Marcus", "Titus")

#: the terminal bell rings when a decision arrives for a seat at this terminal after other
#: players acted, and when chat names its player (a user setting may turn it off: ``bell_on``)
BELL = True


def _is_text_field(widget: object) -> bool:
    """Whether ``widget`` takes typed letters.  Text areas are looked for only once their module
    is loaded (none can have the focus before): importing it costs start-up time."""
    from textual.widgets import Input

    if isinstance(widget, Input):
        return True
    text_area = sys.modules.get("textual.widgets._text_area")
    return text_area is not None and isinstance(widget, text_area.TextArea)


def _commands_provider() -> type[Provider]:
    from .commands import ColosseumCommands

    return ColosseumCommands


class ColosseumApp(BaseApp):
    """The client.  With a ``session`` it opens the game at once; without, the new-game screen."""

    TITLE = "Colosseum"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {_commands_provider}
    BINDINGS = [
        Binding("f1", "help", "Help", id="app.help"),
        Binding("question_mark", "help", "Help", show=False, id="app.help-q"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        # A decision dialog is modal: only a priority binding reaches the app from there.
        Binding("u", "undo", "Undo", show=False, id="app.undo", priority=True),
        Binding("h", "hint", "Hint", show=False, id="app.hint", priority=True),
    ]

    def __init__(
        self,
        session: GameSession | None = None,
        *,
        bot_delay: float | None = None,
        theme: str | None = None,
        exit_at_end: bool = False,
        settings: NewGameSettings | None = None,
        record: bool = False,
        auto_dialogs: bool = True,
    ) -> None:
        from .settings import DEFAULT_BOT_DELAY, load_settings

        # the user's settings file; the command line (theme, bot_delay given here) wins
        self.user_settings = load_settings()
        stored = self.user_settings.theme
        if theme is None and stored is not None and _known_theme(stored):
            theme = stored
        super().__init__(theme=theme)
        self.session = session
        if bot_delay is None:
            bot_delay = self.user_settings.bot_delay
        self.bot_delay: float = DEFAULT_BOT_DELAY if bot_delay is None else bot_delay
        self.exit_at_end = exit_at_end
        self.settings = settings
        self.record = record
        self.auto_dialogs = auto_dialogs  # False: dialogs open only with a / Enter (tests, demos)
        self.bell_on = BELL
        self.play_from: tuple[GameLog, int] | None = None  # run_play_from: ask at start-up
        #: save ``session`` once its first frame is drawn (``build_app``): loading the log
        #: modules and creating the file need not hold up the first paint
        self.record_pending = False

    # ------------------------------------------------------------------ start-up
    def on_mount(self) -> None:
        if self.user_settings.keys:
            self.set_keymap(self.user_settings.keys)
        if self.user_settings.problem:
            self.notify(self.user_settings.problem, title="Settings ignored", severity="warning", markup=False)
        try:
            import asyncio

            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._hangup)
        except Exception:  # noqa: BLE001 - not on every platform
            pass
        if self.play_from is not None:
            log, at = self.play_from
            self.call_after_refresh(self._ask_play_from, log, at, True)
        if self.record_pending:
            self.call_after_refresh(self.record_now)
        # ``colosseum`` and ``colosseum play`` start with the garbage collector off (cli.main)
        self.call_after_refresh(gc.enable)

    def record_now(self) -> None:
        """Start saving the game given at start-up (``record_pending``), if not yet: the file
        gets every action played so far; the game screen's banner follows the recorder."""
        if not self.record_pending or self.session is None:
            return
        self.record_pending = False
        start_recording(self.session)  # type: ignore[arg-type]  # build_app's LocalSession
        from .widgets.save_banner import SaveBanner

        for screen in self.screen_stack:
            for banner in screen.query(SaveBanner):
                banner.follow_recorder()

    def get_default_screen(self) -> Screen[Any]:
        """The first screen is the game itself (or the new-game screen): no blank screen
        below it to draw first."""
        if self.session is not None:
            from .screens.game import GameScreen

            return GameScreen(
                self.session, bot_delay=self.bot_delay, exit_at_end=self.exit_at_end, auto_dialogs=self.auto_dialogs
            )
        from .screens.newgame import NewGameScreen

        return NewGameScreen(self.settings)

    def _hangup(self) -> None:
        """The terminal went away: leave cleanly (the game log is flushed after every action)."""
        exit_soon_after_hangup()
        self.exit(return_code=0)

    def on_new_game_screen_chosen(self, message: NewGameScreen.Chosen) -> None:
        s = message.settings
        if s.game == "municipium":
            self.start_municipium(
                tuple(s.names[: s.players]), tuple(s.kinds[: s.players]), seed=message.seed, options=s.options
            )
            return
        self.start_game(
            tuple(s.names[: s.players]),
            tuple(s.kinds[: s.players]),
            seed=message.seed,
            variant=s.variant,
            options=s.options,
        )

    def start_game(
        self,
        names: tuple[str, ...],
        kinds: tuple[str, ...],
        *,
        seed: int,
        variant: str = "grand",
        options: tuple[str, ...] = (),
    ) -> bool:
        """Start a new game (from the new-game screen).  False, with a notification, if the
        engine refuses the setup."""
        try:
            session = make_session(names, kinds, seed=seed, variant=variant, options=options)
        except Exception as err:  # noqa: BLE001 - RuleError, CatalogError, ValueError: shown
            self.notify(str(err), severity="error", markup=False)
            return False
        self.session = session
        if self.record:
            start_recording(session, notify=self.notify)
        # Replace whatever is on the stack (new-game screen, an old game) by the game.
        from .screens.game import GameScreen

        screen = GameScreen(
            session, bot_delay=self.bot_delay, exit_at_end=self.exit_at_end, auto_dialogs=self.auto_dialogs
        )
        for old in self.screen_stack:
            if isinstance(old, GameScreen):
                old.stop()
        # the bottom screen (the first game or the new-game screen) stays below, dormant
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)
        return True

    def start_municipium(
        self, names: tuple[str, ...], kinds: tuple[str, ...], *, seed: int, options: tuple[str, ...] = ()
    ) -> bool:
        """Start a Municipium game (from the new-game screen) on its own game screen, saved like
        a Colosseum game.  False, with a notification, if the engine refuses the setup."""
        from colosseum.core.errors import RuleError

        from .municipium.app import make_muni_session
        from .municipium.screen import MuniGameScreen

        try:
            session = make_muni_session(names, kinds, seed=seed, options=options)
        except (RuleError, ValueError) as err:
            self.notify(str(err), severity="error", markup=False)
            return False
        if self.record:
            from .storage import record_game

            record_game(session)
        from .screens.game import GameScreen

        for old in self.screen_stack:
            if isinstance(old, GameScreen):
                old.stop()
        # the app's session is the game being played: its log is closed when the app ends
        self.session = session  # type: ignore[assignment]  # not a GameSession: Municipium's own
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(
            MuniGameScreen(
                session, bot_delay=self.bot_delay, exit_at_end=self.exit_at_end, auto_dialogs=self.auto_dialogs
            )
        )
        return True

    # ------------------------------------------------------------------ play from here
    def on_viewer_screen_play_from(self, message: ViewerScreen.PlayFrom) -> None:
        """The viewer's "play from here": ask who plays each seat, then start the fork."""
        self._ask_play_from(message.game_log, message.at, False)

    def _ask_play_from(self, log: GameLog, at: int, exit_on_cancel: bool) -> None:
        from .screens.playfrom import PlayFromScreen

        def chosen(choice: PlayFromChoice | None) -> None:
            if choice is not None:
                self.play_fork(log, at, choice.kinds, reseed=choice.reseed)
            elif exit_on_cancel:
                self.exit(return_code=0)

        self.push_screen(PlayFromScreen(log, at), callback=chosen)

    def play_fork(self, log: GameLog, at: int, kinds: Sequence[str], *, reseed: bool = False) -> bool:
        """Start a new game from ``log``'s first ``at`` actions (recorded as a fork of it)."""
        from .fork import ForkError, fork_session, new_seed, record_fork

        try:
            session = fork_session(log, at, kinds, reseed=new_seed() if reseed else None)
        except ForkError as err:
            self.notify(str(err), severity="error", markup=False)
            return False
        try:
            path = record_fork(session, log, at)
        except OSError as err:
            self.notify(f"The new game is not being saved: {err}", severity="warning", markup=False)
        else:
            self.notify(f"New game from action {at}: {path.name}", title="Play from here", markup=False)
        self.session = session
        from .screens.game import GameScreen

        screen = GameScreen(
            session, bot_delay=self.bot_delay, exit_at_end=self.exit_at_end, auto_dialogs=self.auto_dialogs
        )
        for old in self.screen_stack:
            if isinstance(old, GameScreen):
                old.stop()
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)
        return True

    # ------------------------------------------------------------------ helpers
    def game_screen(self) -> GameScreen | None:
        from .screens.game import GameScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def on_preview_spaces(self, message: PreviewSpaces) -> None:
        """A dialog highlights track spaces (noble moves, gates): the game's board shows them."""
        game = self.game_screen()
        if game is not None and game.is_attached:
            game.set_preview(message.spaces)

    # ------------------------------------------------------------------ actions
    def _undo_target(self) -> GameScreen | None:
        """The game `u` acts on: the one on top or under its own dialog, unless a text field
        has the focus (the letter is typed there)."""
        game = self.game_screen()
        if game is None or not game.serves(self.screen) or _is_text_field(self.focused):
            return None
        return game

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "hint"):  # on the game screen itself its own key serves
            game = self._undo_target()
            return game is not None and self.screen is not game
        return super().check_action(action, parameters)

    def action_undo(self) -> None:
        game = self._undo_target()
        if game is not None:
            game.action_undo()

    def action_hint(self) -> None:
        """`h` from a decision dialog: the hint for that decision (the moment one is wanted)."""
        game = self._undo_target()
        if game is not None:
            game.action_hint()

    def action_command_palette(self) -> None:
        """Textual's palette with an ASCII placeholder."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(id="--command-palette", placeholder="Search for commands"))

    async def action_quit(self) -> None:
        """Ctrl+Q: in a game still going, ask first and say where the game is kept; a second
        Ctrl+Q while asked quits (the binding has priority)."""
        from .screens.confirm import ConfirmScreen
        from .widgets.save_banner import quit_checked, recorder_of

        recorder = recorder_of(self.session)
        if recorder is not None and not recorder.flush():
            quit_checked(self, self.session)  # moves not on disk: write a copy first, then ask
            return
        if isinstance(self.screen, ConfirmScreen) or not self._game_going():
            self.exit(message=self._exit_note())
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit(message=self._exit_note())

        self.push_screen(ConfirmScreen("Quit?", self._quit_question()), answered)

    def _game_going(self) -> bool:
        session = self.session
        if session is None or session.state.phase == "over":
            return False
        from .municipium.screen import MuniGameScreen

        return self.game_screen() is not None or any(isinstance(s, MuniGameScreen) for s in self.screen_stack)

    def _saved_path(self) -> str | None:
        """The file the game is being saved to, if it is (a local, recorded game)."""
        recorder = getattr(self.session, "recorder", None)
        path = getattr(recorder, "path", None)
        if path is None or getattr(recorder, "error", None) is not None:
            return None
        return str(path)

    def _quit_question(self) -> str:
        if self._saved_path() is not None:
            return "Leave the game? It is saved: continue it later with `colosseum resume`."
        if self.session is not None and not hasattr(self.session, "recorder"):
            return "Leave the game? It goes on without you at the table."
        return "Leave the game? It is not being saved, so it cannot be continued."

    def _exit_note(self) -> Text | None:
        """Printed after the terminal is restored: where a game left unfinished is kept."""
        if not self._game_going():
            return None
        path = self._saved_path()
        if path is None:
            return None
        return Text(f"colosseum: game saved ({path}) — continue with `colosseum resume`")  # a path is no markup

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if type(self.screen).__name__ == "HelpScreen":
            self.pop_screen()
            return
        self.push_screen(HelpScreen(self.screen))

    def action_rules(self) -> None:
        from .screens.rules import RulesScreen

        if type(self.screen).__name__ != "RulesScreen":
            self.push_screen(RulesScreen())

    def action_new_game(self) -> None:
        from .screens.newgame import NewGameScreen

        if type(self.screen).__name__ != "NewGameScreen":
            self.record = True
            self.push_screen(NewGameScreen(self.settings, can_cancel=True))

    def action_set_theme(self, name: str) -> None:
        if name in self.available_themes:
            self.theme = name

    def _remember(self, **changes: object) -> None:
        """Keep a setting the player chose for the next run (the settings file)."""
        from .settings import remember

        problem = remember(**changes)
        if problem:
            self.notify(problem, severity="warning", markup=False)

    def watch_theme(self, theme: str) -> None:
        if self.is_running and theme != self.user_settings.theme:
            # chosen by the player (palette, Textual's theme picker): keep it for next time
            self.user_settings.theme = theme
            self._remember(theme=theme)
        game = self.game_screen() if self.is_running else None
        if game is not None and game.is_attached:
            game.sync()

    def action_toggle_bell(self) -> None:
        self.bell_on = not self.bell_on
        self.notify("The bell rings when it is your turn." if self.bell_on else "The bell is off.", timeout=2)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for cmd in super().get_system_commands(screen):
            if cmd.title not in ("Quit", "Keys"):  # ours covers these
                yield cmd
        from .widgets.save_banner import recorder_of

        if recorder_of(self.session) is not None:
            yield SystemCommand(
                "Save to another folder",
                "Write the whole game to a new file in a folder you choose; saving goes on there",
                self.action_save_elsewhere,
            )
        yield SystemCommand(
            "Bell off" if self.bell_on else "Bell on",
            "The terminal bell when a decision reaches you after others acted, or chat names you",
            self.action_toggle_bell,
        )

    def action_save_elsewhere(self) -> None:
        from .widgets.save_banner import SaveElsewhereScreen, recorder_of

        rec = recorder_of(self.session)
        if rec is not None:
            self.push_screen(SaveElsewhereScreen(rec))


# ====================================================================== sessions


def make_session(
    names: Sequence[str], kinds: Sequence[str], *, seed: int, variant: str = "grand", options: Sequence[str] = ()
) -> LocalSession:
    """A new game in this process; raises ValueError (RuleError, CatalogError) for a bad setup."""
    from colosseum.core.games.colosseum.spec import SPEC

    from .session import LocalSession, Seat

    setup = SPEC.make_setup(names, seed=seed, variant=variant, options=tuple(options))
    return LocalSession(setup, tuple(Seat(kind=k) for k in kinds))


def start_recording(session: LocalSession, notify: Callable[..., object] | None = None) -> None:
    """Save the game in the games folder as it is played (``storage.record_game``).  A game
    that cannot be saved is played anyway: the game screen's banner says why, in the UI (not
    on the terminal it covers), and saving is retried after every move.  ``notify`` is not
    used any more (kept for callers)."""
    from .storage import record_game

    record_game(session)


def _finish(app: ColosseumApp) -> int:
    """After the app: let go of the game's log; moves that could not be saved are said on the
    terminal and make the status 1."""
    from .storage import finish_recording

    status = app.return_code or 0
    app.record_now()  # a game left before its first frame is saved all the same
    lost = finish_recording(app.session) if app.session is not None else None
    if lost:
        print(f"colosseum: {lost}", file=sys.stderr)
        return status or 1
    return status


def _bot_name(name: str) -> str:
    from colosseum.core.games.colosseum.bots import BOTS

    if name in BOTS:
        return name
    fallback = "random" if "random" in BOTS else sorted(BOTS)[0]
    print(f"colosseum: bot {name!r} is not available yet; using {fallback!r}", file=sys.stderr)
    return fallback


def _known_theme(theme: str) -> bool:
    from textual.theme import BUILTIN_THEMES

    return theme in THEME_NAMES or theme in BUILTIN_THEMES


def _check_theme(theme: str | None) -> bool:
    if theme is None or theme in THEME_NAMES:
        return True
    from textual.theme import BUILTIN_THEMES

    if theme in BUILTIN_THEMES:
        return True
    print(f"colosseum: unknown theme {theme!r}; choose one of {', '.join(THEME_NAMES)}", file=sys.stderr)
    return False


def run_session(
    session: GameSession, *, bot_delay: float = 0.6, theme: str | None = None, exit_at_end: bool = False
) -> int:
    """Run the client on an existing session (a new game or a resumed one)."""
    if not _check_theme(theme):
        return 2
    app = ColosseumApp(session, bot_delay=bot_delay, theme=theme, exit_at_end=exit_at_end)
    app.run()
    return _finish(app)


def run_play_from(log: GameLog, at: int, *, theme: str | None = None, bot_delay: float = 0.6) -> int:
    """``colosseum view``'s "play from here": ask who plays each seat, then play the fork."""
    if not _check_theme(theme):
        return 2
    app = ColosseumApp(None, bot_delay=bot_delay, theme=theme, record=True)
    app.play_from = (log, at)
    app.run()
    return app.return_code or 0


def run_app(args: argparse.Namespace) -> int:
    """``colosseum`` (new-game screen) and ``colosseum play`` (straight into a game)."""
    try:
        app = build_app(args)
        if isinstance(app, int):
            return app
        app.run()
    finally:
        gc.enable()  # (off while starting: cli.main)
    return _finish(app)


def build_app(args: argparse.Namespace, *, record: bool = True) -> ColosseumApp | int:
    """The app ``run_app`` would run for ``args``, or an exit status for bad arguments."""
    theme = getattr(args, "theme", None)
    if not _check_theme(theme):
        return 2
    if getattr(args, "command", None) != "play":
        return ColosseumApp(None, theme=theme, record=record)
    n = args.players or 4  # None: not given on the command line
    humans = args.humans
    if not 0 <= humans <= n:
        print(f"colosseum: --humans must be 0 to {n}", file=sys.stderr)
        return 2
    if args.names:
        names = tuple(x.strip() for x in args.names.split(","))
        if len(names) != n:
            print(f"colosseum: --names needs {n} names", file=sys.stderr)
            return 2
    else:
        names = DEFAULT_NAMES[:n]
    bot = _bot_name(args.bots)
    kinds = ("human",) * humans + (bot,) * (n - humans)
    seed = args.seed
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    try:
        session = make_session(names, kinds, seed=seed, variant=args.variant, options=tuple(args.options))
    except ValueError as err:  # RuleError, CatalogError: a bad setup is a message, not a traceback
        print(f"colosseum: {err}", file=sys.stderr)
        return 2
    app = ColosseumApp(session, bot_delay=args.bot_delay, theme=theme, exit_at_end=args.exit_at_end)
    app.record_pending = record
    return app
