"""What every Colosseum app shares: the themes, ASCII key names and plain scrollbars.

The main client, the viewer, the SSH lobby and the test harnesses all derive from ``BaseApp``
so that they draw the same way whichever was created first in a process.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.driver import Driver
from textual.events import ScreenResume
from textual.notifications import Notification, Notify, SeverityLevel

from colosseum.themes import DEFAULT_THEME, register_themes

ASCII_KEYS = {
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "enter": "Enter",
    "backspace": "Bksp",
    "question_mark": "?",
    "escape": "esc",
}


def ascii_scrollbars() -> None:
    """Scrollbar thumbs as plain cells (their colour shows them): Textual's partial-cell
    glyphs are block elements, which some terminals draw double width."""
    from textual.scrollbar import ScrollBarRender

    ScrollBarRender.VERTICAL_BARS = [" "] * 8
    ScrollBarRender.HORIZONTAL_BARS = [" "] * 8


class StyledOnMount:
    """A mixin for a screen whose first showing need not style its widgets a second time.

    Textual (8.2) styles each widget as it is mounted, then restyles the whole screen when it
    is first shown (its first ``ScreenResume``): for a screen whose widgets' CSS is all in place
    before they are mounted (no later class's CSS restyles an earlier widget) that second pass
    changes nothing and costs milliseconds before the first frame (issue 23).  Later showings
    (back from a screen pushed on top) restyle as before."""

    _styled_on_mount = True

    def _on_screen_resume(self, event: ScreenResume) -> None:
        if self._styled_on_mount:
            self._styled_on_mount = False
            event.refresh_styles = False  # read by Screen's own handler, which runs after this


def submit_or_notify(node, session, action) -> bool:
    """Send ``action`` through ``session`` for a widget or screen.  A refused action (the
    engine's RuleError, or a lost connection) shows its message and changes nothing; the
    player never sees a traceback."""
    from colosseum.core.errors import RuleError

    try:
        session.submit(action)
    except RuleError as err:
        node.notify(str(err), severity="error", markup=False)
        return False
    except Exception as err:  # noqa: BLE001 - e.g. the game server is gone
        node.notify(f"Could not do that: {err}", severity="error", markup=False)
        return False
    return True


def exit_soon_after_hangup(seconds: float = 3.0) -> None:
    """The terminal is gone (SIGHUP): if a clean shutdown wedges (Textual's output thread can
    block writing to a dead terminal), end the process anyway.  Nothing is lost: a local game
    log is flushed after every action, and a networked game lives on the server."""
    import os
    import threading

    timer = threading.Timer(seconds, os._exit, args=(0,))
    timer.daemon = True
    timer.start()


#: the smallest terminal every screen is laid out for (columns, rows)
MIN_SIZE = (80, 24)


def too_small_text(width: int, height: int) -> str:
    need_w, need_h = MIN_SIZE
    return (
        f"The terminal is too small: {width}x{height}. Colosseum needs at least {need_w}x{need_h} "
        "columns x rows. Make the window larger (or the font smaller); the game goes on where it was "
        "(keys wait until then)."
    )


class BaseApp(App):
    # Below MIN_SIZE the panels would cut each other: every screen's widgets are hidden and one
    # message (a notification, which Textual shows on whatever screen is on top) says so; the
    # screens come back untouched when the terminal grows.
    SCOPED_CSS = False  # the rules below are about the screens, not inside the app node
    DEFAULT_CSS = """
    App.-too-small Screen > * { visibility: hidden; }
    App.-too-small ToastRack { visibility: visible; height: 1fr; align: center middle; margin-bottom: 0; overflow-y: hidden; }
    App.-too-small Toast { max-width: 100%; }
    App.-too-small Toast.-warning { border: round $warning; border-left: round $warning; }
    """

    #: in a browser (the web gateway's client process: COLOSSEUM_FRONT=web) the keys a browser
    #: keeps for itself (Ctrl+T a new tab, Ctrl+Q quits Firefox) have alternatives, shown in the
    #: key bar; a player's own keymap (settings) still wins
    WEB_KEYS = {"net.say": "alt+t", "app.quit": "alt+q,ctrl+q"}

    def __init__(self, *, theme: str | None = None) -> None:
        super().__init__()
        if os.environ.get("COLOSSEUM_FRONT") == "web":
            self.set_keymap({})
        ascii_scrollbars()
        register_themes(self)
        self._first_theme(theme or DEFAULT_THEME)
        self._too_small: Notification | None = None  # the message shown

    #: the one line said when a screen is asked for without a terminal
    NO_TERMINAL = "colosseum: this needs a terminal (standard input or output is not one)"

    def set_keymap(self, keymap: Any) -> None:
        """``keymap`` over the browser's alternatives when the client runs in a browser."""
        self._user_keys = {k: v for k, v in dict(keymap).items() if k not in self.WEB_KEYS}
        if os.environ.get("COLOSSEUM_FRONT") == "web":
            keymap = {**self.WEB_KEYS, **dict(keymap)}
        super().set_keymap(keymap)

    _user_keys: dict[str, str] = {}  # noqa: RUF012 - (each app sets its own in set_keymap)

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        if self._user_keys and not isinstance(screen, str):
            self._check_key_clashes(screen)
        return super().push_screen(screen, *args, **kwargs)

    def _check_key_clashes(self, screen: Any) -> None:
        """A key override that takes the key of another binding of the same screen or dialog
        (``"dialog.close" = "enter"`` took Enter from Confirm: no choice could be made, and
        Textual 8 says nothing of such a clash) is left out, the other binding keeps its key,
        and the player is told once, on the screen they look at."""
        defaults: dict[str, set[str]] = {}
        for cls in reversed(type(screen).__mro__):
            for b in vars(cls).get("BINDINGS", ()):
                if isinstance(b, Binding) and b.id:
                    defaults[b.id] = {k.strip() for k in b.key.split(",")}
        user = {bid: {k.strip() for k in v.split(",")} for bid, v in self._user_keys.items()}
        keys = {bid: user.get(bid, default) for bid, default in defaults.items()}
        culprits = sorted(
            bid
            for bid in defaults.keys() & user.keys()
            if user[bid] != defaults[bid] and any(keys[bid] & keys[o] for o in keys if o != bid)
        )
        if not culprits:
            return
        taken = sorted({o for bid in culprits for o in keys if o not in culprits and keys[bid] & keys[o]})
        self.set_keymap({k: v for k, v in self._user_keys.items() if k not in culprits})
        self.notify(
            f"Key override{'s' if len(culprits) > 1 else ''} {', '.join(culprits)} left out: "
            f"{'they take' if len(culprits) > 1 else 'it takes'} the key of {', '.join(taken) or 'another'} "
            "on the same screen.",
            title="Settings",
            severity="warning",
            markup=False,
            timeout=10,
        )

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Run the app in the terminal; without one (``colosseum view FILE </dev/null``, output
        to a pipe) say so in one line and end with status 2 instead of drawing into nothing.
        A browser's client process (Textual's web driver) and headless runs need none."""
        if not kwargs.get("headless") and no_terminal():
            print(self.NO_TERMINAL, file=sys.stderr)
            self._return_code = 2
            return None
        return super().run(*args, **kwargs)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, but in a Linux terminal one whose input thread sleeps while
        nothing is typed (``tui/driver.py``; issue 24: idle SSH sessions cost CPU)."""
        driver_class = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver_class is LinuxDriver:
            from colosseum.tui.driver import QuietLinuxDriver

            return QuietLinuxDriver
        return driver_class

    def _first_theme(self, name: str) -> None:
        """Take ``name`` as the theme before anything is styled.  ``self.theme = name`` would have
        Textual parse every stylesheet a second time and restyle the whole app once it runs (its
        theme watcher defers a refresh_css), just before the first frame; here nothing is parsed
        yet, so the theme's colours need only go into the stylesheet's variables.  Does at once
        what ``App._watch_theme`` does, without its deferred refresh."""
        self.set_reactive(App.theme, self._validate_theme(name))
        theme = self.current_theme
        classes = {c: False for c in self.classes if c.startswith("-theme-")}
        classes.update({f"-theme-{theme.name}": True, "-dark-mode": theme.dark, "-light-mode": not theme.dark})
        self.update_classes(classes, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A notification, always plain text: messages carry names, file names and the server's
        words, and ``Widget.notify`` asks for markup unless told otherwise.  ``markup`` is
        ignored (nothing in the client styles a notification with markup)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    @property
    def too_small(self) -> bool:
        return self._too_small is not None

    async def on_event(self, event: events.Event) -> None:
        # hidden screens take no keys or clicks: nothing is chosen that the player cannot see
        if self._too_small is not None and isinstance(event, events.InputEvent) and not event.is_forwarded:
            return
        await super().on_event(event)

    def on_resize(self, event) -> None:
        self.check_size(event.size.width, event.size.height)

    def _refresh_all_toasts(self) -> None:
        """Textual refreshes only the top screen's notifications; a screen under a dialog
        would keep showing the stale message when the dialog is on top."""
        from textual.widgets._toast import ToastRack  # (private: no public way to do this)

        for screen in self.screen_stack:
            for rack in screen.query_children(ToastRack):
                rack.show(self._notifications)

    def check_size(self, width: int, height: int) -> None:
        """Hide the screens and say so when the terminal is smaller than ``MIN_SIZE``."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if self._too_small is not None:
            self._unnotify(self._too_small)
            self._too_small = None
            self._refresh_all_toasts()
        self.set_class(small, "-too-small")
        if small:
            # markup off: the text is ours, but "[...]" must never be read as a style
            note = Notification(too_small_text(width, height), "Too small", "warning", 10**9, markup=False)
            self._too_small = note
            self.post_message(Notify(note))

    def get_key_display(self, binding: Binding) -> str:
        """Key names in ASCII (Textual draws arrows and Enter as symbols)."""
        if binding.key_display:
            return binding.key_display
        key = binding.key.split(",")[0]
        if key in ASCII_KEYS:
            return ASCII_KEYS[key]
        return super().get_key_display(binding)


def no_terminal() -> bool:
    """A screen would draw into nothing: standard input or output is no terminal (a browser's
    client process, Textual's web driver, needs none)."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return False
    try:
        return not (sys.stdin.isatty() and sys.stdout.isatty())
    except (AttributeError, ValueError):  # closed or replaced streams
        return True
