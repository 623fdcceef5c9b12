"""Which of Colosseum's dialogs serves which decision (the shell's director asks
``dialog_for``), and who may open the trade dialog out of turn (``d``: G-4, anyone may propose a
deal to the active player)."""

from __future__ import annotations

from typing import Any

from colosseum.core.games.colosseum import may_propose, to_act
from colosseum.tui.session import GameSession

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


def dialog_for(session: GameSession[Any, Any], seat: int) -> DecisionDialog | None:
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


def may_deal(session: GameSession[Any, Any], seat: int) -> bool:
    """A local seat that is not to act may propose a deal now (G-4: anyone may propose to the
    active player)."""
    state = session.state
    if state.phase != "trade" or seat == to_act(state) or seat not in session.local_seats():
        return False
    return may_propose(state, seat)


def deal_dialog(session: GameSession[Any, Any], seat: int) -> DecisionDialog | None:
    """The trade dialog for ``seat`` proposing a deal out of turn, if it may."""
    return dialog_for(session, seat) if may_deal(session, seat) else None
