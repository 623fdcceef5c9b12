"""A host that stops answering without closing the connection (paused, frozen, cut off on the
way): the game on that connection says so in its log, once, and again when the host answers;
the watchdog's questions (``Ping``) never disturb a request's answer."""

from __future__ import annotations

import asyncio
import select
import socket
import threading
import time
from pathlib import Path

import pytest

from colosseum.core.games.colosseum import legal, to_act
from colosseum.tui.net import watchdog
from colosseum.tui.net.lobby_requests import ServerSaid
from colosseum.tui.net.remote import RemoteClient


class Relay:
    """A unix-socket relay in front of the server that can hold everything (both ways) for a
    while, as a paused host would: the bytes wait, the connection stays open."""

    def __init__(self, upstream: str, path: Path) -> None:
        self.upstream = upstream.partition(":")[2]
        self.path = path
        self.address = f"unix:{path}"
        self.running = threading.Event()
        self.running.set()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(4)
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                down, _ = self.listener.accept()
            except OSError:
                return
            up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            up.connect(self.upstream)
            threading.Thread(target=self._pump, args=(down, up), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        ends = {a: b, b: a}
        while not self.stopped:
            self.running.wait()
            ready, _, _ = select.select(list(ends), [], [], 0.05)
            for s in ready:
                if not self.running.is_set():
                    break  # held: read nothing more until resumed
                data = s.recv(65536)
                if not data:
                    a.close()
                    b.close()
                    return
                ends[s].sendall(data)

    def close(self) -> None:
        self.stopped = True
        self.running.set()
        self.listener.close()


@pytest.mark.long(10)
def test_a_silent_host_is_said_in_the_game_and_so_is_its_return(server, tmp_path, monkeypatch):
    monkeypatch.setattr(watchdog, "PING_AFTER", 0.3)
    monkeypatch.setattr(watchdog, "SILENT_AFTER", 1.5)
    monkeypatch.setattr(watchdog, "WATCH_EVERY", 0.05)
    relay = Relay(server.address, tmp_path / "relay.sock")
    client = RemoteClient(relay.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = client.session_for(joined)

    def said() -> list[str]:
        session.drain()  # (no app's loop here: what arrived is taken in when asked)
        return [e.text for e in session.events if e.kind == "net"]

    def moves() -> int:
        session.drain()
        return len(session.actions)

    async def main() -> None:
        for _ in range(500):
            if to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        assert to_act(session.state) == 0
        # a quiet table (our move) with the host answering: questions asked, nothing said
        await asyncio.sleep(2.5)
        assert said() == []
        relay.running.clear()  # the host is paused
        for _ in range(500):
            if said():
                break
            await asyncio.sleep(0.01)
        assert len(said()) == 1 and said()[0].startswith("The server has not answered for ")
        await asyncio.sleep(0.5)
        assert len(said()) == 1  # said once, not every second
        relay.running.set()  # the host runs again
        for _ in range(600):
            if len(said()) == 2:
                break
            await asyncio.sleep(0.01)
        assert said()[1] == "The server answers again."
        # the game goes on, and the answers a request waits for are the ones it asked for
        session.submit(legal(session.state).actions[0])
        assert client.list_tables() is not None
        for _ in range(500):
            if to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        # a move made while the host is known to be silent is not sent (it would count
        # whenever the host came back): said at once, the screen not held
        relay.running.clear()
        for _ in range(600):
            if len(said()) == 3:
                break
            await asyncio.sleep(0.01)
        n = moves()
        t0 = time.monotonic()
        with pytest.raises(ServerSaid, match="nothing was sent"):
            session.submit(legal(session.state).actions[0])
        assert time.monotonic() - t0 < 0.5
        relay.running.set()
        await asyncio.sleep(0.5)
        assert moves() == n and to_act(session.state) == 0
        # a move whose answer is awaited when the silence is noticed: the wait ends then (not
        # after the request's whole time limit), and the move counts once the host is back
        relay.running.clear()
        t0 = time.monotonic()
        with pytest.raises(ServerSaid, match="stopped answering"):
            session.submit(legal(session.state).actions[0])
        assert time.monotonic() - t0 < 5
        relay.running.set()
        for _ in range(600):
            if moves() > n:
                break
            await asyncio.sleep(0.01)
        assert moves() > n

    try:
        asyncio.run(asyncio.wait_for(main(), 30))
    finally:
        client.close()
        relay.close()


def test_the_lobby_alone_says_nothing_of_a_quiet_server(server, monkeypatch):
    """Without a game on the connection nobody is told (the lobby's requests say themselves
    when the server does not answer), and the questions keep going."""
    monkeypatch.setattr(watchdog, "PING_AFTER", 0.1)
    monkeypatch.setattr(watchdog, "SILENT_AFTER", 0.3)
    monkeypatch.setattr(watchdog, "WATCH_EVERY", 0.05)
    client = RemoteClient(server.address, server.token_for("key:kat", "Kat"))
    try:
        start = client.heard
        time.sleep(1.5)
        assert client.heard > start  # pongs heard
        assert not client.silent
        assert client.list_tables() is not None
    finally:
        client.close()


@pytest.mark.parametrize("name", ["PING_AFTER", "SILENT_AFTER"])
def test_the_watchdog_asks_long_before_a_request_gives_up(name):
    from colosseum.tui.net.lobby_requests import REPLY_TIMEOUT

    assert getattr(watchdog, name) < REPLY_TIMEOUT
