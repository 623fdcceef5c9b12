"""A dialog's key bar fits 80 columns: its keys are never cut mid-word at the edge (the trade
dialog's bar, countering a rejected deal with a take-back to offer, ended "p end trade tur")."""

from __future__ import annotations

import asyncio

from cut_text import cut_texts
from dialog_harness import dialog_app, load_position, make_session, open_first, settle
from textual.widgets import Footer

from colosseum.tui.games.colosseum.dialogs.trade import TradeDialog


def test_the_trade_dialogs_key_bar_fits_80_columns_whole():
    # round 1's trade, [/a]'s turn: 小明 has proposed a deal to [/a]
    session = make_session(*load_position("trade_counter_names"))

    async def go():
        app = dialog_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_first(pilot)
            assert isinstance(app.screen, TradeDialog)
            await pilot.press("C")  # reject and counter: compose, with a take-back to offer
            await settle(pilot)
            footer = app.screen.query_one(Footer)
            keys = [k for k in footer.children if k.display]
            shown = " ".join(f"{k.key_display} {k.description}" for k in keys)
            assert "enter propose" in shown and "p end trade turn" in shown, shown
            assert all(k.region.right <= 80 for k in keys), [(k.description, k.region) for k in keys]
            assert not [c for c in cut_texts(app) if "Footer" in c]

    asyncio.run(go())
