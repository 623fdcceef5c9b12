"""The lobby's way to a table (joining, watching, creating, coming back to one's seat): each
request runs on a thread, never on the lobby's event loop, since reaching another host may
take seconds (a paused host: the connection's time limit).  Meanwhile the screen is drawn, the
tables are refreshed, and one line says what is under way; Escape cancels it.

One request at a time: a request asked for while one is under way is not made (the waiting
screen hears "the game started" several times, once per player sitting down again: each time
a newer request replaced the one under way, every player's sitting down again told the others
to sit down again too, and the players of a table that started could go on asking for
minutes).  The other keys typed meanwhile are kept, in order, and handed to the lobby when the
request ends without opening the game: what is typed right after Enter goes where it went when
the lobby waited for the answer (a waiting table's talk), never to the lobby underneath.

Coming back after a dropped connection, the table's host may be the one that went away: its
table moves to another host when its lease runs out (15 s), so the lobby asks again every
``RETRY_EVERY`` seconds for up to ``RETRY_FOR`` and takes the player to their seat once it is
served again; after the limit it says so once.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events

from .host import protocol as P
from .host.proto_client import NetError
from .hosts import HostUnreachable

if TYPE_CHECKING:
    from textual.message import Message

    from .remote import RemoteClient
    from .waiting import WaitingScreen

RETRY_EVERY = 2.0  # seconds between two tries of a table whose host does not answer
RETRY_FOR = 30.0  # seconds of trying: the lease (15 s), the sweep that adopts it, and some
# (each line fits an 80-column screen)
CONNECTING = "Connecting to the table...  (Escape cancels)"
HOST_AWAY = "Your table's host is away: it moves to another host soon.  (Escape cancels)"
GAVE_UP = "Your table's host still does not answer: choose your table (Enter) to try again later."
#: keys never held while a request is under way (Escape cancels it; Ctrl+Q quits)
NOT_HELD = frozenset({"escape", "ctrl+q"})


class _Replay(events.Event):
    """Hand the next key kept while a request was under way to the lobby."""


class EnteringMixin:
    """``LobbyApp``'s requests of a table, each on a thread (``enter``); the keys typed
    meanwhile (``on_event``); finding a waiting table again after its host let it go
    (``_find_waiting``)."""

    client: RemoteClient
    waiting: WaitingScreen | None
    result: P.Joined | None
    _going = 0  # the request under way (a number; 0: none); a cancel sets it to 0
    _going_table = ""  # the table it asks for ('': a new one)
    _tries = 0
    _held: deque[events.Key] | None = None  # keys typed while a request is under way
    _replayed: set[int] | None = None  # (ids of the kept keys handed back)

    if TYPE_CHECKING:

        def notify(self, message: str, **kw: Any) -> None: ...
        def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...
        def post_message(self, message: Message) -> bool: ...
        def show_going(self, text: str) -> None: ...
        def _entered(self, joined: P.Joined) -> None: ...

    def call_later_s(self, delay: float, callback: Callable[[], object]) -> None:
        """``callback`` on the app's loop in ``delay`` seconds (a Textual timer)."""
        getattr(self, "set_timer")(delay, callback)  # noqa: B009 - (the app's, not declared here)

    def _on_loop(self, callback: Callable[..., object], *args: object) -> None:
        """From a request's thread: ``callback`` on the app's loop (nothing once the lobby has
        ended: the player left it meanwhile)."""
        loop = getattr(self, "_loop", None)
        if loop is None or loop.is_closed() or not getattr(self, "is_running", True):
            return
        try:
            self.call_from_thread(callback, *args)
        except RuntimeError:  # the loop is closed (or stopping)
            pass

    def enter(self, request: Callable[[], P.Joined], *, keep_trying: bool = False, table: str = "") -> bool:
        """Run a join/watch/create request on a thread; then open the game or the waiting
        screen.  ``keep_trying``: while the table's host does not answer, ask again (one's own
        seat after a dropped connection).  ``table``: the table asked for, if known.  False:
        not made, a request is under way."""
        if self._going:
            return False
        EnteringMixin._tries += 1
        self._going, self._going_table = EnteringMixin._tries, table
        until = time.monotonic() + RETRY_FOR if keep_trying else 0.0
        self.show_going(CONNECTING)
        self._try(self._going, request, until)
        return True

    @property
    def going(self) -> bool:
        """A request of a table is under way (or waits to be tried again)."""
        return self._going != 0

    def cancel_going(self) -> None:
        """Escape: the request under way is dropped (a table it reaches after all is left at
        once); the keys kept meanwhile go to the lobby."""
        if self._going:
            self._done()
            self._replay_later()

    def _done(self) -> None:
        self._going, self._going_table = 0, ""
        self.show_going("")

    def _replay_later(self) -> None:
        """The keys kept meanwhile, to the lobby (none once the game opens: the lobby ends)."""
        if self._held and not self._going and self.result is None:
            self.post_message(_Replay())

    def _try(self, going: int, request: Callable[[], P.Joined], until: float) -> None:
        if going != self._going:
            return

        def attempt() -> None:
            try:
                joined = request()
            except NetError as exc:
                self._on_loop(self._not_reached, going, request, until, exc)
                return
            self._on_loop(self._reached, going, joined)

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
        self._done()
        self.notify(str(exc), severity="error", markup=False, timeout=10)
        self._replay_later()

    def _reached(self, going: int, joined: P.Joined) -> None:
        if going != self._going:  # cancelled meanwhile: not kept unless the player is there now
            tid = joined.table.id
            at = self.waiting is not None and self.waiting.joined.table.id == tid
            if not at and self.result is None and tid != self._going_table:
                self.client.leave(tid)
            return
        self._done()
        self._entered(joined)  # (the game: the lobby ends, and the keys kept with it)
        self._replay_later()

    # ---------------------------------------------------------------- the keys meanwhile
    async def on_event(self, event: events.Event) -> None:
        """While a request is under way, keys (but Escape and Ctrl+Q) are kept for later, in
        order; so are keys typed while the kept ones are handed back."""
        if isinstance(event, _Replay):
            self._replay_next()
            return
        if isinstance(event, events.Key) and not event.is_forwarded:
            replayed = self._replayed is not None and id(event) in self._replayed
            if replayed and self._replayed is not None:
                self._replayed.discard(id(event))
            elif event.key == "escape" and self._going:
                self.cancel_going()  # (and Escape does what it does on this screen)
            elif event.key not in NOT_HELD and (self._going or self._held):
                if self._held is None:
                    self._held = deque()
                self._held.append(event)
                return
        await super().on_event(event)  # type: ignore[misc]

    def _replay_next(self) -> None:
        """The next kept key, as if typed now (then the rest, one by one: a key that opens a
        screen has it open before the next one comes)."""
        if self._going or not self._held or self.result is not None:
            return
        if not getattr(self, "screen").is_mounted:  # noqa: B009 - a screen just opened: keys once it is up
            self.call_later_s(0.02, functools.partial(self.post_message, _Replay()))
            return
        old = self._held.popleft()
        key = events.Key(old.key, old.character)
        if self._replayed is None:
            self._replayed = set()
        self._replayed.add(id(key))
        self.post_message(key)
        if self._held:
            self.post_message(_Replay())

    # ---------------------------------------------------------------- a waiting table moved
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
                self._on_loop(self.call_later_s, RETRY_EVERY, functools.partial(self._find_waiting, w))
                return
            self._on_loop(self._found_waiting, w, joined)

        threading.Thread(target=attempt, name="find-waiting-table", daemon=True).start()

    def _found_waiting(self, w: WaitingScreen, joined: P.Joined) -> None:
        if self.waiting is not w or self.result is not None:  # the player left meanwhile
            self.client.leave(joined.table.id)
            return
        w.set_finding(False)
        self._entered(joined)
