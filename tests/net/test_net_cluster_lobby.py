"""Bugs of several hosts met in the lobby: a table listed twice (adopted by this host while
still among the others' tables) crashed every lobby that showed the list (DuplicateKey); a
second host of a live host's id.  The server's side on SQLite (no PostgreSQL needed)."""

from __future__ import annotations

import asyncio

import msgspec

from colosseum.tui.net.remote import RemoteClient


def sqlite_link(tmp_path):
    """A started link to a new SQLite lobby database with the schema in place."""
    from colosseum.tui.net.host.cluster_link import ClusterLink
    from colosseum.tui.net.host.store.db import make_engine, migrate

    url = f"sqlite+aiosqlite:///{tmp_path / 'lobby.db'}"

    async def schema():
        engine = make_engine(url)
        await migrate(engine)
        await engine.dispose()

    asyncio.run(schema())
    link = ClusterLink(url)
    link.start()
    return link


def test_the_lobby_shows_a_table_listed_twice_once(paced_server):
    from textual.widgets import DataTable

    from colosseum.tui.net.lobby import LobbyApp

    maker = RemoteClient(paced_server.address, paced_server.token_for("key:m", "m"))
    maker.create_table(seats=["human", "human", "human"], sit=0, name="twice")
    viewer = RemoteClient(paced_server.address, paced_server.token_for("key:v", "v"))
    real = viewer.list_page

    def doubled(*a, **kw):
        page = real(*a, **kw)
        if page.history:
            return msgspec.structs.replace(page, history=[*page.history, page.history[0]])
        return msgspec.structs.replace(page, tables=[*page.tables, *page.tables])

    viewer.list_page = doubled  # type: ignore[method-assign]
    app = LobbyApp(viewer)

    async def go():
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause(0.5)
            dt = app.screen.query_one(DataTable)
            assert dt.row_count == 1
            assert app.return_code is None and app.is_running

    asyncio.run(asyncio.wait_for(go(), 60))
    for c in (maker, viewer):
        c.close()


class _Conn:
    """What the lobby's list needs of a connection: who asks, and what it was sent."""

    def __init__(self, player: str) -> None:
        self.player, self.name, self.address, self.sent = player, player, "127.0.0.1", []

    def send(self, msg) -> None:
        self.sent.append(msg)


def test_a_table_adopted_when_asked_for_leaves_the_others_lists_at_once(tmp_path):
    """A host gone, a player asks for its table: this host adopts it there and then, and the
    table is no longer among the others' (the list said it twice until the next refresh)."""
    import dataclasses
    import time

    from colosseum.tui.net.host import protocol as P
    from colosseum.tui.net.host.cluster_host import ClusterServer
    from colosseum.tui.net.host.meta import SeatMeta, TableMeta
    from colosseum.tui.net.host.store import cluster

    link = sqlite_link(tmp_path)
    link.failed_at = float("-inf")  # in touch with the database for long (a host just started waits: D-105)
    try:
        srv = ClusterServer(tmp_path / "b", link=link, host_id="b", peer_address="tcp:127.0.0.1:1", bot_delay=0.0)
        seats = [SeatMeta(kind="human", holder="key:x", name="x"), SeatMeta(kind="human"), SeatMeta(kind="human")]
        meta = TableMeta(id="t1", name="gone", creator="key:x", creator_name="x", seats=seats, created=time.time())
        made = srv.make_table(meta)  # (its lobby line, as host a published it)
        info = msgspec.json.encode(made.info())
        made.close()
        mine = srv.leases.pop("t1")  # (made here only for that)
        link.call(lambda c: cluster.release(c, mine))
        link.call(lambda c: cluster.acquire(c, "t1", "a", seconds=-1.0))  # host a's lease, run out
        link.call(lambda c: cluster.publish(c, "t1", "a", "waiting", msgspec.json.encode(meta), info))
        rows = link.call(cluster.live_tables)
        srv.heard([dataclasses.replace(r, until=time.time() + 0.3) for r in rows])  # heard while a lived
        assert "t1" in srv.others and "t1" not in srv.tables
        time.sleep(0.4)
        x = _Conn("key:x")
        assert not srv.elsewhere(x, "t1")  # adopted: served here now
        assert "t1" in srv.tables and "t1" not in srv.others and "t1" not in srv.others_meta
        srv.list_tables(x, P.ListTables())
        assert [t.id for t in x.sent[-1].tables] == ["t1"]
        assert srv.held(x) == [("t1", 0)]
    finally:
        link.close()


def test_a_host_id_is_one_hosts_while_it_is_heard_from(tmp_path):
    """(The database's side of ``--host-id``: tests/cluster/test_host_id.py starts the hosts.)"""
    from colosseum.tui.net.host.store import cluster

    link = sqlite_link(tmp_path)
    try:
        assert link.call(lambda c: cluster.claim_host(c, "h1", now=1000.0)) is None  # a new id
        assert link.call(lambda c: cluster.claim_host(c, "h1", within=15, now=1005.0)) == 5.0  # alive
        assert link.call(lambda c: cluster.claim_host(c, "h2", now=1005.0)) is None  # another id
        link.call(lambda c: cluster.heartbeat(c, "h1", "tcp:x:1", now=1010.0))
        assert link.call(lambda c: cluster.claim_host(c, "h1", within=15, now=1024.0)) == 14.0
        assert link.call(lambda c: cluster.claim_host(c, "h1", within=15, now=1026.0)) is None  # ran out
        link.call(lambda c: cluster.leave_host(c, "h2"))  # stopped: its id free at once
        assert link.call(lambda c: cluster.claim_host(c, "h2", within=15, now=1006.0)) is None
    finally:
        link.close()
