"""Coming back to one's seat when the table's host went away, and the lobby's requests of a
table off its event loop.  Before, the lobby tried the seat once ("the host serving that table
does not answer") and left the player in the lobby, away, when their table was adopted by
another host seconds later; and joining or watching a table whose host was paused froze the
lobby (keys did nothing) for the connection's time limit; now the screen says so, Escape
cancels, and the other keys typed meanwhile are done once the request ends."""

from __future__ import annotations

import asyncio
import threading

from test_net_moved import _pilot_until

from colosseum.tui.net import entering
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.hosts import HostUnreachable
from colosseum.tui.net.remote import RemoteClient

REFUSED = "the host serving that table does not answer ([Errno 111] Connection refused)"


def _back_after_a_drop(server) -> tuple[RemoteClient, str]:
    """A game of this player's against two bots, then the connection dropped: a new
    connection (the player's reconnect) and the table's id."""
    first = RemoteClient(server.address, server.token_for("key:kat", "kat"))
    tid = first.create_table(seats=["human", "random", "random"], sit=0, seed=3).table.id
    first.close()
    return RemoteClient(server.address, server.token_for("key:kat", "kat")), tid


def _title(app) -> str:
    from colosseum.tui.net.lobby import LobbyScreen

    screen = next(s for s in app.screen_stack if isinstance(s, LobbyScreen))
    return str(screen.query_one("#title").render())


def _notes(app) -> list[str]:
    return [n.message for n in app._notifications]


def test_a_player_is_taken_back_once_their_table_s_host_answers_again(server, monkeypatch):
    from colosseum.tui.net.lobby import LobbyApp

    monkeypatch.setattr(entering, "RETRY_EVERY", 0.2)
    client, tid = _back_after_a_drop(server)
    real_join, asked = client.join, []
    said: list[str] = []

    def join(table: str, seat: int) -> P.Joined:  # the host is away for the first three tries
        asked.append(table)
        if len(asked) <= 3:
            raise HostUnreachable(REFUSED)
        return real_join(table, seat)

    client.join = join  # type: ignore[method-assign]
    app = LobbyApp(client, rejoin=True)

    async def main():
        async with app.run_test(size=(100, 30)) as pilot:
            await _pilot_until(pilot, lambda: len(asked) >= 2)
            said.append(_title(app))
            await _pilot_until(pilot, lambda: app.result is not None, 10)

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        client.close()
    assert asked == [tid] * 4
    assert entering.HOST_AWAY in said[0]
    assert app.result is not None and app.result.table.id == tid and app.result.seat == 0
    assert REFUSED not in _notes(app)


def test_escape_cancels_the_tries_other_keys_wait_for_them_and_they_end_at_a_limit(server, monkeypatch):
    from colosseum.tui.net.lobby import LobbyApp

    monkeypatch.setattr(entering, "RETRY_EVERY", 0.2)
    client, tid = _back_after_a_drop(server)
    asked: list[str] = []

    def join(table: str, seat: int) -> P.Joined:  # the host never answers
        asked.append(table)
        raise HostUnreachable(REFUSED)

    client.join = join  # type: ignore[method-assign]
    app = LobbyApp(client, rejoin=True)
    seen: dict[str, object] = {}

    async def main():
        async with app.run_test(size=(100, 30)) as pilot:
            await _pilot_until(pilot, lambda: len(asked) >= 2)
            await pilot.press("h")  # the finished games: kept while the lobby asks for the seat
            await pilot.pause(0.5)
            seen["kept"] = (app.screen.history, app.going, len(asked) > 2)
            await pilot.press("escape")  # the player stays in the lobby: then h is done
            tries = len(asked)
            await pilot.pause(0.8)
            seen["cancelled"] = (len(asked) - tries, app.going, entering.HOST_AWAY in _title(app))
            seen["history"] = app.screen.history
            await pilot.press("h")  # back to the live tables; their own table, Enter: tried once
            await pilot.pause(0.3)
            monkeypatch.setattr(entering, "RETRY_FOR", 0.7)
            tries = len(asked)
            app.enter(lambda: client.join(tid, 0), keep_trying=True)
            # (a note is shown once the app has handled it: waited for too)
            await _pilot_until(pilot, lambda: not app.going and entering.GAVE_UP in _notes(app), 5)
            seen["limit"] = (len(asked) - tries, app.going, _notes(app), app.result)

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        client.close()
    assert seen["kept"] == (False, True, True)
    assert seen["cancelled"] == (0, False, False) and seen["history"] is True
    tries, going, notes, result = seen["limit"]  # type: ignore[misc]
    assert 2 <= tries <= 4 and not going and result is None
    assert notes.count(entering.GAVE_UP) == 1 and REFUSED not in notes


def test_the_lobby_takes_keys_while_a_table_s_host_is_slow_to_answer(server):
    from colosseum.tui.net.lobby import LobbyApp, LobbyScreen

    other = RemoteClient(server.address, server.token_for("key:bo", "bo"))
    tid = other.create_table(seats=["human", "human", "random"], sit=0, seed=3).table.id
    client = RemoteClient(server.address, server.token_for("key:kat", "kat"))
    release, left = threading.Event(), []
    real_watch, real_leave = client.watch, client.leave

    def watch(table: str) -> P.Joined:  # a paused host: the answer comes when it is released
        release.wait(20)
        return real_watch(table)

    def leave(table: str) -> None:
        left.append(table)
        real_leave(table)

    client.watch = watch  # type: ignore[method-assign]
    client.leave = leave  # type: ignore[method-assign]
    app = LobbyApp(client)
    seen: dict[str, object] = {}

    async def main():
        async with app.run_test(size=(100, 30)) as pilot:
            await _pilot_until(pilot, lambda: bool(app.screen.query("#tables")) and app.screen.tables)
            await pilot.press("s")  # watch the table: its host does not answer yet
            await pilot.pause(0.2)
            seen["connecting"] = entering.CONNECTING in _title(app)
            await asyncio.wait_for(pilot.press("h", "escape"), 3)  # Escape cancels meanwhile
            await pilot.pause(0.2)
            screen = app.screen
            seen["keys"] = isinstance(screen, LobbyScreen) and screen.history and not app.going
            release.set()
            await _pilot_until(pilot, lambda: bool(left))
            seen["after"] = (left, app.result, app.waiting, isinstance(app.screen, LobbyScreen))

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        release.set()
        client.close()
        other.close()
    assert seen["connecting"] is True and seen["keys"] is True
    assert seen["after"] == ([tid], None, None, True)  # (the table reached after all: left)
