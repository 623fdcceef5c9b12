"""What every Colosseum app shares: the themes, ASCII key names and plain scrollbars.

The main client, the viewer, the SSH lobby and the test harnesses all derive from ``BaseApp``
so that they draw the same way whichever was created first in a process.
"""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

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


def submit_or_notify(node, session, action) -> bool:
    """Send ``action`` through ``session`` for a widget or screen.  A refused action (the
    engine's RuleError, or a lost connection) shows its message and changes nothing; the
    player never sees a traceback."""
    from colosseum.core import RuleError

    try:
        session.submit(action)
    except RuleError as err:
        node.notify(str(err), severity="error")
        return False
    except Exception as err:  # noqa: BLE001 - e.g. the game server is gone
        node.notify(f"Could not do that: {err}", severity="error")
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


class BaseApp(App):
    def __init__(self, *, theme: str | None = None) -> None:
        super().__init__()
        ascii_scrollbars()
        register_themes(self)
        self.theme = theme or DEFAULT_THEME

    def get_key_display(self, binding: Binding) -> str:
        """Key names in ASCII (Textual draws arrows and Enter as symbols)."""
        if binding.key_display:
            return binding.key_display
        key = binding.key.split(",")[0]
        if key in ASCII_KEYS:
            return ASCII_KEYS[key]
        return super().get_key_display(binding)
