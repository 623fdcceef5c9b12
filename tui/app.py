"""The Textual application: ``run_app(args)`` (``colosseum`` / ``colosseum play``) and
``run_session(session, ...)`` (also used by ``colosseum resume``).

Screens and widgets are imported when first needed so the first screen comes up fast.
"""

from __future__ import annotations

import gc
import signal
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App, SystemCommand
from textual.binding import Binding

from colosseum.themes import THEME_NAMES

from .base import exit_soon_after_hangup
from .screens.tutorial import GuidedApp

#: seconds after start-up by which a game with people at this terminal is being saved even if
#: no decision of theirs came first (bots thinking); their first dialog starts it sooner
RECORD_AFTER = 0.5

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from textual.command import Provider
    from textual.screen import Screen

    from colosseum.core.timeline import GameLog

    from .client import GameClient
    from .screens.game import GameScreen
    from .screens.newgame import NewGameScreen, NewGameSettings
    from .screens.playfrom import PlayFromChoice
    from .session import GameSession, LocalSession
    from .viewer import ViewerScreen
    from .widgets.preview import Preview

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


class ColosseumApp(GuidedApp):
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
        if session is not None:
            self.title = session.spec.title  # the terminal's title: the game played
        if bot_delay is None:
            bot_delay = self.user_settings.bot_delay
        self.bot_delay: float = DEFAULT_BOT_DELAY if bot_delay is None else bot_delay
        self.exit_at_end = exit_at_end
        self.settings = settings
        self.record = record
        self.auto_dialogs = auto_dialogs  # False: dialogs open only with a / Enter (tests, demos)
        self.bell_on = BELL
        #: save ``session`` once its first frame is drawn (``build_app``): loading the log
        #: modules and creating the file need not hold up the first paint
        self.record_pending = False

    # ------------------------------------------------------------------ start-up
    def on_mount(self) -> None:
        if self.user_settings.keys:
            self.set_keymap(self.user_settings.keys)
        if self.user_settings.problem:
            self.notify(self.user_settings.problem, title="Settings", severity="warning", markup=False)
        try:
            import asyncio

            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._hangup)
        except Exception:  # noqa: BLE001 - not on every platform
            pass
        if self.record_pending and self.session is not None and self.session.local_seats():
            # saving starts once a person's first decision is drawn (its modules and the file
            # need not hold that up; a game left sooner is saved on the way out all the same)
            self.set_timer(RECORD_AFTER, self.record_now)
        elif self.record_pending:
            self.call_after_refresh(self.record_now)
        # ``colosseum`` and ``colosseum play`` start with the garbage collector off (cli.main)
        self.call_after_refresh(gc.enable)

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        if self.record_pending and hasattr(screen, "decision_open"):  # a decision dialog
            screen.call_after_refresh(self.record_now)
        return super().push_screen(screen, *args, **kwargs)

    def record_now(self) -> None:
        """Start saving the game given at start-up (``record_pending``), if not yet: the file
        gets every action played so far; the game screen's banner follows the recorder."""
        session = self.session
        if not self.record_pending or session is None:
            return
        self.record_pending = False
        from .session import LocalSession

        if isinstance(session, LocalSession):
            start_recording(session)
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

        return NewGameScreen(self._new_game_settings())

    def _hangup(self) -> None:
        """The terminal went away: leave cleanly (the game log is flushed after every action)."""
        exit_soon_after_hangup()
        self.exit(return_code=0)

    def on_new_game_screen_chosen(self, message: NewGameScreen.Chosen) -> None:
        s = message.settings
        self.user_settings.new_game = s.remembered()
        self._remember(new_game=s.remembered())
        self.start_game(
            s.game, tuple(s.names[: s.players]), tuple(s.kinds[: s.players]), seed=message.seed, options=s.options
        )

    def start_game(
        self,
        game: str,
        names: tuple[str, ...],
        kinds: tuple[str, ...],
        *,
        seed: int,
        options: dict[str, object] | None = None,
    ) -> bool:
        """Start a new game of ``game`` (from the new-game screen).  False, with a notification,
        if the setup is refused (an option's value, the player count, a bot)."""
        from .local import make_session

        try:
            session = make_session(game, names, kinds, seed=seed, options=options)
        except ValueError as err:  # OptionError, RuleError, an unknown bot: shown
            self.notify(str(err), severity="error", markup=False)
            return False
        if self.record:
            start_recording(session)
        self._play(session)
        return True

    def _play(self, session: GameSession) -> None:
        """Replace whatever is on the stack (new-game screen, an old game) by ``session``'s game;
        the bottom screen (the first game or the new-game screen) stays below, dormant.  The
        app's session is the game being played: its log is closed when the app ends."""
        from .screens.game import GameScreen

        self.session = session
        self.title = session.spec.title  # the terminal's title: the game played
        screen = GameScreen(
            session, bot_delay=self.bot_delay, exit_at_end=self.exit_at_end, auto_dialogs=self.auto_dialogs
        )
        for old in self.screen_stack:
            if isinstance(old, GameScreen):
                old.stop()
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    play_session = _play  # (the guided game's start: GuidedApp)

    # ------------------------------------------------------------------ play from here
    def on_viewer_screen_play_from(self, message: ViewerScreen.PlayFrom) -> None:
        """The viewer's "play from here": ask who plays each seat, then start the fork."""
        from .screens.playfrom import PlayFromScreen

        log, at = message.game_log, message.at

        def chosen(choice: PlayFromChoice | None) -> None:
            if choice is not None:
                self.play_fork(log, at, choice.kinds, reseed=choice.reseed)

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
        self._play(session)
        return True

    # ------------------------------------------------------------------ helpers
    def game_screen(self) -> GameScreen | None:
        from .screens.game import GameScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def current_client(self) -> GameClient:
        """The client part of the game on screen, else of the game chosen on the new-game
        screen, else of the default game."""
        from colosseum.core.registry import spec

        from .client import load_client

        game = self.game_screen()
        if game is not None:
            return game.client
        chosen = getattr(self.screen, "game", None) if type(self.screen).__name__ == "NewGameScreen" else None
        try:
            return load_client(spec(str(chosen) if chosen else None))
        except ValueError:
            return load_client(spec(None))

    def on_preview(self, message: Preview) -> None:
        """A dialog shows what its highlighted choice would do (Colosseum: track spaces)."""
        game = self.game_screen()
        if game is not None and game.is_attached:
            game.set_preview(message.value)

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

        self.push_screen(ConfirmScreen(self._quit_title(), self._quit_question()), answered)

    def _game_going(self) -> bool:
        session = self.session
        if session is None or session.rules.is_over(session.state):
            return False
        return self.game_screen() is not None

    def _saved_path(self) -> str | None:
        """The file the game is being saved to, if it is (a local, recorded game)."""
        recorder = getattr(self.session, "recorder", None)
        path = getattr(recorder, "path", None)
        if path is None or getattr(recorder, "error", None) is not None:
            return None
        return str(path)

    def _quit_title(self) -> str:
        return "Quit?"

    def _quit_question(self) -> str:
        from .storage import resume_command

        path = self._saved_path()
        if path is not None:
            return f"Leave the game? It is saved: continue it later with `{resume_command(path)}`."
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
        from .storage import resume_command

        return Text(f"colosseum: game saved ({path}) — continue with `{resume_command(path)}`")  # a path is no markup

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if type(self.screen).__name__ == "HelpScreen":
            self.pop_screen()
            return
        self.push_screen(HelpScreen(self.screen))

    def action_rules(self) -> None:
        from .screens.rules import RulesScreen

        if type(self.screen).__name__ != "RulesScreen":
            game = self.game_screen()
            if game is not None:
                setup = game.session.setup
            else:
                shown = getattr(self.screen, "options_shown", None)
                setup = shown() if callable(shown) else None
            self.push_screen(RulesScreen(self.current_client(), setup))

    def action_new_game(self) -> None:
        from .screens.newgame import NewGameScreen

        if type(self.screen).__name__ != "NewGameScreen":
            self.record = True
            self.push_screen(NewGameScreen(self._new_game_settings(), can_cancel=True))

    def action_statistics(self) -> None:
        """The statistics of the saved games (new-game screen: F2; the palette)."""
        from .screens.stats import StatsScreen

        if type(self.screen).__name__ != "StatsScreen":
            self.push_screen(StatsScreen())

    def action_set_theme(self, name: str) -> None:
        if name in self.available_themes:
            self.theme = name

    def _new_game_settings(self) -> NewGameSettings:
        """The new-game screen's settings: given to the app, else the last ones chosen."""
        if self.settings is not None:
            return self.settings
        from .screens.newgame import NewGameSettings

        return NewGameSettings.from_remembered(self.user_settings.new_game)

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


