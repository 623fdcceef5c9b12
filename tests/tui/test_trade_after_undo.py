"""After a take-back the trade dialog shows the deal's state as it is again: the answers of a
deal taken back (a partner's "(rejected)") are gone with it."""

from __future__ import annotations

import asyncio

from dialog_harness import dialog_app, load_position, open_first, settle

from colosseum.tui.games.colosseum.dialogs.trade import TradeDialog
from colosseum.tui.session import LocalSession, Seat


def test_a_rejection_taken_back_leaves_the_partners_line():
    # round 1's trade, [/a]'s turn: 小明 has proposed a deal to [/a]
    setup, actions = load_position("trade_counter_names")
    session = LocalSession(setup, (Seat("human"),) + (Seat("easy"),) * 3, actions=actions)

    def partners(app) -> str:
        return str(app.screen.query_one("#partners").render())

    async def go():
        app = dialog_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_first(pilot)
            assert isinstance(app.screen, TradeDialog)
            await pilot.press("C")  # reject 小明's deal and send it back edited
            await settle(pilot)
            before = partners(app)
            print(before)
            await pilot.press("tab", "plus", "plus", "plus")  # ask Aurelia for three of a kind, for nothing
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot, 12)
            print(partners(app), session.events[-1].text)
            assert "(rejected)" in partners(app)
            await pilot.press("u")
            await settle(pilot, 12)
            print(partners(app), [e.text for e in session.events[-2:]])
            assert "(rejected)" not in partners(app)

    asyncio.run(go())
