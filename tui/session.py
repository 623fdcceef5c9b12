"""The one interface between the client and a game.

Widgets read ``session.state`` / ``session.events`` and send actions with ``session.submit``;
they never apply rules themselves.  ``LocalSession`` runs the engine in-process and plays the
bot seats; a networked session (``net.remote.RemoteSession``) implements the same interface over a connection.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable

import msgspec

from colosseum.core import Action, Event, GameSetup, RuleError, State, apply, new_game, to_act
from colosseum.core.bots import make_bot
from colosseum.core.queries import safe_action

Listener = Callable[[State, list[Event]], None]


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
    ) -> None:
        if len(seats) != len(setup.players):
            raise ValueError("one seat per player")
        self.setup = setup
        self.seats = tuple(seats)
        self._state = new_game(setup)
        self._events: list[Event] = []
        self._actions: list[Action] = []
        self._listeners: list[Listener] = []
        self._bots = {i: make_bot(s.kind, seed=setup.seed * 31 + i) for i, s in enumerate(seats) if s.is_bot}
        for a in actions or ():
            self._state, ev = apply(self._state, a)
            self._events.extend(ev)
            self._actions.append(a)
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
        self._state = state
        self._actions.append(action)
        self._events.extend(events)
        if self.recorder is not None:
            self.recorder(action, state)
        for fn in list(self._listeners):
            fn(state, events)
        return events

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
