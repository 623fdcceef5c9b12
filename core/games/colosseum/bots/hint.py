""" "What would the hard bot do here, and why?": a hint for the player to decide.

The shared search's hint (:func:`colosseum.core.hint.hint_line`) on Colosseum's rules: the
bot's choice first, then the next best two, each with the share of the playouts won and the
mean final Acclaim.  The bot is its own, seeded from the position, so the same position gives
the same hint on a node budget, and neither the game's state nor the generators of the game's
bots are touched (a hint never changes the game).  It takes about its time budget: clients
run it off their event loop.  ``ask_hint`` is ``RULES.hint`` with a time to stamp the line.
"""

from __future__ import annotations

from colosseum.core.gamelog import HintLine
from colosseum.core.games.colosseum.model import State
from colosseum.core.hint import HINT_OPTIONS, hint_line
from colosseum.core.search import DEFAULT_THINK

__all__ = ["HINT_OPTIONS", "ask_hint"]


def ask_hint(
    state: State,
    *,
    think: float | None = DEFAULT_THINK,
    playouts: int | None = None,
    seed: int | None = None,
    when: float | None = None,
) -> HintLine:
    """The hard bot's answer for the decision of the seat to act in ``state`` (within ``think``
    seconds, or ``playouts`` playouts a decision for a reproducible answer).  ``seed`` defaults
    to one drawn from the position.  Changes nothing it is given."""
    from colosseum.core.registry import rules  # (not .rules itself: it imports the bots)

    RULES = rules("colosseum")

    return hint_line(RULES, state, think=think, playouts=playouts, seed=seed, when=when)
