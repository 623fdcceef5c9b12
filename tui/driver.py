"""Textual's Linux driver with an input thread that sleeps while nothing is typed.

Textual (8.2.8, pinned) reads keys in a thread that wakes ten times a second whether or not a
key came, to time out a lone Escape.  Over SSH every session is such a process: a hundred idle
sessions took a quarter of a core (issue 24), and each wake-up competes for the processor with
the sessions that are redrawing a move.  This thread waits for a key with no time limit unless
an escape sequence is half read (then as Textual does: it looks again after 0.1 s), and is woken
by a pipe when input stops.  Everything else is Textual's own driver.

A terminal that goes away without a SIGHUP reaching the program (it was not the program's
controlling terminal: ``setsid``, some supervisors and terminal multiplexers) leaves standard
input at its end, always "ready" and never giving a byte: Textual's loop, and this one before,
read it in a loop at a full core, for ever.  The end of input (or EIO) is now a hangup: the thread
stops reading and the program gets the SIGHUP the terminal did not send, which the apps handle
as a closed terminal (the game is saved after every action; they leave cleanly).  D-93.
"""

from __future__ import annotations

import os
import selectors
import signal
from codecs import getincrementaldecoder
from typing import TYPE_CHECKING

from textual._loop import loop_last  # private, with the driver's own loop below (pinned Textual)
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

if TYPE_CHECKING:
    from textual.app import App

#: how long a half-read escape sequence waits before it is looked at again (Textual's own)
PENDING_TICK = 0.1


class QuietLinuxDriver(LinuxDriver):
    """The terminal driver of every Colosseum app run in a terminal."""

    def __init__(
        self, app: App, *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)

    def disable_input(self) -> None:
        # Textual sets its exit event and then joins the thread: wake it first; it waits for
        # the event (set a moment later) once woken by the pipe.
        try:
            os.write(self._wake_write, b"\0")
        except OSError:
            pass
        super().disable_input()

    def close(self) -> None:
        super().close()
        for fd in (self._wake_read, self._wake_write):
            try:
                os.close(fd)
            except OSError:
                pass

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events (Textual's loop, without its idle wake-ups)."""
        selector = selectors.SelectSelector()
        fileno = self.fileno
        wake = self._wake_read
        selector.register(fileno, selectors.EVENT_READ)
        selector.register(wake, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick
        decode = getincrementaldecoder("utf-8")().decode

        def dispatch(events: list[Message]) -> None:
            for event in events:
                self.process_message(event)

        def process(selected: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Read what is ready; False once the terminal is gone (end of input, or EIO)."""
            woken = False
            for last, (key, mask) in loop_last(selected):
                if key.fd == wake:
                    woken = True
                    continue
                if mask & selectors.EVENT_READ:
                    try:
                        raw = os.read(fileno, 1024 * 4)
                    except OSError:
                        raw = b""  # EIO: the terminal's other end is closed
                    if not raw:
                        return False
                    data = decode(raw, final=final and last)
                    if data:
                        dispatch(list(feed(data)))
            dispatch(list(tick()))
            if woken:
                try:
                    os.read(wake, 64)
                except OSError:
                    pass
                self.exit_event.wait(1.0)  # input is stopping: the event is set right after
            return True

        try:
            while not self.exit_event.is_set():
                pending = parser._timeout_time is not None  # an escape sequence half read
                if not process(selector.select(PENDING_TICK if pending else None)):
                    self._terminal_gone()
                    return
            selector.unregister(fileno)
            process(selector.select(PENDING_TICK), final=True)
        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass

    def _terminal_gone(self) -> None:
        """Standard input ended: the terminal closed.  Raise the SIGHUP it did not deliver (the
        apps leave on it; with no handler it ends the process, as a hangup does)."""
        if self.exit_event.is_set():
            return  # the app is stopping anyway
        try:
            os.kill(os.getpid(), signal.SIGHUP)
        except OSError:
            pass
