"""The lobby's list: a page of the live tables the asker may see (waiting ones first, then by
age; a private table only to those it concerns: ``invites``) or of the finished games
(``finished.history_tables``), and the tables where it is the asker's move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import protocol as P
from .conn import Conn
from .finished import history_tables
from .invites import may_see

if TYPE_CHECKING:
    from .hub import TableServer
    from .table import Table

__all__ = ["list_page", "web_link", "your_move"]


def your_move(tables: list[Table], player: str) -> list[str]:
    """The tables (ids) where ``player``'s seat is to act and no bot plays it for them."""
    out = []
    for t in tables:
        seat = t.to_act() if t.meta.status == "playing" else -1
        if 0 <= seat < len(t.meta.seats) and t.meta.seats[seat].holder == player and seat not in t.standin:
            out.append(t.id)
    return out


def list_page(server: TableServer, conn: Conn, msg: P.ListTables) -> P.Tables:
    """One page (at most ``PAGE_MAX``) of what ``msg`` asks for."""
    offset = max(0, msg.offset)
    limit = max(0, min(msg.limit, P.PAGE_MAX))
    if msg.history:
        return history_tables(server, conn, msg, offset, limit)
    live = sorted(
        (t for t in server.tables.values() if t.meta.status != "over" and may_see(t.meta, conn.player)),
        key=lambda t: (t.meta.status != "waiting", t.meta.created, t.id),
    )
    return P.Tables(
        tables=[t.info() for t in live[offset : offset + limit]],
        held=server.held(conn),
        total=len(live),
        offset=offset,
        your_move=your_move(live, conn.player),
    )


def web_link(server: TableServer, conn: Conn) -> None:
    """A one-time link that signs a browser in as ``conn``'s player (``w`` in the lobby)."""
    if server.link_for is None:
        server.refuse(conn, "this server has no web pages (it runs without --web)")
        return
    from .weblink import LINK_MINUTES

    conn.send(P.WebLink(url=server.link_for(conn.player, conn.name), minutes=LINK_MINUTES))
