"""One player, two connections: the newer one sits at the player's seat, and the older one
learns it at once and watches.  Before, the older connection went on showing the player's
decision dialog and clock ("you"), its Enter refused with "spectators cannot act", and its
waiting screen, still thinking it held the seat, took the seat back when the game started."""

from __future__ import annotations

import asyncio

from colosseum.core.games.colosseum import RuleError, legal, to_act
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.net.client import _game_app
from colosseum.tui.net.host.seats import MOVED
from colosseum.tui.net.remote import RemoteClient


async def _until(check, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never happened")


def test_the_older_connection_watches_once_the_player_sits_from_a_newer_one(server):
    first = RemoteClient(server.address, server.token_for("key:kat", "[/a]"))
    joined = first.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    old = first.session_for(joined)
    second = RemoteClient(server.address, server.token_for("key:kat", "[/a]"))

    async def main():
        await _until(lambda: to_act(old.state) == 0)
        new = second.session_for(second.join(joined.table.id, 0))
        await _until(lambda: not old.drain() and old.seat == -1)  # (no app: drained here)
        assert old.local_seats() == () and not old.offers_undo
        assert any(e.kind == "net" and e.text == MOVED for e in old.events)
        assert new.local_seats() == (0,)
        st = old.state
        try:
            old.submit(legal(st).actions[0])
        except RuleError as err:
            assert "spectators" in str(err)
        else:
            raise AssertionError("the older connection acted")
        new.submit(legal(new.state).actions[0])  # the seat plays from the newer connection
        n = len(new.actions)
        await _until(lambda: not old.drain() and len(old.actions) >= n)  # the older one sees it

    asyncio.run(asyncio.wait_for(main(), 30))
    first.close()
    second.close()


def test_the_game_app_closes_the_seats_dialog_and_says_why_when_the_seat_moves(server):
    first = RemoteClient(server.address, server.token_for("key:kat", "小明"))
    joined = first.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = first.session_for(joined)
    second = RemoteClient(server.address, server.token_for("key:kat", "小明"))
    app = _game_app(session, None)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
            for _ in range(100):
                await pilot.pause(0.05)
                if isinstance(app.screen, DecisionScreen):
                    break
            assert isinstance(app.screen, DecisionScreen) and app.screen.seat == 0
            assert app.check_action("autopilot", ()) is True
            await asyncio.to_thread(second.join, joined.table.id, 0)
            for _ in range(100):
                await pilot.pause(0.05)
                if not isinstance(app.screen, DecisionScreen):
                    break
            assert type(app.screen).__name__ == "GameScreen"
            assert session.seat == -1
            assert any(n.message == MOVED for n in app._notifications)
            assert app.check_action("autopilot", ()) is False  # no seat for a bot to play
            await pilot.press("a")  # nothing of ours waits: no dialog opens
            await pilot.pause(0.2)
            assert type(app.screen).__name__ == "GameScreen"

    asyncio.run(asyncio.wait_for(main(), 60))
    first.close()
    second.close()


def test_the_waiting_screen_of_the_older_connection_watches(server):
    """Before the game: the older connection's waiting screen no longer marks the seat as
    its own, says it watches, and watches when the game starts."""
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen

    first = RemoteClient(server.address, server.token_for("key:kat", "Aurelia Maximiliana Cornelia"))
    app = LobbyApp(first)
    second = RemoteClient(server.address, server.token_for("key:kat", "Aurelia Maximiliana Cornelia"))

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            app.enter(lambda: first.create_table(seats=["human", "human", "random"], sit=0, seed=3))
            await pilot.pause(0.3)
            w = app.screen
            assert isinstance(w, WaitingScreen) and w.joined.seat == 0
            await asyncio.to_thread(second.join, w.joined.table.id, 0)
            for _ in range(60):
                await pilot.pause(0.05)
                if w.joined.seat == -1:
                    break
            assert w.joined.seat == -1
            await pilot.pause(0.1)
            text = str(w.query_one("#seats").render())
            assert "<- you" not in text and "You watch this table." in text
            assert any(n.message == MOVED for n in app._notifications)
            await pilot.press("ctrl+s")  # start now (the player made the table)
            for _ in range(60):
                await pilot.pause(0.1)
                if app.result is not None:
                    break
            assert app.result is not None and app.result.seat == -1  # watching, not taking it back

    asyncio.run(asyncio.wait_for(main(), 60))
    table = server.tables[next(iter(server.tables))]
    assert table.seats.present[0] is not None
    first.close()
    second.close()


def test_ctrl_b_says_what_it_does_and_is_gone_once_the_game_is_over(server):
    """Ctrl+B's label follows the seat: "Bot plays for me", then "Play my seat again" while a
    bot plays it; a game over has no seat to hand to a bot."""
    me = RemoteClient(server.address, server.token_for("key:kat", "[/a]"))
    joined = me.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = me.session_for(joined)
    app = _game_app(session, None)

    def label() -> str:
        found = [b for bs in app._bindings.key_to_bindings.values() for b in bs if b.action == "autopilot"]
        return found[0].description

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
            await pilot.pause(0.3)
            assert label() == "Bot plays for me" and app.check_action("autopilot", ()) is True
            await pilot.press("ctrl+b")
            for _ in range(600):  # the bot plays the seat to the end
                await pilot.pause(0.1)
                if session.rules.is_over(session.state):
                    break
            assert session.autopilot and label() == "Play my seat again"
            assert session.rules.is_over(session.state)
            await pilot.pause(0.2)
            assert app.check_action("autopilot", ()) is False

    asyncio.run(asyncio.wait_for(main(), 90))
    me.close()
