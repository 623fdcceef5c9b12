"""Issue 27: keys a browser keeps for itself (Ctrl+T opens a tab, Ctrl+Q quits Firefox) have
alternatives in the web client (the gateway's client process runs with COLOSSEUM_FRONT=web),
shown in its key bar; a player's own keymap still wins; a terminal keeps its keys."""

from __future__ import annotations

import asyncio

from dialog_harness import make_session, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.app import ColosseumApp
from colosseum.tui.widgets.keybar import KeyBar


def _run(keys: list[str]) -> tuple[str, str, dict]:
    app = ColosseumApp(make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), []), auto_dialogs=False)
    out: list = []

    async def go():
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            out.append(" ".join(str(b.render()) for b in app.screen.query(KeyBar)))
            await pilot.press(*keys)
            await settle(pilot)
            out.append(type(app.screen).__name__)
            out.append(dict(app._keymap))

    asyncio.run(go())
    return out[0], out[1], out[2]


def test_in_a_browser_quit_and_talk_have_keys_a_browser_lets_through(monkeypatch):
    monkeypatch.setenv("COLOSSEUM_FRONT", "web")
    bar, screen, keymap = _run(["alt+q"])
    assert "alt+q Quit" in bar and screen == "ConfirmScreen"
    assert keymap["net.say"] == "alt+t"  # the table's talk (Ctrl+T opens a browser tab)


def test_in_a_terminal_the_keys_stay(monkeypatch):
    monkeypatch.delenv("COLOSSEUM_FRONT", raising=False)
    bar, screen, keymap = _run(["alt+q"])
    assert "^q Quit" in bar and screen != "ConfirmScreen" and "net.say" not in keymap
