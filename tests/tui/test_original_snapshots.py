"""Snapshots of the original 2007 edition (ruleset ``original``) in the client, at 80x24 and
120x40: the investment dialog (season ticket, loge, numbered programs with the numbering rule)
and the main screen with its header.  Update with ``pytest --snapshot-update`` and look at every
changed SVG before accepting it."""

from __future__ import annotations

import pytest
from app_positions import human_session, play_until
from dialog_harness import dialog_app, make_session, open_first, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.app import ColosseumApp

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}

#: The original needs no setup decision: a new game is already in round 1, Phase 1, seat 0 to act.
SETUP = GameSetup(players=("Kat", "Becky", "Laura"), seed=7, variant="original")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("keys", [(), ("s", "down")], ids=["menu", "programs"])
def test_original_invest_dialog(snap_compare, size, keys):
    app = dialog_app(make_session(SETUP, []))

    async def open_and_press(pilot) -> None:
        await open_first(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=open_and_press)


@pytest.mark.parametrize("size", list(SIZES))
def test_main_screen_in_an_original_game(snap_compare, size):
    """The header names the edition and counts five rounds."""
    game = dict(variant="original")
    until = lambda st: st.phase == "hire" and st.round == 2  # noqa: E731
    session = human_session(play_until(until, seed=5, **game), seed=5, **game)
    app = ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=False)

    async def run_before(pilot) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
