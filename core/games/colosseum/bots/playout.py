"""A playout of Colosseum's search as the benchmarks and the pinned playout digests call it: the
shared search's (:func:`colosseum.core.search.playout`) on Colosseum's rules, its result as
before (won or not, the Acclaim, the search's score).

Chance is *determinised*: the state's generator state is replaced by a value drawn from the
searching bot's own generator, so a playout never sees the game's real future.
"""

from __future__ import annotations

from colosseum.core.games.colosseum.actions import Action
from colosseum.core.games.colosseum.model import State
from colosseum.core.search import CLOCKS
from colosseum.core.search import playout as _playout

__all__ = ["CLOCKS", "Outcome", "playout"]


class Outcome:
    """One finished playout seen from the searching seat."""

    __slots__ = ("acclaim", "score", "won")

    def __init__(self, won: bool, acclaim: int, score: float) -> None:
        self.won = won
        self.acclaim = acclaim
        self.score = score


def playout(
    state: State, action: Action, me: int, seed: int, deadline: float | None, clock: str = "wall"
) -> Outcome | None:
    """``action`` in ``state`` (re-seeded with ``seed``), then the playout bot at every seat to
    the end of the game; None when ``deadline`` passes first or the action is refused."""
    from colosseum.core.registry import rules  # (not .rules itself: it imports the bots)

    RULES = rules("colosseum")

    o = _playout(RULES, state, action, me, seed, deadline, clock)
    return None if o is None else Outcome(o.won == 1.0, o.points, o.score)
