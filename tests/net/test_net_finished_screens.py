"""Issue 26 on the lobby's screens at 80x24: one's finished games (``h``, ``m``), one opened in the
viewer move by move (as the player saw it), ``f`` there forking it into a new table; "your move"
in the title; and a table's end screen offering a rematch to a player (``m``)."""

from __future__ import annotations

import asyncio
import time

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.testing import running_server
from colosseum.tui.net.lobby import LobbyApp, LobbyScreen
from colosseum.tui.net.remote import RemoteClient
from colosseum.tui.viewer import ViewerScreen

NAME = "[/a]小明"  # markup-like and wide


def _finished_game(srv, me: RemoteClient) -> str:
    """A Colosseum game this player held a seat of, played by bots (autopilot) to the end."""
    j = me.create_table(seats=["human", "random", "random"], sit=0, seed=3, name="[b]Friday")
    me.send(P.Autopilot(table=j.table.id, on=True))
    end = time.monotonic() + 60
    while me.list_page(history=True).total < 1:
        assert time.monotonic() < end, "the game did not finish"
        time.sleep(0.2)
    me.leave(j.table.id)
    return j.table.id


def test_my_finished_game_in_the_viewer_and_a_fork_from_it(tmp_path):
    with running_server(tmp_path / "data", bot_delay=0.0, bot_timeout=60, fixed_seeds=True) as srv:
        me = RemoteClient(srv.address, srv.token_for("key:me", NAME))
        other = RemoteClient(srv.address, srv.token_for("key:other", "other"))
        tid = _finished_game(srv, me)
        assert other.list_page(history=True, mine=True).total == 0
        app = LobbyApp(me)

        async def go():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.3)
                await pilot.press("m")  # straight to my finished games
                await pilot.pause(0.5)
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen) and lobby.history and lobby.mine
                title = str(lobby.query_one("#title").render())
                assert "[1-1 of 1 my finished game]" in title and NAME in title  # (one: no plural)
                await pilot.press("enter")
                await pilot.pause(1.0)
                viewer = app.screen
                assert isinstance(viewer, ViewerScreen)
                n = viewer.timeline.end
                assert n > 50 and viewer.index == n and "REVIEW  end" in viewer.bar_text()
                await pilot.press("home", "right", "right")
                await pilot.pause(0.2)
                assert viewer.index == 2 and "f: play from here" in viewer.bar_text()
                assert viewer.rules.names(viewer.state)[0] == NAME
                await pilot.press("f")
                await pilot.pause(0.5)
                await pilot.press("ctrl+s")  # seat 1 mine, the bots as they were
                await pilot.pause(1.5)
            assert app.result is not None and app.result.state is not None
            assert app.result.table.id != tid and app.result.seat == 0
            assert len(app.result.actions) >= 2

        asyncio.run(asyncio.wait_for(go(), 90))
        fork = srv.tables[app.result.table.id]
        assert fork.meta.fork_of == tid and fork.meta.fork_at == 2
        me.close()
        other.close()


def test_your_move_in_the_lobby_title_and_the_bell(tmp_path):
    with running_server(tmp_path / "data", bot_delay=30.0, bot_timeout=600, fixed_seeds=True) as srv:
        me = RemoteClient(srv.address, srv.token_for("key:me", NAME))
        app = LobbyApp(me)
        rang: list[int] = []
        app.bell = lambda: rang.append(1)  # type: ignore[method-assign]

        async def go():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.5)
                lobby = app.screen
                assert "Your move" not in str(lobby.query_one("#title").render())
                for seed in range(1, 6):  # a table where I am first to act
                    j = me.create_table(seats=["human", "normal", "normal"], sit=0, seed=seed)
                    me.leave(j.table.id)
                    if j.table.to_act == 0:
                        break
                lobby.action_refresh()
                await pilot.pause(0.5)
                assert "Your move at 1 table." in str(lobby.query_one("#title").render())
                assert rang == [1]

        asyncio.run(asyncio.wait_for(go(), 60))
        me.close()


def _two_at_a_finished_table(srv):
    """alice and NAME (their clients), a table of theirs against a bot played to its end by
    their autopilots, and NAME's session of it."""
    a = RemoteClient(srv.address, srv.token_for("key:a", "alice"))
    b = RemoteClient(srv.address, srv.token_for("key:b", NAME))
    tid = a.create_table(seats=["human", "human", "random"], sit=0, seed=3).table.id
    session = b.session_for(b.join(tid, 1))
    for c in (a, b):
        c.send(P.Autopilot(table=tid, on=True))
    end = time.monotonic() + 60
    while a.list_page(history=True).total < 1:
        assert time.monotonic() < end, "the game did not finish"
        time.sleep(0.2)
    return a, b, tid, session


