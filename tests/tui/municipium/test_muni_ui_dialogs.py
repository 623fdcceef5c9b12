"""The Municipium dialogs driven by keys: multi-step choices, Escape, and previews that come
from the engine without giving away what a draw would turn over."""

from __future__ import annotations

import asyncio

from muni_ui_helpers import load_positions, position_session

from colosseum.core.games.municipium import apply, legal
from colosseum.core.games.municipium.actions import DrawCommon, Move, Pass, PlayFamily, Relocate
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.municipium.dialog_base import MuniDialog
from colosseum.tui.games.municipium.dialogs import GenericDialog
from colosseum.tui.games.municipium.facts import after, describe
from colosseum.tui.games.municipium.which import dialog_for
from colosseum.tui.plain import OptionList


def run(case: str, body) -> None:
    session = position_session(case)
    app = ColosseumApp(session, bot_delay=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MuniDialog)
            await body(pilot, app, session)

    asyncio.run(go())


def test_a_two_member_move_by_keys_and_escape_comes_back():
    async def body(pilot, app, session):
        dialog = app.screen
        await pilot.press("down", "down")
        picked = dialog.highlighted().id
        await pilot.press("enter")  # a member: its destinations
        assert dialog.stage and dialog.prompt_text() == "Where to?"
        await pilot.press("escape")  # back to the members, on the same one
        assert not dialog.stage and dialog.highlighted().id == picked
        before = session.state
        await pilot.press("enter", "enter")  # that member, one step
        assert dialog.prompt_text().startswith("A second member")
        await pilot.press("down", "enter", "enter")  # a second member, one step
        await pilot.pause()
        move = session.actions[-1]
        assert isinstance(move, Move) and len(move.paths) == 2
        assert move in legal(before) or apply(before, move)

    run("move", body)


def test_rearrange_stays_open_over_relocations_and_done_passes():
    async def body(pilot, app, session):
        dialog = app.screen
        await pilot.press("down", "enter", "enter")
        await pilot.pause()
        assert isinstance(session.actions[-1], Relocate)
        assert app.screen is dialog and not dialog.stage  # same decision, back at the top
        await pilot.press("enter")  # Done
        await pilot.pause()
        assert isinstance(session.actions[-1], Pass)

    run("rearrange", body)


def test_escape_twice_from_a_tavern_count_closes_without_acting():
    async def body(pilot, app, session):
        n = len(session.actions)
        await pilot.press("enter", "escape", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, MuniDialog) and len(session.actions) == n

    run("tavern", body)


def test_chance_is_described_not_applied():
    session = position_session("card")
    st = session.state
    for a in legal(st):
        if isinstance(a, DrawCommon) or (isinstance(a, PlayFamily) and a.card == "citizens_invitation"):
            assert after(st, a) is None
        assert describe(st, a)


def test_every_position_has_its_own_dialog():
    for name in load_positions():
        session = position_session(name)
        if session.state.phase == "over":
            assert dialog_for(session, 0) is None
            continue
        dialog = dialog_for(session, 0)
        assert dialog is not None and not isinstance(dialog, GenericDialog), name


def test_help_over_a_dialog_keeps_its_step():
    async def body(pilot, app, session):
        dialog = app.screen
        await pilot.press("down", "enter")
        stage = list(dialog.stage)
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"  # the shell's help, over any dialog
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is dialog and dialog.stage == stage

    run("tavern", body)


def test_escape_the_instant_a_dialog_opens_closes_it_without_a_crash():
    """Escape before Textual has composed the dialog just pushed: it leaves, the game screen
    stays and ``a`` opens the decision again (its mount no longer looks for widgets never
    mounted, nor listens to a session after it left)."""

    async def body(pilot, app, session):
        await pilot.press("escape")
        await pilot.pause()
        screen = app.screen
        dialog = dialog_for(session, session.waiting_for())
        screen.push_dialog(dialog)
        dialog.action_back()  # in the same tick: nothing composed yet
        for _ in range(4):
            await pilot.pause()
        assert app.screen is screen
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, MuniDialog) and app.screen.prompt_text()

    run("move", body)


def test_a_highlight_queued_before_the_game_moved_on_is_dropped_without_a_crash():
    """Over the network the game moves on while a dialog is open (a move of this seat made
    elsewhere, a bot standing in): a list highlight queued before the change reaches the dialog
    after it.  Its handler must not read the decision's facts from the game as it now is (a
    citizen event's preview asserted its frame was still on top, and the client crashed)."""

    async def body(pilot, app, session):
        dialog = app.screen
        n = len(session.actions)  # (every seat is a person's: nobody else moves)
        lst = dialog.query_one("#choices")
        dialog.post_message(OptionList.OptionHighlighted(lst, lst.get_option_at_index(0), 0))
        dialog.post_message(OptionList.OptionSelected(lst, lst.get_option_at_index(0), 0))
        session.submit(legal(session.state)[-1])  # the decision made elsewhere, in the same tick
        assert not dialog.decision_open()
        for _ in range(4):
            await pilot.pause()
        assert app.screen is not dialog
        assert len(session.actions) == n + 1  # the queued choice did not act a second time

    run("keep", body)
