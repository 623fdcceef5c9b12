"""Municipium's screen answers the shell's keys as Colosseum's does (issue 25): ``u`` takes back,
``h`` hints (its rules' hint), ``g`` and ``.`` pace the bots, ``v`` reviews with the viewer's
keys (``f`` there plays on), ``i`` the detail (a family's sheet), ``1``-``4`` any player's board
(that family's sheet), ``f`` follows the turn again, ``l`` the log, ``r`` the rules, F1 help."""

from __future__ import annotations

import asyncio

from muni_ui_helpers import session_for
from pilot_wait import wait_for

from colosseum.core.games.municipium import MuniSetup, to_act
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.municipium.dialog_base import MuniDialog
from colosseum.tui.games.municipium.panels import PlayersPanel

SIZE = (80, 24)


def test_take_back_hint_boards_detail_review_and_the_rest():
    session = session_for(MuniSetup(players=("Ann", "Bo", "Cy"), seed=5), humans=(0,), bot="normal")
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            game = app.game_screen()
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "Ann's dialog")
            await pilot.press("enter")  # a placement; the bots place theirs
            await wait_for(pilot, lambda: to_act(session.state) == 0 and len(session.actions) >= 3, "the bots")
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "Ann's next dialog")
            played = len(session.actions)
            await pilot.press("escape")  # the dialog waits for a; review the game so far
            await pilot.pause()
            await pilot.press("v")  # the shell's viewer, with its keys
            await pilot.pause()
            viewer = app.screen
            assert type(viewer).__name__ == "ViewerScreen" and viewer.index == played
            await pilot.press("home", "right")
            assert viewer.index == 1
            await pilot.press("f")  # play on from here: who plays each seat
            await pilot.pause()
            assert type(app.screen).__name__ == "PlayFromScreen"
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game and len(session.actions) == played
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "the dialog again")
            assert game.check_action("undo", ()) and session.undo_reach().steps >= 1
            await pilot.press("u")  # from the dialog: the app's key reaches the game
            await wait_for(pilot, lambda: len(session.actions) < played, "the take-back")
            assert to_act(session.state) == 0 and len(session.actions) == 0
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "the dialog again")
            await pilot.press("h")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "HintScreen", "the hint")
            hint = app.screen
            await wait_for(pilot, lambda: hint.result is not None, "the hint's answer")
            assert "hard bot's choice" in str(hint.query_one("#hint-text").render())
            assert hint.result.seat == 0 and hint.result.hint
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("escape")  # the dialog: the game waits for a
            await pilot.pause()
            assert app.screen is game
            players = game.query_one(PlayersPanel)
            for key, seat in (("2", 1), ("3", 2), ("1", 0)):
                await pilot.press(key)
                await pilot.pause()
                assert game.viewed == seat and players.sheet == seat
                assert any("Temple" in line.plain for line in players.build_lines())
            assert not game.check_action("view", (3,))  # three players: no fourth board
            await pilot.press("f")  # follow the turn: every family again
            await pilot.pause()
            assert game.viewed is None and players.sheet is None
            await pilot.press("i")  # the detail: the sheet of the family to act
            await pilot.pause()
            assert players.sheet == 0
            await pilot.press("i")
            await pilot.pause()
            assert players.sheet is None
            await pilot.press("l")
            assert app.focused is game.query_one("#log")
            for key, name in (("r", "RulesScreen"), ("f1", "HelpScreen")):
                app.set_focus(None)
                await pilot.press(key)
                await pilot.pause()
                assert type(app.screen).__name__ == name, key
                await pilot.press("escape")
                await pilot.pause()
            assert app.screen is game and len(session.actions) == 0

    asyncio.run(go())


def test_step_and_rush_pace_municipiums_bots():
    session = session_for(MuniSetup(players=("Ann", "Bo", "Cy"), seed=5), humans=(2,), bot="normal")
    app = ColosseumApp(session, bot_delay=0.05, auto_dialogs=False)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            game = app.game_screen()
            assert game.check_action("step", ()) and game.check_action("rush", ())
            await pilot.press("full_stop")  # one bot move a press
            assert session.stepping
            await pilot.pause(0.3)
            n = len(session.actions)
            await pilot.press("full_stop")
            await wait_for(pilot, lambda: len(session.actions) == n + 1, "one bot move")
            await pilot.press("g")  # on to my decision, no delay
            await wait_for(pilot, lambda: to_act(session.state) == 2, "Cy's decision")
            assert not session.stepping and not session.rushing

    asyncio.run(go())
