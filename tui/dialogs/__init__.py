"""Modal dialogs, one per decision, keyboard only, driven by ``colosseum.core.games.colosseum.offers``.

``dialog_for(session, seat)`` returns the dialog for the decision ``seat`` faces now, or None.
A dialog submits actions with ``session.submit``; a rejected action shows the engine's message
as an error notification and changes nothing; Escape closes it without changing the game; it
dismisses itself when its decision is over.  While its decision lasts it stays open even when
another seat is to act (an auction the seat takes part in, a deal waiting for answers) and shows
what happens as it happens.

For the game screen:

- ``DialogDirector`` (``director.py``) decides which dialog should be open: the dialog of the
  local seat to act, and the hot-seat hand-over (a dialog whose decision goes on while another
  local seat must act gets that seat's dialog on top; when it closes, the one below is back).
  Dialogs never open one another (except a dialog's own sub-dialog).
- ``dialog.seat``, ``dialog.key`` and ``dialog.decision_open()`` tell which decision an open
  dialog serves (``decision_open()`` is False once it is over).  Dialog boxes never overlap: a
  dialog under another screen hides its box.
- The box is anchored right: if the screen below has a widget with id ``board`` the box takes
  the columns to its right (38 to 64 wide); otherwise 44 columns (60 from 100 columns up).
- Noble moves and gate choices post ``PreviewSpaces(frozenset[int])``
  (``colosseum.tui.widgets.board``) to the app (``frozenset()`` clears it).

Modules: ``setup`` (G-1.6), ``invest`` (G-2, C-3, C-5), ``auction`` (G-3), ``trade`` (G-4),
``nobles`` (G-5.1, dice and Aquila moves), ``perform`` (G-5.2/5.3), ``closing`` (G-6).
"""

from __future__ import annotations

from .auction import AuctionDialog
from .base import DecisionDialog
from .closing import FirstPlayerDialog, RetireDialog, StealDialog
from .director import DialogDirector, dialog_for, serving
from .invest import InvestDialog
from .nobles import AquilaMoveDialog, NobleDialog
from .perform import PerformDialog
from .setup import SetupDialog
from .trade import TradeDialog

__all__ = [
    "AquilaMoveDialog",
    "AuctionDialog",
    "DecisionDialog",
    "DialogDirector",
    "FirstPlayerDialog",
    "InvestDialog",
    "NobleDialog",
    "PerformDialog",
    "RetireDialog",
    "SetupDialog",
    "StealDialog",
    "TradeDialog",
    "dialog_for",
    "serving",
]
