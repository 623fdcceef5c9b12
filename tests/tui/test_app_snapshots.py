"""Snapshots of the client's screens at 80x24 and 120x40.

Deterministic: positions come from fixed seeds (tests/app_positions.py) with every seat human
and dialogs not opened automatically, so nothing moves while the screen is captured; the theme
is fixed and text inputs do not blink.  Update with ``pytest --snapshot-update`` and look at
every changed SVG before accepting it.
"""

from __future__ import annotations

import pytest
from app_positions import human_session, play_until, position

from colosseum.tui.app import ColosseumApp

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


def game_app(session) -> ColosseumApp:
    return ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=False)


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
class TestNewGame:
    def test_new_game_screen(self, snap_compare, size):
        app = ColosseumApp(None, theme="colosseum-dark")
        assert snap_compare(app, terminal_size=SIZES[size], run_before=settle)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("phase", ["setup", "invest", "hire", "trade", "perform", "closing"])
class TestMainScreen:
    def test_main_screen(self, snap_compare, phase, size):
        app = game_app(position(phase))
        assert snap_compare(app, terminal_size=SIZES[size], run_before=settle)


@pytest.mark.parametrize("size", SIZES)
class TestEndScreen:
    def test_end_screen(self, snap_compare, size):
        app = game_app(position("over"))

        async def until_end(pilot):
            for _ in range(20):
                if type(pilot.app.screen).__name__ == "EndScreen":
                    break
                await pilot.pause(0.05)
            await settle(pilot)

        assert snap_compare(app, terminal_size=SIZES[size], run_before=until_end)


@pytest.mark.parametrize("size", SIZES)
class TestClassicGame:
    def test_main_screen_in_a_classic_game(self, snap_compare, size):
        """The variant and option are shown; five rounds; construction tiles appear."""
        game = dict(variant="classic", options=("auction-2007",))
        until = lambda st: st.phase == "hire" and st.round == 2  # noqa: E731
        session = human_session(play_until(until, seed=5, **game), seed=5, **game)
        assert snap_compare(game_app(session), terminal_size=SIZES[size], run_before=settle)
