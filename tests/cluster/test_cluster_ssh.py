"""Several hosts as people meet them, over SSH (issue 30): two ``colosseum serve --host-id``
hosts on one throwaway PostgreSQL cluster; ``[/a]`` makes a table on h1 with the keys, ``小明``
on h2 sees it in h2's lobby and joins it (his client process reaches h1's table over its peer
port).  Then h1 fails:

* in the middle of the game (killed): 小明's screen says the table's host was lost, then he is
  back in the game (h2 took the table over); ``[/a]`` connects again, to h2 (as a balancer would
  send him), and goes straight back to his seat;
* while the table waits (paused past its lease, as a starved host would be): h2 takes the table
  over, h1 lets it go when it wakes, and both waiting screens find it on h2 (the seats kept:
  ``[/a]`` still starts it);
* while the table waits (killed): 小明's waiting screen finds the table on h2 and talks there.

Every wait is for text on a screen."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from clusterdrill import Host
from pgcluster import cluster_or_skip

from colosseum.tui.net.host.testing import SSHScreen

Drill = Callable[[list[Host], SSHScreen, SSHScreen, Any], Awaitable[SSHScreen]]


@pytest.fixture(scope="module")
def pg() -> Iterator[Any]:
    with cluster_or_skip() as cluster:
        yield cluster


def at_a_waiting_table(pg: Any, tmp_path: Path, then: Drill, lease: str = "6") -> None:
    """Two hosts; [/a] on h1 makes a table (seats 1-3 people, a bot), 小明 on h2 joins it; then
    ``then(hosts, a, b, key_a)`` (it may replace ``a``: the screen to close is returned).  What the
    hosts logged is printed when it fails.  ``lease``: long enough that a loaded machine does
    not lose a lease by accident (the host's renewals starved), short for the drills that do."""
    url = pg.fresh_database()
    hosts = [Host(tmp_path, f"h{i + 1}", url, lease=lease) for i in range(2)]
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
            await a.press("\x13")  # Ctrl+S: the table
            await a.wait_for("waiting for players")
            await b.press("r")
            await b.wait_for("[a], (free)")  # h1's table in h2's lobby
            await b.press("\r")
            await b.wait_for("waiting for players")
            await a.wait_for("小明")
            a = await then(hosts, a, b, key_a)
        finally:
            await a.close()
            await b.close()

    try:
        asyncio.run(asyncio.wait_for(go(), 180))
    except BaseException:
        for h in hosts:  # what the hosts logged, for a failure's cause
            print(f"---- host {h.name}:\n" + "".join(h.out))
        raise
    finally:
        for h in hosts:
            h.stop()


def test_a_player_on_another_host_plays_on_after_the_tables_host_dies(pg, tmp_path):
    async def then(hosts: list[Host], a: SSHScreen, b: SSHScreen, key_a: Any) -> SSHScreen:
        await a.press("\x13")  # start now: a bot for the free seat
        await a.wait_for("Start now?")
        await a.press("y")
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
        return a

    at_a_waiting_table(pg, tmp_path, then)


def test_a_waiting_table_whose_host_stalls_past_its_lease_is_found_on_the_other(pg, tmp_path):
    async def then(hosts: list[Host], a: SSHScreen, b: SSHScreen, key_a: Any) -> SSHScreen:
        hosts[0].signal(signal.SIGSTOP)  # starved: no renewal
        await asyncio.to_thread(hosts[1].wait_logged, "adopted from host h1")
        hosts[0].signal(signal.SIGCONT)  # h1 wakes, finds its lease gone, lets the table go
        await a.wait_for("moved to another")  # (the toast wraps)
        for screen in (a, b):
            await screen.wait_for("finding the table again", gone=True)
        assert "Seat 1: [a]  <- you" in await a.text()
        assert "Seat 2: 小明  <- you" in await b.text()
        await a.press("\x13")  # the creator still starts it, on h2
        await a.wait_for("Start now?")
        await a.press("y")
        await a.wait_for("R1/")
        await b.wait_for("R1/")
        return a

    at_a_waiting_table(pg, tmp_path, then, lease="3")


def test_a_waiting_tables_host_killed_the_other_players_screen_finds_it_again(pg, tmp_path):
    async def then(hosts: list[Host], a: SSHScreen, b: SSHScreen, key_a: Any) -> SSHScreen:
        hosts[0].signal(signal.SIGKILL)
        await b.wait_for("The table's host was lost")
        await b.wait_for("finding the table again", gone=True)  # h2 took it over when asked
        assert "Seat 2: 小明  <- you" in await b.text()
        for ch in "salve [/b]\r":
            await b.press(ch)
        await b.wait_for("小明: salve [/b]")  # said at the table, on h2
        return a

    at_a_waiting_table(pg, tmp_path, then, lease="3")
