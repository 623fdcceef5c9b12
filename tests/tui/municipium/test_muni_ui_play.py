"""Playing Municipium through the client by key presses only."""

from __future__ import annotations

import asyncio
import random

import pytest
from muni_ui_helpers import answer_dialogs, session_for

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import MuniSetup, legal, to_act
from colosseum.core.games.municipium.actions import Pass
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.municipium.dialog_base import MuniDialog
from colosseum.tui.local import make_session
from colosseum.tui.screens.ending import EndScreen


@pytest.mark.long(27)
@pytest.mark.parametrize("seed", [11])
def test_one_human_plays_a_whole_game_against_two_bots(seed):
    async def go():
        session = session_for(MuniSetup(players=("Ann", "Bo", "Cy"), seed=seed), humans=(0,))
        app = ColosseumApp(session, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            seen: set[str] = set()
            answers = await answer_dialogs(pilot, app, random.Random(seed), seen=seen)
            print(sorted(seen))
            for _ in range(50):
                if isinstance(app.screen, EndScreen):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, EndScreen)
        st = session.state
        assert st.phase == "over" and st.result is not None
        human = [a for a in session.actions if a.player == 0]
        assert answers >= len(human) > 20  # every human action came from a dialog answer

    asyncio.run(go())


def test_two_humans_hot_seat_for_a_few_turns():
    async def go():
        session = session_for(MuniSetup(players=("Ann", "Bo"), seed=5), humans=(0, 1))
        app = ColosseumApp(session, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await answer_dialogs(pilot, app, random.Random(2), until=lambda st: st.turn >= 3)
        seats = {a.player for a in session.actions}
        assert seats == {0, 1}
        assert session.state.turn >= 3

    asyncio.run(go())


def test_escape_backs_out_and_a_reopens():
    async def go():
        session = session_for(MuniSetup(players=("Ann", "Bo", "Cy"), seed=4), humans=(0, 1, 2))
        app = ColosseumApp(session, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MuniDialog)
            before = session.state
            await pilot.press("down", "escape")
            await pilot.pause()
            assert not isinstance(app.screen, MuniDialog)
            assert session.state is before
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, MuniDialog)
            await pilot.press("enter")
            await pilot.pause()
            assert session.state is not before

    asyncio.run(go())


def test_submit_refused_leaves_the_state():
    session = make_session("municipium", ("Ann", "Bo"), ("human", "human"), seed=1)
    before = session.state
    seen = []
    session.add_listener(lambda st, ev: seen.append(st))
    with pytest.raises(RuleError):
        session.submit(Pass(player=1 - to_act(before)))
    assert session.state is before and not seen and not session.actions
    session.submit(legal(before)[0])
    assert seen and session.actions


def test_bots_play_with_a_delay_until_a_human_acts():
    async def go():
        session = make_session("municipium", ("Ann", "Bo", "Cy"), ("greedy", "human", "random"), seed=8)
        await session.run_bots(0.001)
        st = session.state
        assert to_act(st) == 1 or st.phase == "over"

    asyncio.run(go())


def test_play_arguments_make_a_municipium_game():
    """``colosseum play --game municipium``: the same app and the same arguments as every game,
    the game's option flags made from its options; bad values refused with one line."""
    from colosseum.tui.app import build_app
    from colosseum.tui.cli import main, parse_args

    ok = parse_args(
        ["play", "--game", "municipium", "--players", "3", "--humans", "1", "--bots", "random"]
        + ["--names", "Ann,Bo,Cy", "--seed", "4", "--bot-delay", "0", "--option", "short"]
    )
    app = build_app(ok, record=False)
    assert isinstance(app, ColosseumApp)
    assert app.session.setup.options == ("short",) and app.session.local_seats() == (0,)
    assert main(["play", "--game", "municipium", "--players", "5"]) == 2
    assert build_app(parse_args(["play", "--game", "municipium", "--players", "3", "--names", "A,B"])) == 2
    assert main(["play", "--game", "municipium", "--humans", "2", "--option", "turbo"]) == 2


def test_the_game_screen_works_in_another_app():
    """The one game screen can be pushed in any app (the lobby's): it brings the game's
    layout and its own help."""
    from colosseum.tui.base import BaseApp
    from colosseum.tui.games.municipium.panels import BoardPanel
    from colosseum.tui.screens.game import GameScreen

    session = make_session("municipium", ("Ann", "Bo", "Cy"), ("human", "random", "random"), seed=6)
    app = BaseApp()

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(GameScreen(session, bot_delay=0))
            await pilot.pause()
            assert app.screen_stack[1].query_one(BoardPanel).region.width == 46
            for _ in range(40):
                if isinstance(app.screen, MuniDialog):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, MuniDialog)
            await pilot.press("escape", "f1")
            await pilot.pause()
            assert type(app.screen).__name__ == "HelpScreen"

    asyncio.run(go())


def test_ctrl_q_in_a_game_going_asks_first():
    """Ctrl+Q mid-game asks before leaving (n keeps playing, y quits), as a Colosseum game does."""
    from colosseum.tui.screens.confirm import ConfirmScreen

    async def go():
        session = session_for(MuniSetup(players=("Ann", "Bo", "Cy"), seed=3), humans=(0,))
        app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "not being saved" in str(app.screen.text)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen) and app.is_running
            await pilot.press("ctrl+q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(go())
