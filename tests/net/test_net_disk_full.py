"""Issue 24: a bot's move hit ENOSPC, the table froze, nobody was told, and it stayed frozen
after space came back.  Now everyone at the table is told, the bots wait and try again, and the
game goes on by itself once the server can save; nothing unsaved is played."""

from __future__ import annotations

import asyncio
import errno

import pytest

from colosseum.tui.net.host import botplay
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.cluster_link import ClusterError
from colosseum.tui.net.host.gamelog_io import TableLog
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.proto_client import ProtoClient


def refusing_log(monkeypatch, database: bool) -> dict:
    """Tables' log appends refused while ``full["on"]``: the database of several hosts away
    (``database``) or a full disk; ``full["refused"]`` counts the refusals."""
    real_append = TableLog.append
    full = {"on": False, "refused": 0}

    def append(self, action, events, *, final):
        if full["on"]:
            full["refused"] += 1
            if database:
                raise ClusterError("the database refused: [Errno 111] Connect call failed")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_append(self, action, events, final=final)

    monkeypatch.setattr(TableLog, "append", append)
    return full


@pytest.mark.parametrize("database", [False, True], ids=["disk", "database"])
def test_a_full_disk_pauses_the_bots_tells_the_table_and_the_game_goes_on(tmp_path, monkeypatch, database):
    """(The database of several hosts away is said as such, not as a full disk.)"""
    monkeypatch.setattr(botplay, "SAVE_RETRY", (0.05, 0.2))
    full = refusing_log(monkeypatch, database)

    async def go():
        srv = TableServer(tmp_path / "data", bot_delay=0.0, fixed_seeds=True)
        await srv.start()
        try:
            watcher = await ProtoClient.connect(srv.address, srv.token_for("key:w", "Wendy"))
            watcher.send(P.CreateTable(seats=["random", "random", "random"], seed=4, sit=-1))
            joined = await watcher.expect(lambda m: isinstance(m, P.Joined))
            table = srv.tables[joined.table.id]
            for _ in range(200):
                if len(table.actions) >= 5:
                    break
                await asyncio.sleep(0.01)
            full["on"] = True
            said = await watcher.expect(lambda m: isinstance(m, P.Error) and m.code == "disk", timeout=10)
            assert said.message == (botplay.DATABASE_AWAY if database else botplay.CANNOT_SAVE)
            assert "disk" not in said.message if database else "disk" in said.message
            frozen = len(table.actions)
            await asyncio.sleep(0.5)
            assert len(table.actions) == frozen and full["refused"] >= 2  # tried again, nothing played
            full["on"] = False
            again = await watcher.expect(lambda m: isinstance(m, P.Error) and m.code == "disk", timeout=10)
            assert again.message == botplay.SAVES_AGAIN
            for _ in range(300):
                if len(table.actions) > frozen + 5:
                    break
                await asyncio.sleep(0.01)
            assert len(table.actions) > frozen + 5  # the game went on by itself
            await watcher.close()
        finally:
            await srv.close()

    asyncio.run(asyncio.wait_for(go(), 60))


