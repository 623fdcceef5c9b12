"""Below the smallest terminal that works the screens are hidden and a message says the size
needed; the game comes back as it was when the terminal grows."""

from __future__ import annotations

import asyncio

from dialog_harness import dialog_app, make_session, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.base import MIN_SIZE


def _messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def test_too_small_then_large_enough():
    async def go():
        session = make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), [])
        app = dialog_app(session)
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            assert app.too_small and app.has_class("-too-small")
            assert any("60x20" in m and f"{MIN_SIZE[0]}x{MIN_SIZE[1]}" in m for m in _messages(app))
            assert all(w.styles.visibility == "hidden" for w in app.screen.children)
            await pilot.resize_terminal(*MIN_SIZE)
            await settle(pilot)
            assert not app.too_small and not app.has_class("-too-small")
            assert not any("too small" in m for m in _messages(app))
            assert all(w.styles.visibility == "visible" for w in app.screen.children)
            await pilot.resize_terminal(MIN_SIZE[0], MIN_SIZE[1] - 1)  # one row short is too small
            await settle(pilot)
            assert app.too_small and len([m for m in _messages(app) if "too small" in m]) == 1

    asyncio.run(go())


def test_keys_wait_while_the_screens_are_hidden():
    """Before, a key pressed at the hidden dialog chose its default: the player moved unseen."""

    async def go():
        session = make_session(GameSetup(players=("[/a]", "小明", "Laura"), seed=3), [])
        app = dialog_app(session, auto=True)
        async with app.run_test(size=MIN_SIZE) as pilot:
            await settle(pilot)
            dialog = app.screen
            assert dialog is not app.screen_stack[0]  # the first decision is open
            moves = len(session.actions)
            await pilot.resize_terminal(70, 20)
            await settle(pilot)
            await pilot.press("enter", "a", "g", "escape", "ctrl+q", "enter")
            await settle(pilot)
            assert len(session.actions) == moves and app.screen is dialog and app.is_running
            assert any("keys wait" in m for m in _messages(app))
            await pilot.resize_terminal(*MIN_SIZE)
            await settle(pilot)
            assert app.screen is dialog
            await pilot.press("enter")  # the same key now chooses, as before
            await settle(pilot)
            assert len(session.actions) > moves

    asyncio.run(go())
