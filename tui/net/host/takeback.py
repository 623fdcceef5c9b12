"""Taking back at a table: the recent positions a table keeps, and how far a seat may go back.

A seat may take back its own last decisions while nobody else has acted since (a person, a bot
or a stand-in) and nothing it could not foresee came in between: chance as the game's rules see
it (``core.undo.seat_undo_reach``), and anything that came to light for that seat
(``seen.foreseen``: a card drawn from a deck whose order the seat does not see).  The table
keeps the positions back to the last chance event, at most ``UNDO_KEEP``; nothing from before
a restart (who decided those moves is not known).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from colosseum.core.game import Rules
from colosseum.core.undo import UndoReach, seat_undo_reach

from . import protocol as P
from .seen import foreseen

if TYPE_CHECKING:
    from .table import Table

#: positions a table keeps for taking back (chance or another seat's move comes far sooner)
UNDO_KEEP = 64


class Takebacks:
    """``states[0]`` is the position after ``base`` actions, ``states[i]`` after ``base + i``;
    ``by_person[i]`` whether action ``base + i`` was its seat's person's decision, and
    ``unforeseen[i]`` whether it showed that seat something it could not foresee."""

    def __init__(self, rules: Rules[Any, Any, Any]) -> None:
        self.rules = rules
        self.states: list[Any] = []
        self.base = 0
        self.by_person: list[bool] = []
        self.unforeseen: list[bool] = []
        self.edge = ""  # why not further back than ``base`` ("" at the game's start)

    def begin(self, state: Any, n: int, edge: str = "") -> None:
        """Nothing before ``n`` actions can be taken back (the start, or a restart)."""
        self.states, self.base, self.by_person, self.unforeseen, self.edge = [state], n, [], [], edge

    def remember(self, before: Any, action: Any, after: Any, n: int, *, by_person: bool) -> None:
        """Keep the position after action ``n`` (1-based: ``n`` actions now), from ``before``."""
        if self.rules.chance_between(before, after)[0]:
            self.states, self.base, self.by_person, self.unforeseen = [before, after], n - 1, [by_person], [False]
            return
        seat: int = action.player
        hidden = by_person and not foreseen(
            self.rules, self.rules.player_view(before, seat), action, self.rules.player_view(after, seat), seat
        )
        self.states.append(after)
        self.by_person.append(by_person)
        self.unforeseen.append(hidden)
        if len(self.by_person) > UNDO_KEEP:
            del self.states[0], self.by_person[0], self.unforeseen[0]
            self.base += 1
            self.edge = "that is as far back as a table keeps"

    def reach(self, seat: int, actions: list[Any]) -> UndoReach:
        """How far ``seat`` may take back in the game whose actions in effect are ``actions``."""
        if not self.states:  # (a table made without start or restore)
            return UndoReach(seat=seat, reason="nothing to take back yet", short="nothing yet")
        mine = actions[self.base :]
        reach = seat_undo_reach(self.rules, self.states, mine, seat, self.by_person, start=self.base, edge=self.edge)
        return self._stop_at_unforeseen(reach)

    def _stop_at_unforeseen(self, reach: UndoReach) -> UndoReach:
        """``reach`` less the targets behind a decision that showed its seat something hidden."""
        kept: list[int] = []
        for target in reach.targets:  # nearest first: ``target`` takes back action ``target``
            if self.unforeseen[target - self.base]:
                why = f"something hidden came to light (action {target + 1})"
                reason = why if kept else f"nothing of yours to take back: {why}"
                return UndoReach(seat=reach.seat, targets=tuple(kept), reason=reason, short="revealed")
            kept.append(target)
        return reach

    def position(self, at: int) -> Any:
        return self.states[at - self.base]

    def rewind(self, at: int) -> None:
        """Back to ``at`` actions (a target of ``reach``)."""
        del self.states[at - self.base + 1 :], self.by_person[at - self.base :], self.unforeseen[at - self.base :]


def undo_refusal(table: Table, seat: int | None, msg: P.Undo) -> str | None:
    """Why the seat ``seat`` (None: not at the table; -1: watching) may not take back what
    ``msg`` asks at ``table`` now (None: it may)."""
    if seat is None:
        return "you are not at this table"
    if seat < 0:
        return "spectators cannot take anything back"
    if not table.playing or not table.record.open:
        return "the game is not running" if table.meta.status == "waiting" else "the game is over"
    if msg.seat != seat:
        return f"you hold seat {seat + 1}, not that seat"
    if msg.at >= 0 and msg.at != len(table.actions):
        return "the game moved on before your request arrived; look again"
    reach = table.reach(seat)
    if msg.count < 1:
        return "take back at least one decision"
    if not reach.targets:
        return reach.reason
    if msg.count > reach.steps:
        few = f"only {reach.steps} of your decisions can be taken back"
        return f"{few}: {reach.reason}" if reach.reason else few
    return None
