"""Every row of the investments shows at 80x24 when the box has room: rows whose reason wraps
count as the rows they take (two reasons wrapped hid "p  End the turn" below the list's fold,
empty rows in the box under it)."""

from __future__ import annotations

import asyncio

from dialog_harness import dialog_app, load_position, make_session, open_first, settle

from colosseum.tui.games.colosseum.dialogs.invest import InvestDialog


def test_the_end_turn_row_shows_under_two_wrapped_reasons():
    # round 4, [/a] to invest with $18 and no Aquilas
    session = make_session(*load_position("invest_two_reasons"))

    async def go():
        app = dialog_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_first(pilot)
            await pilot.press("t")  # the Temple: spectacles now unaffordable, a second temple refused
            await settle(pilot)
            dlg = app.screen
            assert isinstance(dlg, InvestDialog)
            choices = dlg.query_one("#choices")
            refused = [str(o.prompt) for o in choices.options if o.disabled]
            assert any("costs" in r for r in refused) and any("different kinds" in r for r in refused)
            assert str(choices.options[-1].prompt).startswith("p  End the turn")
            assert choices.virtual_size.height > 9  # the reasons wrap
            assert choices.max_scroll_y == 0, (choices.region, choices.virtual_size)
            assert dlg.query_one("#dialog").max_scroll_y == 0
            assert choices.region.bottom <= 23

    asyncio.run(go())
