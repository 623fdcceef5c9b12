"""The lobby's requests of a table run on a thread (``entering``): what must not change with that.

* The waiting screen hears "the game started" once per player sitting down again.  When each
  news made a new request replacing the one under way, the players waiting at one table told
  each other to sit again, over and over (thousands of requests, for tens of seconds under
  load: two players never saw their game), and the requests still queued went out after the
  game opened, taking the table's updates from the game's screen (its clock ran on a finished
  game).  One request at a time now.
* The news that the game started may come before the answer to one's own request to sit (it
  came on the connection's reader thread, the answer on the request's): it found no waiting
  screen and was lost, and the player waited at a table that was playing.
* Keys typed while the table is asked for went to the lobby underneath (``h`` its finished
  games, ``i`` its code box), not to the waiting table's talk as when the lobby waited for the
  answer; they are kept while the request is under way, then handed over in order.
"""

from __future__ import annotations

import asyncio
import threading
import time

from test_net_moved import _pilot_until
from test_net_typeahead import burst

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.remote import RemoteClient


def _at_a_waiting_table(server) -> tuple[RemoteClient, RemoteClient, str]:
    """bo made a table for three people and sits at seat 1; kat's connection, and the table."""
    bo = RemoteClient(server.address, server.token_for("key:bo", "bo"))
    tid = bo.create_table(seats=["human", "human", "human"], sit=0, seed=3).table.id
    kat = RemoteClient(server.address, server.token_for("key:kat", "kat"))
    return bo, kat, tid


def test_the_game_starting_is_asked_for_once_however_often_it_is_heard(server):
    from colosseum.tui.net.lobby import LobbyApp
    from colosseum.tui.net.waiting import WaitingScreen

    bo, kat, tid = _at_a_waiting_table(server)
    ann = RemoteClient(server.address, server.token_for("key:ann", "ann"))
    real_join, joins = kat.join, []

    def join(table: str, seat: int) -> P.Joined:  # an answer that takes a while
        joins.append(seat)
        if len(joins) > 1:
            time.sleep(0.5)
        return real_join(table, seat)

    kat.join = join  # type: ignore[method-assign]
    app = LobbyApp(kat)
    seen: dict[str, object] = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            app.enter(lambda: kat.join(tid, 1))
            await _pilot_until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            ann.join(tid, 2)  # the last seat: the game starts
            await _pilot_until(pilot, lambda: len(joins) == 2)
            started = kat.tables[tid]
            for _ in range(5):  # heard again and again while kat sits again (others do too)
                app._table_message(P.TableChanged(table=started))
            await _pilot_until(pilot, lambda: app.result is not None)
            await pilot.pause(0.8)  # (a request still queued would be answered by now)
            seen["going"] = app.going

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
        assert app.result is not None and app.result.state is not None and app.result.seat == 1
        assert joins == [1, 1] and seen["going"] is False
        assert kat.session_for(app.result) is kat.sessions[tid]  # the game hears its table
        assert kat.sessions[tid].seat == 1
    finally:
        for c in (bo, kat, ann):
            c.close()


def test_the_game_started_before_the_answer_to_sitting_down_came(server):
    from colosseum.tui.net.lobby import LobbyApp

    bo, kat, tid = _at_a_waiting_table(server)
    real_join, joins, heard = kat.join, [], threading.Event()

    def join(table: str, seat: int) -> P.Joined:
        joined = real_join(table, seat)
        joins.append(joined.table.status)
        if len(joins) == 1:  # the creator starts it; its news reaches the lobby first
            bo.start_table(tid)
            end = time.monotonic() + 10
            while kat.tables.get(tid) is None or kat.tables[tid].status != "playing":
                assert time.monotonic() < end
                time.sleep(0.02)
            heard.wait(10)
        return joined

    def told(msg: P._Msg) -> None:
        if isinstance(msg, P.TableChanged) and msg.table.status == "playing":
            heard.set()

    kat.join = join  # type: ignore[method-assign]
    app = LobbyApp(kat)
    handled = app._table_message

    def table_message(msg: P._Msg) -> None:
        handled(msg)
        told(msg)

    app._table_message = table_message  # type: ignore[method-assign]

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            app.enter(lambda: kat.join(tid, 1))
            await _pilot_until(pilot, lambda: app.result is not None, 10)

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
        assert joins[0] == "waiting" and heard.is_set()
        assert app.result is not None and app.result.state is not None and app.result.seat == 1
    finally:
        bo.close()
        kat.close()


