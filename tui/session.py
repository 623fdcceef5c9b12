"""The one interface between the client and a game.

Widgets read ``session.state`` / ``session.events`` and send actions with ``session.submit``;
they never apply rules themselves.  ``LocalSession`` runs the engine in-process and plays the
bot seats; a networked session (``net.remote.RemoteSession``) implements the same interface over a connection.
"""

from __future__ import annotations

import asyncio
import pickle
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

import msgspec

from colosseum.core import Action, Event, GameSetup, RuleError, State, apply, new_game, to_act
from colosseum.core.bots import make_bot
from colosseum.core.gamelog import UndoLine, describe_action, reseeded
from colosseum.core.queries import safe_action
from colosseum.core.undo import UndoReach, last_human_seat, undo_reach

Listener = Callable[[State, list[Event]], None]


def _plain(action: Action) -> str:
    """A decision that logs no sentence of its own, in words."""
    mode = getattr(action, "mode", None)
    if mode in ("sum", "split"):
        return f"chose to {'add' if mode == 'sum' else 'split'} the dice"
    return describe_action(action)


class Seat(msgspec.Struct, frozen=True):
    """Who plays a seat: 'human', or a bot name from ``colosseum.core.bots.BOTS``."""

    kind: str = "human"

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


class GameSession(ABC):
    """What the client needs from a game, wherever it runs."""

    setup: GameSetup
    seats: tuple[Seat, ...]

    @property
    @abstractmethod
    def state(self) -> State: ...

    @property
    @abstractmethod
    def events(self) -> list[Event]: ...

    @property
    @abstractmethod
    def actions(self) -> list[Action]: ...

    @abstractmethod
    def submit(self, action: Action) -> list[Event]:
        """Apply ``action``; raises RuleError (state unchanged) if the engine rejects it."""

    @abstractmethod
    def add_listener(self, fn: Listener) -> None: ...

    def local_seats(self) -> tuple[int, ...]:
        """Seats the person at this terminal may play (hot seat: every human seat)."""
        return tuple(i for i, s in enumerate(self.seats) if not s.is_bot)

    def waiting_for(self) -> int:
        return to_act(self.state)

    def bot_to_act(self) -> bool:
        seat = self.waiting_for()
        return seat >= 0 and self.seats[seat].is_bot

    # ---- taking back (only a local game offers it; a table says why not)
    @property
    def offers_undo(self) -> bool:
        """Whether ``undo`` may ever be offered here (a key for it is worth showing)."""
        return False

    def undo_reach(self, seat: int | None = None) -> UndoReach:
        """How far ``seat`` (default: the local seat that acted last) may take back."""
        return UndoReach(seat=-1, reason="taking back is not offered in this game", short="not here")

    def undo(self, seat: int | None = None) -> UndoLine:
        """Take back ``seat``'s last decision (and the bot moves after it); RuleError if it may not."""
        raise RuleError("G-0", self.undo_reach(seat).reason)


