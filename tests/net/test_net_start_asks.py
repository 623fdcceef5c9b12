"""Starting a waiting table with bots is asked first: Ctrl+S creates the table on the new-table
form and starts it on the waiting screen, so a double Ctrl+S started a new table at once and
gave the friends' seats to bots for good."""

from __future__ import annotations

import asyncio

from test_net_moved import _pilot_until

from colosseum.tui.net.remote import RemoteClient


def test_a_double_ctrl_s_creates_the_table_and_only_asks_to_start_it(server):
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen
    from colosseum.tui.screens.confirm import ConfirmScreen

    client = RemoteClient(server.address, server.token_for("key:kat", "小明"))
    app = LobbyApp(client)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("n")
            await pilot.pause(0.3)
            await pilot.press(*"[b]x[/b]", "ctrl+s", "ctrl+s")  # the form's defaults: three people, a bot
            await _pilot_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            confirm = app.screen
            assert isinstance(confirm, ConfirmScreen)
            assert "the 2 free seats" in str(confirm.query_one("#confirm-text").render())
            (table,) = server.tables.values()
            await pilot.pause(0.3)
            assert table.meta.status == "waiting"  # still waiting for people
            await pilot.press("escape")
            await _pilot_until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            w = app.screen
            assert isinstance(w, WaitingScreen) and table.meta.status == "waiting" and app.result is None
            # the server's clock per decision is said before the game (the form's bank was left empty)
            said = f"Each decision has {server.turn_timeout:g} s; then a bot plays the seat"
            assert said in str(w.query_one("#seats").render()).replace("\n", " ")
            await pilot.press("ctrl+s", "y")
            await _pilot_until(pilot, lambda: app.result is not None)
            assert app.result is not None and app.result.state is not None

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        client.close()


def test_the_clock_per_decision_is_told_only_where_the_server_sets_it(server):
    client = RemoteClient(server.address, server.token_for("key:kat", "小明"))
    try:
        plain = client.create_table(seats=["human", "human", "random"], sit=0)
        assert plain.table.decision_seconds == server.turn_timeout > 0
        client.leave(plain.table.id)
        banked = client.create_table(seats=["human", "human", "random"], sit=0, bank=300, increment=5)
        assert banked.table.decision_seconds == 0
        client.leave(banked.table.id)
        turns = client.create_table(seats=["human", "human", "random"], sit=0, turn_hours=24)
        assert turns.table.decision_seconds == 0
    finally:
        client.close()
