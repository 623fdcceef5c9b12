"""A player whose host is killed reconnects at once to another host, before the table's lease
runs out: the lobby says their table's host does not answer, asks again every two seconds, and
takes them to their seat once another host has adopted the table.  Before, it asked once
("the host serving that table does not answer ([Errno 111] Connection refused)") and left the
player in the lobby, away, while bots played for them."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest
from clusterdrill import Drill, lobby_has, shared_secret
from pgcluster import cluster_or_skip

from colosseum.tui.net import entering
from colosseum.tui.net.host.tokens import make_token
from colosseum.tui.net.hosts import HostsClient


@pytest.fixture(scope="module")
def pg():
    with cluster_or_skip() as cluster:
        yield cluster


def test_a_player_back_before_the_lease_runs_out_is_taken_to_their_seat(pg, tmp_path):
    from colosseum.tui.net.lobby import LobbyApp, LobbyScreen

    drill = Drill(tmp_path, pg.fresh_database(), seed=23)
    clients: list[HostsClient] = []
    try:
        drill.start(2)
        h1, h2 = drill.hosts
        token = make_token(shared_secret(drill.url), "key:p0", "p0")
        first = HostsClient(h1.peer, token)
        clients.append(first)
        tid = first.create_table(seats=["human", "random", "random"], sit=0, seed=5).table.id
        watcher = HostsClient(h2.peer, make_token(shared_secret(drill.url), "key:p9", "p9"))
        clients.append(watcher)
        lobby_has(watcher, tid)
        h1.signal(signal.SIGKILL)
        killed = time.monotonic()
        back = HostsClient(h2.peer, token)  # at once, as a balancer would send them
        clients.append(back)
        app = LobbyApp(back, rejoin=True)
        said: set[str] = set()

        async def main() -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                end = time.monotonic() + 40
                while app.result is None and time.monotonic() < end:
                    for s in app.screen_stack:
                        if isinstance(s, LobbyScreen) and s.going_said:
                            said.add(s.going_said)
                    await pilot.pause(0.05)

        asyncio.run(asyncio.wait_for(main(), 60))
        assert app.result is not None, [n.message for n in app._notifications]
        assert app.result.table.id == tid and app.result.seat == 0 and app.result.state is not None
        assert entering.HOST_AWAY in said, said
        assert time.monotonic() - killed < 30
    finally:
        for c in clients:
            c.close()
        drill.close()


def test_the_lobby_takes_keys_while_a_paused_host_is_asked_for_its_table(pg, tmp_path):
    """Watching a table whose host is paused (SIGSTOP): the lobby says it is connecting and
    Escape cancels at once (before, it froze for the connection's time limit, 10 s); the key
    typed before it is done then."""
    from colosseum.tui.net.lobby import LobbyApp, LobbyScreen

    drill = Drill(tmp_path, pg.fresh_database(), seed=29)
    clients: list[HostsClient] = []
    try:
        drill.start(2)
        h1, h2 = drill.hosts
        first = HostsClient(h1.peer, make_token(shared_secret(drill.url), "key:p0", "p0"))
        clients.append(first)
        tid = first.create_table(seats=["human", "human", "random"], sit=0, seed=5).table.id
        me = HostsClient(h2.peer, make_token(shared_secret(drill.url), "key:p1", "p1"))
        clients.append(me)
        lobby_has(me, tid)
        app = LobbyApp(me)
        seen: dict[str, object] = {}

        async def main() -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                screen = app.screen
                assert isinstance(screen, LobbyScreen)
                end = time.monotonic() + 10
                while tid not in screen.tables and time.monotonic() < end:
                    await pilot.pause(0.1)
                screen.query_one("#tables").move_cursor(row=list(screen.tables).index(tid))
                h1.signal(signal.SIGSTOP)
                await pilot.press("s")
                await pilot.pause(0.3)
                seen["connecting"] = screen.going_said == entering.CONNECTING
                t = time.monotonic()
                await asyncio.wait_for(pilot.press("h", "escape"), 3)  # h kept, Escape cancels
                await pilot.pause(0.1)
                seen["keys"] = (screen.history, time.monotonic() - t < 2, screen.going_said)

        asyncio.run(asyncio.wait_for(main(), 60))
        assert seen == {"connecting": True, "keys": (True, True, "")}
    finally:
        drill.hosts[0].signal(signal.SIGCONT) if drill.hosts else None
        for c in clients:
            c.close()
        drill.close()
