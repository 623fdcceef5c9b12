"""A waiting table whose creator leaves: the first person still seated may start it (as a
table's admin passes on at Board Game Arena).  Before, nobody could: the others pressed
Ctrl+S, which every waiting screen offered, and read "only the table's creator can start it"
until two more people came."""

from __future__ import annotations

import asyncio

from test_net_moved import _pilot_until

from colosseum.tui.net.remote import RemoteClient


def test_the_first_person_still_seated_may_start_the_table_once_its_creator_left(server):
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen

    maker = RemoteClient(server.address, server.token_for("key:maker", "[b]Maker"))
    other = RemoteClient(server.address, server.token_for("key:other", "小明"))
    made = maker.create_table(seats=["human", "human", "human", "random"], sit=0, seed=3)
    tid = made.table.id
    assert made.table.creator_seat == 0
    app = LobbyApp(other)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            app.enter(lambda: other.join(tid, 2))
            await _pilot_until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await pilot.pause(0.2)
            w = app.screen
            assert isinstance(w, WaitingScreen)
            text = str(w.query_one("#seats").render())
            assert "or when the table's creator" in text and "([b]Maker) starts it with bots." in text
            assert w.check_action("start", ()) is False  # not offered: it is not ours to start
            await asyncio.to_thread(maker.leave, tid)
            await _pilot_until(pilot, lambda: w.starts_it())
            assert w.starts_it() and w.check_action("start", ()) is True
            told = lambda: any("you may start it now" in n.message for n in app._notifications)  # noqa: E731
            await _pilot_until(pilot, told)  # (a notification is a message of its own: a moment after)
            assert told()
            assert "Ctrl+S: start now with bots." in str(w.query_one("#seats").render())
            await pilot.press("ctrl+s", "y")  # (asked first)
            await _pilot_until(pilot, lambda: app.result is not None)
            assert app.result is not None and app.result.seat == 2 and app.result.state is not None

    asyncio.run(asyncio.wait_for(main(), 60))
    table = server.tables[tid]
    assert table.meta.creator == "key:other" and table.meta.status in ("playing", "over")
    # the free seats got bots; the one who left is not at the table
    assert [s.kind for s in table.meta.seats][:2] != ["human", "human"]
    maker.close()
    other.close()
