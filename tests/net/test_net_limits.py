"""The table server holds up over time: finished tables leave memory (their logs stay, listed
as history, paged), lists are paged under the frame limit, waiting tables everybody left are
removed, a seat's decision has a clock, and the data files are the owner's only."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import msgspec
import pytest

from colosseum.core.games.colosseum import to_act
from colosseum.tui.net.host import clock
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.files import tail_lines
from colosseum.tui.net.host.finished import visible_page
from colosseum.tui.net.host.hub import MAX_TABLES_PER_PLAYER, TableServer
from colosseum.tui.net.host.proto_client import ProtoClient


def run(coro, timeout: float = 60.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


async def client(srv: TableServer, who: str) -> ProtoClient:
    return await ProtoClient.connect(srv.address, srv.token_for(f"key:{who}", who))


async def bot_games(srv: TableServer, n: int, creators: int = 400) -> None:
    """``n`` tables of bots only, each created by a watcher who leaves at once."""
    cs = [await client(srv, f"c{i}") for i in range(min(creators, n))]
    made = 0
    while made < n:
        live = sum(1 for t in srv.tables.values() if t.meta.status != "over")
        if live >= 300:
            await asyncio.sleep(0.01)
            continue
        c = cs[made % len(cs)]
        c.send(P.CreateTable(seats=["random", "random", "random"], sit=-1, name=f"g{made}"))
        j = await c.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
        assert isinstance(j, P.Joined), j
        c.send(P.Leave(table=j.table.id))
        made += 1
    for _ in range(6000):
        if not srv.tables:
            break
        await asyncio.sleep(0.01)
    for c in cs:
        await c.close()


@pytest.fixture
def fast_dir(tmp_path):
    """A folder in memory where there is one (fsync costs nothing there: the test measures the
    server, not the disk)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    d = Path(tempfile.mkdtemp(prefix="colosseum-test-", dir=shm))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@pytest.mark.long(26)
def test_thousands_of_finished_tables_leave_memory_and_are_listed_as_history(fast_dir):
    n = 2000
    tmp_path = fast_dir

    async def go():
        # creators leave before the bots play on
        srv = TableServer(tmp_path / "data", bot_delay=0.001, fixed_seeds=True)
        await srv.start()
        t0 = time.monotonic()
        await bot_games(srv, n)
        took = time.monotonic() - t0
        assert not srv.tables, f"{len(srv.tables)} tables still held"  # every finished table left
        assert srv.history_count == n
        assert len(list((tmp_path / "data" / "games").glob("*.jsonl"))) == n  # the logs stay
        assert not list((tmp_path / "data" / "tables").glob("*.json"))
        c = await client(srv, "reader")
        c.send(P.ListTables())
        live = await c.expect(lambda m: isinstance(m, P.Tables))
        assert live.tables == [] and live.total == 0
        seen: list[str] = []
        ended: list[float] = []
        for offset in range(0, n, P.PAGE_MAX):
            c.send(P.ListTables(history=True, offset=offset, limit=1000))  # asks too much: gets a page
            page = await c.expect(lambda m: isinstance(m, P.Tables))
            assert page.total == n and len(page.history) == P.PAGE_MAX
            assert len(P.encode(page)) < P.MAX_MESSAGE // 20
            seen += [h.name for h in page.history]
            ended += [h.ended for h in page.history]
        assert sorted(seen) == sorted(f"g{i}" for i in range(n))  # each once
        assert ended == sorted(ended, reverse=True)  # the last finished first
        assert all(h.winner and len(h.players) == 3 and h.actions > 0 for h in page.history)
        await c.close()
        await srv.close()
        # a restart loads none of them
        t1 = time.monotonic()
        srv2 = TableServer(tmp_path / "data", fixed_seeds=True)
        await srv2.start()
        restart = time.monotonic() - t1
        assert not srv2.tables and srv2.history_count == n and restart < 2.0
        await srv2.close()
        return took

    took = run(go(), 240)
    print(f"{n} games in {took:.1f} s")


