"""The game screen's key bar at 80 columns: it fits, the palette key is always there (last), and
every key it shows works now; what leaves the bar is in the palette."""

from __future__ import annotations

import asyncio

import pytest
from app_positions import human_session, play_until
from rich.cells import cell_len

from colosseum.tui.app import ColosseumApp
from colosseum.tui.commands import ColosseumCommands
from colosseum.tui.widgets.keybar import KeyBar


def trade_turn(humans: int):
    return human_session(
        play_until(lambda st: st.phase == "trade" and st.trade is not None and st.trade.deal is None),
        humans=humans,
    )


@pytest.mark.parametrize(("humans", "keys"), [(4, ()), (4, ("2",)), (1, ("3",)), (2, ("5",))])
def test_the_bar_fits_80_columns_with_the_palette_key(humans, keys):
    session = trade_turn(humans)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in keys:  # another seat's board: "f Follow turn" joins the bar
                await pilot.press(key)
                await pilot.pause()
            game = app.game_screen()
            bar = game.query_one(KeyBar)
            items = bar.items()
            assert items[-1] == ("^p", "palette")
            line = bar.render().plain
            assert cell_len(line) <= 80 and line.rstrip().endswith("^p palette"), line
            shown = {desc for _k, desc in items}
            works = {
                b.description for _key, (_node, b, enabled, _tip) in game.active_bindings.items() if enabled and b.show
            }
            groups = {b.group.description for _n, b, _e, _t in game.active_bindings.values() if b.group is not None}
            assert shown - works - groups == {"palette"}, "every key the bar shows works now"
            # what the bar left out for want of room is in the palette
            titles = [name for name, _cb, _help in ColosseumCommands(game, None)._commands()]
            left_out = works - shown
            expected = {"Review": "Review the game", "Log": "Log", "Detail": "Spectacle detail", "Rules": "Rules"}
            for desc in left_out:
                if desc in expected:
                    assert expected[desc] in titles, desc

    asyncio.run(go())


def test_two_seat_keys_read_as_a_range_not_as_twelve():
    """A 2-player game's board keys: "1-2 Board" (they read "12 Board", the number twelve)."""
    from colosseum.tui.local import make_session

    session = make_session("municipium", ("Ann", "小明"), ("human", "normal"), seed=3)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(120, 24)) as pilot:
            await pilot.pause()
            return app.game_screen().query_one(KeyBar).items()

    items = asyncio.run(go())
    boards = [k for k, _d in items if k.startswith("1")]
    assert boards == ["1-2"], items
