"""What ``legal()`` returns, and what the phases' legal parts build it from.

:class:`Choices` lists the finite choices as concrete actions; bids are ranges
(:class:`BidOption`) rather than one action per amount, and a deal proposal (whose space is
unbounded) is a flag.  Here rather than in ``legal.py`` because each phase module
(``core/phases/*``) builds its part of them and ``legal.py`` sits above the phases.

Actions are immutable, so the kinds offered again and again are built once and shared
(:func:`simple` and the phases' own caches).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import msgspec

from colosseum.core.games.colosseum.actions import Action, OpenAuction, Raise
from colosseum.core.games.colosseum.components import Catalog
from colosseum.core.games.colosseum.model import State

if TYPE_CHECKING:
    from colosseum.core.games.colosseum.context import Ctx

__all__ = ["BidOption", "Choices", "Handler", "Offer", "simple"]

#: An action handler of a phase: checks the action against the rules (raising RuleError) and
#: applies it to the context.
Handler = Callable[["Ctx", Any], None]

#: A phase's part of ``legal()``: appends the actions and bid ranges open to ``seat`` and
#: returns whether ``seat`` may propose a deal.
Offer = Callable[[State, int, Catalog, list[Action], list["BidOption"]], bool]


class BidOption(msgspec.Struct, frozen=True):
    """Any bid from ``low`` to ``high`` (inclusive): an opening bid on ``market``, or a raise in
    the running auction when ``market`` is -1."""

    market: int
    low: int
    high: int

    def action(self, player: int, amount: int) -> Action:
        if self.market < 0:
            return Raise(player=player, bid=amount)
        return OpenAuction(player=player, market=self.market, bid=amount)


class Choices(msgspec.Struct, frozen=True):
    player: int
    actions: tuple[Action, ...]
    bids: tuple[BidOption, ...] = ()
    can_propose: bool = False

    def __len__(self) -> int:
        return len(self.actions) + len(self.bids) + (1 if self.can_propose else 0)


@cache
def simple(kind: type, seat: int) -> Action:
    """The action ``kind`` (one with no field but the player) for ``seat``, built once."""
    action: Action = kind(player=seat)
    return action
