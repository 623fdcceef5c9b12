"""RemoteSession at a Municipium table: the one networked session reads Municipium's game with
Municipium's types, and the lobby opens the Municipium screen over it.  The table server runs on
its own loop in a thread.

The lobby opens a Municipium table as every game's: it ends with the ``Joined`` and the shell's
one game app plays it (``client._game_app``)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM
from colosseum.tui.net.remote import RemoteClient, RemoteSession


def test_muni_remote_session_submits_through_the_server(server):
    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "normal"], sit=0, seed=3, game="municipium")
    assert joined.table.game == "municipium" and joined.state is not None  # the last human seat: started
    session = client.session_for(joined)
    assert isinstance(session, RemoteSession) and session.seat == 0 and session.state.rng == 0
    table = server.tables[joined.table.id]

    async def main():
        calls = []
        session.add_listener(lambda st, ev: calls.append(st.actions))
        for _ in range(500):
            if MUNICIPIUM.to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        st = session.state
        assert MUNICIPIUM.to_act(st) == 0 and st == MUNICIPIUM.player_view(table.state, 0)
        other = msgspec.structs.replace(MUNICIPIUM.legal_actions(st)[0], player=1)
        with pytest.raises(RuleError, match="you hold seat 1"):
            session.submit(other)
        n = len(session.actions)
        first = MUNICIPIUM.legal_actions(st)[0]
        events = session.submit(first)
        assert events and session.actions[n] == first
        await asyncio.sleep(0.3)  # the bot moves on; its updates reach the listener
        assert session.state == MUNICIPIUM.player_view(table.state, 0) and session.actions == table.actions
        assert calls
        session.say("ave")
        for _ in range(100):
            if any(e.kind == "chat" for e in session.events):
                break
            await asyncio.sleep(0.01)
        assert any(e.text == "Becky: ave" for e in session.events)

    asyncio.run(asyncio.wait_for(main(), 30))
    client.close()


def test_lobby_opens_the_municipium_game_as_every_games_and_plays(server):
    from colosseum.tui.dialogs.frame import DecisionScreen
    from colosseum.tui.net.client import _game_app
    from colosseum.tui.net.lobby import LobbyApp
    from colosseum.tui.screens.game import GameScreen

    client = RemoteClient(server.address, server.token_for("key:kat", "Kat"))
    lobby = LobbyApp(client)

    async def pick():
        async with lobby.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lobby.enter(lambda: client.create_table(seats=["human", "normal"], sit=0, seed=5, game="municipium"))
            for _ in range(100):
                await pilot.pause(0.05)
                if lobby.result is not None:
                    break

    asyncio.run(asyncio.wait_for(pick(), 60))
    assert lobby.result is not None and lobby.result.table.game == "municipium"
    session = client.session_for(lobby.result)
    app: Any = _game_app(session, None)  # (the game app: a ColosseumApp)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                await pilot.pause(0.05)
                if any(isinstance(s, GameScreen) for s in app.screen_stack):
                    break
            game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            before = len(session.actions)
            for _ in range(60):  # answer the dialogs with Enter
                if isinstance(app.screen, DecisionScreen):
                    await pilot.press("enter")
                await pilot.pause(0.05)
                if len(session.actions) > before + 3:
                    break
            assert len(session.actions) > before + 3
            table = server.tables[session.table_id]
            assert session.actions == table.actions[: len(session.actions)]
            while app.screen is not game:
                app.pop_screen()
                await pilot.pause()
            # Ctrl+T talks to the table: the line reaches the server's chat as typed (plain text)
            await pilot.press("ctrl+t")
            await pilot.pause()
            for ch in "ave [b]x[/b]":
                await pilot.press("space" if ch == " " else ch)
            await pilot.press("enter")
            for _ in range(40):
                await pilot.pause(0.05)
                if table.chat:
                    break
            assert table.chat and table.chat[-1].text == "ave [b]x[/b]"

    asyncio.run(asyncio.wait_for(play(), 60))
    client.close()


def test_a_spectator_follows_a_municipium_table_and_cannot_act(server):
    client = RemoteClient(server.address, server.token_for("key:cy", "Cy"))
    joined = client.create_table(seats=["normal", "normal"], sit=-1, seed=2, game="municipium")
    assert joined.seat == -1
    session = client.session_for(joined)
    assert session.seat == -1 and session.rules is MUNICIPIUM
    assert session.local_seats() == ()
    with pytest.raises(RuleError, match="spectators"):
        session.submit(MUNICIPIUM.legal_actions(session.state)[0])

    async def main():
        for _ in range(300):
            session.drain()
            if MUNICIPIUM.is_over(session.state):
                return
            await asyncio.sleep(0.02)

    asyncio.run(asyncio.wait_for(main(), 30))
    assert MUNICIPIUM.is_over(session.state) and session.state.result is not None
    client.close()


def test_the_clock_takes_the_arena_border_and_gives_back_the_legend(paced_server):
    """A table's clock is shown in the board panel's bottom border (its row alone repainted,
    every second); Municipium keeps its legend there, shown again once no clock runs."""
    from colosseum.tui.net.client import _game_app

    client = RemoteClient(paced_server.address, paced_server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "normal"], sit=0, seed=3, game="municipium")
    session = client.session_for(joined)
    app: Any = _game_app(session, None)

    def bottom() -> str:
        board = app.game_screen().query_one("#board")
        return board._border_subtitle.plain if board._border_subtitle else ""

    async def go():
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause(0.3)
            legend = bottom()
            assert "governor" in legend
            for _ in range(60):  # our decision: the clock runs for us
                if "clock: you" in bottom():
                    break
                await pilot.pause(0.1)
            assert "clock: you" in bottom()
            session.deadline = 0.0  # (as when the server stops the clock)
            app._clock_tick()
            await pilot.pause()
            assert bottom() == legend

    asyncio.run(asyncio.wait_for(go(), 30))
    client.close()
