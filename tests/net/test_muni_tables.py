"""Municipium tables on the table server, at the protocol level: two players and a bot play a
whole game; the server checks seats and turns, logs every action (the log replays to the same
end), and every client sees the player's view (no seed, no generator state)."""

from __future__ import annotations

import msgspec
from test_net_tables import client, run, server_at

from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM
from colosseum.core.logread import read_log
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import Player, play_to_end


def muni_player(c: ProtoClient, table: str, seat: int) -> Player:
    """``testing.Player`` at a Municipium table: the same player as at any table."""
    return Player(c, table, seat, bot="random", seed=100 + seat, game="municipium")


def test_two_players_and_a_bot_play_municipium_over_the_table_server(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a, b = await client(srv, "alice"), await client(srv, "bob")
            a.send(P.CreateTable(seats=["human", "human", "normal"], seed=5, sit=0, game="municipium"))
            ja = await a.expect(lambda m: isinstance(m, P.Joined))
            assert ja.table.game == "municipium" and ja.table.status == "waiting" and ja.state is None
            tid = ja.table.id
            b.send(P.Join(table=tid, seat=1))
            await b.expect(lambda m: isinstance(m, P.Joined))
            players = [muni_player(a, tid, 0), muni_player(b, tid, 1)]
            for p in players:
                await p.pump(timeout=2)
            assert all(p.state is not None for p in players)
            st = players[0].state
            assert st.rng == 0 and st.setup.seed == 0  # the player's view
            # not your turn, not your seat: refused, nothing changes
            other = players[1 - MUNICIPIUM.to_act(st)] if MUNICIPIUM.to_act(st) in (0, 1) else players[0]
            bad = await other.act(MUNICIPIUM.legal_actions(st)[0], timeout=10)
            assert isinstance(bad, P.Error)
            await play_to_end(players)
            finals = [p.state for p in players]
            assert len({msgspec.json.encode(s) for s in finals}) == 1
            t = srv.tables.get(tid)
            path = srv.data / "games" / f"{tid}.jsonl"
            log = read_log(path)
            assert log.game == "municipium" and log.intact and log.finished and log.ended
            assert MUNICIPIUM.player_view(log.state, 0) == finals[0]
            assert t is None or t.meta.status == "over"
            assert log.seats == ("human", "human", "normal")
        finally:
            await srv.close()

    run(go(), 60.0)


def test_a_municipium_table_is_reloaded_after_a_restart(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=0.0)
        a = await client(srv, "alice")
        a.send(P.CreateTable(seats=["human", "normal"], seed=3, sit=0, game="municipium"))
        ja = await a.expect(lambda m: isinstance(m, P.Joined))
        tid = ja.table.id
        p = muni_player(a, tid, 0)
        p.take(ja)
        for _ in range(5):
            while p.state is None or MUNICIPIUM.to_act(p.state) != 0:
                await p.pump(timeout=0.5)
            assert isinstance(await p.act_once(), P.Ack)
        n = len(srv.tables[tid].actions)
        await srv.close()
        srv2 = await server_at(tmp_path)
        try:
            t = srv2.tables[tid]
            assert t.meta.game == "municipium" and len(t.actions) == n and t.state is not None
            a2 = await client(srv2, "alice")
            a2.send(P.Join(table=tid, seat=0))
            await a2.expect(lambda m: isinstance(m, P.Joined))
            p2 = muni_player(a2, tid, 0)
            await p2.pump(timeout=2)
            assert p2.n == n
        finally:
            await srv2.close()

    run(go(), 60.0)


def test_bad_municipium_tables_are_refused(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a = await client(srv, "alice")
            for seats, opts, words in (
                (["human"] * 5, {}, "2 to 4 seats"),
                (["human", "grandmaster"], {}, "seat kinds"),
                (["human", "normal"], {"options": ["auction-2007"]}, "Options: choose from short, single-chamber"),
                (["human", "normal"], {"variant": "original"}, "no option 'variant'"),
                (["human", "normal"], {"seed": 3}, "not options"),
            ):
                a.send(P.CreateTable(seats=seats, options=opts, game="municipium"))
                err = await a.expect(lambda m: isinstance(m, P.Error))
                assert words in err.message, err.message
            assert not srv.tables
            a.send(P.CreateTable(seats=["human", "normal"], game="chess"))
            assert "unknown game" in (await a.expect(lambda m: isinstance(m, P.Error))).message
        finally:
            await srv.close()

    run(go(), 60.0)


def test_a_common_card_drawn_cannot_be_taken_back(tmp_path):
    """Drawing from the common deck shows the drawer a card it could not foresee (the deck's
    order is hidden): taking the draw back would let a player look at the next card and choose
    again.  The table stops a take-back there, though the generator did not move (the game's own
    ``chance_between`` sees nothing; the seat's view does)."""
    from colosseum.core.games.municipium.actions import DrawCommon

    async def go():
        srv = await server_at(tmp_path, bot_delay=0.3)  # time to ask before the bot moves on
        try:
            a = await client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "normal"], seed=3, sit=0, game="municipium"))
            ja = await a.expect(lambda m: isinstance(m, P.Joined))
            table = srv.tables[ja.table.id]
            p = muni_player(a, ja.table.id, 0)
            p.take(ja)
            for _ in range(2000):
                await p.pump(timeout=0.05)
                if not p.my_turn():
                    continue
                draw = next((x for x in MUNICIPIUM.legal_actions(p.state) if isinstance(x, DrawCommon)), None)
                if draw is None:
                    assert isinstance(await p.act_once(), P.Ack)
                    continue
                before = table.state
                assert isinstance(await p.act(draw), P.Ack)
                if table.state.rng != before.rng:
                    continue  # the deck ran out and was shuffled: chance, refused anyway
                assert MUNICIPIUM.chance_between(before, table.state) == ("", "")
                reach = table.reach(0)
                assert not reach.targets and "something hidden came to light" in reach.reason
                assert reach.short == "revealed"
                a.send(P.Undo(table=table.id, seat=0, ref=90))
                err = await a.expect(lambda m: isinstance(m, P.Error | P.Ack) and m.ref == 90)
                assert isinstance(err, P.Error) and "came to light" in err.message
                return
            raise AssertionError("alice never drew a common card")
        finally:
            await srv.close()

    run(go(), 90.0)
