"""The table server at the protocol level: authority, refusals, spectators,
reconnects and restarts.  Everything runs on loopback/unix sockets in a tmp dir, with strict
timeouts."""

from __future__ import annotations

import asyncio
import logging
import os
import struct

import msgspec
import pytest

from colosseum.core.games.colosseum import RuleError, apply, legal, replay, to_act
from colosseum.core.games.colosseum.actions import EndTurn, PassBid
from colosseum.core.games.colosseum.view import player_view
from colosseum.tui.net.host import gamelog_io
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.proto_client import NetError, ProtoClient
from colosseum.tui.net.host.testing import Player, play_to_end, ranks

C = P.Codec.of("colosseum")  # a Colosseum table's values on the wire


def run(coro, timeout: float = 30.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


async def server_at(tmp_path, **kw) -> TableServer:
    kw.setdefault("bot_delay", 0.0)
    srv = TableServer(tmp_path / "data", **kw, fixed_seeds=True)
    await srv.start()
    return srv


async def client(srv: TableServer, who: str) -> ProtoClient:
    return await ProtoClient.connect(srv.address, srv.token_for(f"key:{who}", who))


async def three_at_a_table(srv, seats=("human", "human", "human", "random", "random"), seed=7, **kw):
    a, b, c = [await client(srv, n) for n in ("alice", "bob", "carol")]
    a.send(P.CreateTable(seats=list(seats), seed=seed, sit=0, **kw))
    ja = await a.expect(lambda m: isinstance(m, P.Joined))
    tid = ja.table.id
    b.send(P.Join(table=tid, seat=1))
    await b.expect(lambda m: isinstance(m, P.Joined))
    c.send(P.Join(table=tid, seat=2))
    jc = await c.expect(lambda m: isinstance(m, P.Joined))
    assert jc.state is not None  # the last human seat filled: the game started
    players = [Player(x, tid, i, seed=i) for i, x in enumerate((a, b, c))]
    for p in players:
        p.take(jc)
    return tid, players


@pytest.mark.parametrize("address", ["unix", "tcp:127.0.0.1:0"])
def test_three_players_play_to_the_end_and_see_the_same_ranking(tmp_path, address):
    async def go():
        srv = await server_at(tmp_path, address=None if address == "unix" else address)
        assert srv.address.startswith("unix:" if address == "unix" else "tcp:127.0.0.1:")
        try:
            tid, players = await three_at_a_table(srv)
            await play_to_end(players, timeout=40)
            finals = [p.state for p in players]
            assert all(s.result is not None for s in finals)
            assert len({msgspec.json.encode(s) for s in finals}) == 1
            assert len({ranks(p) for p in players}) == 1
            # the game log replays to the very same final state
            loaded = gamelog_io.load(srv.tables[tid].log_path)
            final, _ = replay(loaded.setup, loaded.actions)
            assert player_view(final) == finals[0]  # what the players saw: no seed, no generator state
            from colosseum.core.logread import read_log

            glog = read_log(srv.tables[tid].log_path)  # what `colosseum view` reads
            assert glog.intact and glog.finished and glog.state == final
            assert srv.tables[tid].meta.status == "over"
        finally:
            await srv.close()

    run(go(), 60)


def _a_bot_move_for(state, seat):
    ch = legal(state)
    return ch.actions[-1] if ch.actions else None


def test_acting_for_another_seat_or_out_of_turn_is_refused_and_logged(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="colosseum.net")

    async def go():
        srv = await server_at(tmp_path, bot_delay=0.05)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            before = table.state
            actor = to_act(before)
            other = next(p for p in players if p.seat != actor)
            holder = next(p for p in players if p.seat == actor)
            # 1. a seat acting for the seat to act (someone else's seat)
            good = legal(before).actions[0]
            other.c.send(P.Act(table=tid, action=C.pack(good), ref=1))
            err = await other.c.expect(lambda m: isinstance(m, P.Error))
            assert err.ref == 1 and "seat" in err.message
            # 2. acting for its own seat out of turn
            own = msgspec.structs.replace(good, player=other.seat)
            other.c.send(P.Act(table=tid, action=C.pack(own), ref=2))
            err = await other.c.expect(lambda m: isinstance(m, P.Error))
            assert err.ref == 2 and "turn" in err.message
            # 3. a spectator acting
            spy = await client(srv, "eve")
            spy.send(P.Watch(table=tid))
            await spy.expect(lambda m: isinstance(m, P.Joined))
            spy.send(P.Act(table=tid, action=C.pack(good), ref=3))
            err = await spy.expect(lambda m: isinstance(m, P.Error))
            assert "spectators" in err.message
            # 4. an illegal move by the right seat: the engine's rule error comes back
            bad = EndTurn(player=actor) if before.phase == "setup" else PassBid(player=actor)
            try:
                apply(before, bad)
                pytest.skip("expected the action to be illegal here")
            except RuleError as e:
                expected = e
            holder.c.send(P.Act(table=tid, action=C.pack(bad), ref=4))
            err = await holder.c.expect(lambda m: isinstance(m, P.Error) and m.ref == 4)
            assert err.code == "rule" and err.rule == expected.rule and err.message == expected.detail
            assert table.state == before and table.actions == []
            # the server goes on serving: the holder's legal move is applied and pushed to all
            holder.c.send(P.Act(table=tid, action=C.pack(good), ref=5))
            ack = await holder.c.expect(lambda m: isinstance(m, P.Ack))
            assert ack.ref == 5 and ack.n == 1
            for p in players:
                up = await p.c.expect(lambda m: isinstance(m, P.Update))
                assert C.state(up.state) == player_view(table.state) and up.n == 1
            up = await spy.expect(lambda m: isinstance(m, P.Update))
            assert up.n == 1
        finally:
            await srv.close()

    run(go())
    text = caplog.text
    assert "you hold seat" in text and "turn" in text and "spectators cannot act" in text


def test_malformed_and_oversized_messages_are_refused_others_still_served(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="colosseum.net")

    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            before = table.state
            bad = players[1].c
            # garbage inside a correct frame: refused, connection kept
            bad.send_raw(struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1")
            err = await bad.expect(lambda m: isinstance(m, P.Error))
            assert err.code == "malformed"
            # a well-formed frame of an unknown message
            body = msgspec.msgpack.encode({"t": "launch_missiles"})
            bad.send_raw(struct.pack(">I", len(body)) + body)
            err = await bad.expect(lambda m: isinstance(m, P.Error))
            assert err.code == "malformed"
            # an action with a wrong field type
            body = msgspec.msgpack.encode({"t": "act", "table": tid, "action": {"a": "end", "player": "x"}})
            bad.send_raw(struct.pack(">I", len(body)) + body)
            err = await bad.expect(lambda m: isinstance(m, P.Error))
            assert err.code == "malformed"
            # an action that is not one of the table's game (its JSON, read with its types)
            for junk in (b"\xff", b'{"a": "end", "player": "x"}', b'{"a": "take", "player": 1, "heap": 0, "count": 1}'):
                bad.send(P.Act(table=tid, action=junk, ref=8))
                err = await bad.expect(lambda m: isinstance(m, P.Error) and m.ref == 8)
                assert err.code == "malformed" and "not an action of Colosseum" in err.message
            # still served after all that
            bad.send(P.Ping(ref=9))
            assert (await bad.expect(lambda m: isinstance(m, P.Pong))).ref == 9
            # oversized: refused and that connection is closed
            bad.send_raw(struct.pack(">I", P.MAX_MESSAGE + 1) + b"x" * 100)
            err = await bad.expect(lambda m: isinstance(m, P.Error))
            assert "oversized" in err.message
            with pytest.raises((NetError, TimeoutError)):
                await bad.expect(lambda m: False, timeout=5)
            assert table.state == before
            # no hello / bad token / wrong version
            raw = await ProtoClient.connect(srv.address)
            raw.send(P.ListTables())
            assert (await raw.expect(lambda m: isinstance(m, P.Error))).code == "auth"
            raw = await ProtoClient.connect(srv.address)
            raw.send(P.Hello(version=P.PROTOCOL_VERSION, token="forged.token"))
            assert (await raw.expect(lambda m: isinstance(m, P.Error))).code == "auth"
            raw = await ProtoClient.connect(srv.address)
            raw.send(P.Hello(version=999, token=srv.token_for("k", "n")))
            assert (await raw.expect(lambda m: isinstance(m, P.Error))).code == "version"
            # the others play on
            actor = next(p for p in players if p.seat == to_act(table.state))
            actor.c.send(P.Act(table=tid, action=C.pack(legal(table.state).actions[0]), ref=1))
            assert isinstance(await actor.c.expect(lambda m: isinstance(m, (P.Ack, P.Error))), P.Ack)
        finally:
            await srv.close()

    run(go())
    assert "malformed" in caplog.text and "oversized" in caplog.text and "bad token" in caplog.text


def test_spectator_mid_game_sees_the_current_position_and_chat(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            tid, players = await three_at_a_table(srv)
            for _ in range(40):  # play a while
                for p in players:
                    await p.pump()
                    if p.my_turn():
                        await p.act_once()
                await asyncio.sleep(0)
            players[0].c.send(P.Say(table=tid, text="deal? \x1b[31m my Lion for your Bear"))
            spec = await client(srv, "dave")
            spec.send(P.Watch(table=tid))
            j = await spec.expect(lambda m: isinstance(m, P.Joined))
            table = srv.tables[tid]
            assert (
                j.seat == -1
                and C.state(j.state) == player_view(table.state)
                and len(j.actions) == len(table.actions) > 0
            )
            # the talk in the log where it was said: after the moves before it, as the last line here
            assert j.events[-1].kind == "chat" and "my Lion" in j.events[-1].text and "\x1b" not in j.events[-1].text
            # and follows the game from then on
            await play_to_end(players, timeout=40)
            last = None
            while True:
                try:
                    m = await spec.recv(timeout=2)
                except TimeoutError:
                    break
                if isinstance(m, P.Update):
                    last = C.state(m.state)
            assert last is not None and last == player_view(table.state) and last.result is not None
            # chat is in the game log
            assert any("my Lion" in c["text"] for c in gamelog_io.load(table.log_path).chat)
        finally:
            await srv.close()

    run(go(), 60)


def test_reconnect_mid_auction_returns_to_the_same_seat(tmp_path):
    names = ("alice", "bob", "carol")

    async def go():
        srv = await server_at(tmp_path, bot_timeout=30)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            # play until Phase 2; the player to act there opens an auction
            for _ in range(3000):
                st = table.state
                if st.hire is not None and st.hire.auction is not None:
                    break
                if st.result is not None:
                    pytest.skip("the game ended before an auction")
                for p in players:
                    await p.pump()
                    if not p.my_turn():
                        continue
                    ch = legal(p.state)
                    if p.state.phase == "invest":  # keep the coins for bidding
                        p.c.send(P.Act(table=tid, action=C.pack(EndTurn(player=p.seat)), ref=98, at=p.n))
                        assert isinstance(await p.c.expect(lambda m: isinstance(m, (P.Ack, P.Error))), P.Ack)
                    elif p.state.phase == "hire" and ch.bids:
                        bid = ch.bids[0].action(p.seat, ch.bids[0].low)
                        p.c.send(P.Act(table=tid, action=C.pack(bid), ref=99, at=p.n))
                        assert isinstance(await p.c.expect(lambda m: isinstance(m, (P.Ack, P.Error))), P.Ack)
                    else:
                        await p.act_once()
            else:
                pytest.skip("no auction reached")
            await asyncio.sleep(0.05)
            cut = to_act(table.state)
            assert table.state.hire.auction is not None
            n_before = len(table.actions)
            await players[cut].c.close()  # the bidder's connection is cut mid-auction
            for _ in range(200):
                if cut not in table.present:
                    break
                await asyncio.sleep(0.01)
            assert cut not in table.present and table.meta.seats[cut].holder == f"key:{names[cut]}"
            assert len(table.actions) == n_before  # nobody played for them (timeout 30 s)
            # they come back with the same identity, are told which seat they hold, sit again
            back = await client(srv, names[cut])
            assert (tid, cut) in [tuple(x) for x in back.welcome.seats]
            back.send(P.Join(table=tid, seat=cut))
            j = await back.expect(lambda m: isinstance(m, P.Joined))
            seen = C.state(j.state)
            assert j.seat == cut and seen == player_view(table.state) and to_act(seen) == cut
            assert seen.hire.auction is not None  # still the same auction
            p = Player(back, tid, cut, seed=5)
            p.take(j)
            ack = await p.act_once()
            assert isinstance(ack, P.Ack) and len(table.actions) >= n_before + 1
            # another key cannot take the seat
            mallory = await client(srv, "mallory")
            mallory.send(P.Join(table=tid, seat=cut))
            assert "held by" in (await mallory.expect(lambda m: isinstance(m, P.Error))).message
        finally:
            await srv.close()

    run(go(), 60)


def test_a_bot_stands_in_for_an_absent_player_after_the_timeout(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_timeout=0.3)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"))
            table = srv.tables[tid]
            for p in players:
                await p.c.close()
            for _ in range(300):
                if table.meta.status == "over":
                    break
                await asyncio.sleep(0.02)
            assert table.meta.status == "over"  # bots played every absent seat to the end
        finally:
            await srv.close()

    run(go())


def test_takeover_of_a_bot_seat_only_when_allowed(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=0.2)
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "random", "random"], sit=0, seed=3))
            ja = await a.expect(lambda m: isinstance(m, P.Joined))
            b = await client(srv, "bob")
            b.send(P.Join(table=ja.table.id, seat=1))
            assert "did not allow" in (await b.expect(lambda m: isinstance(m, P.Error))).message
            a.send(P.CreateTable(seats=["human", "random", "random"], sit=0, seed=3, allow_takeover=True))
            ja = await a.expect(lambda m: isinstance(m, P.Joined))
            table = srv.tables[ja.table.id]
            seat = next(i for i in (1, 2) if to_act(table.state) != i)
            b.send(P.Join(table=ja.table.id, seat=seat))
            jb = await b.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
            assert isinstance(jb, P.Joined) and jb.seat == seat
            assert table.meta.seats[seat].kind == "human" and table.meta.seats[seat].holder == "key:bob"
            # the game goes on under the seat's name: the talk says who plays it now
            was = table.rules.names(table.state)[seat]
            said = f"bob takes over seat {seat + 1} ({was}) from the bot."
            assert said in [c.text for c in table.talk.lines]
            assert said in [
                c.text for c in (await a.expect(lambda m: isinstance(m, P.ChatLine) and "takes over" in m.text),)
            ]
        finally:
            await srv.close()

    run(go())


