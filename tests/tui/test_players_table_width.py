"""Colosseum's players table shows every column at every width: from 50 to 57 cells (a
100x30 terminal) the wide table was chosen and its last column, the gifts that count for the
score, was cut off the edge."""

from __future__ import annotations

import asyncio

import pytest
from dialog_harness import make_session, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.players import NARROW_COLS, WIDE_COLS, PlayersPanel


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (105, 30), (120, 40), (200, 60)])
def test_the_last_column_is_on_screen(size):
    session = make_session(GameSetup(players=("小明", "[/a]", "Aurelia Maximiliana Cornelia", "Kat"), seed=3), [])
    app = ColosseumApp(session, bot_delay=30, auto_dialogs=False)

    async def go():
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            panel = app.screen.query_one(PlayersPanel)
            return panel.content_region.width, [line.plain for line in panel.build_lines()]

    width, lines = asyncio.run(go())
    head = lines[0].rstrip()
    last = WIDE_COLS[-1][0] if head.endswith(WIDE_COLS[-1][0]) else NARROW_COLS[-1][0]
    assert head.endswith(last) and len(head) <= width, (width, head)
    for row in lines[1:5]:  # each player's row: its last value (the gifts, 0 at the start) shows
        assert row.rstrip().endswith("0"), (width, row)


def test_the_number_line_is_as_wide_as_the_table_not_the_panel():
    """At 200x60 a decision dialog covers the panel's right part: the Acclaim number line ran to
    the panel's edge, the high scores' marks under the dialog.  It is as wide as the table."""
    from colosseum.tui.games.colosseum.players import TRACK_MIN

    session = make_session(GameSetup(players=("小明", "[/a]", "Aurelia Maximiliana Cornelia"), seed=3), [])
    app = ColosseumApp(session, bot_delay=30, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(200, 60)) as pilot:
            await settle(pilot)
            panel = app.screen.query_one(PlayersPanel)
            return panel.content_region.width, [line.plain.rstrip() for line in panel.build_lines()]

    width, lines = asyncio.run(go())
    ruler = next(line for line in lines if line.startswith("Track "))
    assert width > 100 and ruler.endswith("30")
    assert len(ruler) <= max(TRACK_MIN, len(lines[0])) < width - 40, (width, ruler, lines[0])
