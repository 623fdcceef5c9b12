"""Modal dialogs, one per decision, keyboard only, driven by ``colosseum.core.legal``.

``dialog_for(session, seat)`` returns the dialog for the decision ``seat`` faces now, or None.
A dialog submits actions with ``session.submit``; a rejected action shows the engine's message
as an error notification and changes nothing; Escape closes it without changing the game; it
dismisses itself when its decision is over.  While its decision lasts it stays open even when
another seat is to act (an auction the seat takes part in, a deal waiting for answers) and shows
what happens as it happens.

For the app:

- ``dialog.seat``, ``dialog.key`` and ``dialog.is_current()`` tell which decision an open
  dialog serves (``is_current()`` is False once it is over).
- Hot seat: when a dialog's decision goes on while another *local* seat must act (an answer to
  a deal, a bid), the dialog pushes that seat's dialog on top of itself; when that one closes it
  is back.  Dialog boxes never overlap: a dialog under another screen hides its box.
- The box is anchored right: if the screen below has a widget with id ``board`` the box takes
  the columns to its right (38 to 64 wide); otherwise 44 columns (60 from 100 columns up).
- Noble moves and gate choices call ``app.set_preview(frozenset[int])`` if the app has it
  (``frozenset()`` clears it).
- ``ensure_dialog(app, session)`` is an optional helper: push the dialog for the local seat to
  act unless one serving that decision is already open.

Modules: ``setup`` (G-1.6), ``invest`` (G-2, C-3, C-5), ``auction`` (G-3), ``trade`` (G-4),
``nobles`` (G-5.1, dice and Aquila moves), ``perform`` (G-5.2/5.3), ``closing`` (G-6).
"""

from __future__ import annotations

from colosseum.core import may_propose, to_act

from .auction import AuctionDialog
from .base import DecisionDialog
from .closing import FirstPlayerDialog, RetireDialog, StealDialog
from .invest import InvestDialog
from .nobles import AquilaMoveDialog, NobleDialog
from .perform import PerformDialog
from .setup import SetupDialog
from .trade import TradeDialog

__all__ = [
    "AquilaMoveDialog",
    "AuctionDialog",
    "DecisionDialog",
    "FirstPlayerDialog",
    "InvestDialog",
    "NobleDialog",
    "PerformDialog",
    "RetireDialog",
    "SetupDialog",
    "StealDialog",
    "TradeDialog",
    "dialog_for",
    "ensure_dialog",
    "serving_dialog",
]

_BY_PHASE = {
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


def serving_dialog(app, seat: int) -> DecisionDialog | None:
    """An open dialog on ``app``'s screen stack serving ``seat``'s current decision."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, DecisionDialog) and screen.seat == seat and not screen.over and screen.is_current():
            return screen
    return None


def ensure_dialog(app, session, seats=None) -> DecisionDialog | None:
    """If a local seat (``seats``, default ``session.local_seats()``) is to act and no open
    dialog serves its decision, close stale dialogs on top and push the right one.  Returns the
    dialog pushed, if any.  Call it when the game state changes (not after Escape, so the
    player can look at the board; offer a key to call it again)."""
    while True:
        top = app.screen
        if isinstance(top, DecisionDialog) and (top.over or not top.is_current()):
            top.finish()
            if app.screen is top:  # could not close it now
                break
            continue
        break
    seat = to_act(session.state)
    local = session.local_seats() if seats is None else seats
    if seat < 0 or seat not in local or serving_dialog(app, seat) is not None:
        return None
    dialog = dialog_for(session, seat)
    if dialog is not None:
        app.push_screen(dialog)
    return dialog
