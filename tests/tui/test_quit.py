"""Ctrl+Q in a game still going asks first, and on the way out says where the game is kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dialog_harness import dialog_app, make_session, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.screens.confirm import ConfirmScreen


class _Recorder:
    path = Path("/tmp/games/kat.jsonl")
    error = None

    def __call__(self, action, state=None) -> None:
        pass


def test_ctrl_q_asks_and_names_the_saved_game(capsys):
    async def go():
        session = make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), [])
        session.recorder = _Recorder()
        app = dialog_app(session)
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("ctrl+q")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            assert "colosseum resume" in str(app.screen.query_one("#confirm-text").render())
            await pilot.press("n")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen) and app.is_running
            await pilot.press("ctrl+q", "y")
            await settle(pilot)
        notes = capsys.readouterr().err
        assert "saved" in notes and "kat.jsonl" in notes and "colosseum resume" in notes

    asyncio.run(go())


def test_ctrl_q_on_the_new_game_screen_quits_at_once(capsys):
    async def go():
        from colosseum.tui.app import ColosseumApp

        app = ColosseumApp(None, theme="colosseum-dark")
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("ctrl+q")
            await settle(pilot)
        assert not app.is_running and "saved" not in capsys.readouterr().err

    asyncio.run(go())
