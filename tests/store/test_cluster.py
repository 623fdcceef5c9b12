"""Several hosts on one database (issue 30) at the database level: leases taken, renewed and
taken over with a higher generation; a host whose lease was taken over cannot append to the
table's log (one that ran out with nobody taking it over is still its holder's); the log's rows export to the very bytes of the file form."""

from __future__ import annotations

import asyncio
import dataclasses

import asyncpg
import pytest
from sqlalchemy import select

from colosseum.core.gamelog import Chain, make_header
from colosseum.core.logread import parse_log
from colosseum.core.registry import rules
from colosseum.tui.net.host.store import Store, cluster
from colosseum.tui.net.host.store import schema as S


def run(coro):
    return asyncio.run(coro)


def test_leases_fence_a_host_that_lost_its_table(tmp_path, db_url):
    async def go():
        store = await Store.open(tmp_path, db_url)
        try:
            a = await store.write(lambda c: cluster.acquire(c, "t1", "host-a", seconds=10, now=100))
            assert a is not None and a.gen == 1
            assert await store.write(lambda c: cluster.acquire(c, "t1", "host-b", seconds=10, now=105)) is None
            await store.write(lambda c: cluster.append(c, a, 1, [b'{"h":1}']))
            # host-a is paused past its lease; host-b takes the table over
            b = await store.write(lambda c: cluster.acquire(c, "t1", "host-b", seconds=10, now=111))
            assert b is not None and b.gen == 2
            with pytest.raises(cluster.Fenced):  # host-a, resumed, cannot append
                await store.write(lambda c: cluster.append(c, a, 2, [b'{"late":1}']))
            with pytest.raises(cluster.Fenced):
                await store.write(lambda c: cluster.renew(c, a, now=112))
            await store.write(lambda c: cluster.append(c, b, 2, [b'{"b":1}']))
            with pytest.raises(cluster.Fenced):  # a line already written is not written twice
                await store.write(lambda c: cluster.append(c, b, 2, [b'{"again":1}']))
            # the database away past host-b's lease, nobody took the table: still host-b's (D-105)
            await store.write(lambda c: cluster.append(c, b, 3, [b'{"b":2}']))
            b2 = await store.write(lambda c: cluster.renew(c, b, seconds=10, now=130))
            assert (b2.gen, b2.until) == (2, 140)
            assert await store.write(lambda c: cluster.acquire(c, "t1", "host-a", seconds=10, now=131)) is None
            # host-b taking its own live table again (after a write in doubt; a second process of
            # its id) is a new generation: whatever the earlier holder might still write is fenced
            b3 = await store.write(lambda c: cluster.acquire(c, "t1", "host-b", seconds=10, now=130))
            assert b3 is not None and b3.gen == 3
            with pytest.raises(cluster.Fenced):
                await store.write(lambda c: cluster.append(c, b2, 4, [b"{}"]))
            b2 = b3
            # ... until another host takes it over once it ran out: then fenced
            assert await store.write(lambda c: cluster.acquire(c, "t1", "host-a", seconds=10, now=141)) is not None
            with pytest.raises(cluster.Fenced):
                await store.write(lambda c: cluster.append(c, b2, 4, [b"{}"]))
            with pytest.raises(cluster.Fenced):
                await store.write(lambda c: cluster.renew(c, b2, now=142))
            assert await store.read(lambda c: cluster.lines(c, "t1")) == [b'{"h":1}', b'{"b":1}', b'{"b":2}']
            await store.write(lambda c: cluster.heartbeat(c, "host-a", "127.0.0.1:7001", now=200))
            await store.write(lambda c: cluster.heartbeat(c, "host-b", "127.0.0.1:7002", now=150))
            assert await store.read(lambda c: cluster.live_hosts(c, within=20, now=205)) == {"host-a": "127.0.0.1:7001"}
        finally:
            await store.close()

    run(go())


def test_a_tables_log_rows_export_to_the_file_form(tmp_path, db_url):
    game = rules("colosseum")
    setup = game.spec.make_setup(("Becky", "小明", "Kat"), seed=0, secret="ab" * 32)
    state, actions = game.new_game(setup), []
    bots = [game.make_bot("normal", i) for i in range(3)]
    while not game.is_over(state):
        action = bots[game.to_act(state)].act(state)
        state, _ = game.apply(state, action)
        actions.append(action)

    async def go():
        store = await Store.open(tmp_path, db_url)
        try:
            lease = await store.write(lambda c: cluster.acquire(c, "t9", "host-a"))
            assert lease is not None
            header = make_header(setup, ("human", "normal", "normal"), version=3)
            chain, head = Chain.for_header(header)
            lines = [head[:-1]] + [chain.action_line(a)[:-1] for a in actions] + [chain.end_line()[:-1]]
            for k in range(0, len(lines), 50):  # acknowledged batch by batch, as a table would
                await store.write(lambda c, k=k: cluster.append(c, lease, k + 1, lines[k : k + 50]))
            data = await store.read(lambda c: cluster.export_log(c, "t9"))
            log = parse_log(data)
            assert log.error is None and log.actions == actions and game.encode(log.state) == game.encode(state)
        finally:
            await store.close()

    run(go())