def test_keys_typed_while_the_table_is_asked_for_go_to_its_waiting_screen(server):
    from textual.widgets import Input

    from colosseum.tui.net.lobby import LobbyApp, LobbyScreen
    from colosseum.tui.net.waiting import WaitingScreen

    bo, kat, tid = _at_a_waiting_table(server)
    real_join = kat.join

    def join(table: str, seat: int) -> P.Joined:  # a host a little slow to answer
        time.sleep(0.6)
        return real_join(table, seat)

    kat.join = join  # type: ignore[method-assign]
    app = LobbyApp(kat)
    seen: dict[str, object] = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and tid in app.screen.tables)
            lobby = app.screen
            await pilot.press("enter")  # bo's table; the first words while it is asked for
            burst(app, "hi [b]")
            await _pilot_until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await pilot.pause(0.3)
            screen = app.screen
            assert isinstance(screen, WaitingScreen)
            seen["said"] = screen.query_one("#say", Input).value
            seen["lobby"] = (lobby.history, len(app.screen_stack))

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
        assert seen == {"said": "hi [b]", "lobby": (False, 3)}
    finally:
        bo.close()
        kat.close()


def test_the_line_said_meanwhile_is_whole_on_an_80x24_screen(server, monkeypatch):
    """The longest line under the lobby's title (a long name with markup in it, many tables)
    and on a waiting table's screen: whole, on one row."""
    from test_net_hostile_text import screen_text

    from colosseum.tui.net import entering
    from colosseum.tui.net.hosts import HostUnreachable
    from colosseum.tui.net.lobby import LobbyApp
    from colosseum.tui.net.waiting import WaitingScreen

    monkeypatch.setattr(entering, "RETRY_EVERY", 0.2)
    name = "[b]" + "w" * 21
    first = RemoteClient(server.address, server.token_for("key:w", name))
    tid = first.create_table(seats=["human", "random", "random"], sit=0, seed=3).table.id
    first.close()
    client = RemoteClient(server.address, server.token_for("key:w", name))

    def join(table: str, seat: int) -> P.Joined:
        raise HostUnreachable("the host serving that table does not answer")

    client.join = join  # type: ignore[method-assign]
    app = LobbyApp(client, rejoin=True)
    seen: dict[str, list[str]] = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _pilot_until(pilot, lambda: entering.HOST_AWAY in screen_text(app))
            seen["lobby"] = screen_text(app).splitlines()
            await pilot.press("escape")
            w = WaitingScreen(P.Joined(table=client.tables.get(tid) or client.list_tables()[0], seat=0))
            await app.push_screen(w)
            w.set_going(entering.CONNECTING)
            await pilot.pause(0.1)
            seen["waiting"] = screen_text(app).splitlines()

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        client.close()
    assert any(f"you are {name}" in row for row in seen["lobby"])
    assert any(entering.HOST_AWAY in row for row in seen["lobby"])
    assert any(entering.CONNECTING in row for row in seen["waiting"])


def test_watching_ones_own_table_takes_one_back_to_ones_seat(server):
    """``s`` on a table where one holds a seat sits one there again, as Enter does: watching it
    as a spectator, one saw one's own seat's clock run out with no way to act."""
    from colosseum.tui.net.lobby import LobbyApp, LobbyScreen

    bo = RemoteClient(server.address, server.token_for("key:bo", "bo"))
    tid = bo.create_table(seats=["human", "normal", "normal"], sit=0, seed=3).table.id
    bo.leave(tid)  # back in the lobby; the seat stays bo's
    app = LobbyApp(bo)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and tid in app.held)
            assert "(your seat)" in str(app.screen.query_one("DataTable").get_row_at(0))
            await pilot.press("s")
            await _pilot_until(pilot, lambda: app.result is not None, 10)

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
        assert app.result is not None and app.result.table.id == tid and app.result.seat == 0
    finally:
        bo.close()