def test_a_rematch_asked_at_a_table_is_answered_in_the_game_app(tmp_path):
    from colosseum.tui.net.client import _game_app

    with running_server(tmp_path / "data", bot_delay=0.0, bot_timeout=60, fixed_seeds=True) as srv:
        a, b, tid, session = _two_at_a_finished_table(srv)
        app = _game_app(session, None)

        async def go():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(1.0)
                assert session.offers_rematch
                a.send(P.Rematch(table=tid))
                await pilot.pause(1.0)
                ask = app.screen
                assert type(ask).__name__ == "RematchAsk"
                assert "alice asks for a rematch." in str(ask.query_one("Static").render())
                await pilot.press("y")
                await pilot.pause(1.0)
            assert app.next_table is not None and app.next_table[1] == 1

        asyncio.run(asyncio.wait_for(go(), 60))
        new = srv.tables[app.next_table[0]]
        assert new.meta.rematch_of == tid and [s.name for s in new.meta.seats][:2] == ["alice", NAME]
        a.close()
        b.close()


def test_a_rematch_asked_twice_is_one_question_and_a_decline_ends_it(tmp_path):
    """Before, a second m of the asker stacked a second question on the other player's screen;
    declining the first left the second, whose y then asked for a rematch of their own."""
    from colosseum.tui.net.client import _game_app

    with running_server(tmp_path / "data", bot_delay=0.0, bot_timeout=60, fixed_seeds=True) as srv:
        a, b, tid, session = _two_at_a_finished_table(srv)
        app = _game_app(session, None)
        heard: list[str] = []

        async def go():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(1.0)
                a.send(P.Rematch(table=tid))
                await pilot.pause(0.8)
                a.send(P.Rematch(table=tid))  # m again
                await pilot.pause(0.8)
                asks = [s for s in app.screen_stack if type(s).__name__ == "RematchAsk"]
                assert len(asks) == 1 and app.screen is asks[0]
                await pilot.press("n")
                await pilot.pause(0.8)
                assert not any(type(s).__name__ == "RematchAsk" for s in app.screen_stack)
                heard.extend(str(n.message) for n in app._notifications)
                await pilot.press("y")  # nothing to answer now: no rematch asked in this name
                await pilot.pause(0.8)
                heard.extend(str(n.message) for n in app._notifications)

        asyncio.run(asyncio.wait_for(go(), 60))
        assert f"{NAME} declines the rematch." in heard
        assert not any(f"{NAME} asks" in h for h in heard) and app.next_table is None
        a.close()
        b.close()


def test_a_private_tables_code_typed_in_the_lobby_and_given_at_login(tmp_path):
    from colosseum.tui.net.lobby import WaitingScreen

    with running_server(tmp_path / "data", bot_delay=0.0, bot_timeout=60, fixed_seeds=True) as srv:
        a = RemoteClient(srv.address, srv.token_for("key:a", "alice"))
        j = a.create_table(seats=["human", "human", "human", "normal"], sit=0, private=True)
        code = j.table.code
        b = RemoteClient(srv.address, srv.token_for("key:b", NAME))
        app = LobbyApp(b)

        async def go():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.5)
                assert isinstance(app.screen, LobbyScreen) and app.screen.tables == {}
                await pilot.press("i")
                await pilot.pause(0.2)
                await pilot.press(*code.lower(), "enter")
                await pilot.pause(0.8)
                assert isinstance(app.screen, WaitingScreen) and app.screen.joined.seat == 1
                text = str(app.screen.query_one("#seats").render())
                assert f"invite people with the code {code}" in text and f"{NAME}  <- you" in text

        asyncio.run(asyncio.wait_for(go(), 60))
        c = RemoteClient(srv.address, srv.token_for("key:c", "carol"))
        app2 = LobbyApp(c, code=code)  # ssh -t ... join CODE

        async def go2():
            async with app2.run_test(size=(80, 24)) as pilot:
                await pilot.pause(1.0)
            assert app2.result is not None and app2.result.seat == 2  # the last seat: it began

        asyncio.run(asyncio.wait_for(go2(), 60))
        for x in (a, b, c):
            x.close()
