"""The client's watchdog over its connection to a host (one thread per ``RemoteClient``).

A connection that has said nothing for PING_AFTER seconds is asked whether it is there (a
``Ping``, which a running host answers at once).  One silent for SILENT_AFTER seconds (a host
paused or frozen, or cut off on the way without the connection closing) has each game on it say
so in its log and where the player looks, once; and again once the host answers (the reader
thread, hearing anything).  Before, the player looked at a still table until their own move
timed out.  Meanwhile a move is not sent (``NOT_SENT``: sent, it would count whenever the host
came back, long after the player was told it failed), and one waiting for its answer when the
silence is noticed stops waiting (``UNANSWERED``), so that the screen is not held.  The lobby
alone is told nothing: its requests say themselves when no answer comes.  D-104.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .host import protocol as P

if TYPE_CHECKING:
    from .remote import RemoteClient

__all__ = [
    "ANSWERS_AGAIN",
    "NOT_SENT",
    "PING_AFTER",
    "SILENT",
    "SILENT_AFTER",
    "UNANSWERED",
    "WATCH_EVERY",
    "heard",
    "watch",
]

PING_AFTER = 4.0
SILENT_AFTER = 10.0
WATCH_EVERY = 1.0
SILENT = "The server has not answered for {seconds} s: waiting for it."
ANSWERS_AGAIN = "The server answers again."
NOT_SENT = "The server is not answering: nothing was sent. Try again once it answers."
UNANSWERED = "The server stopped answering before it confirmed this: it counts if the server gets it."


def watch(client: RemoteClient) -> None:
    """Run on the watchdog thread until the connection closes."""
    pinged = 0.0
    while not client.closed.wait(WATCH_EVERY):
        now = time.monotonic()
        quiet = now - client.heard
        if quiet >= PING_AFTER and now - pinged >= PING_AFTER:
            pinged = now
            try:
                client.send(P.Ping(ref=0))
            except OSError:
                pass  # (the reader thread hears the connection end)
        if quiet >= SILENT_AFTER and not client.silent and client.sessions:
            client.silent = True
            client.tell_games(SILENT.format(seconds=int(quiet)), "silent")


def heard(client: RemoteClient) -> None:
    """The reader thread heard the server (anything at all): the games told it was silent are
    told it answers again."""
    client.heard = time.monotonic()
    if client.silent:
        client.silent = False
        client.tell_games(ANSWERS_AGAIN, "answers")
