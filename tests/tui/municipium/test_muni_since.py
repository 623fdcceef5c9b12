"""Municipium's decision dialogs say what the others did since the player's last turn, as
Colosseum's do: the dialog covers the log, which sits on the right of Municipium's screen.  At
80x24 the lines are cut to one row each, the box opens at its top and a member's placement
(the longest preview) still fits whole; ``l`` closes the dialog onto the log, ``a`` opens it
again.  Names are shown as typed, never as markup."""

from __future__ import annotations

import asyncio

import pytest
from muni_ui_helpers import session_for
from pilot_wait import wait_for

from colosseum.core.games.municipium import MuniSetup, to_act
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.municipium.dialog_base import MuniDialog

NAMES = ("小明", "[/a]", "Aurelia Maximiliana Cornelia", "[b]Kat")


def _rows(widget) -> list[str]:
    return [line.rstrip() for line in str(widget.render()).split("\n")]


@pytest.mark.parametrize("players", [3, 4])
def test_the_dialog_says_what_the_others_did_and_fits_at_80x24(players):
    session = session_for(MuniSetup(players=NAMES[:players], seed=5), humans=(0,), bot="normal")
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            game = app.game_screen()
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "the first dialog")
            first = app.screen
            assert not first.query_one("#since").display  # nobody has played yet
            await pilot.press("enter")  # a placement; the three bots place theirs
            await wait_for(
                pilot,
                lambda: (
                    to_act(session.state) == 0
                    and len(session.actions) >= players
                    and isinstance(app.screen, MuniDialog)
                ),
                "the next dialog",
            )
            await pilot.pause(0.2)
            dialog = app.screen
            since = dialog.query_one("#since")
            rows = _rows(since)
            assert rows[0] == "Since your last turn (l: log)", rows  # the short heading fits 30 cells
            assert len(rows) == 3 and all(r.startswith("- ") for r in rows[1:]), rows  # the latest two
            assert since.region.height == 3  # a row a line: cut, never wrapped
            # the latest two of the others' turns (with four players, not the first of three)
            latest = (
                ("- [/a] places", "- Aurelia Maximiliana")
                if players == 3
                else ("- Aurelia Maximiliana", "- [b]Kat places")
            )
            assert rows[1].startswith(latest[0]) and rows[2].startswith(latest[1]), rows
            box = dialog.query_one("#dialog")
            assert box.scroll_y == 0 and box.max_scroll_y == 0  # the placement fits whole
            await pilot.press("l")  # onto the log; the decision waits for a
            await wait_for(pilot, lambda: app.screen is game, "the game screen")
            assert app.focused is game.query_one("#log")
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "the dialog again")
            assert _rows(app.screen.query_one("#since")) == rows

    asyncio.run(go())


def test_a_tall_screen_shows_the_whole_lines_with_the_full_heading():
    session = session_for(MuniSetup(players=NAMES[:3], seed=5), humans=(0,), bot="normal")
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MuniDialog), "the first dialog")
            await pilot.press("enter")
            await wait_for(
                pilot,
                lambda: to_act(session.state) == 0 and len(session.actions) >= 3 and isinstance(app.screen, MuniDialog),
                "the next dialog",
            )
            await pilot.pause(0.2)
            text = app.screen.query_one("#since").render()
            plain = str(text)
            assert plain.startswith("Since your last turn  (l: the log)\n- [/a] places a member at the "), plain
            assert "\n- Aurelia Maximiliana Cornelia places a member at the " in plain

    asyncio.run(go())


def test_a_placement_taller_than_its_box_opens_at_its_first_line():
    """Four families, seed 1: later placements list more Temple ranks in their preview, and the
    box at 80x24 holds less than the dialog.  It opens at "Since your last turn" (Textual would
    scroll it to centre the list), each line of that a row."""
    from colosseum.tui.games.municipium.dialogs import PlaceMemberDialog

    session = session_for(MuniSetup(players=NAMES, seed=1), humans=(0,), bot="normal")
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)
    seen: list[tuple[bool, int, int, int]] = []  # (taller than its box, scroll, since's rows, its lines)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            while len(seen) < 7:  # a member's seven placements
                await wait_for(
                    pilot, lambda: isinstance(app.screen, MuniDialog) and to_act(session.state) == 0, "a dialog"
                )
                await pilot.pause(0.1)
                dialog = app.screen
                assert isinstance(dialog, PlaceMemberDialog)
                box, since = dialog.query_one("#dialog"), dialog.query_one("#since")
                lines = len(_rows(since)) if since.display else 0
                seen.append((box.max_scroll_y > 0, box.scroll_y, since.region.height if lines else 0, lines))
                n = len(session.actions)
                await pilot.press("enter")
                await wait_for(pilot, lambda n=n: len(session.actions) > n, "the placement")

    asyncio.run(go())
    assert any(taller for taller, *_ in seen), seen  # (else this position no longer tests it)
    assert all(scroll == 0 and rows == lines for _, scroll, rows, lines in seen), seen
