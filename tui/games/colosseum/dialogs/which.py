"""Which of Colosseum's dialogs serves which decision (the shell's director asks
``dialog_for``), and who may open the trade dialog out of turn (``d``: G-4, anyone may propose a
deal to the active player)."""

from __future__ import annotations

import importlib
from typing import Any

from colosseum.core.games.colosseum import may_propose, to_act
from colosseum.tui.session import GameSession

from .base import DecisionDialog

#: the dialogs of each phase, as (module, class): imported when their phase first comes (the
#: first decision needs one of them, not all: start-up time, issue 23)
_BY_PHASE: dict[str, tuple[tuple[str, str], ...]] = {
    "setup": (("setup", "SetupDialog"),),
    "invest": (("invest", "InvestDialog"),),
    "hire": (("auction", "AuctionDialog"),),
    "trade": (("trade", "TradeDialog"),),
    "perform": (("nobles", "NobleDialog"), ("perform", "PerformDialog")),
    "closing": (("closing", "RetireDialog"), ("closing", "StealDialog"), ("closing", "FirstPlayerDialog")),
}


def _dialogs(phase: str) -> list[type[DecisionDialog]]:
    out = []
    for module, name in _BY_PHASE.get(phase, ()):
        cls: type[DecisionDialog] = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        out.append(cls)
    return out


def dialog_for(session: GameSession[Any, Any], seat: int) -> DecisionDialog | None:
    """The dialog for the decision ``seat`` faces now, or None if ``seat`` is not to act (a
    non-active seat that may propose a deal in Phase 3 gets the trade dialog)."""
    state = session.state
    acting = to_act(state) == seat
    for cls in _dialogs(state.phase):
        if cls.decision_key(state, seat) is None:
            continue
        if acting or (cls.__name__ == "TradeDialog" and may_propose(state, seat)):
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
