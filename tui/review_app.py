"""``colosseum view FILE``: the review on its own (:class:`ViewerApp`), an app beside the game's:
the viewer's screen (``viewer.ViewerScreen``) with the help every screen has (F1, ``?``: every
key of the review, the ones the key bar has no room for too) and "play from here", which asks
who plays each seat over the review: Cancel goes back to the same position; Start ends the app
with ``play_from`` and ``choice`` set, and the command line plays that game (this app has no
game screens).
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from colosseum.core.timeline import GameLog

from .base import BaseApp
from .viewer import ViewerScreen, _theme_known, _theme_ok

__all__ = ["ViewerApp", "run_viewer", "view_log"]


class ViewerApp(BaseApp):
    """The review of one saved game (see the module's text)."""

    TITLE = "Colosseum - review"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("f1", "help", "Help", show=False, id="app.help"),
        Binding("question_mark", "help", "Help", show=False, id="app.help-q"),
    ]

    def __init__(self, log: GameLog, *, theme: str | None = None, start_index: int | None = None) -> None:
        from .settings import load_settings

        # the user's settings file, as the game reads it; a theme given here wins
        self.user_settings = load_settings()
        stored = self.user_settings.theme
        if theme is None and stored is not None and _theme_known(stored):
            theme = stored
        super().__init__(theme=theme)
        self.title = f"{log.spec.title} - review"
        self.log_file = log
        self.start_index = start_index
        self.play_from: ViewerScreen.PlayFrom | None = None
        self.choice: Any = None  # the seats chosen for it (screens.playfrom.PlayFromChoice)

    def on_viewer_screen_play_from(self, message: ViewerScreen.PlayFrom) -> None:
        from .screens.playfrom import PlayFromChoice, PlayFromScreen

        def chosen(choice: PlayFromChoice | None) -> None:
            if choice is not None:  # (None: Cancel, the review goes on where it was)
                self.play_from, self.choice = message, choice
                self.exit(0)

        self.push_screen(PlayFromScreen(message.game_log, message.at), callback=chosen)

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        elif isinstance(self.screen, ViewerScreen):  # (a dialog over it has its own keys)
            self.push_screen(HelpScreen(self.screen))

    def on_mount(self) -> None:
        if self.user_settings.keys:
            self.set_keymap(self.user_settings.keys)
        if self.user_settings.problem:
            self.notify(self.user_settings.problem, title="Settings", severity="warning", markup=False)
        from .screens.hint import AnalysisScreen

        viewer = ViewerScreen.from_log(self.log_file, self.start_index)
        viewer.analyser = AnalysisScreen
        self.push_screen(viewer, callback=lambda _: self.exit(0))


def run_viewer(log: GameLog, *, theme: str | None = None) -> int:
    return view_log(log, theme=theme)[0]


def view_log(log: GameLog, *, theme: str | None = None) -> tuple[int, tuple[ViewerScreen.PlayFrom, Any] | None]:
    """Run the review; (exit status, the "play from here" asked for and the seats chosen for it
    (a ``PlayFromChoice``), if any)."""
    if not _theme_ok(theme):
        return 2, None
    import gc

    log.timeline.state(log.timeline.end)
    gc.collect()
    gc.freeze()  # the replayed positions live as long as the viewer: keep them out of GC passes
    app = ViewerApp(log, theme=theme)
    app.run()
    asked = None if app.play_from is None or app.choice is None else (app.play_from, app.choice)
    return app.return_code or 0, asked