def test_a_bot_seat_of_every_game_may_be_taken_over(tmp_path):
    """Taking over is the table's, not a game's (the seat checks ask only who is to act)."""

    async def go():
        srv = await server_at(tmp_path, bot_delay=0.2)
        try:
            a = await client(srv, "alice")
            a.send(
                P.CreateTable(
                    game="municipium", seats=["human", "random", "random"], sit=0, seed=3, allow_takeover=True
                )
            )
            ja = await a.expect(lambda m: isinstance(m, P.Joined))
            table = srv.tables[ja.table.id]
            seat = next(i for i in (1, 2) if table.to_act() != i)
            b = await client(srv, "bob")
            b.send(P.Join(table=ja.table.id, seat=seat))
            jb = await b.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
            assert isinstance(jb, P.Joined) and jb.seat == seat and jb.state is not None
            assert any("takes over" in e.text for e in jb.events if e.kind == "chat")
        finally:
            await srv.close()

    run(go())


def test_restart_reloads_unfinished_tables_with_every_acknowledged_action(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_timeout=60)
        tid, players = await three_at_a_table(srv)
        acked = 0
        for _ in range(30):
            for p in players:
                await p.pump()
                if p.my_turn():
                    if isinstance(await p.act_once(), P.Ack):
                        acked += 1
        table = srv.tables[tid]
        state, n = table.state, len(table.actions)
        # simulate a crash: a half-written line at the end of the log
        os.write(table.log.fd, b'{"a":"end","pla')
        await srv.close()
        srv2 = await server_at(tmp_path, bot_timeout=60)
        try:
            t2 = srv2.tables[tid]
            assert t2.state == state and len(t2.actions) == n and acked > 0
            assert t2.meta.status == "playing"
            alice = await client(srv2, "alice")
            assert (tid, 0) in [tuple(x) for x in alice.welcome.seats]
        finally:
            await srv2.close()

    run(go())


