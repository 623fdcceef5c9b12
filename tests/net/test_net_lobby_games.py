"""Issue 26 in the table server: one's own finished games, a finished game's review as the asker
saw it, a fork of a finished game into a new table, a rematch at a finished table (everyone
accepts: a new table with the same people; a decline or someone gone: told in one line), and
the tables where it is one's move."""

from __future__ import annotations

import asyncio
import time

import pytest
import toygame
from test_net_tables import client, run, server_at

from colosseum.core.logread import read_log
from colosseum.core.registry import unregister
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.meta import SeatMeta, TableMeta
from colosseum.tui.net.host.rematch import rotated_options
from colosseum.tui.net.host.table import Table
from colosseum.tui.net.host.testing import Player, play_to_end

NIM = toygame.RULES


@pytest.fixture(autouse=True)
def nim():
    toygame.register()
    yield
    unregister("nim")


async def finished_nim(srv, heap=4):
    """alice and bob finish a Nim game with a bot (both stay at the table): (id, players)."""
    a, b = [await client(srv, who) for who in ("alice", "bob")]
    a.send(P.CreateTable(seats=["human", "human", "normal"], sit=0, seed=3, game="nim", options={"heap": heap}))
    ja = await a.expect(lambda m: isinstance(m, P.Joined))
    tid = ja.table.id
    b.send(P.Join(table=tid, seat=1))
    jb = await b.expect(lambda m: isinstance(m, P.Joined))
    players = [Player(a, tid, 0, bot="normal", seed=1), Player(b, tid, 1, bot="random", seed=2)]
    for p in players:
        p.take(jb)
    await play_to_end(players, timeout=20)
    return tid, players


async def _answer(c, kind, pred=lambda m: True):
    return await c.expect(lambda m: isinstance(m, (kind, P.Error)) and (isinstance(m, P.Error) or pred(m)))


