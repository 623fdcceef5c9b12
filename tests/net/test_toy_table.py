"""The tests' toy game (Nim, ``tests/toygame.py``) hosted through the game interface alone: the
server names no game, so a game it has never heard of is created, joined, played to the end by
protocol-level players, watched, taken back, logged and replayed, reviewed, and resumed after a
restart (in this process, and in a ``colosseum serve`` process that finds the game through
``COLOSSEUM_GAMES``).  Each message a connection receives holds its own seat's view."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
import toygame
from test_net_tables import client, run, server_at

from colosseum.core.logread import read_log
from colosseum.core.registry import unregister
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import Player, free_port, play_to_end, ranks
from colosseum.tui.net.host.tokens import load_secret, make_token

TESTS = Path(__file__).resolve().parents[1]
NIM = toygame.RULES


@pytest.fixture(autouse=True)
def nim():
    toygame.register()
    yield
    unregister("nim")


async def _nim_table(srv, seats=("human", "human", "normal"), heap=6, seed=4):
    """alice and bob at a Nim table (and a bot), eve watching: (table id, players, eve)."""
    a, b, eve = [await client(srv, who) for who in ("alice", "bob", "eve")]
    a.send(P.CreateTable(seats=list(seats), sit=0, seed=seed, game="nim", options={"heap": heap}, name="stones"))
    ja = await a.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
    assert isinstance(ja, P.Joined), ja
    assert ja.table.game == "nim" and ja.table.edition == f"Heap size {heap}" and ja.state is None
    tid = ja.table.id
    eve.send(P.Watch(table=tid))
    await eve.expect(lambda m: isinstance(m, P.Joined))
    b.send(P.Join(table=tid, seat=1))
    jb = await b.expect(lambda m: isinstance(m, P.Joined))
    assert jb.state is not None  # every human seat taken: the game began
    players = [Player(a, tid, 0, bot="normal", seed=1), Player(b, tid, 1, bot="random", seed=2)]
    for p in players:
        p.take(jb)
    return tid, players, eve


def test_a_toy_game_is_created_played_watched_logged_and_listed(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players, eve = await _nim_table(srv)
            table = srv.tables[tid]
            assert table.rules is NIM and table.state.heaps == (6, 6, 6)
            listed = await players[0].c.expect(lambda m: isinstance(m, P.TableChanged) and m.table.status == "playing")
            assert listed.table.progress == "18 stones left" and listed.table.game == "nim"
            await play_to_end(players, timeout=30)
            assert ranks(players[0]) == ranks(players[1]) and sorted(ranks(players[0]))[0] == 1
            # the spectator followed every move to the end
            seen = Player(eve, tid, -1, game="nim")
            while not seen.over():
                await seen.pump(timeout=2)
            assert seen.state == players[0].state
            # the log names the game and replays to the end the players saw
            log = read_log(srv.data / "games" / f"{tid}.jsonl")
            assert log.game == "nim" and log.intact and log.finished and log.ended
            final = NIM.new_game(log.setup)
            for action in log.actions:
                final = NIM.apply(final, action)[0]
            assert NIM.player_view(final, 0) == players[0].state and log.setup.heap == 6
            # the finished game is listed in the history with its game and options in words
            players[0].c.send(P.ListTables(history=True))
            page = await players[0].c.expect(lambda m: isinstance(m, P.Tables))
            (h,) = page.history
            assert h.game == "nim" and h.edition == "Heap size 6" and h.name == "stones"
            assert h.winner in log.setup.players and h.actions == len(log.actions)
        finally:
            await srv.close()

    run(go(), 60)


def test_a_toy_table_refuses_what_its_game_does_not_have(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a = await client(srv, "alice")
            for seats, options, words in (
                (["human"] * 5, {}, "a Nim table has 2 to 4 seats"),
                (["human", "hard"], {}, "seat kinds are 'human' or a bot: normal, random, greedy"),
                (["human", "normal"], {"heap": 13}, "Heap size must be a whole number from 1 to 12"),
                (["human", "normal"], {"heap": True}, "Heap size must be a whole number from 1 to 12"),
                (["human", "normal"], {"variant": "original"}, "no option 'variant'"),
                (["human", "normal"], {"secret": "00" * 32}, "not options"),
            ):
                a.send(P.CreateTable(seats=seats, game="nim", options=options))
                err = await a.expect(lambda m: isinstance(m, P.Error))
                assert words in err.message, err.message
            assert not srv.tables
        finally:
            await srv.close()

    run(go())


def test_a_toy_game_is_taken_back_reviewed_and_resumed_after_a_restart(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_timeout=60)
        tid, players, eve = await _nim_table(srv, seats=("human", "human"), heap=7)
        table = srv.tables[tid]
        first = NIM.to_act(table.state)
        p = players[first]
        # take back: acknowledged, written, and everyone at the table goes back
        before = table.state
        assert isinstance(await p.act_once(), P.Ack)
        assert table.reach(p.seat).targets == (0,)
        p.c.send(P.Undo(table=tid, seat=p.seat, ref=50, at=1))
        assert isinstance(await p.c.expect(lambda m: isinstance(m, P.Ack | P.Error) and m.ref == 50), P.Ack)
        assert table.state == before and table.actions == []
        done = await eve.expect(lambda m: isinstance(m, P.Undone))
        assert done.n == 0 and NIM.decode_state(done.state) == NIM.player_view(before, None)
        assert done.event.text.startswith(f"{NIM.names(before)[p.seat]} took back: takes ")
        # play on a while, then the review: the actions, their events, the positions
        while len(table.actions) < 4:
            for q in players:
                await q.pump(timeout=0.05)
                if q.my_turn() and len(table.actions) < 4:
                    assert isinstance(await q.act_once(), P.Ack)
        n = len(table.actions)
        assert n >= 4 and not NIM.is_over(table.state)
        p.c.send(P.Review(table=tid, ref=60))
        pos = await p.c.expect(lambda m: isinstance(m, P.Positions) and m.ref == 60)
        assert pos.n == n and pos.start == 0 and pos.next == -1 and len(pos.actions) == n
        assert [k.at for k in pos.keys] == [0]  # chance only drew the first player: all else replays
        assert [e.text for e in pos.events[0]] == [e.text for e in table.record.events_of(0)]
        assert NIM.decode_setup(pos.setup).seed == 0
        # the server stops; the table comes back with every action, and is played to the end
        state, actions = table.state, list(table.actions)
        await srv.close()
        srv2 = await server_at(tmp_path, bot_timeout=60)
        try:
            t2 = srv2.tables[tid]
            assert t2.rules is NIM and t2.state == state and t2.actions == actions
            assert t2.meta.status == "playing" and t2.reach(0).steps == 0  # nothing before a restart
            back = []
            for seat, who in enumerate(("alice", "bob")):
                c = await client(srv2, who)
                c.send(P.Join(table=tid, seat=seat))
                j = await c.expect(lambda m: isinstance(m, P.Joined))
                assert NIM.decode_state(j.state) == NIM.player_view(state, seat) and len(j.actions) == n
                q = Player(c, tid, seat)
                q.take(j)
                back.append(q)
            await play_to_end(back, timeout=30)
            assert NIM.is_over(t2.state) or srv2.tables.get(tid) is None
        finally:
            await srv2.close()

    run(go(), 60)


def test_each_connection_is_sent_its_own_seats_view(tmp_path, monkeypatch):
    """A game whose view depends on the seat (here the toy's, marked with the seat it was made
    for): every position a connection is sent, in every kind of message, is its own seat's."""

    def marked(state, seat):
        setup = msgspec.structs.replace(state.setup, seed=0, secret="")
        return msgspec.structs.replace(state, rng=100 + seat if seat is not None else 99, setup=setup)

    monkeypatch.setattr(NIM, "player_view", marked)

    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players, eve = await _nim_table(srv, seats=("human", "human"))
            for c in (players[0].c, players[1].c, eve):
                c.raw = []
            p = players[NIM.to_act(srv.tables[tid].state)]
            assert isinstance(await p.act_once(), P.Ack)
            p.c.send(P.Undo(table=tid, seat=p.seat, ref=70))
            await p.c.expect(lambda m: isinstance(m, P.Ack | P.Error) and m.ref == 70)
            await play_to_end(players, timeout=30)
            for c in (players[0].c, players[1].c, eve):
                c.send(P.Review(table=tid, ref=71))
                await c.expect(lambda m: isinstance(m, P.Positions) and m.ref == 71)
            await asyncio.sleep(0.1)
            for c, mark in ((players[0].c, 100), (players[1].c, 101), (eve, 99)):
                kinds = set()
                for raw in c.raw:
                    m = P.decode(raw)
                    states = [getattr(m, "state", None)] + [k.state for k in getattr(m, "keys", [])]
                    for s in states:
                        if s is not None:
                            assert NIM.decode_state(s).rng == mark, type(m).__name__
                            kinds.add(type(m).__name__)
                assert {"Update", "TableChanged", "Undone", "Positions"} <= kinds, kinds
        finally:
            await srv.close()

    run(go(), 60)


