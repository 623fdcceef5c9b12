"""What an action did, in words: the events every game's ``apply`` returns.  Pure, no UI."""

from __future__ import annotations

import msgspec

__all__ = ["Event"]


class Event(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One line of the game log.  ``text`` is a plain sentence; ``kind`` and ``seat`` let a
    client colour it; ``round`` and ``phase`` say when (each game's own words: Municipium's
    ``round`` is its turn)."""

    kind: str
    text: str
    seat: int = -1
    round: int = 0
    phase: str = ""
