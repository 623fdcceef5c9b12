"""A connection that breaks while the player acts: the socket refuses the bytes (a broken pipe,
a reset) before the reader thread has heard that the server is gone.  Every way a game screen
sends (a move, a take-back, a line of chat, the autopilot) says so in one line; nothing
raises out of the screen."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from colosseum.core.games.colosseum import legal, to_act
from colosseum.tui.net.lobby_requests import ServerSaid
from colosseum.tui.net.remote import RemoteClient


def _break(client: RemoteClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket refuses every send from now on, as a dead peer's does."""

    def refuse(msg: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(client, "send", refuse)


def test_a_broken_socket_is_a_lost_connection_for_every_request(server, monkeypatch):
    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = client.session_for(joined)

    async def main() -> None:
        for _ in range(500):
            if to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        st = session.state
        _break(client, monkeypatch)
        lost = "the connection to the server is lost"
        with pytest.raises(ServerSaid, match=lost):
            session.submit(legal(st).actions[0])
        with pytest.raises(ServerSaid, match=lost):
            session.undo()
        with pytest.raises(ServerSaid, match=lost):
            session.say("still there?")
        with pytest.raises(ServerSaid, match=lost):
            session.set_autopilot(True)
        with pytest.raises(ServerSaid, match=lost):
            session.review_timeline()
        assert session.state == st

    asyncio.run(asyncio.wait_for(main(), 30))
    client.close()


def test_a_municipium_choice_and_a_chat_line_on_a_broken_socket_are_said_on_screen(server, monkeypatch):
    """The Municipium dialog's Enter, Ctrl+T's line and Ctrl+B: each shows the lost connection
    on the screen the player looks at; the app runs on."""
    from colosseum.tui.dialogs.frame import DecisionScreen
    from colosseum.tui.net.client import _game_app
    from colosseum.tui.screens.game import GameScreen

    client = RemoteClient(server.address, server.token_for("key:kat", "Kat"))
    joined = client.create_table(seats=["human", "normal"], sit=0, seed=5, game="municipium")
    session = client.session_for(joined)
    app: Any = _game_app(session, None)
    said: list[str] = []

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.05)
                if isinstance(app.screen, DecisionScreen):
                    break
            assert isinstance(app.screen, DecisionScreen)
            dialog = app.screen
            real = app.notify

            def notify(message: str, *args: Any, **kw: Any) -> None:
                said.append(str(message))
                real(message, *args, **kw)

            monkeypatch.setattr(app, "notify", notify)
            before = len(session.actions)
            _break(client, monkeypatch)
            await pilot.press("enter")
            await pilot.pause(0.2)
            assert app.screen is dialog and len(session.actions) == before
            assert any("connection to the server is lost" in s for s in said), said
            while not isinstance(app.screen, GameScreen):
                app.pop_screen()
                await pilot.pause()
            said.clear()
            await pilot.press("ctrl+t", *"hi", "enter")
            await pilot.pause(0.2)
            assert any("connection to the server is lost" in s for s in said), said
            said.clear()
            await pilot.press("ctrl+b")
            await pilot.pause(0.2)
            assert any("connection to the server is lost" in s for s in said), said
            assert not session.autopilot

    asyncio.run(asyncio.wait_for(play(), 60))
    assert app.return_code in (None, 0)
    client.close()


def test_a_take_back_the_connection_refuses_is_said_as_not_taken_back(server, monkeypatch):
    """``u`` where the server said the seat may take back, on a broken socket: "Not taken back"
    and the lost connection, not "Nothing to take back" with the reach's old reason."""
    import random

    from colosseum.tui.net.client import _game_app
    from colosseum.tui.screens.game import GameScreen

    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = client.session_for(joined)
    app: Any = _game_app(session, None)
    said: list[tuple[str, str]] = []
    rng = random.Random(1)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3000):  # our seat's decisions (random) until it may take one back
                await pilot.pause(0.01)
                st = session.state
                if to_act(st) == 0 and session.undo_reach().targets:
                    break
                if to_act(st) == 0:
                    session.submit(rng.choice(legal(st).actions))
            assert session.undo_reach().targets, "no decision of ours to take back"
            while not isinstance(app.screen, GameScreen):
                app.pop_screen()
                await pilot.pause()
            real = app.notify

            def notify(message: str, *args: Any, title: str = "", **kw: Any) -> None:
                said.append((title, str(message)))
                real(message, *args, title=title, **kw)

            monkeypatch.setattr(app, "notify", notify)
            n = len(session.actions)
            _break(client, monkeypatch)
            await pilot.press("u")
            await pilot.pause(0.2)
            assert ("Not taken back", "the connection to the server is lost") in said, said
            assert len(session.actions) == n

    asyncio.run(asyncio.wait_for(play(), 90))
    client.close()
