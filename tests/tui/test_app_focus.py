"""A dialog opened while the app had no focus (a browser tab in the background, a terminal
window behind another) shows its keys: Textual's Footer skips every bindings change while
unfocused, and a key gives the focus back without the AppFocus that would refresh it, so the key
bar stayed empty until the next screen (seen in the browser after a reconnect)."""

from __future__ import annotations

import asyncio

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from colosseum.tui.base import BaseApp
from colosseum.tui.plain import Static
from colosseum.tui.widgets.live_footer import LiveFooter


class Decision(ModalScreen[None]):
    BINDINGS = [Binding("p", "pass_turn", "pass the turn")]

    def compose(self) -> ComposeResult:
        yield Static("a decision")
        yield LiveFooter()  # the Colosseum dialogs' key bar

    def action_pass_turn(self) -> None:
        pass


def test_a_dialog_opened_unfocused_shows_its_keys():
    app = BaseApp()

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            app.post_message(events.AppBlur())
            await pilot.pause()
            assert not app.app_focus
            app.push_screen(Decision())  # the game moved on meanwhile
            await pilot.pause()
            await pilot.pause()
            footer = app.screen.query_one(LiveFooter)
            shown = " ".join(str(child.render()) for child in footer.children)
            assert "pass the turn" in shown, shown  # seen though the window is behind another
            await pilot.press("x")  # the player is back: a key, no AppFocus
            await pilot.pause()
            assert app.app_focus
            footer = app.screen.query_one(LiveFooter)
            shown = " ".join(str(child.render()) for child in footer.children)
            assert "pass the turn" in shown, shown

    asyncio.run(go())