def _serve(data: Path, port: int) -> subprocess.Popen:
    """``colosseum serve`` in a process of its own, which finds the toy game as a developer's
    game would be found (``COLOSSEUM_GAMES``, the tests' folder on ``PYTHONPATH``)."""
    env = dict(
        os.environ,
        COLOSSEUM_BOT_DELAY="0.01",
        COLOSSEUM_GAMES="nim=toygame:SPEC",
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )
    argv = [sys.executable, "-m", "colosseum", "serve", "--listen", f"127.0.0.1:{port}", "--data", str(data)]
    proc = subprocess.Popen(
        [*argv, "--open", "--bot-timeout", "600", "--fixed-seeds"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        line = proc.stdout.readline().decode()
        if "listening on" in line:
            return proc
        if proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("colosseum serve did not start")


def test_a_serve_process_hosts_the_toy_game_and_resumes_it_after_a_kill(tmp_path):
    data = tmp_path / "data"
    port = free_port()

    async def players_at(tid: str | None):
        secret = load_secret(data)
        address = f"unix:{data / 'tables.sock'}"
        cs = [await ProtoClient.connect(address, make_token(secret, f"key:{n}", n)) for n in ("a", "b")]
        if tid is None:
            cs[0].send(
                P.CreateTable(seats=["human", "human", "random"], seed=3, sit=0, game="nim", options={"heap": 8})
            )
            tid = (await cs[0].expect(lambda m: isinstance(m, P.Joined))).table.id
            cs[1].send(P.Join(table=tid, seat=1))
        else:
            cs[0].send(P.Join(table=tid, seat=0))
            await cs[0].expect(lambda m: isinstance(m, P.Joined))
            cs[1].send(P.Join(table=tid, seat=1))
        j = await cs[1].expect(lambda m: isinstance(m, P.Joined))
        ps = [Player(c, tid, i) for i, c in enumerate(cs)]
        for p in ps:
            p.take(j)
        return tid, ps, len(j.actions)

    async def first():
        tid, ps, _ = await players_at(None)
        acked = 0
        while acked < 3:
            for p in ps:
                await p.pump(timeout=0.05)
                if p.my_turn() and isinstance(await p.act_once(), P.Ack):
                    acked += 1
        return tid, max(p.n for p in ps)

    async def second(tid: str, seen: int):
        _, ps, n = await players_at(tid)
        assert n >= seen  # every action anyone was told of is back
        await play_to_end(ps, timeout=30)
        return ps[0].state

    server = _serve(data, port)
    try:
        tid, seen = run(first())
        server.send_signal(signal.SIGKILL)  # no chance to tidy up
        server.wait(10)
        server = _serve(data, port)
        final = run(second(tid, seen))
        assert NIM.is_over(final)
        log = read_log(data / "games" / f"{tid}.jsonl")
        assert log.game == "nim" and log.intact and log.finished
    finally:
        server.kill()
        server.wait(10)