def test_leaving_a_table_before_it_starts_frees_the_seat(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a, b = await client(srv, "alice"), await client(srv, "bob")
            a.send(P.CreateTable(seats=["human", "human", "random"], sit=0))
            tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
            b.send(P.Join(table=tid, seat=0))
            assert "held by alice" in (await b.expect(lambda m: isinstance(m, P.Error))).message
            b.send(P.Watch(table=tid))  # someone is still at the table: it stays when alice leaves
            await b.expect(lambda m: isinstance(m, P.Joined))
            a.send(P.Leave(table=tid))
            for _ in range(100):
                if not srv.tables[tid].meta.seats[0].holder:
                    break
                await asyncio.sleep(0.01)
            b.send(P.Join(table=tid, seat=0))
            j = await b.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
            assert isinstance(j, P.Joined) and j.seat == 0 and j.state is None  # still waiting for seat 1
        finally:
            await srv.close()

    run(go())


def test_a_table_of_bots_starts_at_once_for_its_watchers(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["random", "random", "random"], sit=-1, seed=2))
            j = await a.expect(lambda m: isinstance(m, P.Joined))
            assert j.seat == -1 and j.state is not None
            for _ in range(300):
                if srv.tables[j.table.id].meta.status == "over":
                    break
                await asyncio.sleep(0.01)
            assert srv.tables[j.table.id].meta.status == "over"
            last = await a.expect(lambda m: isinstance(m, P.Update) and C.state(m.state).result is not None)
            assert C.state(last.state) == player_view(srv.tables[j.table.id].state)
        finally:
            await srv.close()

    run(go())


def test_a_flooding_client_is_cut_off_and_others_are_served(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="colosseum.net")

    async def go():
        srv = await server_at(tmp_path)
        try:
            a, b = await client(srv, "alice"), await client(srv, "bob")
            a.send_raw(P.encode(P.Ping(ref=1)) * 3000)
            err = await a.expect(lambda m: isinstance(m, P.Error), timeout=10)
            assert err.code == "flood"
            b.send(P.Ping(ref=7))
            assert (await b.expect(lambda m: isinstance(m, P.Pong))).ref == 7
        finally:
            await srv.close()

    run(go())
    assert "too many messages" in caplog.text
