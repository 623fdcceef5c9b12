"""What every app of a networked client process shares (the lobby and the game).

A remote user reaches only what the server offers: no local games (``allow_local_games`` is
False: screens that offer "New game" read it), no screenshots (Textual's command would write
an SVG into the server account's folders), and never the server's own faults: an unhandled
exception is written to the server's client log (``COLOSSEUM_NET_LOG``) and the user sees one
short line instead of a traceback with local variables and server paths.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, SystemCommand
from textual.screen import Screen

log = logging.getLogger("colosseum.net.client")

CRASH_LINE = "Colosseum: something went wrong in the game client; it has been noted on the server. Connect again."
LOG_LIMIT = 10 << 20  # the client log is rotated once past this


def setup_client_log(path: str | None = None) -> None:
    """Send warnings and errors of this client process to the server's client log (0600),
    never to the terminal: a remote user must not see the server's tracebacks."""
    path = path or os.environ.get("COLOSSEUM_NET_LOG")
    root = logging.getLogger()
    root.setLevel(logging.WARNING)
    for h in list(root.handlers):
        root.removeHandler(h)
    if path:
        p = Path(path)
        try:
            if p.exists() and p.stat().st_size > LOG_LIMIT:
                os.replace(p, p.with_suffix(".log.1"))
            fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            handler: logging.Handler = logging.StreamHandler(os.fdopen(fd, "a", buffering=1))
        except OSError:
            handler = logging.NullHandler()
    else:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s pid {os.getpid()} %(name)s: %(message)s"))
    root.addHandler(handler)
    logging.captureWarnings(True)

    def hook(exc_type: type[BaseException], exc: BaseException, tb: Any) -> None:
        log.error("uncaught exception", exc_info=(exc_type, exc, tb))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.error("uncaught exception in thread %s", args.thread, exc_info=args.exc_value)

    sys.excepthook = hook
    threading.excepthook = thread_hook


class RemoteAppMixin(App):
    """Mixed into the lobby and the game app of a networked client."""

    allow_local_games = False

    def _handle_exception(self, error: Exception) -> None:
        log.error("the app failed: %s", type(error).__name__, exc_info=error)
        self._return_code = 1
        if self._exception is None:  # run_test re-raises it for tests
            self._exception = error
            self._exception_event.set()
        self._exit_renderables.append(Text(CRASH_LINE))
        self._close_messages_no_wait()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for cmd in super().get_system_commands(screen):
            if cmd.title != "Screenshot":  # would write files on the server
                yield cmd

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.notify("Screenshots are not offered over SSH.", markup=False)

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        return ""  # nothing is written on the server

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> str | None:
        self.notify("Screenshots are not offered over SSH.", markup=False)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Local games and screenshots are not offered: their keys are hidden and do nothing."""
        if action in ("new_game", "screenshot") and not self.allow_local_games:
            return False
        return super().check_action(action, parameters)

    def action_new_game(self) -> None:
        self.notify("Games are started from the lobby here: Ctrl+Q leaves this table.", markup=False)
