"""At 80x24 nothing the Municipium client draws is wider than its place, with names that are
long or two cells a character; names are cut with an ellipsis, never as markup."""

from __future__ import annotations

import asyncio
import random

from muni_ui_helpers import answer_dialogs, load_positions, session_for
from rich.cells import cell_len

from colosseum.core.games.municipium import MuniSetup
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.municipium.dialog_base import MuniDialog
from colosseum.tui.games.municipium.panels import BoardPanel, LogPanel, PlayersPanel, _Panel
from colosseum.tui.games.municipium.text import fit, wrap_cells
from colosseum.tui.widgets.header import HeaderLine

NAMES = ("ベッキー", "Aurelia Maximiliana Cornelia", "小明")


def check_panels(app: ColosseumApp) -> None:
    screen = app.screen_stack[0]
    for cls in (HeaderLine, BoardPanel, PlayersPanel, LogPanel):
        panel: _Panel = screen.query_one(cls)
        width = panel.content_region.width
        assert width > 0
        for line in panel.build_lines():
            assert line.cell_len <= width, (cls.__name__, line.plain, line.cell_len, width)
    assert screen.size.width == 80


def test_nothing_wider_than_its_place_at_80x24():
    session = session_for(MuniSetup(players=NAMES, seed=9), humans=(0,))
    app = ColosseumApp(session, bot_delay=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            rng = random.Random(1)
            for turn in range(2, 9, 2):
                await answer_dialogs(pilot, app, rng, until=lambda st, t=turn: st.turn >= t)
                check_panels(app)
                if isinstance(app.screen, MuniDialog):
                    box = app.screen.query_one("#dialog")
                    assert box.region.right <= 80 and box.region.x >= 46
            players = app.screen_stack[0].query_one(PlayersPanel).build_lines()
            assert any(
                "Aurelia Maximiliana" in line.plain and ("..." in line.plain or "~" in line.plain) for line in players
            )
            assert any("ベッキー" in line.plain for line in players)

    asyncio.run(go())


def test_every_recorded_position_fits():
    """Three citizens on a banner (an event running), four players, crowded institutions."""
    positions = load_positions()
    session = session_for(MuniSetup(players=NAMES, seed=9), humans=(0, 1, 2))
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen_stack[0]
            for setup, actions in positions.values():
                st = session_for(setup, actions, humans=tuple(range(len(setup.players)))).state
                for cls in (HeaderLine, BoardPanel, PlayersPanel):
                    panel = screen.query_one(cls)
                    panel.state = st
                    for line in panel.build_lines():
                        assert line.cell_len <= panel.content_region.width, (cls.__name__, line.plain)

    asyncio.run(go())


def test_markup_in_a_name_is_text():
    names = ("[bold]Kat[/bold]", "Bo[", "Cy")
    session = session_for(MuniSetup(players=names, seed=2), humans=(0, 1, 2))
    app = ColosseumApp(session, bot_delay=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lines = app.screen_stack[0].query_one(PlayersPanel).build_lines()
            assert any("[bold]Kat[/bold]" in line.plain for line in lines)

    asyncio.run(go())


def test_wrap_and_fit_count_cells():
    assert fit("ベッキーベッキー", 7) == "ベッキ~"  # (ASCII signs: "…" is two cells wide in some terminals)
    assert fit("Aurelia Maximiliana Cornelia", 12) == "Aurelia Max~"
    assert fit("Aurelia Maximiliana Cornelia", 24) == "Aurelia Maximiliana C..."
    for line in wrap_cells("小明 takes 2 priests from ベッキー at the Praetorium " * 3, 20):
        assert cell_len(line) <= 20
    assert wrap_cells("x" * 45, 20)[1].startswith("  ")
