"""Rule sentences in the dialogs come from the variant in play."""

from __future__ import annotations

import asyncio

import pytest
from dialog_harness import dialog_app, find_position, make_session, open_first

from colosseum.tui.games.colosseum.dialogs import AuctionDialog, NobleDialog

SIZE = (80, 24)


def _info(variant, pred, cls):
    async def go():
        setup, actions = find_position(pred, variant=variant)
        app = dialog_app(make_session(setup, actions))
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            assert isinstance(app.screen, cls)
            return str(app.screen.query_one("#info").render())

    return asyncio.run(go())


@pytest.mark.parametrize("variant,skipped", [("grand", True), ("classic", False), ("original", False)])
def test_noble_dialog_says_how_this_variant_counts(variant, skipped):
    text = _info(variant, lambda s: s.phase == "perform" and s.perform.stage == "move", NobleDialog)
    assert ("skipped and not counted" in text) is skipped
    assert ("every space counts" in text) is not skipped


@pytest.mark.parametrize("variant,credit", [("grand", True), ("original", False)])
def test_auction_dialog_says_what_may_be_bid(variant, credit):
    text = _info(variant, lambda s: s.phase == "hire" and s.hire.auction is None, AuctionDialog)
    assert ("x 6" in text) is credit
    if not credit:
        assert "coins only" in text and "medals" in text
