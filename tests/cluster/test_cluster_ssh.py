"""Several hosts as people meet them, over SSH (issue 30): two ``colosseum serve --host-id``
hosts on one throwaway PostgreSQL cluster; ``[/a]`` makes a table on h1 with the keys, ``小明``
on h2 sees it in h2's lobby and joins it (his client process reaches h1's table over its peer
port); the game starts; h1 is killed.  小明's screen says the table's host was lost, then he is
back in the game (h2 took the table over); ``[/a]`` connects again, to h2 (as a balancer would
send him), and goes straight back to his seat.  Every wait is for text on a screen."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from typing import Any

import asyncssh
import pytest
from clusterdrill import Host
from pgcluster import cluster_or_skip

from colosseum.tui.net.host.testing import SSHScreen


@pytest.fixture(scope="module")
def pg() -> Iterator[Any]:
    with cluster_or_skip() as cluster:
        yield cluster


def test_a_player_on_another_host_plays_on_after_the_tables_host_dies(pg, tmp_path):
    url = pg.fresh_database()
    hosts = [Host(tmp_path, f"h{i + 1}", url) for i in range(2)]
    hosts[0].start()
    hosts[0].wait_started()
    hosts[1].start()
    hosts[1].wait_started()
    key_a, key_b = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))

    async def go() -> None:
        a = await SSHScreen.open(hosts[0].ssh_port, key_a, "[/a]")
        b = await SSHScreen.open(hosts[1].ssh_port, key_b, "小明")
        try:
            await a.wait_for("Lobby - you are")
            await b.wait_for("Lobby - you are")
            await a.press("n")
            await a.wait_for("ctrl+s creates")
            await a.press("\x13")  # Ctrl+S: the table (seats 1-3 people, a bot)
            await a.wait_for("waiting for players")
            await b.press("r")
            await b.wait_for("[a], (free)")  # h1's table in h2's lobby
            await b.press("\r")
            await b.wait_for("waiting for players")
            await a.wait_for("小明")
            await a.press("\x13")  # start now: a bot for the free seat
            await a.wait_for("R1/")
            await b.wait_for("R1/")
            hosts[0].signal(signal.SIGKILL)  # the table's host dies mid-game
            await b.wait_for("The table's host was lost")
            await b.wait_for("The table's host was lost", gone=True)  # back: a new screen of the game
            await b.wait_for("R1/")
            await a.close()
            a = await SSHScreen.open(hosts[1].ssh_port, key_a, "[/a]")  # the balancer's other host
            await a.wait_for("R1/")  # straight back at his seat
            assert "Lobby" not in (await a.lines())[0]
        finally:
            await a.close()
            await b.close()

    try:
        asyncio.run(asyncio.wait_for(go(), 180))
    finally:
        for h in hosts:
            h.stop()
