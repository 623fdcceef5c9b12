"""Keys typed right after the lobby's ``n`` (or ``i``), as they arrive together over SSH or from
a paste: they go to the form's first field, in order; none is lost or taken by the lobby."""

from __future__ import annotations

import asyncio

from textual import events
from textual.widgets import Input

from colosseum.tui.net.remote import RemoteClient

KEY_NAMES = {" ": "space", "[": "left_square_bracket", "]": "right_square_bracket", "/": "slash"}


def burst(app, text: str) -> None:
    """``text`` as the terminal's keys, all queued at once (no key waits for the one before)."""
    for ch in text:
        app.post_message(events.Key(KEY_NAMES.get(ch, ch), ch))


def test_a_name_typed_right_after_n_and_a_code_right_after_i(server):
    from colosseum.tui.net.invite import CodeScreen
    from colosseum.tui.net.lobby import LobbyApp
    from colosseum.tui.net.newtable import CreateTable

    client = RemoteClient(server.address, server.token_for("key:alice", "alice"))
    app = LobbyApp(client)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            burst(app, "nHello [b]x")
            await pilot.pause(0.5)
            assert isinstance(app.screen, CreateTable)
            assert app.screen.query_one("#name", Input).value == "Hello [b]x"
            await pilot.press("escape")
            await pilot.pause(0.2)
            burst(app, "ihq7")
            await pilot.pause(0.5)
            assert isinstance(app.screen, CodeScreen)
            assert app.screen.query_one(Input).value == "hq7"

    asyncio.run(asyncio.wait_for(go(), 30))
    client.close()
