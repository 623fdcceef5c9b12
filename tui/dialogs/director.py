"""Which decision dialog should be open: the one place that decides it.

The game screen asks the director after every state change (and when a dialog closes) what to
push on top of the screen stack; the dialogs themselves never open one another's dialogs
(except a dialog's own sub-dialog, such as the Aquila move from the perform dialog).  Tests
drive the same director through the real game screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.screen import ModalScreen, Screen

from colosseum.core.games.colosseum import may_propose, to_act

from .auction import AuctionDialog
from .base import DecisionDialog
from .closing import FirstPlayerDialog, RetireDialog, StealDialog
from .invest import InvestDialog
from .nobles import NobleDialog
from .perform import PerformDialog
from .setup import SetupDialog
from .trade import TradeDialog

_BY_PHASE: dict[str, tuple[type[DecisionDialog], ...]] = {
    "setup": (SetupDialog,),
    "invest": (InvestDialog,),
    "hire": (AuctionDialog,),
    "trade": (TradeDialog,),
    "perform": (NobleDialog, PerformDialog),
    "closing": (RetireDialog, StealDialog, FirstPlayerDialog),
}


def dialog_for(session, seat: int) -> DecisionDialog | None:
    """The dialog for the decision ``seat`` faces now, or None if ``seat`` is not to act (a
    non-active seat that may propose a deal in Phase 3 gets the trade dialog)."""
    state = session.state
    acting = to_act(state) == seat
    for cls in _BY_PHASE.get(state.phase, ()):
        if cls.decision_key(state, seat) is None:
            continue
        if acting or (cls is TradeDialog and may_propose(state, seat)):
            return cls(session, seat)
    return None


def serving(stack: Sequence[Screen], seat: int) -> DecisionDialog | None:
    """The open dialog in ``stack`` serving ``seat``'s current decision, if any."""
    for screen in reversed(stack):
        if isinstance(screen, DecisionDialog) and screen.seat == seat and not screen.over and screen.decision_open():
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

    def __init__(self, session) -> None:
        self.session = session

    def dialog_for(self, seat: int) -> DecisionDialog | None:
        return dialog_for(self.session, seat)

    def make(self, seat: int) -> ModalScreen:
        """The dialog for ``seat``'s decision, or the plain chooser over the legal actions
        when no dialog serves it."""
        dialog = self.dialog_for(seat)
        if dialog is not None:
            return dialog
        from colosseum.tui.dialogs.choose import ActionChooser

        return ActionChooser(self.session, seat)

    def next_dialog(
        self, stack: Sequence[Screen], home: Screen, *, auto: bool = True, suppressed: bool = False
    ) -> ModalScreen | None:
        """The dialog to push on top of ``stack`` now (``home`` is the game screen), or None."""
        if suppressed or not stack:
            return None
        seat = to_act(self.session.state)
        if seat < 0 or seat not in self.session.local_seats():
            return None
        top = stack[-1]
        if top is home:
            return self.make(seat) if auto else None
        if (
            isinstance(top, DecisionDialog)
            and top.seat != seat
            and not top.over
            and top.decision_open()
            and serving(stack, seat) is None
        ):
            return self.make(seat)
        return None

    def may_deal(self, seat: int) -> bool:
        """A local seat that is not to act may propose a deal now (G-4: anyone may propose
        to the active player)."""
        state = self.session.state
        if state.phase != "trade" or seat == to_act(state) or seat not in self.session.local_seats():
            return False
        return may_propose(state, seat)

    def deal_dialog(self, seat: int) -> DecisionDialog | None:
        """The trade dialog for ``seat`` proposing a deal out of turn, if it may."""
        return self.dialog_for(seat) if self.may_deal(seat) else None
