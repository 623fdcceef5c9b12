"""Clients receive what a player may see: no seed and no generator state (which would tell every
die roll and draw to come); and a bot whose choice the engine refuses never stalls a table."""

from __future__ import annotations

import asyncio

import msgspec

from colosseum.core.games.colosseum import GameSetup, apply, legal, new_game
from colosseum.core.games.colosseum.offers import safe_action
from colosseum.core.games.colosseum.view import player_view, setup_view
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.meta import SeatMeta, TableMeta
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.table import Table
from colosseum.tui.net.host.testing import Player, play_to_end

C = P.Codec.of("colosseum")


def run(coro, timeout: float = 30.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


def test_player_view_zeroes_the_seed_and_the_generator_state_only():
    st = new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=7))
    assert st.rng and st.setup.seed
    view = player_view(st)
    assert view.rng == 0 and view.setup.seed == 0
    assert msgspec.structs.replace(view, rng=st.rng, setup=st.setup) == st  # nothing else differs
    assert player_view(view) == view and setup_view(st.setup) == view.setup
    assert legal(view).actions == legal(st).actions  # enough to choose a move


def _unseen(st) -> None:
    assert st.rng == 0 and st.setup.seed == 0


def test_no_message_to_a_client_carries_the_seed_or_the_generator_state(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", bot_delay=0.0, fixed_seeds=True)
        await srv.start()
        try:
            c = await ProtoClient.connect(srv.address, srv.token_for("key:alice", "alice"))
            c.send(P.CreateTable(seats=["human", "random", "greedy"], seed=5, sit=0))
            j = await c.expect(lambda m: isinstance(m, P.Joined))
            assert j.state is not None and j.setup is not None
            _unseen(C.state(j.state))
            assert C.setup(j.setup).seed == 0
            table = srv.tables[j.table.id]
            assert table.state is not None and table.state.rng and table.setup is not None
            assert table.setup.seed == 5  # the server keeps them
            player = Player(c, j.table.id, 0, seed=1)
            player.take(j)
            await play_to_end([player], timeout=40)  # its bot plays on what it was sent
            seen = [j, *c.inbox]
            while not c.queue.empty():
                m = c.queue.get_nowait()
                if m is not None:
                    seen.append(m)
            c.send(P.Watch(table=j.table.id))
            seen.append(await c.expect(lambda m: isinstance(m, P.Joined)))
            states = 0
            for m in seen:
                if isinstance(m, (P.Update, P.Joined, P.TableChanged)) and m.state is not None:
                    _unseen(C.state(m.state))
                    states += 1
                if isinstance(m, (P.Joined, P.TableChanged)) and m.setup is not None:
                    assert C.setup(m.setup).seed == 0
            assert states >= 2
            assert player.state is not None and player.state.result is not None
            assert player.state == player_view(table.state)
            await c.close()
        finally:
            await srv.close()

    run(go(), 60)


class RefusedBot:
    """Always proposes something the engine refuses."""

    name = "random"

    def act(self, state):
        ch = legal(state)
        return msgspec.structs.replace(ch.actions[0], player=(ch.player + 1) % state.n)  # not its turn


def test_a_bot_whose_choice_is_refused_plays_the_safe_action(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", bot_delay=0.0, fixed_seeds=True)
        meta = TableMeta(
            id="t1",
            name="bots",
            allow_takeover=False,
            creator="key:x",
            creator_name="x",
            seats=[SeatMeta(kind="random") for _ in range(3)],
            seed=3,
        )
        table = Table(srv, meta)
        srv.tables["t1"] = table
        table.botplay.bots = {i: RefusedBot() for i in range(3)}
        table.start()
        for _ in range(300):
            if len(table.actions) >= 12:
                break
            await asyncio.sleep(0.01)
        await srv.close()
        assert len(table.actions) >= 12  # the table moved on
        assert table.setup is not None
        state = new_game(table.setup)
        for action in table.actions:
            assert action == safe_action(state)
            state, _ = apply(state, action)

    run(go(), 30)
