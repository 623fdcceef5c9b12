"""User settings: theme, bot delay and key overrides kept in a TOML file between runs."""

from __future__ import annotations

import asyncio

from dialog_harness import make_session, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.app import ColosseumApp
from colosseum.tui.settings import Settings, load_settings, save_settings, settings_path


def test_round_trip_and_damaged_file(tmp_path):
    path = tmp_path / "settings.toml"
    save_settings(Settings(theme="colosseum-light", bot_delay=0.25, keys={"game.review": "v,ctrl+r"}), path)
    back = load_settings(path)
    assert (back.theme, back.bot_delay, back.keys, back.problem) == (
        "colosseum-light",
        0.25,
        {"game.review": "v,ctrl+r"},
        "",
    )
    path.write_text("theme = [\n", encoding="utf-8")
    bad = load_settings(path)
    assert bad.problem and bad.theme is None
    path.write_text('bot_delay = "fast"\n', encoding="utf-8")
    assert "bot_delay" in load_settings(path).problem
    assert load_settings(tmp_path / "missing.toml") == Settings()


def test_the_app_uses_and_keeps_the_settings():
    save_settings(Settings(theme="colosseum-light", bot_delay=0.0, keys={"game.review": "ctrl+r"}))

    async def go():
        session = make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), [])
        app = ColosseumApp(session, auto_dialogs=False)
        assert app.bot_delay == 0.0
        async with app.run_test() as pilot:
            await settle(pilot)
            assert app.theme == "colosseum-light"
            await pilot.press("ctrl+r")  # the review, on the user's key
            await settle(pilot)
            assert type(app.screen).__name__ == "ViewerScreen"
            await pilot.press("escape")
            await settle(pilot)
            app.action_set_theme("colosseum-contrast")
            await settle(pilot)
        assert load_settings(settings_path()).theme == "colosseum-contrast"
        assert load_settings(settings_path()).keys == {"game.review": "ctrl+r"}

    asyncio.run(go())


def test_command_line_wins():
    save_settings(Settings(theme="colosseum-light", bot_delay=2.0))
    app = ColosseumApp(None, theme="colosseum-dark", bot_delay=0.1)
    assert app.theme == "colosseum-dark" and app.bot_delay == 0.1
