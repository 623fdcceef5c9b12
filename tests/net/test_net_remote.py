"""RemoteSession: the GameSession a networked client uses.  The table server runs
on its own event loop in a thread, as it would in the server process."""

from __future__ import annotations

import asyncio
import time

import msgspec
import pytest

from colosseum.core.games.colosseum import RuleError, legal, to_act
from colosseum.core.games.colosseum.view import player_view
from colosseum.tui.net.host.proto_client import NetError
from colosseum.tui.net.remote import RemoteClient


def test_remote_session_submits_through_the_server_and_follows_its_state(server):
    with pytest.raises(NetError):
        RemoteClient(server.address, "forged.token")
    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = client.session_for(joined)
    assert session.local_seats() == (0,) and not session.bot_to_act()
    table = server.tables[joined.table.id]

    async def main():
        calls: list[tuple[int, list]] = []
        session.add_listener(lambda st, ev: calls.append((st.actions, ev)))  # on this loop
        for _ in range(500):
            if to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        st = session.state
        assert to_act(st) == 0 and st == player_view(table.state)
        # refused: another seat's action, then an illegal one; nothing changes
        other = msgspec.structs.replace(legal(st).actions[0], player=1)
        with pytest.raises(RuleError, match="you hold seat 1"):
            session.submit(other)
        assert session.state == st and len(session.actions) == len(table.actions)
        # accepted: the server's events come back, the state is the server's
        n = len(session.actions)
        events = session.submit(legal(st).actions[0])
        assert events and session.actions[n] == legal(st).actions[0]
        await asyncio.sleep(0.3)  # bots move on; pushed updates reach the listener
        assert session.state == player_view(table.state) and session.actions == table.actions
        assert calls and calls[-1][0] == table.state.actions
        session.say("good luck")
        for _ in range(100):
            if any(e.kind == "chat" for e in session.events):
                break
            await asyncio.sleep(0.01)
        assert any(e.kind == "chat" and e.text == "Becky: good luck" for e in session.events)

    asyncio.run(asyncio.wait_for(main(), 30))
    # a spectator cannot act
    spy = RemoteClient(server.address, server.token_for("key:eve", "Eve"))
    watching = spy.session_for(spy.watch(joined.table.id))
    assert watching.local_seats() == ()
    with pytest.raises(RuleError):
        watching.submit(legal(watching.state).actions[0] if legal(watching.state).actions else None)
    client.close()
    spy.close()


def test_the_servers_news_reach_the_listeners_in_the_apps_context(server):
    """What the reader thread hears is handed to the listeners in the context of the code
    that added them (the app's): Textual's ``active_app`` is there, so a timer a listener sets
    runs (one set in the reader thread's context never fired)."""
    import contextvars

    whose = contextvars.ContextVar("whose", default="the reader thread's")
    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = client.session_for(joined)

    async def main():
        whose.set("the app's")
        heard: list[str] = []
        session.add_listener(lambda st, ev: heard.append(whose.get()))
        for _ in range(500):
            if to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        session.submit(legal(session.state).actions[0])
        await asyncio.sleep(0.3)  # bots move on: their updates are pushed
        assert heard and set(heard) == {"the app's"}

    asyncio.run(asyncio.wait_for(main(), 30))
    client.close()


