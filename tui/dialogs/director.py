"""Which decision dialog should be open: the one place that decides it, for every game.

The game screen asks the director after every state change (and when a dialog closes) what to
push on top of the screen stack; the dialogs themselves never open one another's dialogs
(except a dialog's own sub-dialog, such as Colosseum's Aquila move from the perform dialog).
The dialog for a decision is the game's (``GameClient.dialog``), else the shell's plain chooser.
Tests drive the same director through the real game screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.screen import ModalScreen, Screen

from colosseum.tui.client import GameClient
from colosseum.tui.session import GameSession

from .frame import DecisionScreen


def serving(stack: Sequence[Screen[Any]], seat: int) -> DecisionScreen | None:
    """The open dialog in ``stack`` serving ``seat``'s current decision, if any."""
    for screen in reversed(stack):
        if isinstance(screen, DecisionScreen) and screen.seat == seat and not screen.over and screen.decision_open():
            return screen
    return None


class DialogDirector:
    """Decides, for one session and its local seats, which dialog the screen stack needs.

    Two cases push a dialog:

    - the game screen itself is on top and a local seat is to act: that seat's dialog (only
      when ``auto``, i.e. dialogs open by themselves, or when the player asked with ``a``);
    - hot seat: the dialog on top serves a decision that goes on (an auction, a deal waiting
      for answers) while another local seat must act: that seat's dialog goes on top of it,
      and when it closes the one below is back.

    Nothing is pushed while anything else is on top (help, rules, the viewer, a dialog whose
    decision is over and is closing), nor while ``suppressed`` (the player closed the dialog
    of the decision at hand with Escape and will ask again with ``a``).
    """

    def __init__(self, session: GameSession[Any, Any], client: GameClient) -> None:
        self.session = session
        self.client = client

    def make(self, seat: int) -> ModalScreen[Any]:
        """The dialog for ``seat``'s decision, or the plain chooser over the legal actions
        when no dialog serves it."""
        dialog = self.client.dialog(self.session, seat)
        if dialog is not None:
            return dialog
        from .choose import ActionChooser

        return ActionChooser(self.session, seat, self.client)

    def next_dialog(
        self, stack: Sequence[Screen[Any]], home: Screen[Any], *, auto: bool = True, suppressed: bool = False
    ) -> ModalScreen[Any] | None:
        """The dialog to push on top of ``stack`` now (``home`` is the game screen), or None."""
        if suppressed or not stack:
            return None
        seat = self.session.waiting_for()
        if seat < 0 or seat not in self.session.local_seats():
            return None
        top = stack[-1]
        if top is home:
            return self.make(seat) if auto else None
        if (
            isinstance(top, DecisionScreen)
            and top.seat != seat
            and not top.over
            and top.decision_open()
            and serving(stack, seat) is None
        ):
            return self.make(seat)
        return None