def measure_table_memory(data: str) -> tuple[int, list[str]]:
    """Bytes the server kept after 100 more finished bot tables (and where), measured after a
    warm-up; run in a process of its own (``test_memory_per_finished_table_returns_to_zero``)."""

    async def go():
        srv = TableServer(Path(data) / "data", bot_delay=0.001, fixed_seeds=True)
        await srv.start()
        await bot_games(srv, 20, creators=5)  # warm up: imports, caches, first allocations
        gc.collect()
        root = logging.getLogger()
        level = root.level
        root.setLevel(logging.WARNING)  # as a server's default, whatever a test before set
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        await bot_games(srv, 100, creators=20)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        root.setLevel(level)
        # the engine's memos of legal moves (bounded caches that fill over many games, sooner
        # when other tests ran first) are not the tables': count what the rest kept
        # and log records: a test before this one in the same process may have set the root
        # logger to INFO (``serve``'s basicConfig), and pytest keeps a test's records until it ends
        engine = (
            tracemalloc.Filter(False, "*/core/games/*"),
            tracemalloc.Filter(False, "*/logging/*"),
            tracemalloc.Filter(False, "*/_pytest/*"),
        )
        after, before = after.filter_traces(engine), before.filter_traces(engine)
        diffs = after.compare_to(before, "filename")
        grown = sum(s.size_diff for s in diffs)
        await srv.close()
        return grown, [f"{s.traceback[0].filename}: {s.size_diff}" for s in diffs[:8]]

    return run(go(), 120)


def test_memory_per_finished_table_returns_to_zero(tmp_path):
    # in a fresh interpreter: what tests before this one left in the process (handlers, log
    # levels, threads, caches) is not the tables'
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[2]); import test_net_limits as t; "
        "print(json.dumps(t.measure_table_memory(sys.argv[1])))"
    )
    here = str(Path(__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), here], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    grown, top = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{grown / 100:.0f} bytes kept per finished table")
    assert grown / 100 < 2000, (f"{grown / 100:.0f} bytes per finished table", top)


def test_the_live_list_is_paged_and_bounded(fast_dir):
    tmp_path = fast_dir

    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True)
        await srv.start()
        cs = [await client(srv, f"p{i}") for i in range(70)]
        for c in cs:
            for _ in range(MAX_TABLES_PER_PLAYER):
                c.send(P.CreateTable(seats=["human", "human", "human"], sit=0, name="[/]" * 20 + "漢" * 40))
                await c.expect(lambda m: isinstance(m, P.Joined))
        # the per-player cap
        cs[0].send(P.CreateTable(seats=["human", "human", "human"], sit=0))
        err = await cs[0].expect(lambda m: isinstance(m, P.Error))
        assert "open tables" in err.message
        # the global cap (500): 70 x 5 = 350 so far, 30 more players fill it
        more = [await client(srv, f"q{i}") for i in range(31)]
        refused = 0
        for c in more:
            for _ in range(MAX_TABLES_PER_PLAYER):
                c.send(P.CreateTable(seats=["human", "human", "human"], sit=0))
                m = await c.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
                refused += isinstance(m, P.Error) and m.message == "too many tables"
        assert len(srv.tables) == 500 and refused == 5
        names = {t.meta.name for t in srv.tables.values()}
        assert "[/]" * 13 + "[" in names  # 40 cells of the name
        pages = []
        for offset in range(0, 600, P.PAGE_MAX):
            cs[1].send(P.ListTables(offset=offset))
            page = await cs[1].expect(lambda m: isinstance(m, P.Tables))
            assert page.total == 500 and len(P.encode(page)) < P.MAX_MESSAGE // 4
            pages += [t.id for t in page.tables]
        assert len(pages) == len(set(pages)) == 500
        # a waiting table everybody left is removed
        tid = next(t.id for t in srv.tables.values() if t.meta.creator == "key:p2")
        cs[2].send(P.Leave(table=tid))
        for _ in range(100):
            if tid not in srv.tables:
                break
            await asyncio.sleep(0.01)
        assert tid not in srv.tables and not (tmp_path / "data" / "tables" / f"{tid}.json").exists()
        for c in cs + more:
            await c.close()
        await srv.close()

    run(go(), 120)