def test_lobby_create_start_now_and_watch(server):
    """The lobby app driven with keys (headless): create a table, start it at once with bots
    in the free seats, then another player watches it."""
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen

    alice = RemoteClient(server.address, server.token_for("key:alice", "alice"))
    app = LobbyApp(alice)

    async def create():
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("n")
            await pilot.pause(0.3)
            await pilot.press(*"Arena", "enter")
            for _ in range(50):
                await pilot.pause(0.1)
                if isinstance(app.screen, WaitingScreen):
                    break
            assert isinstance(app.screen, WaitingScreen)
            await pilot.press("ctrl+s", "y")  # start now (asked first): bots in the free seats
            for _ in range(50):
                await pilot.pause(0.1)
                if app.result is not None:
                    break

    asyncio.run(asyncio.wait_for(create(), 30))
    assert app.result is not None and app.result.seat == 0 and app.result.state is not None
    ((tid, table),) = server.tables.items()
    assert table.meta.name == "Arena" and table.meta.status in ("playing", "over")
    assert [s.kind for s in table.meta.seats][1:3] != ["human", "human"]  # the free seats got bots

    bob = RemoteClient(server.address, server.token_for("key:bob", "bob"))
    app2 = LobbyApp(bob)

    async def watch():
        async with app2.run_test(size=(110, 34)) as pilot:
            await pilot.pause(0.5)
            await pilot.press("enter")  # no free seat: told so, stays in the lobby
            await pilot.pause(0.3)
            assert app2.result is None
            await pilot.press("s")
            for _ in range(30):
                await pilot.pause(0.1)
                if app2.result is not None:
                    break

    asyncio.run(asyncio.wait_for(watch(), 30))
    assert app2.result is not None and app2.result.seat == -1
    alice.close()
    bob.close()


def test_review_at_a_table_shows_the_game_as_the_seat_saw_it_without_what_is_still_hidden(server):
    """``v`` at a remote table (issue 24: it replayed with seed 0 and raised): the session asks
    the server for the positions it cannot work out itself; every position of the review is the
    seat's view of the real one, and the tiles still face down stay face down."""
    from colosseum.core.games.colosseum.rules import RULES
    from colosseum.core.games.colosseum.view import HIDDEN
    from colosseum.core.logread import read_log
    from colosseum.tui.net.client import _game_app
    from colosseum.tui.viewer import ViewerScreen

    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(
        seats=["human", "random", "random"], sit=0, seed=5, options={"variant": "original"}, allow_takeover=False
    )
    session = client.session_for(joined)
    table = server.tables[joined.table.id]

    async def play():
        moved = 0
        while moved < 12 and not RULES.is_over(table.state):
            session.drain()
            if to_act(session.state) == 0:
                session.submit(legal(session.state).actions[-1])
                moved += 1
            await asyncio.sleep(0.01)

    asyncio.run(asyncio.wait_for(play(), 60))
    for _ in range(500):  # the bots' moves after Becky's last, all arrived (the bots share a budget)
        session.drain()
        if len(session.actions) == len(table.actions) and to_act(table.state) in (0, -1):
            break
        time.sleep(0.01)
    timeline = session.review_timeline()
    assert timeline.end == len(session.actions) == len(table.actions)
    setup = read_log(table.log_path).setup  # the server's, with the seed
    real = RULES.new_game(setup)
    assert timeline.state(0) == player_view(real)
    for i, action in enumerate(table.actions):
        real = RULES.apply(real, action)[0]
        assert timeline.state(i + 1) == RULES.player_view(real, 0), f"position {i + 1}"
        assert timeline.actions[i] == action
    assert all(set(timeline.state(i).aside) <= {HIDDEN} for i in range(len(timeline)))
    assert any(timeline.state(i).aside for i in range(len(timeline)))

    # a spectator's game app (no dialog of its own in the way): ``v`` opens the review
    spy = RemoteClient(server.address, server.token_for("key:eve", "Eve"))
    watching = spy.session_for(spy.watch(joined.table.id))
    app = _game_app(watching, None)

    async def review():
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("v")
            for _ in range(30):
                await pilot.pause(0.1)
                if isinstance(app.screen, ViewerScreen):
                    break
            assert isinstance(app.screen, ViewerScreen)
            seen = app.screen.timeline
            assert seen.end == len(watching.actions)
            assert seen.state(seen.end) == watching.state == player_view(table.state)

    asyncio.run(asyncio.wait_for(review(), 30))
    client.close()
    spy.close()
