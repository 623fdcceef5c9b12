"""One player, two connections: the newer one sits at the player's seat, and the older one
learns it at once and watches.  Before, the older connection went on showing the player's
decision dialog and clock ("you"), its Enter refused with "spectators cannot act", and its
waiting screen, still thinking it held the seat, took the seat back when the game started."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from test_net_remote_undo import _until

from colosseum.core.games.colosseum import RuleError, legal, to_act
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.net.client import _game_app
from colosseum.tui.net.host.seats import MOVED
from colosseum.tui.net.remote import RemoteClient


@contextmanager
def connected_twice(server, name: str) -> Iterator[tuple[RemoteClient, RemoteClient]]:
    """One player (one key) with two connections, closed afterwards."""
    first = RemoteClient(server.address, server.token_for("key:kat", name))
    second = RemoteClient(server.address, server.token_for("key:kat", name))
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def _game_at_new_table(me: RemoteClient):
    """A table of this player's against two bots, started; its joined message, its session
    and the game app over it (not running yet)."""
    joined = me.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = me.session_for(joined)
    return joined, session, _game_app(session, None)


async def _pilot_until(pilot, cond, seconds: float = 5.0) -> None:
    """Let the app run until ``cond()`` (checked every 0.05 s), at most ``seconds``."""
    for _ in range(int(seconds / 0.05)):
        if cond():
            return
        await pilot.pause(0.05)


def test_the_older_connection_watches_once_the_player_sits_from_a_newer_one(server):
    with connected_twice(server, "[/a]") as (first, second):
        joined = first.create_table(seats=["human", "random", "random"], sit=0, seed=3)
        old = first.session_for(joined)

        async def main():
            await _until(lambda: to_act(old.state) == 0)
            new = second.session_for(second.join(joined.table.id, 0))
            await _until(lambda: not old.drain() and old.seat == -1)  # (no app: drained here)
            assert old.local_seats() == () and not old.offers_undo
            assert any(e.kind == "net" and e.text == MOVED for e in old.events)
            assert new.local_seats() == (0,)
            with pytest.raises(RuleError, match="spectators"):
                old.submit(legal(old.state).actions[0])
            new.submit(legal(new.state).actions[0])  # the seat plays from the newer connection
            n = len(new.actions)
            await _until(lambda: not old.drain() and len(old.actions) >= n)  # the older one sees it

        asyncio.run(asyncio.wait_for(main(), 30))


def test_the_game_app_closes_the_seats_dialog_and_says_why_when_the_seat_moves(server):
    with connected_twice(server, "小明") as (first, second):
        joined, session, app = _game_at_new_table(first)

        async def main():
            async with app.run_test(size=(80, 24)) as pilot:
                await _pilot_until(pilot, lambda: isinstance(app.screen, DecisionScreen))
                assert isinstance(app.screen, DecisionScreen) and app.screen.seat == 0
                assert app.check_action("autopilot", ()) is True
                await asyncio.to_thread(second.join, joined.table.id, 0)
                told = lambda: any(n.message == MOVED for n in app._notifications)  # noqa: E731
                await _pilot_until(pilot, lambda: told() and not isinstance(app.screen, DecisionScreen))
                assert type(app.screen).__name__ == "GameScreen"
                assert session.seat == -1
                assert any(n.message == MOVED for n in app._notifications)
                assert app.check_action("autopilot", ()) is False  # no seat for a bot to play
                await pilot.press("a")  # nothing of ours waits: no dialog opens
                await pilot.pause(0.2)
                assert type(app.screen).__name__ == "GameScreen"

        asyncio.run(asyncio.wait_for(main(), 60))


def test_the_waiting_screen_of_the_older_connection_watches(server):
    """Before the game: the older connection's waiting screen no longer marks the seat as
    its own, says it watches, and watches when the game starts."""
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen

    with connected_twice(server, "Aurelia Maximiliana Cornelia") as (first, second):
        app = LobbyApp(first)

        async def main():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.3)
                app.enter(lambda: first.create_table(seats=["human", "human", "random"], sit=0, seed=3))
                await pilot.pause(0.3)
                w = app.screen
                assert isinstance(w, WaitingScreen) and w.joined.seat == 0
                await asyncio.to_thread(second.join, w.joined.table.id, 0)
                await _pilot_until(pilot, lambda: w.joined.seat == -1)
                assert w.joined.seat == -1
                await pilot.pause(0.1)
                text = str(w.query_one("#seats").render())
                assert "<- you" not in text and "You watch this table." in text
                await _pilot_until(pilot, lambda: any(n.message == MOVED for n in app._notifications))
                assert any(n.message == MOVED for n in app._notifications)
                assert not w.starts_it() and app.screen.check_action("start", ()) is False
                second.start_table(w.joined.table.id)  # started from the seat's connection
                await _pilot_until(pilot, lambda: app.result is not None)
                assert app.result is not None and app.result.seat == -1  # watching, not taking it back

        asyncio.run(asyncio.wait_for(main(), 60))
        (table,) = server.tables.values()
        assert sorted(table.seats.conns.values()) == [-1, 0]  # one connection plays, one watches


def test_ctrl_b_says_what_it_does_and_is_gone_once_the_game_is_over(server):
    """Ctrl+B's label follows the seat: "Bot plays for me", then "Play my seat again" while a
    bot plays it; a game over has no seat to hand to a bot."""
    with connected_twice(server, "[/a]") as (me, _):
        _, session, app = _game_at_new_table(me)

        def label() -> str:
            found = [b for bs in app._bindings.key_to_bindings.values() for b in bs if b.action == "autopilot"]
            return found[0].description

        async def main():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.3)
                assert label() == "Bot plays for me" and app.check_action("autopilot", ()) is True
                await pilot.press("ctrl+b")
                await _pilot_until(pilot, lambda: session.rules.is_over(session.state), 60)  # the bot plays on
                assert session.autopilot and label() == "Play my seat again"
                assert session.rules.is_over(session.state)
                await pilot.pause(0.2)
                assert app.check_action("autopilot", ()) is False

        asyncio.run(asyncio.wait_for(main(), 90))


def test_leaving_a_game_for_the_lobby_says_the_seat_stays_and_how_to_come_back(server):
    with connected_twice(server, "小明") as (me, _):
        joined = me.create_table(seats=["human", "random", "random"], sit=0, seed=3)
        playing = _game_app(me.session_for(joined), None)
        assert playing._quit_title() == "Back to the lobby?"
        assert "Your seat stays yours: a bot plays it while you are away" in playing._quit_question()
        spy = RemoteClient(server.address, server.token_for("key:eve", "[/a]"))
        try:
            watching = _game_app(spy.session_for(spy.watch(joined.table.id)), None)
            assert watching._quit_title() == "Stop watching?"
            assert watching._quit_question().startswith("Back to the lobby")
        finally:
            spy.close()


def test_talking_too_fast_in_a_game_is_said_on_its_screen(server):
    """The server refuses a ninth line in ten seconds; in a game that refusal reached nobody
    (only the lobby listened for it) and the line just vanished."""
    with connected_twice(server, "小明") as (me, _):
        _, session, app = _game_at_new_table(me)

        async def main():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.3)
                for k in range(9):
                    session.say(f"[b]line {k}")
                await _pilot_until(pilot, lambda: any("too fast" in n.message for n in app._notifications))
                assert any("too fast" in n.message for n in app._notifications)

        asyncio.run(asyncio.wait_for(main(), 30))