def test_a_hosts_address_of_any_length_is_kept_and_0003_upgrades_with_its_hosts(tmp_path, db_url):
    """A ``tls:`` peer address pins the certificate (64 hex digits) beside a host name of up to
    253 characters: over the 200 characters of migration 0002.  A database made at 0003 keeps
    its hosts through the upgrade."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    from colosseum.tui.net.host.store.db import default_url, make_engine

    url = db_url or default_url(tmp_path)
    old = "tcp:" + "h" * 190 + ":7001"  # fitted 0002's 200 characters
    long = "tls:" + ".".join(["a" * 63] * 3 + ["b" * 61]) + ":65535#sha256=" + "f" * 64

    def to_0003(connection) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("colosseum.tui.net.host.store") / "migrations"))
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0003")

    async def go():
        engine = make_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(to_0003)
                await cluster.heartbeat(conn, "host-a", old, now=100)
        finally:
            await engine.dispose()
        store = await Store.open(tmp_path, db_url)  # upgraded to the head
        try:
            await store.write(lambda c: cluster.heartbeat(c, "host-b", long, now=101))
            found = await store.read(lambda c: cluster.live_hosts(c, within=20, now=105))
            assert found == {"host-a": old, "host-b": long}
        finally:
            await store.close()

    assert len(long) > 330
    run(go())


def test_a_host_back_in_touch_with_the_database_leaves_run_out_leases_to_their_owners(tmp_path):
    """D-105: after an outage every lease has run out; a host adopts another's table only once it
    has itself been in touch with the database for ADOPT_AFTER (the owner renews first); its own
    dropped table at once.  A fence or a transaction's own error is the database answering:
    no outage (a lasting bug must not keep a host from adopting)."""
    from types import SimpleNamespace

    from colosseum.tui.net.host.cluster_host import ADOPT_AFTER, ClusterServer
    from colosseum.tui.net.host.cluster_link import ClusterError, ClusterLink

    link = ClusterLink(f"sqlite+aiosqlite:///{tmp_path / 'link.db'}")
    link.start()
    try:
        assert 0 <= link.calm_for() < 1  # just started: as if just back in touch
        link.failed_at = float("-inf")

        async def fenced(c):
            raise cluster.Fenced("not this host's")

        async def refused(c):
            raise ValueError("a transaction's own error")

        async def misused(c):
            raise asyncpg.exceptions.InterfaceError("another operation is in progress")

        async def starting(c):  # raised as it is while connecting
            raise asyncpg.exceptions.CannotConnectNowError("the database system is starting up")

        async def broken(c):
            raise ConnectionRefusedError(111, "Connect call failed")

        for answered in (fenced, refused, misused):  # the database answered (or a bug): no outage
            with pytest.raises(ClusterError):
                link.call(answered)
        assert link.calm_for() == float("inf")
        for away in (broken, starting):
            link.failed_at = float("-inf")
            with pytest.raises(ClusterError):
                link.call(away)
            assert 0 <= link.calm_for() < 1
    finally:
        link.close()
    host = SimpleNamespace(host_id="h2", link=SimpleNamespace(calm_for=lambda: 0.5))
    gone = cluster.LiveTable("t1", "playing", b"", b"", "h1", 1, 100.0, "tcp:127.0.0.1:7001")
    orphaned = ClusterServer.orphaned
    assert not orphaned(host, gone, 101.0)  # h2 just came back: h1 may be renewing
    assert orphaned(host, dataclasses.replace(gone, host="h2"), 99.0)  # its own: at once
    host.link.calm_for = lambda: ADOPT_AFTER
    assert orphaned(host, gone, 101.0)
    assert not orphaned(host, gone, 99.0)  # h1's lease still runs
    host.link.calm_for = lambda: 0.5
    assert orphaned(host, dataclasses.replace(gone, gen=0, until=0.0), 101.0)  # h1 gave it up as it stopped


def test_stores_opened_together_on_one_new_database_take_turns(tmp_path, pg):
    """Several hosts' stores opened at the same moment on a new PostgreSQL database (hosts a
    service manager starts together, each a single host before with its older names file):
    all open; one brings the schema up and imports, the others find both done."""
    from colosseum.tui.net.host.store import legacy

    folders = []
    for i in range(4):
        folder = tmp_path / f"h{i}"
        folder.mkdir()
        (folder / "names.jsonl").write_text(f'{{"name": "old{i}", "key": "key:SHA256:old{i}"}}\n')
        folders.append(folder)

    async def go(url):
        stores = await asyncio.gather(*(Store.open(f, url) for f in folders))
        try:
            mark = await stores[0].read(
                lambda c: c.execute(select(S.store_meta.c.value).where(S.store_meta.c.key == legacy.MARK))
            )
            assert len(mark.all()) == 1
        finally:
            for s in stores:
                await s.close()

    for _ in range(3):
        run(go(pg.fresh_database()))
