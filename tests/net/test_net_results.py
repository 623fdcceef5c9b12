"""The running table server uses the lobby's store: a finished table's result is recorded (the
game, each person by their account, places, scores, rated or not, the log's file and digest),
a rated table updates its people's ratings, leaving a rated game counts as last, and the
database being away (PostgreSQL stopped mid-table) loses nothing and counts nothing twice."""

from __future__ import annotations

import asyncio
import json

import pytest
import toygame
from pgcluster import cluster_or_skip
from test_net_tables import client, run

from colosseum.core.logread import read_log
from colosseum.core.registry import unregister
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host import results
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.store import Store
from colosseum.tui.net.host.testing import Player, play_to_end


@pytest.fixture(autouse=True)
def nim():
    toygame.register()
    yield
    unregister("nim")


async def stored_server(tmp_path, url: str | None = None, **kw) -> TableServer:
    data = tmp_path / "data"
    data.mkdir(parents=True, exist_ok=True)
    store = await Store.open(data, url)
    kw.setdefault("bot_delay", 0.0)
    srv = TableServer(data, fixed_seeds=True, store=store, **kw)
    await srv.start()
    return srv


async def nim_table(srv, seats=("human", "human", "normal"), *, rated=True, heap=4):
    """alice and bob at a Nim table: (table id, their players)."""
    a, b = [await client(srv, who) for who in ("alice", "bob")]
    a.send(P.CreateTable(seats=list(seats), sit=0, seed=3, game="nim", options={"heap": heap}, rated=rated))
    ja = await a.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
    assert isinstance(ja, P.Joined), ja
    assert ja.table.rated is rated
    tid = ja.table.id
    b.send(P.Join(table=tid, seat=1))
    jb = await b.expect(lambda m: isinstance(m, P.Joined))
    assert jb.state is not None and jb.table.rated is rated
    players = [Player(a, tid, 0, bot="normal", seed=1), Player(b, tid, 1, bot="random", seed=2)]
    for p in players:
        p.take(jb)
    return tid, players


async def recorded(store: Store, count: int = 1, timeout: float = 10.0):
    for _ in range(int(timeout / 0.05)):
        games, total = await store.finished()
        if total >= count:
            return games
        await asyncio.sleep(0.05)
    raise AssertionError("the result never reached the database")


def test_a_rated_table_is_recorded_with_accounts_and_rates_its_people(tmp_path):
    async def go():
        srv = await stored_server(tmp_path)
        store = srv.store
        assert store is not None
        try:
            tid, players = await nim_table(srv)
            await play_to_end(players, timeout=30)
            (game,) = await recorded(store)
            log = read_log(srv.data / "games" / f"{tid}.jsonl")
            places = srv.tables[tid].rules.ranks(srv.tables[tid].state) if tid in srv.tables else None
            assert (
                game.id == f"{tid}@{log.digest.hex()[:16]}"
                and game.game == "nim"
                and game.rated
                and game.log == f"{tid}.jsonl"
            )
            assert game.actions == len(log.actions)
            alice, bob = await store.player_named("alice"), await store.player_named("bob")
            assert alice is not None and bob is not None
            by_seat = {s.seat: s for s in game.seats}
            assert by_seat[0].player_id == alice.id and by_seat[1].player_id == bob.id
            assert by_seat[2].player_id is None and by_seat[2].kind == "normal"
            assert not any(s.left for s in game.seats)
            if places is not None:
                assert [by_seat[i].rank for i in range(3)] == list(places)
            # the digest is the log's own
            games = await store.read(lambda c: c.exec_driver_sql("select digest from games"))
            assert games.scalar_one() == log.digest.hex()
            for who in (alice, bob):
                rating = await store.rating(who.id, "nim")
                assert rating.games == 1 and rating.provisional
            board = await store.leaderboard("nim")
            assert {r.name for r in board} == {"alice", "bob"}
            assert not store.pending.path.exists()  # nothing waits
            # the rebuild (serve admin ratings --rebuild) gives the very same numbers
            before = [await store.rating(who.id, "nim") for who in (alice, bob)]
            assert await store.rebuild_ratings() == 1
            assert [await store.rating(who.id, "nim") for who in (alice, bob)] == before
        finally:
            await srv.close()

    run(go(), 60)


def test_a_table_with_one_person_plays_unrated_and_says_so(tmp_path):
    async def go():
        srv = await stored_server(tmp_path)
        store = srv.store
        assert store is not None
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "normal"], sit=0, seed=3, game="nim", options={"heap": 3}, rated=True))
            joined = await a.expect(lambda m: isinstance(m, P.Joined))
            assert not joined.table.rated
            talk = [e.text for e in joined.events if e.kind == "chat"]  # (a game's talk is in its log)
            assert talk == [f"{results.SERVER_NAME}: {results.UNRATED}"]
            player = Player(a, joined.table.id, 0, bot="normal", seed=1)
            player.take(joined)
            await play_to_end([player], timeout=30)
            (game,) = await recorded(store)
            assert not game.rated
            alice = await store.player_named("alice")
            assert alice is not None and (await store.rating(alice.id, "nim")).games == 0
        finally:
            await srv.close()

    run(go(), 60)