class LocalSession(GameSession):
    """The engine in-process.  ``recorder`` (if given) is called with each applied action and
    its resulting state, before listeners, so a game log can be appended and flushed."""

    def __init__(
        self,
        setup: GameSetup,
        seats: tuple[Seat, ...],
        *,
        actions: list[Action] | None = None,
        recorder: Callable[[Action, State], None] | None = None,
        reseed: tuple[int, int] | None = None,
    ) -> None:
        if len(seats) != len(setup.players):
            raise ValueError("one seat per player")
        self.setup = setup
        self.seats = tuple(seats)
        # A fork may draw new chance from a position on (gamelog.Header.reseed_point).
        self.reseed = reseed
        self._state = reseeded(new_game(setup), 0, reseed)
        self._events: list[Event] = []
        self._actions: list[Action] = []
        self._listeners: list[Listener] = []
        self._bots = {i: make_bot(s.kind, seed=setup.seed * 31 + i) for i, s in enumerate(seats) if s.is_bot}
        # Every position and the events up to it, so a decision can be taken back; and the bots
        # as they were before each human decision, so they replay the same moves after an undo.
        self._states: list[State] = [self._state]
        self._marks: list[int] = [0]
        self._bot_memo: dict[int, bytes] = {}
        for a in actions or ():
            self._state, ev = apply(self._state, a)
            self._state = reseeded(self._state, len(self._actions) + 1, reseed)
            self._events.extend(ev)
            self._actions.append(a)
            self._states.append(self._state)
            self._marks.append(len(self._events))
        self.recorder = recorder

    @property
    def state(self) -> State:
        return self._state

    @property
    def events(self) -> list[Event]:
        return self._events

    @property
    def actions(self) -> list[Action]:
        return self._actions

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def submit(self, action: Action) -> list[Event]:
        state, events = apply(self._state, action)  # RuleError propagates; nothing changed
        state = reseeded(state, len(self._actions) + 1, self.reseed)
        if self._bots and not self.seats[action.player].is_bot:
            self._bot_memo[len(self._actions)] = pickle.dumps(self._bots)
            if len(self._bot_memo) > 64:  # an undo never reaches that far back in practice
                del self._bot_memo[min(self._bot_memo)]
        self._state = state
        self._actions.append(action)
        self._events.extend(events)
        self._states.append(state)
        self._marks.append(len(self._events))
        if self.recorder is not None:
            self.recorder(action, state)
        for fn in list(self._listeners):
            fn(state, events)
        return events

    @property
    def offers_undo(self) -> bool:
        return any(not s.is_bot for s in self.seats)

    def humans(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.seats) if not s.is_bot)

    def undo_reach(self, seat: int | None = None) -> UndoReach:
        humans = self.humans()
        refusal = getattr(self.recorder, "undo_refusal", "")
        if refusal:
            return UndoReach(seat=-1, reason=refusal, short="old log")
        if self._state.phase == "over":  # the log is closed at the end: nothing may follow it
            return UndoReach(seat=-1, reason="the game is over", short="game over")
        if seat is None:
            seat = last_human_seat(self._actions, humans)
            if seat is None:
                return UndoReach(seat=-1, reason="nothing to take back yet", short="nothing yet")
        return undo_reach(self._states, self._actions, seat, humans)

    def undo(self, seat: int | None = None) -> UndoLine:
        """Take back ``seat``'s last decision and every move after it.  The withdrawn actions
        are told to the recorder as an undo line (the log keeps them); listeners are called
        with the restored state and one "undo" event."""
        reach = self.undo_reach(seat)
        if not reach.targets:
            raise RuleError("G-0", reach.reason)
        at = reach.targets[0]
        withdrawn = self._actions[at:]
        who = self._state.players[reach.seat].name
        mine = withdrawn[0]
        # the sentences of the decision itself (not an earlier "took back" note kept at that position)
        said = [e.text for e in self._events[self._marks[at] : self._marks[at + 1]] if e.kind != "undo"]
        what = said[0] if said else _plain(mine)
        if what.startswith(who + " "):
            what = what[len(who) + 1 :]
        line = UndoLine(
            undo=at + 1,
            through=len(self._actions),
            seat=reach.seat,
            name=who,
            time=time.time(),
            text=f"{who} took back: {what.rstrip('.')}",
        )
        del self._actions[at:], self._states[at + 1 :], self._marks[at + 1 :]
        del self._events[self._marks[at] :]
        self._state = self._states[at]
        memo = self._bot_memo.get(at)
        if memo is not None:
            self._bots = pickle.loads(memo)  # noqa: S301 - our own bytes, made by this process
        for k in [k for k in self._bot_memo if k > at]:
            del self._bot_memo[k]
        event = Event(kind="undo", text=line.text, seat=reach.seat, round=self._state.round, phase=self._state.phase)
        self._events.append(event)
        self._marks[at] += 1
        record = getattr(self.recorder, "record_undo", None)
        if record is not None:
            record(line)
        for fn in list(self._listeners):
            fn(self._state, [event])
        return line

    def bot_action(self) -> Action | None:
        """The move of the bot to act, or None when a human (or nobody) is to act."""
        seat = self.waiting_for()
        if seat < 0 or seat not in self._bots:
            return None
        return self._bots[seat].act(self._state)

    def step_bot(self) -> bool:
        """Play one bot move; False if no bot is to act."""
        action = self.bot_action()
        if action is None:
            return False
        try:
            self.submit(action)
        except RuleError:
            # A bot must never stall the game: play the legal action that changes the least.
            self.submit(safe_action(self._state))
        return True

    async def run_bots(self, delay: float = 0.0) -> None:
        """Play bot moves until a human must act or the game is over."""
        while self.bot_to_act():
            if delay > 0:
                await asyncio.sleep(delay)
            else:
                await asyncio.sleep(0)
            self.step_bot()
