"""Public, pure rule queries: what the bots, the dialogs and the server ask the engine.

Each answer is computed here (or in the phase module it names) and nowhere else: a caller
outside ``core/`` never re-derives a rule.
"""

from __future__ import annotations

from colosseum.core.actions import Action, CancelDeal, EndTurn, PassBid, RejectDeal
from colosseum.core.engine import _ANY_SEAT
from colosseum.core.legal import legal
from colosseum.core.model import State

#: Action types a seat may send while the game waits on another seat (G-4 deals, C-6 tiles).
ANY_SEAT_ACTIONS: frozenset[type] = _ANY_SEAT

_SAFE_KINDS: tuple[type, ...] = (PassBid, EndTurn, RejectDeal, CancelDeal)


def safe_action(state: State) -> Action:
    """A legal action for the seat to act that changes the least: a pass, an end of turn or a
    refusal where one is offered, else the last legal action.  Used when a bot's choice was
    refused, so that a bot never stalls a game."""
    ch = legal(state)
    for kind in _SAFE_KINDS:
        for a in ch.actions:
            if isinstance(a, kind):
                return a
    return ch.actions[-1]
