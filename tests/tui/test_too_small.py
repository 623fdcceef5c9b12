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