def test_my_finished_games_their_review_and_a_fork(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, (pa, pb) = await finished_nim(srv)
            eve = await client(srv, "eve")
            for who, want in ((pa.c, [tid]), (eve, [])):
                who.send(P.ListTables(history=True, mine=True))
                page = await _answer(who, P.Tables)
                assert [h.id for h in page.history] == want and page.total == len(want)
                assert all(not h.holders for h in page.history)  # who played stays the server's
            eve.send(P.ListTables(history=True))
            page = await _answer(eve, P.Tables)
            assert [h.id for h in page.history] == [tid] and not page.history[0].holders

            log = read_log(srv.data / "games" / f"{tid}.jsonl")
            for who, seat in ((pa.c, 0), (eve, -1)):
                who.send(P.ReviewGame(game=tid, start=0))
                pos = await _answer(who, P.Positions)
                assert isinstance(pos, P.Positions), pos
                assert pos.seat == seat and pos.n == len(log.actions) == len(pos.actions)
                assert pos.seats == ["human", "human", "normal"]
                assert P.Codec.of("nim").setup(pos.setup).secret == "" and pos.keys[0].at == 0
            pa.c.send(P.ReviewGame(game=f"{tid}@0123abcd"))  # the store's id of the game
            assert isinstance(await _answer(pa.c, P.Positions), P.Positions)
            for bad in ("../secret", "zzzzzz", ""):
                eve.send(P.ReviewGame(game=bad))
                err = await _answer(eve, P.Positions)
                assert isinstance(err, P.Error) and "no finished game" in err.message

            # a fork after the first action: eve plays seat 2 against two bots, new chance
            eve.send(P.ForkGame(game=tid, at=1, seats=["normal", "human", "random"], sit=1))
            j = await _answer(eve, P.Joined)
            assert isinstance(j, P.Joined), j
            assert j.state is not None and len(j.actions) == 1 and j.seat == 1
            assert j.table.seats[1].name == "eve" and not j.table.rated
            fork = srv.tables[j.table.id]
            assert fork.rules.names(fork.state)[1] == "eve"
            assert fork.actions[:1] == log.actions[:1]  # (its bots may have played on since)
            assert fork.meta.fork_of == tid and fork.meta.reseed is not None
            p = Player(eve, j.table.id, 1, bot="random", seed=5)
            p.take(j)
            await play_to_end([p], timeout=20)
            eve.send(P.ListTables(history=True, mine=True))  # (counted before: the new line is read)
            page = await _answer(eve, P.Tables)
            assert [h.id for h in page.history] == [j.table.id] and page.total == 1
            flog = read_log(srv.data / "games" / f"{j.table.id}.jsonl")
            assert flog.header.fork_of == f"{tid}.jsonl" and flog.header.fork_at == 1
            assert flog.header.reseed_point() == (1, fork.meta.reseed)
            assert flog.finished and flog.actions[:1] == log.actions[:1]
            # forks of positions that cannot be
            for at in (-1, len(log.actions)):
                eve.send(P.ForkGame(game=tid, at=at, seats=["human", "normal", "normal"], sit=0))
                err = await _answer(eve, P.Joined)
                assert isinstance(err, P.Error) and "before the game's end" in err.message
            eve.send(P.ForkGame(game=tid, at=1, seats=["human", "normal"], sit=0))
            assert isinstance(await _answer(eve, P.Joined), P.Error)
        finally:
            await srv.close()

    run(go())


def test_a_fork_table_comes_back_after_a_restart(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        tid, _players = await finished_nim(srv, heap=6)
        eve = await client(srv, "eve")
        eve.send(P.ForkGame(game=tid, at=2, seats=["human", "normal", "normal"], sit=0))
        j = await _answer(eve, P.Joined)
        assert isinstance(j, P.Joined), j
        fid = j.table.id
        before = srv.tables[fid].state
        await srv.close()
        srv = await server_at(tmp_path)
        try:
            again = srv.tables[fid]
            assert again.state == before  # the new chance from the fork point replays as it was
        finally:
            await srv.close()

    run(go())


def test_a_rematch_when_everyone_accepts(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, (pa, pb) = await finished_nim(srv)
            eve = await client(srv, "eve")
            eve.send(P.Rematch(table=tid))  # not a player of it
            assert isinstance(await _answer(eve, P.RematchState), P.Error)
            pa.c.send(P.Rematch(table=tid))
            for c in (pa.c, pb.c):
                st = await _answer(c, P.RematchState)
                assert st.answers == ["asked", "", "yes"] and not st.new_table
                assert st.note == "alice asks for a rematch."
            pb.c.send(P.Rematch(table=tid))
            for c in (pa.c, pb.c):
                st = await _answer(c, P.RematchState, lambda m: bool(m.new_table))
                assert st.answers == ["asked", "yes", "yes"]
            new = srv.tables[st.new_table]
            assert new.meta.status == "playing" and new.meta.rematch_of == tid
            assert [s.holder for s in new.meta.seats] == ["key:alice", "key:bob", ""]
            assert new.meta.seats[2].kind == "normal" and new.meta.seed == 4
            for seat, c in enumerate((pa.c, pb.c)):
                c.send(P.Join(table=new.id, seat=seat))
                j = await _answer(c, P.Joined, lambda m: m.table.id == new.id)
                assert isinstance(j, P.Joined) and j.seat == seat and j.state is not None
        finally:
            await srv.close()

    run(go())


def test_a_rematch_declined_or_with_someone_gone(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, (pa, pb) = await finished_nim(srv)
            pa.c.send(P.Rematch(table=tid))
            await _answer(pb.c, P.RematchState)
            pb.c.send(P.Rematch(table=tid, accept=False))
            st = await _answer(pa.c, P.RematchState, lambda m: bool(m.note) and "declines" in m.note)
            assert st.note == "bob declines the rematch." and not st.new_table
            pa.c.send(P.Rematch(table=tid))  # again, and bob goes back to the lobby
            await _answer(pb.c, P.RematchState)
            pb.c.send(P.Leave(table=tid))
            st = await _answer(pa.c, P.RematchState, lambda m: "left" in m.note)
            assert st.note == "bob has left the table: no rematch."
            pa.c.send(P.Rematch(table=tid))  # bob is gone: at once
            st = await _answer(pa.c, P.RematchState, lambda m: "left" in m.note)
            assert not st.new_table
        finally:
            await srv.close()

    run(go())


def test_the_first_player_moves_on_in_a_rematch(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            meta = TableMeta(
                id="t1",
                name="x",
                game="colosseum",
                creator="key:a",
                creator_name="a",
                seats=[SeatMeta(kind="random"), SeatMeta(kind="random"), SeatMeta(kind="random")],
                seed=9,
            )
            t = Table(srv, meta)
            t.setup = t.spec.make_setup(["A", "B", "C"], seed=9)
            first = t.rules.first_seat(t.rules.new_game(t.setup))
            assert rotated_options(t)["first_player"] == (first + 1) % 3
            meta.options = {"first_player": 2}
            t.setup = t.spec.make_setup(["A", "B", "C"], seed=9, first_player=2)
            assert rotated_options(t)["first_player"] == 0
            t.close()
        finally:
            await srv.close()

    run(go())


def test_your_move_lists_the_tables_waiting_for_me(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=5.0)
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "normal"], sit=0, seed=1, game="nim", options={"heap": 3}))
            j = await _answer(a, P.Joined)
            p = Player(a, j.table.id, 0)
            p.take(j)
            a.send(P.ListTables())
            page = await _answer(a, P.Tables)
            mine = [t for t in page.tables if t.id == j.table.id][0]
            assert (j.table.id in page.your_move) == (mine.to_act == 0)
            assert mine.to_act in (0, 1) and len(page.your_move) <= 1
        finally:
            await srv.close()

    run(go())


def test_a_private_table_is_seen_by_those_with_its_code(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a, b, eve = [await client(srv, who) for who in ("alice", "bob", "eve")]
            a.send(P.CreateTable(seats=["human", "human", "normal"], sit=0, game="nim", private=True, seed=2))
            ja = await _answer(a, P.Joined)
            tid, code = ja.table.id, ja.table.code
            assert len(code) == 8 and code.isalnum() and code.isupper()
            for who, seen in ((a, [tid]), (eve, [])):
                who.send(P.ListTables())
                page = await _answer(who, P.Tables)
                assert [t.id for t in page.tables] == seen
            eve.send(P.Watch(table=tid))  # by its id: as if there were no such table
            err = await _answer(eve, P.Joined)
            assert isinstance(err, P.Error) and err.code == "unknown_table"
            for wrong in ("AAAAAAAA", "", "x" * 500):
                eve.send(P.JoinCode(code=wrong))
                err = await _answer(eve, P.Joined)
                assert isinstance(err, P.Error) and "no table has the code" in err.message
            b.send(P.JoinCode(code=f" {code[:4].lower()}-{code[4:]} "))  # as typed by hand
            jb = await _answer(b, P.Joined, lambda m: m.state is not None)
            assert isinstance(jb, P.Joined) and jb.seat == 1 and jb.table.id == tid
            eve.send(P.JoinCode(code=code))  # no free seat left: eve watches
            je = await _answer(eve, P.Joined)
            assert isinstance(je, P.Joined) and je.seat == -1
            eve.send(P.ListTables())
            assert [t.id for t in (await _answer(eve, P.Tables)).tables] == [tid]
            assert "key:eve" in srv.tables[tid].meta.invited
            # a stranger guessing codes is slowed down
            mallory = await client(srv, "mallory")
            for _ in range(5):
                mallory.send(P.JoinCode(code="ZZZZZZZZ"))
                await _answer(mallory, P.Joined)
            mallory.send(P.JoinCode(code=code))
            err = await _answer(mallory, P.Joined)
            assert isinstance(err, P.Error) and err.code == "flood"
            # the finished private game: listed to its players, not to a stranger
            players = [Player(a, tid, 0, bot="normal", seed=1), Player(b, tid, 1, bot="random", seed=2)]
            for p in players:
                p.take(jb)
            await play_to_end(players, timeout=20)
            for who, seen in ((a, [tid]), (mallory, [])):
                who.send(P.ListTables(history=True))
                page = await _answer(who, P.Tables)
                assert [h.id for h in page.history] == seen and page.total == len(seen)  # counted alike
            mallory.send(P.ReviewGame(game=tid))
            assert isinstance(await _answer(mallory, P.Positions), P.Error)
        finally:
            await srv.close()

    run(go())


def test_a_time_bank_runs_down_gains_its_increment_and_then_a_bot_stands_in(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=0.3, turn_timeout=0)
        try:
            a = await client(srv, "alice")
            for seed in range(1, 20):  # a table where alice is first to act
                a.send(P.CreateTable(seats=["human", "normal"], sit=0, seed=seed, game="nim", bank=3, increment=1))
                j = await _answer(a, P.Joined)
                if j.table.to_act == 0:
                    break
                a.send(P.Leave(table=j.table.id))
            assert j.table.to_act == 0 and j.table.banks == [3.0, 3.0]
            assert 2.0 < j.table.deadline - time.time() <= 3.0
            p = Player(a, j.table.id, 0, bot="random", seed=1)
            p.take(j)
            assert isinstance(await p.act_once(), P.Ack)
            t = srv.tables[j.table.id]
            assert 3.5 < t.meta.banks[0] <= 4.0  # a moment used, a second gained
            late = await a.expect(lambda m: isinstance(m, P.Error) and m.code == "clock", timeout=15)
            assert "Time is up" in late.message
            assert t.meta.banks[0] == 0.0 and 0 in t.standin
        finally:
            await srv.close()

    run(go())


def test_a_turn_based_table_waits_for_its_players_and_keeps_its_deadline_over_a_restart(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_timeout=0.2)
        a, b = [await client(srv, who) for who in ("alice", "bob")]
        a.send(P.CreateTable(seats=["human", "human", "normal"], sit=0, seed=5, game="nim", turn_hours=24))
        ja = await _answer(a, P.Joined)
        tid = ja.table.id
        b.send(P.Join(table=tid, seat=1))
        jb = await _answer(b, P.Joined, lambda m: m.state is not None)
        assert jb.table.turn_hours == 24
        t = srv.tables[tid]
        deadline, at = t.meta.turn_deadline, t.meta.turn_at
        assert at == len(t.actions) and 23.9 * 3600 < deadline - time.time() <= 24 * 3600
        await a.close()
        await b.close()
        await asyncio.sleep(0.6)  # longer than the bot timeout: nobody stands in
        assert not t.standin and t.to_act() >= 0
        who = t.to_act()
        await srv.close()
        srv = await server_at(tmp_path, bot_timeout=0.2)
        try:
            again = srv.tables[tid]
            await asyncio.sleep(0.6)
            assert not again.standin and again.to_act() == who
            assert again.meta.turn_deadline == deadline and abs(again.clock.deadline - deadline) < 1.0
            name = "alice" if who == 0 else ("bob" if who == 1 else "")
            if name:
                c = await client(srv, name)
                c.send(P.ListTables())
                page = await _answer(c, P.Tables)
                assert page.your_move == [tid]  # the lobby's "your move" after the restart
        finally:
            await srv.close()

    run(go())


def test_a_rematch_the_disk_refuses_leaves_nothing_and_says_so(tmp_path, monkeypatch):
    import errno
    import os

    from colosseum.tui.net.host import limits

    real, on = os.fsync, {"full": False}

    def fsync(fd):
        if on["full"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)

    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, (pa, pb) = await finished_nim(srv)
            before = set(srv.tables)
            files = {p.name for p in (srv.data / "tables").iterdir()}
            pa.c.send(P.Rematch(table=tid))
            await _answer(pb.c, P.RematchState)
            on["full"] = True
            pb.c.send(P.Rematch(table=tid))
            for c in (pa.c, pb.c):
                st = await _answer(c, P.RematchState, lambda m: m.note.startswith("No rematch"))
                assert st.note == f"No rematch: {limits.NOT_SAVED}" and not st.new_table
            on["full"] = False
            assert set(srv.tables) == before  # no phantom table
            assert {p.name for p in (srv.data / "tables").iterdir()} == files  # and no file
            pa.c.send(P.Rematch(table=tid))  # the disk takes writes again: asked anew, made
            await _answer(pb.c, P.RematchState)
            pb.c.send(P.Rematch(table=tid))
            st = await _answer(pa.c, P.RematchState, lambda m: bool(m.new_table))
            assert srv.tables[st.new_table].meta.status == "playing"
        finally:
            await srv.close()

    run(go())