def test_tail_lines_pages_backwards(tmp_path):
    p = tmp_path / "h.jsonl"
    p.write_bytes(b"".join(f"line {i}\n".encode() for i in range(5000)))
    assert tail_lines(p, 0, 3) == [b"line 4999", b"line 4998", b"line 4997"]
    assert tail_lines(p, 4998, 10, block=7) == [b"line 1", b"line 0"]
    assert tail_lines(p, 6000, 10) == [] and tail_lines(tmp_path / "none", 0, 5) == []


def test_a_finished_table_of_an_older_version_moves_to_the_history(tmp_path):
    data = tmp_path / "data"
    (data / "tables").mkdir(parents=True)
    # the shape of a table's file before the game was named (no "game"; "variant", a list of options)
    old = {
        "id": "abc123",
        "name": "old",
        "variant": "original",
        "options": ["auction-2007"],
        "allow_takeover": False,
        "creator": "key:x",
        "creator_name": "x",
        "seats": [{"kind": "random"}, {"kind": "human", "holder": "key:x", "name": "x"}],
        "status": "over",
    }
    (data / "tables" / "abc123.json").write_bytes(msgspec.json.encode(old))

    async def go():
        srv = TableServer(data, fixed_seeds=True)
        await srv.start()
        assert not srv.tables and srv.history_count == 1
        (h,) = visible_page(srv, [], 0, 10)
        assert h.name == "old" and h.players == ["random bot", "x"]
        # (the original edition's one win per phase implies the 2007 auctions: not said again, O-17)
        assert h.game == "colosseum" and h.edition == "Original 2007"
        await srv.close()

    run(go())
    assert (data / "history" / "abc123.json").exists() and not (data / "tables" / "abc123.json").exists()


async def three_on_a_clock(tmp_path) -> tuple[TableServer, tuple[ProtoClient, ProtoClient, ProtoClient], P.Joined]:
    """A server whose decisions have 0.6 s, and three people at one of its tables (what the
    last of them was told on joining)."""
    srv = TableServer(tmp_path / "data", bot_delay=0.0, turn_timeout=0.6, fixed_seeds=True)
    await srv.start()
    a, b, c = [await client(srv, n) for n in ("alice", "bob", "carol")]
    a.send(P.CreateTable(seats=["human", "human", "human"], sit=0, seed=3))
    tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
    b.send(P.Join(table=tid, seat=1))
    await b.expect(lambda m: isinstance(m, P.Joined))
    c.send(P.Join(table=tid, seat=2))
    return srv, (a, b, c), await c.expect(lambda m: isinstance(m, P.Joined))


def test_a_stalled_player_s_decision_runs_out_and_a_bot_stands_in(tmp_path):
    async def go():
        srv, (a, b, c), j = await three_on_a_clock(tmp_path)
        tid = j.table.id
        table = srv.tables[tid]
        seat = to_act(table.state)
        # everyone sees whose clock runs and until when
        assert j.table.clock_seat == seat and 0 < j.table.deadline - time.time() <= 0.6
        stalled = (a, b, c)[seat]  # this connection never answers (a stalled client)
        err = await stalled.expect(lambda m: isinstance(m, P.Error) and m.code == "clock", timeout=5)
        assert "bot plays your seat" in err.message
        others = [x for x in (a, b, c) if x is not stalled]
        changed = await others[0].expect(lambda m: isinstance(m, P.TableChanged) and m.table.seats[seat].standin)
        assert changed.table.seats[seat].present  # connected, yet a bot plays for it
        # the bot moved for the stalled seat; the next decision has its own clock
        upd = await others[1].expect(
            lambda m: isinstance(m, P.Update) and P.Codec.of("colosseum").action(m.actions[0]).player == seat, timeout=5
        )
        assert upd.n >= 1
        # the player takes the seat back
        stalled.send(P.Autopilot(table=tid, on=False))
        for _ in range(100):
            if seat not in table.standin:
                break
            await asyncio.sleep(0.01)
        assert seat not in table.standin
        for x in (a, b, c):
            await x.close()
        await srv.close()

    run(go())


