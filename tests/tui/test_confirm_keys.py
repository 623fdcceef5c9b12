"""The quit question over a decision dialog names its own keys, and Enter (the dialog's key a
moment ago) does not answer it."""

from __future__ import annotations

import asyncio

from dialog_harness import dialog_app, make_session, open_first, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.screens.confirm import ConfirmScreen
from colosseum.tui.widgets.keybar import KeyBar


def test_the_quit_question_shows_its_own_keys_and_enter_does_not_quit():
    async def go():
        session = make_session(GameSetup(players=("[/a]", "小明", "Aurelia Maximiliana Cornelia"), seed=7), [])
        app = dialog_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_first(pilot)
            assert isinstance(app.screen, DecisionScreen)  # the starting gates
            await pilot.press("ctrl+q")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            bar = app.screen.query_one(KeyBar)
            assert bar.region.y == 23  # the bottom line, over the dialog's bar
            shown = str(bar.render())
            assert "y yes" in shown and "n/esc no" in shown and "enter" not in shown
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen) and app.is_running
            await pilot.press("n")
            await settle(pilot)
            assert isinstance(app.screen, DecisionScreen) and app.is_running

    asyncio.run(go())
