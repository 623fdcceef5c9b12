"""The guided first game (``colosseum tutorial``): what a game gives the shell to teach itself.

A game's tutorial is one :class:`Tutorial`: the seeded game it is played on (player count, seed,
options, the bots' level) and a short :class:`DecisionNote` for each *kind* of decision (its
words keyed by the kind ``kind_of`` names for a position).  The shell shows each kind's note the
first time a seat at the keyboard faces it, with the hint bot's choice (``Rules.hint``); nothing
of it touches the game.  No game is named here (import-linter).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DecisionNote", "Tutorial"]


@dataclass(frozen=True)
class DecisionNote:
    """What one kind of decision is about, in a few plain sentences."""

    kind: str  # the decision's kind ("invest", "bid"): the note is shown the first time it comes up
    title: str  # a few words ("Make investments")
    what: str  # what the choice means
    rule: str  # the rule behind it, in a sentence
    rule_ids: tuple[str, ...]  # its ids in docs/rules.md ("G-2", "D-7")


@dataclass(frozen=True)
class Tutorial:
    """A game's guided first game: seat 0 is the player, the other seats bots of ``level``."""

    players: int
    seed: int
    notes: Mapping[str, DecisionNote]
    #: the kind of decision the seat to act faces in a position ("" for none with a note)
    kind_of: Callable[[Any], str]
    options: Mapping[str, object] = field(default_factory=dict)
    level: str = "easy"

    def note(self, state: Any) -> DecisionNote | None:
        """The note for the decision the seat to act faces in ``state``, if it has one."""
        return self.notes.get(self.kind_of(state))