def test_a_start_the_disk_refuses_leaves_the_table_waiting_to_start_again(tmp_path, monkeypatch):
    """The last seat taken, the game's log cannot be begun (ENOSPC): the player who sat stays
    connected and seated, everyone is told, the table waits as it was (its seats' kinds, no game,
    no half-written log), and the creator starts it once the disk has room."""
    real_begin = TableLog.begin
    full = {"on": True}

    def begin(self, setup, seats, talk):
        if full["on"]:
            real_begin(self, setup, seats, talk)  # the header written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_begin(self, setup, seats, talk)

    monkeypatch.setattr(TableLog, "begin", begin)

    async def go():
        srv = TableServer(tmp_path / "data", bot_delay=0.0, fixed_seeds=True)
        await srv.start()
        try:
            ann = await ProtoClient.connect(srv.address, srv.token_for("key:ann", "Ann"))
            ann.send(P.CreateTable(seats=["human", "human", "random"], seed=4, sit=0))
            joined = await ann.expect(lambda m: isinstance(m, P.Joined))
            tid = joined.table.id
            table = srv.tables[tid]
            bob = await ProtoClient.connect(srv.address, srv.token_for("key:bob", "Bob"))
            bob.send(P.Join(table=tid, seat=1))
            said = await ann.expect(lambda m: isinstance(m, P.Error) and m.code == "disk", timeout=10)
            assert "could not save the game's start" in said.message
            seated = await bob.expect(lambda m: isinstance(m, P.Joined), timeout=10)
            assert seated.state is None  # seated at a table that waits
            assert table.meta.status == "waiting" and table.state is None and table.setup is None
            assert [s.kind for s in table.meta.seats] == ["human", "human", "random"]
            assert not table.log_path.exists() and table.log is None
            ann.send(P.Start(table=tid))  # still full: refused, one line, nothing changed
            refused = await ann.expect(lambda m: isinstance(m, P.Error), timeout=10)
            assert "could not save the game's start" in refused.message and table.meta.status == "waiting"
            full["on"] = False
            ann.send(P.Start(table=tid))
            await ann.expect(lambda m: isinstance(m, P.TableChanged) and m.table.status == "playing", timeout=10)
            assert table.state is not None and table.log_path.exists()
            await ann.close()
            await bob.close()
        finally:
            await srv.close()

    asyncio.run(asyncio.wait_for(go(), 60))


@pytest.mark.parametrize("database", [False, True], ids=["disk", "database"])
def test_a_players_move_the_server_cannot_save_is_refused_in_words_and_made_later(tmp_path, monkeypatch, database):
    """A person's move whose line cannot be saved did not happen: the refusal says why in words
    (the database of several hosts away: wait a moment; else the disk), and the same move is
    made once the server saves again."""
    from test_net_tables import run, server_at, three_at_a_table

    from colosseum.core.games.colosseum import legal, to_act

    full = refusing_log(monkeypatch, database)

    async def go():
        srv = await server_at(tmp_path, bot_timeout=60)
        try:
            tid, players = await three_at_a_table(srv, seats=("human", "human", "human"), seed=5)
            table = srv.tables[tid]
            p = players[to_act(table.state)]
            move = P.Codec.of("colosseum").pack(legal(table.state).actions[-1])
            full["on"] = True
            p.c.send(P.Act(table=tid, action=move, ref=1, at=len(table.actions)))
            said = await p.c.expect(lambda m: isinstance(m, (P.Ack, P.Error)) and m.ref == 1)
            assert isinstance(said, P.Error) and not table.actions
            if database:
                assert said.message == (
                    "the server's database does not answer just now: that move was not saved; try again in a moment"
                )
            else:
                assert said.message == "the server could not save that move; try again"
            full["on"] = False
            p.c.send(P.Act(table=tid, action=move, ref=2, at=0))
            again = await p.c.expect(lambda m: isinstance(m, (P.Ack, P.Error)) and m.ref == 2)
            assert isinstance(again, P.Ack) and len(table.actions) == 1
        finally:
            await srv.close()

    run(go())


def test_a_move_whose_save_is_in_doubt_is_not_said_unsaved():
    """The database did not answer in time: the line may be committed all the same (the table
    is then reloaded from the database), so the player is not told it was not saved."""
    from colosseum.tui.net.host.limits import unsaved

    said = unsaved(ClusterError("the database did not answer in time", unknown=True), "that move")
    assert said == "the server's database did not answer in time: that move counts if it reached it"
    assert "not saved" in unsaved(ClusterError("the database refused: connection refused"), "that move")
    assert unsaved(OSError(errno.ENOSPC, "No space left"), "that take-back") == (
        "the server could not save that take-back; try again"
    )
