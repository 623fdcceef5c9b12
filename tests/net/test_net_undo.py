"""Taking back a decision at a table: the Undo message, who may and when, what every client
sees, the undo line in the table's log and a restart replaying it."""

from __future__ import annotations

import logging

import msgspec
from test_net_tables import client, run, server_at, three_at_a_table

from colosseum.core.games.colosseum import legal, to_act
from colosseum.core.games.colosseum.view import player_view
from colosseum.core.logread import read_log
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient

C = P.Codec.of("colosseum")


def _ours(m: P._Msg, ref: int) -> bool:
    return isinstance(m, (P.Ack, P.Error)) and m.ref == ref


async def _act(player, action, ref: int) -> P._Msg:
    player.c.send(P.Act(table=player.table, action=C.pack(action), ref=ref))
    return await player.c.expect(lambda m: _ours(m, ref))


async def _undo(player, ref: int, count: int = 1, seat: int | None = None, at: int = -1) -> P._Msg:
    seat = player.seat if seat is None else seat
    player.c.send(P.Undo(table=player.table, seat=seat, count=count, ref=ref, at=at))
    return await player.c.expect(lambda m: _ours(m, ref))


def test_undo_is_accepted_written_and_every_client_rewinds(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            start = table.state
            alice = players[to_act(start)]
            assert alice.seat == 0
            first = legal(start).actions[0]
            assert isinstance(await _act(alice, first, 1), P.Ack)
            reach = await alice.c.expect(lambda m: isinstance(m, P.Reach) and m.n == 1)
            assert reach.seats[0].targets == [0] and reach.seats[1].targets == []
            assert "alice acted" in reach.seats[1].short
            said = table.events[-1].text
            # alice takes it back: acknowledged, and everyone at the table goes back
            ack = await _undo(alice, 2, at=1)
            assert isinstance(ack, P.Ack) and ack.n == 0
            assert table.state == start and table.actions == []
            for p in players:
                done = await p.c.expect(lambda m: isinstance(m, P.Undone))
                assert done.n == 0 and done.seat == 0 and C.state(done.state) == player_view(start)
                assert done.dropped >= 1
                assert done.event.kind == "undo" and done.event.text.startswith("alice took back: ")
                assert "seat 0" not in done.event.text
                p.take(done)
                assert p.n == 0 and p.state == player_view(start)
            words = said.removeprefix("alice ").rstrip(".")
            assert table.events[-1].text == f"alice took back: {words}"
            # the log keeps the withdrawn line and says it was taken back
            glog = read_log(table.log_path)
            assert glog.intact and glog.actions == [] and len(glog.undos) == 1
            assert glog.undos[0].actions == (first,) and glog.undos[0].line.text == table.events[-1].text
            # the game goes on from there (the same move again is numbered 1 again)
            assert isinstance(await _act(alice, first, 3), P.Ack)
            assert read_log(table.log_path).actions == [first]
        finally:
            await srv.close()

    run(go())


def test_undo_is_refused_after_another_seat_acted_and_across_chance(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            ref = 10
            # alice acts, then the next seat: alice may no longer take hers back
            for _ in range(2):
                p = players[to_act(table.state)]
                ref += 1
                assert isinstance(await _act(p, legal(table.state).actions[0], ref), P.Ack)
            other = table.state.players[table.actions[-1].player].name
            err = await _undo(players[0], 20)
            assert isinstance(err, P.Error) and f"{other} acted since" in err.message
            assert len(table.actions) == 2
            # play on until an action of someone's involves chance (tiles drawn, dice rolled)
            from colosseum.core.games.colosseum.rules import RULES
            from colosseum.core.undo import chance_in

            while True:
                before = table.state
                p = players[to_act(before)]
                ref += 1
                assert isinstance(await _act(p, legal(before).actions[0], ref), P.Ack)
                if chance_in(RULES, before, table.state):
                    break
            n = len(table.actions)
            err = await _undo(p, 30)
            assert isinstance(err, P.Error)
            assert err.message.startswith("nothing of yours to take back: ")
            assert f"(action {n})" in err.message
            assert any(w in err.message for w in ("drawn", "die", "chance", "turned up"))
            assert len(table.actions) == n
        finally:
            await srv.close()

    run(go())


def test_a_bots_move_ends_the_take_back_unless_it_is_still_waiting(tmp_path):
    """A bot's move counts as someone else acting; the bots' delay is the grace in which the
    player may still take back."""

    async def go():
        for delay, grace in ((1.0, True), (0.0, False)):
            srv = await server_at(tmp_path / str(delay), bot_delay=delay)
            try:
                a = await client(srv, "alice")
                a.send(P.CreateTable(seats=["human", "random", "random"], seed=7, sit=0))
                j = await a.expect(lambda m: isinstance(m, P.Joined))
                table = srv.tables[j.table.id]
                assert to_act(table.state) == 0
                a.send(P.Act(table=table.id, action=C.pack(legal(table.state).actions[0]), ref=1))
                assert isinstance(await a.expect(lambda m: _ours(m, 1)), P.Ack)
                if not grace:
                    await a.expect(lambda m: isinstance(m, P.Update) and m.n == 2)
                a.send(P.Undo(table=table.id, seat=0, ref=2))
                answer = await a.expect(lambda m: _ours(m, 2))
                if grace:
                    assert isinstance(answer, P.Ack) and answer.n == 0 and table.actions == []
                    assert to_act(table.state) == 0
                else:
                    assert isinstance(answer, P.Error)
                    assert f"{table.setup.players[2]} acted since" in answer.message
            finally:
                await srv.close()

    run(go())


def test_a_restarted_server_replays_undo_lines_to_the_same_state(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_timeout=60)
        tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
        table = srv.tables[tid]
        ref, undone = 0, 0
        while undone < 3 and len(table.actions) < 60:
            p = players[to_act(table.state)]
            ref += 1
            assert isinstance(await _act(p, legal(table.state).actions[-1], ref), P.Ack)
            if table.reach(p.seat).steps:
                ref += 1
                assert isinstance(await _undo(p, ref), P.Ack)
                undone += 1
                ref += 1  # and a different choice instead
                assert isinstance(await _act(p, legal(table.state).actions[0], ref), P.Ack)
        assert undone == 3
        state, actions, events = table.state, list(table.actions), list(table.events)
        notes = [e.text for e in events if e.kind == "undo"]
        assert len(notes) >= 1
        await srv.close()
        srv2 = await server_at(tmp_path, bot_timeout=60)
        try:
            t2 = srv2.tables[tid]
            assert t2.state == state and t2.actions == actions
            assert [e.text for e in t2.events if e.kind == "undo"] == notes
            assert [e.text for e in t2.events] == [e.text for e in events]
            glog = read_log(t2.log_path)
            assert glog.intact and len(glog.undos) == 3 and glog.state == state
            # nothing from before the restart can be taken back; the game goes on
            alice = await client(srv2, "alice")
            alice.send(P.Join(table=tid, seat=0))
            j = await alice.expect(lambda m: isinstance(m, P.Joined))
            assert C.state(j.state) == player_view(state)
            reach = await alice.expect(lambda m: isinstance(m, P.Reach))
            assert reach.n == len(actions)
            assert t2.reach(0).steps == 0
        finally:
            await srv2.close()

    run(go())


def test_hostile_undo_requests_are_refused_cleanly(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="colosseum.net")

    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            alice, bob = players[0], players[1]
            assert isinstance(await _act(alice, legal(table.state).actions[0], 1), P.Ack)
            state, n = table.state, len(table.actions)

            async def refused(who, msg: P.Undo, words: str) -> None:
                who.send(msg)
                err = await who.expect(lambda m: _ours(m, msg.ref))
                assert isinstance(err, P.Error) and words in err.message, err
                assert table.state is state and len(table.actions) == n

            u = P.Undo(table=tid, seat=0, ref=50)
            await refused(bob.c, msgspec.structs.replace(u, ref=51), "not that seat")  # someone else's seat
            await refused(bob.c, P.Undo(table=tid, seat=1, ref=52), "nothing of yours")
            await refused(alice.c, msgspec.structs.replace(u, ref=53, seat=7), "not that seat")
            await refused(alice.c, msgspec.structs.replace(u, ref=54, seat=-1), "not that seat")
            await refused(alice.c, msgspec.structs.replace(u, ref=55, count=0), "at least one")
            await refused(alice.c, msgspec.structs.replace(u, ref=56, count=-3), "at least one")
            await refused(alice.c, msgspec.structs.replace(u, ref=57, count=10**9), "only 1")
            await refused(alice.c, msgspec.structs.replace(u, ref=58, at=0), "moved on")
            await refused(alice.c, msgspec.structs.replace(u, ref=59, table="nope"), "no table")
            spy = await client(srv, "eve")
            spy.send(P.Watch(table=tid))
            await spy.expect(lambda m: isinstance(m, P.Joined))
            await refused(spy, msgspec.structs.replace(u, ref=60), "spectators")
            stranger = await client(srv, "mallory")
            await refused(stranger, msgspec.structs.replace(u, ref=61), "not at this table")
            await refused(alice.c, msgspec.structs.replace(u, ref=62, count=2**64 - 1), "only 1")
            # a count of the wrong type does not even decode: refused as malformed, connection kept
            body = msgspec.msgpack.encode({"t": "undo", "table": tid, "seat": 0, "count": "all", "ref": 63})
            import struct

            alice.c.send_raw(struct.pack(">I", len(body)) + body)
            await alice.c.expect(lambda m: isinstance(m, P.Error) and m.code == "malformed")
            assert table.state is state
            # without a hello (or with a forged token) nothing is undone
            raw = await ProtoClient.connect(srv.address)
            raw.send(u)
            assert (await raw.expect(lambda m: isinstance(m, P.Error))).code == "auth"
            raw = await ProtoClient.connect(srv.address)
            raw.send(P.Hello(version=P.PROTOCOL_VERSION, token="forged.token"))
            assert (await raw.expect(lambda m: isinstance(m, P.Error))).code == "auth"
            assert table.state is state
            # the holder's own request still works after all that
            assert isinstance(await _undo(alice, 70), P.Ack)
            assert table.actions == []
        finally:
            await srv.close()

    run(go())
    assert "not that seat" in caplog.text


def test_an_undo_that_cannot_be_saved_changes_nothing(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            alice = players[0]
            assert isinstance(await _act(alice, legal(table.state).actions[0], 1), P.Ack)
            state, n = table.state, len(table.actions)

            def broken(line):
                raise OSError(28, "No space left on device")

            table.log.append_undo = broken  # type: ignore[method-assign]
            err = await _undo(alice, 2)
            assert isinstance(err, P.Error) and "could not save" in err.message
            assert table.state is state and len(table.actions) == n and table.reach(0).steps == 1
        finally:
            await srv.close()

    run(go())


def test_bots_at_a_table_have_distinct_names_no_person_uses():
    """Two bots of one level read apart at a glance ("Normal bot" and "Normal bot 2" cut to
    the same cells in the players table), and no bot takes a seated person's name."""
    from colosseum.tui.net.host.meta import SeatMeta, seat_names

    seats = [
        SeatMeta(kind="human", holder="k1", name="Kat"),
        SeatMeta(kind="normal"),
        SeatMeta(kind="normal"),
        SeatMeta(kind="hard"),
    ]
    names = seat_names(seats)
    assert names[0] == "Kat"
    assert len({n.casefold() for n in names}) == 4
    assert all(n != "Kat" and "bot" not in n.lower() for n in names[1:])
