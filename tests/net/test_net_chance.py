"""A server game's chance comes from a secret no player ever receives (``core.rng``).

A table cannot be made with a seed on a server that does not allow it; a game's log (the server's
only) holds a 256-bit secret and replays to the game played; nothing sent to a player or a
spectator holds the secret, the seed or the generator state."""

from __future__ import annotations

import asyncio

from colosseum.core.games.colosseum import replay
from colosseum.core.logread import read_log
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import Player, play_to_end


def run(coro, timeout: float = 60.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


async def _client(srv: TableServer, who: str) -> ProtoClient:
    c = await ProtoClient.connect(srv.address, srv.token_for(f"key:{who}", who))
    c.raw = []
    return c


def test_a_table_cannot_choose_its_seed(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", bot_delay=0.0)
        await srv.start()
        try:
            a = await _client(srv, "alice")
            a.send(P.CreateTable(seats=["human", "random", "random"], seed=7, sit=0))
            m = await a.expect(lambda m: isinstance(m, P.Error | P.Joined))
            assert isinstance(m, P.Error) and "seed" in m.message
            assert not srv.tables
        finally:
            await srv.close()

    run(go())


def test_a_server_game_draws_from_a_secret_nobody_is_sent(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", bot_delay=0.0)
        await srv.start()
        try:
            a, b, watcher = [await _client(srv, n) for n in ("alice", "bob", "eve")]
            a.send(P.CreateTable(seats=["human", "human", "random"], sit=0))
            tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
            watcher.send(P.Watch(table=tid))
            await watcher.expect(lambda m: isinstance(m, P.Joined))
            b.send(P.Join(table=tid, seat=1))
            jb = await b.expect(lambda m: isinstance(m, P.Joined))
            players = [Player(a, tid, 0, seed=1), Player(b, tid, 1, seed=2)]
            for p in players:
                p.take(jb)
            await play_to_end(players, timeout=50)
            await asyncio.sleep(0.2)
            log = read_log(srv.tables[tid].log_path)
            setup = log.setup
            assert len(bytes.fromhex(setup.secret)) == 32 and setup.seed == 0
            final, _ = replay(setup, log.actions)
            assert final.result is not None and log.state == final
            secret = setup.secret.encode()
            for c in (a, b, watcher):
                frames = c.raw or []
                assert frames and not any(secret in f for f in frames)
                states = [getattr(P.decode(f), "state", None) for f in frames]
                states = [P.Codec.of("colosseum").state(st) for st in states if st is not None]
                assert states and all(st.rng == 0 and st.setup.seed == 0 and not st.setup.secret for st in states)
        finally:
            await srv.close()

    run(go())