def test_a_server_without_a_store_refuses_a_rated_table(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "bare", fixed_seeds=True)
        await srv.start()
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "human"], game="nim", rated=True))
            err = await a.expect(lambda m: isinstance(m, P.Error))
            assert "keeps no ratings" in err.message
        finally:
            await srv.close()
        srv = await stored_server(tmp_path)
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "human"], game="nim", rated=True, hints=True))
            err = await a.expect(lambda m: isinstance(m, P.Error))
            assert err.message == "a rated table gives no hints: choose one or the other"
            assert not srv.tables
        finally:
            await srv.close()

    run(go())


def test_leaving_a_rated_game_counts_as_last(tmp_path):
    async def go():
        srv = await stored_server(tmp_path, bot_timeout=0.1)
        store = srv.store
        assert store is not None
        try:
            tid, (pa, pb) = await nim_table(srv, seats=("human", "human"), heap=5)
            pb.c.send(P.Leave(table=tid))  # bob walks out; a bot stands in after bot_timeout
            await play_to_end([pa], timeout=30)
            (game,) = await recorded(store)
            by_seat = {s.seat: s for s in game.seats}
            assert by_seat[1].left and not by_seat[0].left
            alice, bob = await store.player_named("alice"), await store.player_named("bob")
            assert alice is not None and bob is not None
            ra, rb = await store.rating(alice.id, "nim"), await store.rating(bob.id, "nim")
            assert ra.mu > rb.mu  # whatever the places were, bob counted last
        finally:
            await srv.close()

    run(go(), 60)


def test_a_result_found_over_at_a_restart_is_recorded_once(tmp_path):
    async def go():
        srv = await stored_server(tmp_path)
        tid, players = await nim_table(srv)
        await play_to_end(players, timeout=30)
        await recorded(srv.store)
        await srv.close()
        # the table's file put back as if the server had died before noting the end
        meta = json.loads((tmp_path / "data" / "history" / f"{tid}.json").read_bytes())
        meta["status"] = "playing"
        (tmp_path / "data" / "tables" / f"{tid}.json").write_text(json.dumps(meta))
        srv2 = await stored_server(tmp_path)
        try:
            await asyncio.sleep(0.2)
            assert not (tmp_path / "data" / "tables" / f"{tid}.json").exists()  # noted as over now
            games, total = await srv2.store.finished()
            assert total == 1 and games[0].id.startswith(f"{tid}@")
            assert not srv2.store.pending.path.exists()
        finally:
            await srv2.close()

    run(go(), 60)


@pytest.fixture
def pg():
    with cluster_or_skip() as cluster:
        yield cluster


def test_postgresql_stopped_mid_table_loses_nothing_and_counts_once(tmp_path, pg, monkeypatch):
    monkeypatch.setattr(results, "RETRY_SECONDS", 0.2)

    async def go():
        srv = await stored_server(tmp_path, pg.fresh_database())
        store = srv.store
        assert store is not None
        try:
            tid, players = await nim_table(srv)
            await asyncio.to_thread(pg.stop)
            await play_to_end(players, timeout=30)  # the table goes on
            for _ in range(100):
                if store.pending.path.exists():
                    break
                await asyncio.sleep(0.05)
            assert [g.table_id for g in store.pending.games()] == [tid]
            await asyncio.sleep(0.5)  # tries while it is away change nothing
            await asyncio.to_thread(pg.start)
            (game,) = await recorded(store, timeout=20)
            assert game.id.startswith(f"{tid}@") and game.rated
            for _ in range(100):
                if not store.pending.path.exists():
                    break
                await asyncio.sleep(0.05)
            assert not store.pending.path.exists()
            alice = await store.player_named("alice")
            assert alice is not None and (await store.rating(alice.id, "nim")).games == 1
            assert await store.flush() == 0  # written once
            _games, total = await store.finished()
            assert total == 1
        finally:
            await srv.close()

    run(go(), 90)


def test_an_older_data_folder_is_imported_at_the_first_start(tmp_path):
    """The server of protocol 4's data folder (``data/server_v4``) and a names file: the first
    start with a store takes in its finished games and its names bound to keys, once."""
    import shutil

    from test_net_upgrade import OLD

    data = tmp_path / "data"
    shutil.copytree(OLD, data)
    (data / "names.jsonl").write_text('{"id": "alice", "name": "alice", "key": "SHA256:alice"}\n')

    async def go():
        for _start in range(2):  # the second start imports nothing again
            srv = await stored_server(tmp_path)
            try:
                games, total = await srv.store.finished()
                assert total == 2 and {g.game for g in games} == {"colosseum", "municipium"}
                assert not any(g.rated for g in games)
                alice = await srv.store.player_for_key("SHA256:alice")
                assert alice is not None and alice.name == "alice"
                assert (await srv.store.players())[1] == 1
            finally:
                await srv.close()

    run(go(), 60)