def test_a_decision_whose_time_ran_out_while_the_host_was_stopped_gets_time_again(tmp_path, monkeypatch):
    """The host stopped (paused, frozen, asleep) past a player's deadline: when it runs again the
    timer fires late, and the player, who was waiting for the host, gets a little time to decide
    instead of a bot standing in at once; everyone is told the new deadline."""
    monkeypatch.setattr(clock, "LATE", 0.5)
    monkeypatch.setattr(clock, "UNDO_MIN_LEFT", 1.0)

    async def go():
        srv, (a, b, c), j = await three_on_a_clock(tmp_path)
        tid = j.table.id
        table = srv.tables[tid]
        seat = to_act(table.state)
        first = j.table.deadline
        waiting = (a, b, c)[seat]
        time.sleep(1.6)  # the host's loop runs nothing: the deadline passes a second before it runs again
        told = await waiting.expect(lambda m: isinstance(m, P.TableChanged) and m.table.deadline > first + 0.5)
        assert told.table.clock_seat == seat and not told.table.seats[seat].standin
        assert 0 < told.table.deadline - time.time() <= 1.0  # (UNDO_MIN_LEFT from when the host ran again)
        assert seat not in table.standin
        # the time given runs out as any other: then a bot stands in
        err = await waiting.expect(lambda m: isinstance(m, P.Error) and m.code == "clock", timeout=5)
        assert "bot plays your seat" in err.message
        for x in (a, b, c):
            await x.close()
        await srv.close()

    run(go())


def test_data_files_are_the_owner_s_only(tmp_path):
    old = os.umask(0o022)  # a usual umask: modes must not depend on it
    try:

        async def go():
            srv = TableServer(tmp_path / "data", bot_delay=0.0, fixed_seeds=True)
            await srv.start()
            await bot_games(srv, 2, creators=1)
            c = await client(srv, "w")
            c.send(P.CreateTable(seats=["human", "human", "human"], sit=0))
            await c.expect(lambda m: isinstance(m, P.Joined))
            await c.close()
            await srv.close()

        run(go())
    finally:
        os.umask(old)
    data = tmp_path / "data"
    for d in [data, *(p for p in data.rglob("*") if p.is_dir())]:
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d
    files = [p for p in data.rglob("*") if p.is_file()]
    assert {p.parent.name for p in files} >= {"games", "history", "data"}
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    assert json.loads((data / "history.jsonl").read_text().splitlines()[0])["players"]


def test_a_chat_flood_is_cut_and_a_table_keeps_only_recent_talk(tmp_path):
    from colosseum.tui.net.host.chat import CHAT_KEPT
    from colosseum.tui.net.host.conn import CHAT_BURST

    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True)
        await srv.start()
        a = await client(srv, "alice")
        a.send(P.CreateTable(seats=["human", "human", "human"], sit=0))
        tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
        for i in range(50):
            a.send(P.Say(table=tid, text=f"spam {i} " + "x" * 500))
        err = await a.expect(lambda m: isinstance(m, P.Error) and m.code == "flood")
        assert "too fast" in err.message
        await asyncio.sleep(0.2)
        table = srv.tables[tid]
        assert len(table.chat) == CHAT_BURST and all(len(c.text) <= 400 for c in table.chat)
        for conn in table.conns:
            conn.said.clear()  # (time passes)
        for i in range(CHAT_KEPT + 10):
            table.say(conn, f"line {i}")
        assert len(table.chat) == CHAT_KEPT and table.chat[-1].text == f"line {CHAT_KEPT + 9}"
        await a.close()
        await srv.close()

    run(go())
