"""The viewer's status line fits 80 columns without a word cut at the edge: on a damaged log with
take-backs it ended "w:", the key's meaning gone."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from rich.cells import cell_len
from test_viewer import sample_log

from colosseum.tui.plain import Static
from colosseum.tui.review_app import ViewerApp
from colosseum.tui.viewer import ViewerScreen


def test_a_damaged_logs_status_line_names_every_key_whole_at_80_columns():
    log = sample_log(cut=40, damage=True)
    assert log.error is not None

    async def go():
        app = ViewerApp(log)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            v = app.screen
            assert isinstance(v, ViewerScreen)
            # a log with take-backs (the sample has none: its format is older than undo lines)
            v.game_log = SimpleNamespace(undos=[object()], header=v.game_log.header)
            v.go(v.index)
            await pilot.pause()
            bar = str(v.query_one("#v-bar", Static).render()).rstrip()
            assert cell_len(bar) <= 80, bar
            for part in ("damaged", "line", "1-3: boards", "f: play", "w: hide taken back"):
                assert part in bar, (part, bar)
            await pilot.resize_terminal(132, 30)  # (room for every part whole, "a: analyse" too)
            await pilot.pause()
            wide = str(v.query_one("#v-bar", Static).render())
            assert "log damaged at line" in wide and "f: play from here" in wide and "(40/" in wide
            assert "a: analyse" in wide

    asyncio.run(go())
