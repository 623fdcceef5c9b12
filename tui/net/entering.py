"""The lobby's way to a table (joining, watching, creating, coming back to one's seat): each
request runs on a thread, never on the lobby's event loop, since reaching another host may
take seconds (a paused host: the connection's time limit); the lobby says it is connecting and
takes keys meanwhile.

Coming back after a dropped connection, the table's host may be the one that went away: its
table moves to another host when its lease runs out (15 s), so the lobby asks again every
``RETRY_EVERY`` seconds for up to ``RETRY_FOR`` and takes the player to their seat once it is
served again.  Doing anything else in the lobby cancels that; after the limit it says so once.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .host import protocol as P
from .host.proto_client import NetError
from .hosts import HostUnreachable

if TYPE_CHECKING:
    from .remote import RemoteClient
    from .waiting import WaitingScreen

RETRY_EVERY = 2.0  # seconds between two tries of a table whose host does not answer
RETRY_FOR = 30.0  # seconds of trying: the lease (15 s), the sweep that adopts it, and some
CONNECTING = "Connecting to the table..."
HOST_AWAY = "Your table's host does not answer; it moves to another host in a few seconds..."
GAVE_UP = "Your table's host still does not answer: choose your table (Enter) to try again later."
#: the lobby's actions that do not cancel a request under way (they only show the lobby)
KEEP_GOING = frozenset({"refresh", "page"})


class EnteringMixin:
    """``LobbyApp``'s requests of a table, each on a thread (``enter``); finding a waiting
    table again after its host let it go (``_find_waiting``)."""

    client: RemoteClient
    waiting: WaitingScreen | None
    result: P.Joined | None
    _going = 0  # the request under way (a number; 0: none); a newer one or a cancel changes it
    _tries = 0

    if TYPE_CHECKING:

        def notify(self, message: str, **kw: Any) -> None: ...
        def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...
        def show_going(self, text: str) -> None: ...
        def _entered(self, joined: P.Joined) -> None: ...

    def call_later_s(self, delay: float, callback: Callable[[], object]) -> None:
        """``callback`` on the app's loop in ``delay`` seconds (a Textual timer)."""
        getattr(self, "set_timer")(delay, callback)  # noqa: B009 - (the app's, not declared here)

    def enter(self, request: Callable[[], P.Joined], *, keep_trying: bool = False) -> None:
        """Run a join/watch/create request on a thread; then open the game or the waiting
        screen.  ``keep_trying``: while the table's host does not answer, ask again (one's own
        seat after a dropped connection)."""
        EnteringMixin._tries += 1
        self._going = EnteringMixin._tries
        until = time.monotonic() + RETRY_FOR if keep_trying else 0.0
        self.show_going(CONNECTING)
        self._try(self._going, request, until)

    @property
    def going(self) -> bool:
        """A request of a table is under way (or waits to be tried again)."""
        return self._going != 0

    def cancel_going(self) -> None:
        """The player does something else: the request under way is dropped (a table it
        reaches after all is left at once)."""
        if self._going:
            self._going = 0
            self.show_going("")

    def _try(self, going: int, request: Callable[[], P.Joined], until: float) -> None:
        if going != self._going:
            return

        def attempt() -> None:
            try:
                joined = request()
            except NetError as exc:
                self.call_from_thread(self._not_reached, going, request, until, exc)
                return
            self.call_from_thread(self._reached, going, joined)

        threading.Thread(target=attempt, name="enter-table", daemon=True).start()

    def _not_reached(self, going: int, request: Callable[[], P.Joined], until: float, exc: NetError) -> None:
        if going != self._going:
            return
        if isinstance(exc, HostUnreachable) and until:
            if time.monotonic() + RETRY_EVERY < until:
                self.show_going(HOST_AWAY)
                self.call_later_s(RETRY_EVERY, functools.partial(self._try, going, request, until))
                return
            exc = NetError(GAVE_UP)
        self._going = 0
        self.show_going("")
        self.notify(str(exc), severity="error", markup=False, timeout=10)

    def _reached(self, going: int, joined: P.Joined) -> None:
        if going != self._going:  # cancelled meanwhile
            at = self.waiting is not None and self.waiting.joined.table.id == joined.table.id
            if not self._going and not at and self.result is None:
                self.client.leave(joined.table.id)
            return
        self._going = 0
        self.show_going("")
        self._entered(joined)

    def _find_waiting(self, w: WaitingScreen) -> None:
        """The waiting table's host let it go (or went away): sit at it again (or watch it)
        wherever it is served now, every two seconds until it is found or the player leaves.
        Asked from a thread: reaching a host that does not answer takes seconds, and the
        screen must not freeze meanwhile."""
        if self.waiting is not w or self.result is not None:
            return
        w.set_finding(True)
        tid, seat = w.joined.table.id, w.joined.seat
        client = self.client

        def attempt() -> None:
            try:
                joined = client.join(tid, seat) if seat >= 0 else client.watch(tid)
            except NetError:
                self.call_from_thread(self.call_later_s, RETRY_EVERY, functools.partial(self._find_waiting, w))
                return
            self.call_from_thread(self._found_waiting, w, joined)

        threading.Thread(target=attempt, name="find-waiting-table", daemon=True).start()

    def _found_waiting(self, w: WaitingScreen, joined: P.Joined) -> None:
        if self.waiting is not w or self.result is not None:  # the player left meanwhile
            self.client.leave(joined.table.id)
            return
        w.set_finding(False)
        self._entered(joined)
