"""The new-game screen chooses the game: Municipium's player counts (2-4), bot levels and its
M-13 options, keyboard only at 80x24; Start opens the Municipium game screen, saved as played."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input

from colosseum.core.logread import read_log
from colosseum.tui.app import ColosseumApp
from colosseum.tui.screens.game import GameScreen
from colosseum.tui.session import LocalSession
from colosseum.tui.storage import finish_recording
from colosseum.tui.widgets.forms import Cycle
from colosseum.tui.widgets.options import row_id

MUNI_ROW = "#" + row_id("ng-opt", "municipium")
COLOSSEUM_ROW = "#" + row_id("ng-opt", "colosseum")


async def choose_municipium(pilot) -> None:
    await pilot.pause()
    await pilot.press("shift+tab", "shift+tab")  # from the first name: players, then the game
    assert pilot.app.focused.id == "ng-game"
    await pilot.press("right")
    await pilot.pause()


def test_m13_new_game_screen_starts_a_municipium_game(monkeypatch, tmp_path):
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False, record=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await choose_municipium(pilot)
            scr = app.screen
            players = scr.query_one("#ng-players", Cycle)
            assert [v for _, v in players.options] == [2, 3, 4] and players.value == 4
            assert scr.query_one(MUNI_ROW).display and not scr.query_one(COLOSSEUM_ROW).display
            assert [v for _, v in scr.query_one("#ng-kind-1", Cycle).options] == [
                "human",
                "normal",
                "easy",
                "hard",
                "expert",
                "random",
            ]
            assert scr.query_one("#ng-body").border_title == "Municipium"
            await pilot.press("tab", "left")  # players: 3
            assert players.value == 3 and not scr.query_one("#ng-seat-3").display
            scr.query_one("#ng-seed", Input).value = "21"
            scr.query_one("#ng-opt-options-short").focus()
            await pilot.press("space")  # M-13.1: the short game
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            s = app.session
            assert isinstance(s, LocalSession)
            assert s.setup.players == ("Becky", "Kat", "Laura") and s.setup.seed == 21
            assert s.setup.options == ("short",)
            assert [x.kind for x in s.seats] == ["human", "normal", "normal"]
            path = s.recorder.path
            await pilot.press("ctrl+q")  # a game going on: asked first, and told where it is saved
            await pilot.pause()
            assert type(app.screen).__name__ == "ConfirmScreen"
            assert app._quit_question().startswith("Leave the game? It is saved")
        return path

    path = asyncio.run(go())
    finish_recording(app.session)
    log = read_log(path)
    assert log.game == "municipium" and log.error is None


def test_switching_back_to_colosseum_restores_its_choices():
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await choose_municipium(pilot)
            scr = app.screen
            await pilot.press("tab", "left", "left")  # players: 2
            assert scr.query_one("#ng-players", Cycle).value == 2
            await pilot.press("shift+tab", "left")  # the game: Colosseum again
            await pilot.pause()
            players = scr.query_one("#ng-players", Cycle)
            assert [v for _, v in players.options] == [3, 4, 5] and players.value == 3  # the nearest it has
            assert scr.query_one(COLOSSEUM_ROW).display and not scr.query_one(MUNI_ROW).display
            assert scr.query_one("#ng-seat-2").display and not scr.query_one("#ng-seat-3").display
            assert "hard" in [v for _, v in scr.query_one("#ng-kind-1", Cycle).options]

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24)])
def test_snapshot_new_game_municipium(snap_compare, size):
    async def before(pilot):
        await choose_municipium(pilot)
        await pilot.pause()

    app = ColosseumApp(None, theme="colosseum-dark")
    assert snap_compare(app, terminal_size=size, run_before=before)
