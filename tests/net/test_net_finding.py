"""Finding a waiting table again after its host let it go must not freeze the screen, and a host
that takes a connection but never greets it must not hold the client for ever.  Before, the
lobby asked for the table on its own event loop (up to the connection's time limit per try, the
screen dead meanwhile), and a stopped host's connection waited for its greeting for ever."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
from test_net_moved import _pilot_until

from colosseum.tui.net import remote
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.hosts import HOST_LOST
from colosseum.tui.net.remote import RemoteClient


def test_a_host_that_never_greets_is_given_up_on(monkeypatch):
    monkeypatch.setattr(remote, "HELLO_TIMEOUT", 0.5)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # connections are taken by the kernel and never answered
    try:
        t = time.monotonic()
        with pytest.raises(OSError):
            RemoteClient(f"tcp:127.0.0.1:{silent.getsockname()[1]}", "token")
        assert time.monotonic() - t < 5
    finally:
        silent.close()


def test_the_waiting_screen_answers_keys_while_its_table_is_found_again(server):
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen

    client = RemoteClient(server.address, server.token_for("key:kat", "小明"))
    release = threading.Event()
    asked: list[str] = []
    real_join = client.join

    def slow_join(table: str, seat: int) -> P.Joined:  # a host that takes its time to answer
        asked.append(table)
        release.wait(20)
        return real_join(table, seat)

    app = LobbyApp(client)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            app.enter(lambda: client.create_table(seats=["human", "human", "random"], sit=0, seed=3))
            await pilot.pause(0.3)
            w = app.screen
            assert isinstance(w, WaitingScreen)
            tid = w.joined.table.id
            client.join = slow_join  # type: ignore[method-assign]
            app._table_message(P.Error(message=HOST_LOST, code="moved_host", table=tid))
            await _pilot_until(pilot, lambda: bool(asked))
            assert asked == [tid] and w.finding
            # the screen still takes keys while the host is asked
            await asyncio.wait_for(pilot.press("h", "i"), 3)
            await pilot.pause(0.1)
            assert w.query_one("#say").value == "hi"
            assert "finding the table again" in str(w.query_one("#seats").render())
            assert app.screen.check_action("start", ()) is False
            release.set()
            await _pilot_until(pilot, lambda: not w.finding)
            assert not w.finding and w.joined.seat == 0 and app.screen is w
            assert "finding the table again" not in str(w.query_one("#seats").render())

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        release.set()
        client.close()
