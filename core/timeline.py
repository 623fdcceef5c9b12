"""A game's positions one by one (:class:`Timeline`) and a parsed log (:class:`GameLog`), for any
game: the game's rules (``core.game.Rules``) replay the actions.  Pure, no UI."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from colosseum.core.events import Event
from colosseum.core.gamelog import ChatLine, GameLogError, Header, HintLine, Withdrawal, reseeded

if TYPE_CHECKING:
    from colosseum.core.game import GameSpec, Rules

__all__ = ["GameLog", "Timeline"]


class Timeline:
    """The positions of a game: position ``i`` is the state after the first ``i`` actions
    (0 = the start, ``len(actions)`` = the end).  States are computed on demand and all kept
    (they share structure), so after the first visit any position is one list index away.

    Navigation (``next``/``prev``) moves between the starts of segments: a *turn*, a *phase*
    and a *round* are what the game says (``Rules.step_key``); an *action* is one action.
    ``prev`` goes to the start of the current segment, or of the one before when already at a
    start."""

    def __init__(
        self,
        rules: Rules[Any, Any, Any],
        setup: Any,
        actions: Iterable[Any] = (),
        *,
        _states: list[Any] | None = None,
        _events: list[list[Event]] | None = None,
        reseed: tuple[int, int] | None = None,
    ) -> None:
        self.rules = rules
        self.setup = setup
        self.actions: list[Any] = list(actions)
        self.reseed = reseed  # (position, generator state): see Header.reseed_point
        self._states: list[Any] = _states if _states is not None else [reseeded(rules.new_game(setup), 0, reseed)]
        self._events: list[list[Event]] = _events if _events is not None else [[]]

    def __len__(self) -> int:
        """Number of positions (actions + 1)."""
        return len(self.actions) + 1

    @property
    def end(self) -> int:
        return len(self.actions)

    def append(self, action: Any) -> None:
        """Add an action played after the last one (a running game moved on)."""
        self.actions.append(action)

    def _extend(self, i: int) -> None:
        states, events = self._states, self._events
        state = states[-1]
        play = self.rules.apply
        while len(states) <= i:
            state, ev = play(state, self.actions[len(states) - 1])
            state = reseeded(state, len(states), self.reseed)
            states.append(state)
            events.append(ev)

    def state(self, i: int) -> Any:
        if not 0 <= i <= self.end:
            raise IndexError(f"position {i} is outside 0..{self.end}")
        if i >= len(self._states):
            self._extend(i)
        return self._states[i]

    def events(self, i: int) -> list[Event]:
        """The events caused by action ``i`` (the one leading to position ``i``; none for 0)."""
        self.state(i)
        return self._events[i]

    def all_events(self) -> list[tuple[int, Event]]:
        """Every event with the position it leads to."""
        self.state(self.end)
        return [(i, e) for i in range(1, len(self._events)) for e in self._events[i]]

    # ---- segment keys
    def _key(self, kind: str, i: int) -> Any:
        if kind == "action":
            return i
        return self.rules.step_key(self.state(i), kind)

    def is_start(self, kind: str, i: int) -> bool:
        return i == 0 or i == self.end or self._key(kind, i) != self._key(kind, i - 1)

    def next(self, kind: str, i: int) -> int:
        """The next segment start after ``i`` (the end if none)."""
        j = i + 1
        while j < self.end and not self.is_start(kind, j):
            j += 1
        return min(j, self.end)

    def prev(self, kind: str, i: int) -> int:
        """The start of the segment holding ``i``; if ``i`` is that start, the previous one."""
        j = i - 1
        while j > 0 and not self.is_start(kind, j):
            j -= 1
        return max(j, 0)


class GameLog:
    """A parsed log: the header, the valid prefix of actions replayed, and the first error."""

    def __init__(
        self,
        header: Header,
        timeline: Timeline,
        error: GameLogError | None,
        *,
        lines: int,
        terminated: bool,
        path: Path | None = None,
        chat: list[ChatLine] | None = None,
        digest: bytes | None = None,
        ended: bool = False,
        undos: list[Withdrawal] | None = None,
        hints: list[HintLine] | None = None,
    ) -> None:
        self.chat: list[ChatLine] = chat or []  # table talk, in file order
        self.hints: list[HintLine] = hints or []  # the hints asked for, in file order
        self.digest = digest  # version 2: the chain after the valid prefix (None for version 1)
        self.ended = ended  # version 2: the end line was read
        self.undos: list[Withdrawal] = undos or []  # undo lines, in file order (``actions`` is what stands)
        self.header = header
        self.timeline = timeline
        self.error = error
        self.lines = lines  # lines in the file (header included, blank ones too)
        self.terminated = terminated  # the file ends with a newline
        self.path = path

    @property
    def setup(self) -> Any:
        return self.header.setup

    @property
    def game(self) -> str:
        """The game's name (the registry's default game for a header that names none)."""
        return self.spec.name

    @property
    def spec(self) -> GameSpec:
        return self.timeline.rules.spec

    @property
    def rules(self) -> Rules[Any, Any, Any]:
        return self.timeline.rules

    @property
    def seats(self) -> tuple[str, ...]:
        return self.header.seats

    @property
    def actions(self) -> list[Any]:
        return self.timeline.actions

    @property
    def state(self) -> Any:
        """The position after the valid prefix."""
        return self.timeline.state(self.timeline.end)

    @property
    def intact(self) -> bool:
        return self.error is None

    @property
    def finished(self) -> bool:
        return self.rules.is_over(self.state)

    @property
    def appendable(self) -> bool:
        """Intact and ending with a newline: new actions may be appended to the file."""
        return self.error is None and self.terminated
