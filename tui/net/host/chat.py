"""A table's talk: lines as the server keeps them (``names.clean_text``: no control or bidi
characters, cut at ``MAX_CHAT`` terminal cells), the last ``CHAT_KEPT`` in memory.  The table
writes each line to its game log and sends it to everyone at the table; how fast one connection
may talk is the connection's (``Conn.may_say``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from colosseum.core.events import Event

from . import protocol as P
from .names import clean_text

MAX_CHAT = 400  # terminal cells in a line
CHAT_KEPT = 200  # lines a table keeps in memory (the log has them all)
CHAT_SENT = 100  # lines a joining client gets


class Chat:
    def __init__(self, table: str) -> None:
        self.table = table
        self.lines: list[P.ChatLine] = []
        self.at: Callable[[], int] = lambda: -1  # the actions played so far (the table's)

    def say(self, name: str, seat: int, text: str) -> P.ChatLine | None:
        """The line ``name`` (at ``seat``, -1: watching) said, kept; None if nothing is left of
        it once cleaned."""
        text = clean_text(text, MAX_CHAT)
        if not text:
            return None
        line = P.ChatLine(table=self.table, name=name, text=text, seat=seat, time=time.time(), at=self.at())
        self.lines.append(line)
        del self.lines[:-CHAT_KEPT]
        return line

    def reload(self, lines: Iterable[P.ChatLine]) -> None:
        """The talk read back from the game log after a restart."""
        self.lines = list(lines)[-CHAT_KEPT:]

    def recent(self) -> list[P.ChatLine]:
        return self.lines[-CHAT_SENT:]


def with_talk(events: Sequence[Event], marks: Sequence[int], lines: Sequence[P.ChatLine], keep: int) -> list[Event]:
    """The last ``keep`` of ``events`` with the talk ``lines`` among them where each was said
    (after the events of its ``at`` actions: ``marks[k]``, the events before action ``k``);
    a line whose place is not known goes last.  What a client joining a game shows in its log:
    before, the talk came after every event, old lines pushing the newest moves out of view."""
    out: list[Event] = []
    talk = sorted(lines, key=lambda c: c.at if 0 <= c.at < len(marks) else len(marks))  # (stable)
    j = 0
    for i, e in enumerate([*events, None]):
        while j < len(talk) and (0 <= talk[j].at < len(marks) and marks[talk[j].at] <= i or e is None):
            c = talk[j]
            out.append(Event(kind="chat", text=f"{c.name}: {c.text}", seat=c.seat))
            j += 1
        if e is not None:
            out.append(e)
    return out[-keep:]
