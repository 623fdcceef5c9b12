"""Municipium tables on the table server, at the protocol level: two players and a bot play a
whole game; the server checks seats and turns, logs every action (the log replays to the same
end), and every client sees the player's view (no seed, no generator state)."""

from __future__ import annotations

import asyncio

import msgspec
from test_net_tables import client, run, server_at

from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM
from colosseum.core.logread import read_log
from colosseum.tui.net.host import muni_wire as W
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import Player


class MuniPlayer(Player):
    """``testing.Player`` at a Municipium table: its state comes in ``GameMsg``s."""

    def __init__(self, c: ProtoClient, table: str, seat: int) -> None:
        super().__init__(c, table, seat)
        self.bot = MUNICIPIUM.make_bot("random", 100 + seat)

    def take(self, m: P._Msg) -> None:
        if isinstance(m, P.GameMsg) and m.table == self.table:
            body = W.decode(m.body)
            if isinstance(body, W.MuniUpdate) and body.n > self.n:
                self.state, self.n = body.state, body.n
            elif isinstance(body, W.MuniGame) and len(body.actions) >= self.n:
                self.state, self.n = body.state, len(body.actions)

    def over(self) -> bool:
        return self.state is not None and MUNICIPIUM.to_act(self.state) < 0

    async def act(self, action=None) -> P._Msg:
        action = action or self.bot.act(self.state)
        self.ref += 1
        ref = self.ref
        self.c.send(P.GameMsg(table=self.table, body=W.encode(W.MuniAct(action=action, at=self.n)), ref=ref))
        while True:
            m = await self.c.recv(timeout=10)
            self.take(m)
            if isinstance(m, (P.Ack, P.Error)) and m.ref == ref:
                return m


async def play_to_end(players: list[MuniPlayer], timeout: float = 50.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not all(p.over() for p in players):
        if loop.time() > end:
            raise TimeoutError("game did not finish")
        progressed = False
        for p in players:
            await p.pump()
            if p.state is not None and MUNICIPIUM.to_act(p.state) == p.seat:
                reply = await p.act()
                assert isinstance(reply, P.Ack), reply
                progressed = True
        if not progressed:
            await asyncio.gather(*(p.pump(timeout=0.3) for p in players))


def test_two_players_and_a_bot_play_municipium_over_the_table_server(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            a, b = await client(srv, "alice"), await client(srv, "bob")
            a.send(P.CreateTable(seats=["human", "human", "normal"], seed=5, sit=0, game="municipium"))
            ja = await a.expect(lambda m: isinstance(m, P.Joined))
            assert ja.table.game == "municipium" and ja.table.status == "waiting"
            tid = ja.table.id
            b.send(P.Join(table=tid, seat=1))
            await b.expect(lambda m: isinstance(m, P.Joined))
            players = [MuniPlayer(a, tid, 0), MuniPlayer(b, tid, 1)]
            for p in players:
                await p.pump(timeout=2)
            assert all(p.state is not None for p in players)
            st = players[0].state
            assert st.rng == 0 and st.setup.seed == 0  # the player's view
            # not your turn, not your seat: refused, nothing changes
            other = players[1 - MUNICIPIUM.to_act(st)] if MUNICIPIUM.to_act(st) in (0, 1) else players[0]
            bad = await other.act(MUNICIPIUM.legal_actions(st)[0])
            assert isinstance(bad, P.Error)
            await play_to_end(players)
            finals = [p.state for p in players]
            assert len({msgspec.json.encode(s) for s in finals}) == 1
            t = srv.tables.get(tid)
            path = srv.data / "games" / f"{tid}.jsonl"
            log = read_log(path)
            assert log.game == "municipium" and log.intact and log.finished and log.ended
            assert MUNICIPIUM.player_view(log.state, None) == finals[0]
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
        p = MuniPlayer(a, tid, 0)
        await p.pump(timeout=2)
        for _ in range(5):
            while p.state is None or MUNICIPIUM.to_act(p.state) != 0:
                await p.pump(timeout=0.5)
            assert isinstance(await p.act(), P.Ack)
        n = len(srv.tables[tid].actions)
        await srv.close()
        srv2 = await server_at(tmp_path)
        try:
            t = srv2.tables[tid]
            assert t.meta.game == "municipium" and len(t.actions) == n and t.game is not None
            a2 = await client(srv2, "alice")
            a2.send(P.Join(table=tid, seat=0))
            await a2.expect(lambda m: isinstance(m, P.Joined))
            p2 = MuniPlayer(a2, tid, 0)
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
            for seats, opts in ((["human"] * 5, []), (["human", "hard"], []), (["human", "normal"], ["auction-2007"])):
                a.send(P.CreateTable(seats=seats, options=opts, game="municipium"))
                err = await a.expect(lambda m: isinstance(m, P.Error))
                assert err.message
            a.send(P.CreateTable(seats=["human", "normal"], game="chess"))
            assert "unknown game" in (await a.expect(lambda m: isinstance(m, P.Error))).message
        finally:
            await srv.close()

    run(go(), 60.0)