def start_recording(session: LocalSession) -> None:
    """Save the game in the games folder as it is played (``storage.record_game``).  A game
    that cannot be saved is played anyway: the game screen's banner says why, in the UI (not
    on the terminal it covers), and saving is retried after every move."""
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


def _known_theme(theme: str) -> bool:
    from textual.theme import BUILTIN_THEMES

    return theme in THEME_NAMES or theme in BUILTIN_THEMES


def _check_theme(theme: str | None) -> bool:
    if theme is None or _known_theme(theme):
        return True
    print(f"colosseum: unknown theme {theme!r}; choose one of {', '.join(THEME_NAMES)}", file=sys.stderr)
    return False


def run_session(
    session: GameSession,
    *,
    bot_delay: float = 0.6,
    theme: str | None = None,
    exit_at_end: bool = False,
    guided: bool = False,
) -> int:
    """Run the client on an existing session (a new game or a resumed one; ``guided``: the
    guided first game, with its notes)."""
    if not _check_theme(theme):
        return 2
    app = ColosseumApp(session, bot_delay=bot_delay, theme=theme, exit_at_end=exit_at_end)
    if guided:
        app.guide_session(session)
    app.run()
    return _finish(app)


def run_app(args: argparse.Namespace) -> int:
    """``colosseum`` (new-game screen) and ``colosseum play`` (straight into a game)."""
    from .base import BaseApp, no_terminal

    try:
        app = build_app(args)
        if isinstance(app, int):
            return app
        if no_terminal():  # said before the game is saved for nothing
            print(BaseApp.NO_TERMINAL, file=sys.stderr)
            return 2
        app.offer_tutorial = app.session is None  # `colosseum`: the first start offers the guided game
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
    from colosseum.core.registry import spec

    found = spec(getattr(args, "game", None))
    n = args.players or found.default_players  # None: not given on the command line
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
        names = found.default_names[:n]
    from .local import bot_name, make_session

    bot = bot_name(found.name, args.bots)
    kinds = ("human",) * humans + (bot,) * (n - humans)
    seed = args.seed
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)

    try:
        session = make_session(found.name, names, kinds, seed=seed, options=getattr(args, "setup_options", None))
    except ValueError as err:  # OptionError, RuleError: a bad setup is a message, not a traceback
        print(f"colosseum: {err}", file=sys.stderr)
        return 2
    app = ColosseumApp(session, bot_delay=args.bot_delay, theme=theme, exit_at_end=args.exit_at_end)
    app.record_pending = record
    return app
