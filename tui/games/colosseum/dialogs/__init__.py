"""Colosseum's decision dialogs, one per decision, keyboard only, driven by
``colosseum.core.games.colosseum.offers``.

``which.dialog_for(session, seat)`` returns the dialog for the decision ``seat`` faces now, or
None.  A dialog submits actions with ``session.submit``; a rejected action shows the engine's
message as an error notification and changes nothing; Escape closes it without changing the
game; it dismisses itself when its decision is over.  While its decision lasts it stays open even
when another seat is to act (an auction the seat takes part in, a deal waiting for answers) and
shows what happens as it happens.

For the shell (``colosseum.tui.dialogs``):

- The shell's ``DialogDirector`` decides which dialog should be open (the dialog of the local
  seat to act, and the hot-seat hand-over); dialogs never open one another (except a dialog's
  own sub-dialog).
- ``dialog.seat``, ``dialog.key`` and ``dialog.decision_open()`` tell which decision an open
  dialog serves (``decision_open()`` is False once it is over): ``base.DecisionDialog`` is a
  ``dialogs.frame.DecisionScreen``.  Dialog boxes never overlap: a dialog under another screen
  hides its box.
- The box is anchored right: if the screen below has a widget with id ``board`` the box takes
  the columns to its right (38 to 64 wide); otherwise 44 columns (60 from 100 columns up).
- Noble moves and gate choices post the shell's ``Preview(frozenset[int])`` (track spaces;
  ``frozenset()`` clears it).

Modules: ``setup`` (G-1.6), ``invest`` (G-2, C-3, C-5), ``auction`` (G-3), ``trade`` (G-4),
``nobles`` (G-5.1, dice and Aquila moves), ``perform`` (G-5.2/5.3), ``closing`` (G-6).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .auction import AuctionDialog
    from .base import DecisionDialog
    from .closing import FirstPlayerDialog, RetireDialog, StealDialog
    from .invest import InvestDialog
    from .nobles import AquilaMoveDialog, NobleDialog
    from .perform import PerformDialog
    from .setup import SetupDialog
    from .trade import TradeDialog
    from .which import deal_dialog, dialog_for, may_deal

#: where each name lives: a dialog module is imported when first asked for (the first decision
#: of a game needs one of them, not all: start-up time, issue 23)
_HOMES = {
    "AquilaMoveDialog": "nobles",
    "AuctionDialog": "auction",
    "DecisionDialog": "base",
    "FirstPlayerDialog": "closing",
    "InvestDialog": "invest",
    "NobleDialog": "nobles",
    "PerformDialog": "perform",
    "RetireDialog": "closing",
    "SetupDialog": "setup",
    "StealDialog": "closing",
    "TradeDialog": "trade",
    "deal_dialog": "which",
    "dialog_for": "which",
    "may_deal": "which",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


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
    "deal_dialog",
    "dialog_for",
    "may_deal",
]
