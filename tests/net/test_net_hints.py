"""Hints at a table (D-28): the creator may allow them.  The asker's client thinks on its own view
of the game (no generator state: the search samples its own luck), the hint goes to the asker
only (not the table's log, D-28), and a table without the option says hints are off."""

from __future__ import annotations

import asyncio

from test_net_remote_undo import _until

from colosseum.core.games.colosseum import encode_state, legal, to_act
from colosseum.core.games.colosseum.bots.hint import ask_hint
from colosseum.core.games.colosseum.view import player_view
from colosseum.tui.app import ColosseumApp
from colosseum.tui.net.remote import RemoteClient
from colosseum.tui.screens import hint as hint_screen
from colosseum.tui.screens.hint import HINTS_OFF, HintScreen


def test_a_table_that_allows_hints_lists_it_and_the_asker_gets_one_on_its_view(server):
    becky = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = becky.create_table(seats=["human", "normal", "normal"], sit=0, seed=3, hints=True)
    plain = becky.create_table(seats=["normal", "normal", "normal"], sit=-1, seed=4)
    listed = {t.id: t for t in becky.list_tables()}
    assert listed[joined.table.id].hints and not listed[plain.table.id].hints
    table = server.tables[joined.table.id]
    assert table.meta.hints

    async def main():
        assert joined.state is not None  # the only human seat taken: the game has begun
        s = becky.session_for(joined)
        await _until(lambda: table.state is not None and to_act(table.state) == 0)
        await _until(lambda: s.state == player_view(table.state))
        assert s.offers_hint()
        assert s.state.rng == 0 and s.state.setup.seed == 0  # a view: nothing of the future
        before = encode_state(table.state)
        line = ask_hint(s.state, playouts=3)
        assert line.seat == 0 and line.hint
        assert line.hint[0].action in legal(s.state).actions
        assert encode_state(table.state) == before  # a hint changes nothing at the table
        spy = RemoteClient(server.address, server.token_for("key:eve", "Eve"))
        assert not spy.session_for(spy.watch(plain.table.id)).offers_hint()
        spy.close()

    asyncio.run(asyncio.wait_for(main(), 30))
    becky.close()
    log = (server.data / "games" / f"{joined.table.id}.jsonl").read_text(encoding="utf-8")
    assert "Hint for" not in log


def test_h_at_a_table_with_hints_opens_the_hint_and_without_says_off(server, monkeypatch):
    monkeypatch.setattr(hint_screen, "DEFAULT_THINK", 0.1)
    becky = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    results = {}
    for allowed in (True, False):
        joined = becky.create_table(seats=["human", "normal", "normal"], sit=0, seed=5, hints=allowed)
        table = server.tables[joined.table.id]

        async def go(joined=joined, table=table, allowed=allowed):
            session = becky.session_for(joined)
            app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
            async with app.run_test(size=(100, 32)) as pilot:
                for _ in range(300):
                    await pilot.pause(0.02)
                    if (
                        table.state is not None
                        and to_act(table.state) == 0
                        and session.state == player_view(table.state)
                    ):
                        break
                game = app.game_screen()
                await pilot.press("h")
                await pilot.pause()
                if not allowed:
                    assert app.screen is game
                    assert any(HINTS_OFF in str(n.message) for n in app._notifications)
                    return None
                screen = app.screen
                assert isinstance(screen, HintScreen)
                for _ in range(300):
                    await pilot.pause(0.02)
                    if screen.result is not None:
                        break
                assert screen.result is not None and screen.result.seat == 0
                assert "The hard bot's choice: " in str(screen.query_one("#hint-text").render())
                return screen.result

        results[allowed] = asyncio.run(asyncio.wait_for(go(), 40))
    becky.close()
    assert results[True] is not None and results[False] is None
