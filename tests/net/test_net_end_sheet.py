"""The end screen at a table: where the points came from, worked out from the game as the seat
(here a spectator) may review it (asked of the server when a page is turned to); no rematch (the
server makes tables)."""

from __future__ import annotations

import asyncio
import re

import pytest

from colosseum.tui.net.remote import RemoteClient
from colosseum.tui.scoresheet import RULE


@pytest.mark.parametrize(("game", "seats"), [("colosseum", ["normal"] * 3), ("municipium", ["normal"] * 2)])
def test_a_tables_end_screen_shows_each_players_sheet_and_offers_no_rematch(server, game, seats):
    from colosseum.tui.net.client import _game_app

    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=seats, sit=-1, seed=4, game=game)
    table = server.tables[joined.table.id]
    session = client.session_for(client.watch(joined.table.id))

    async def until_over():
        while not session.rules.is_over(session.state):
            session.drain()
            await asyncio.sleep(0.02)

    asyncio.run(asyncio.wait_for(until_over(), 120))
    scores = session.rules.scores(session.state)
    assert scores == session.rules.scores(table.state)  # the server's game
    app = _game_app(session, None)

    async def pages():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(60):
                await pilot.pause(0.05)
                if type(app.screen).__name__ == "EndScreen":
                    break
            screen = app.screen
            assert type(screen).__name__ == "EndScreen"
            keys = "  ".join(f"{k} {d}" for k, d in screen.query_one("KeyBar").items())
            assert "Rematch" not in keys and "Pages" in keys
            out = []
            for page in range(1, len(seats) + 1):
                await pilot.press("right")
                await pilot.pause()
                assert screen.page == page
                out.append(str(screen.query_one("#end-text").render()).splitlines())
            return out

    shown = asyncio.run(asyncio.wait_for(pages(), 60))
    for seat, lines in enumerate(shown):
        at = lines.index(RULE)
        parts = sum(int(re.match(r"\s*(-?\d+)  ", line).group(1)) for line in lines[1:at])
        total = int(re.match(r"\s*(-?\d+)  ", lines[at + 1]).group(1))
        assert parts == total == scores[seat], (seat, lines)
    client.close()
