"""One client process's connection to the table server, as the tables see it."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from . import protocol as P

log = logging.getLogger("colosseum.net")

CHAT_BURST, CHAT_WINDOW = 8, 10.0  # chat lines per connection, per seconds
#: refusals logged per connection in a minute; the rest are counted in one line when the next
#: minute's first is logged (a flood of refused messages must not fill the server's log)
REFUSALS_LOGGED, REFUSAL_WINDOW = 5, 60.0
WRITE_BUFFER_LIMIT = 4 << 20  # a client this far behind is dropped


@dataclass(eq=False)
class Conn:
    """One client process's connection."""

    id: int
    writer: asyncio.StreamWriter
    player: str = ""
    name: str = ""
    address: str = ""  # where the player connected from (the token says; '' for local tests)
    tables: dict[str, int] = field(default_factory=dict)  # table id -> seat (-1 watching)
    closed: bool = False
    said: list[float] = field(default_factory=list)  # when its recent chat lines came
    #: by kind of refusal: this minute's start, how many were logged, how many left unlogged
    refusals: dict[str, tuple[float, int, int]] = field(default_factory=dict)

    def log_refusal(self, now: float, code: str, why: str, table: str = "", *, last: bool = False) -> bool:
        """Log a refusal of kind ``code``: the first ``REFUSALS_LOGGED`` of a minute for each kind,
        then one line counting the rest when the next minute's first comes; always the ``last``
        (the connection is closed for it).  True if this one was logged."""
        start, logged, quiet = self.refusals.get(code, (0.0, 0, 0))
        if now - start >= REFUSAL_WINDOW:
            if quiet:
                log.warning(
                    "refused (%s) conn %s %s %d more times (not logged one by one)",
                    code,
                    self.id,
                    self.name or "?",
                    quiet,
                )
            start, logged, quiet = now, 0, 0
        loud = last or logged < REFUSALS_LOGGED
        self.refusals[code] = (start, logged + loud, quiet + (not loud))
        if loud:
            at = f" at table {table}" if table else ""
            log.warning("refused (%s) conn %s %s%s: %s", code, self.id, self.name or "?", at, why)
        return loud

    def may_say(self, now: float) -> bool:
        """At most ``CHAT_BURST`` lines in ``CHAT_WINDOW`` seconds (chat is kept in memory and
        in the game log: a flood must not grow either)."""
        self.said = [t for t in self.said if now - t < CHAT_WINDOW]
        if len(self.said) >= CHAT_BURST:
            return False
        self.said.append(now)
        return True

    def send(self, msg: P._Msg) -> None:
        self.send_frame(P.encode(msg))

    def send_frame(self, frame: bytes) -> None:
        """An encoded message (``P.encode``): a broadcast encodes once for every connection
        that sees the same."""
        if self.closed:
            return
        try:
            self.writer.write(frame)
            if self.writer.transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
                log.warning("conn %s (%s): too far behind, dropped", self.id, self.name)
                self.close()
        except (ConnectionError, RuntimeError):
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.writer.close()
            except (OSError, RuntimeError):  # pragma: no cover - a transport already torn down
                pass
