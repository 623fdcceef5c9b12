"""The legal actions of the player to act: a dispatcher over the phases' legal parts.

Each phase module (``core/phases/*``) lists what its rules allow in its ``offer``; here that is
called for the phase in play, after the one action open in every phase (C-5: a construction tile
for an Aquila).  Finite choices are listed as concrete actions.  Bids are given as ranges
(``BidOption``) rather than one action per amount, and a deal proposal (whose space is
unbounded) as a flag; an action built from them is legal when it is within the range and passes
``check_deal``.
"""

from __future__ import annotations

from colosseum.core.games.colosseum.actions import (
    Action,
    CancelDeal,
    ConstructionForAquila,
    EndTurn,
    PassBid,
    RejectDeal,
)
from colosseum.core.games.colosseum.choices import BidOption, Choices, Offer, simple
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import to_act
from colosseum.core.games.colosseum.model import NOBODY, State
from colosseum.core.games.colosseum.phases import closing, hire, invest, perform, setup, trade
from colosseum.core.games.colosseum.phases.perform import performable
from colosseum.core.games.colosseum.phases.trade import may_propose
from colosseum.core.games.colosseum.queries import aquilas_gained

__all__ = ["BidOption", "Choices", "legal", "legal_parts", "may_propose", "performable", "safe_action"]

_OFFERS: dict[str, Offer] = {
    "setup": setup.offer,
    "invest": invest.offer,
    "hire": hire.offer,
    "trade": trade.offer,
    "perform": perform.offer,
    "closing": closing.offer,
}

_NONE = Choices(NOBODY, ())


def legal(state: State) -> Choices:
    """Everything the player to act may do now."""
    seat, acts, bids, propose = legal_parts(state)
    if seat == NOBODY:
        return _NONE
    return Choices(seat, tuple(acts), tuple(bids) if bids else (), propose)


def legal_parts(state: State) -> tuple[int, list[Action], list[BidOption], bool]:
    """:func:`legal` as its parts (seat, actions, bid ranges, whether a deal may be proposed),
    in fresh lists the caller may keep: for the random bot, which asks for every action of a
    playout and keeps nothing."""
    seat = to_act(state)  # usually known: the caller has just asked
    acts: list[Action] = []
    bids: list[BidOption] = []
    if seat == NOBODY:
        return seat, acts, bids, False
    cat = load_catalog(state.setup.variant)
    if (
        cat.rules.construction_for_aquila
        and state.players[seat].tiles[cat.construction] > 0
        and aquilas_gained(cat, state, 1)  # O-2: not when the medal supply is empty
    ):
        acts.append(simple(ConstructionForAquila, seat))
    propose = _OFFERS[state.phase](state, seat, cat, acts, bids)
    return seat, acts, bids, propose


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
