"""The one interface between the Municipium client and a game, in the shape of Colosseum's
``LocalSession`` (state, events, actions, submit, add_listener, local_seats, waiting_for,
bot_to_act, run_bots) so that a later shared game interface can cover both games.

``MuniLocalSession`` runs the engine in-process and plays the bot seats; widgets only read
``session.state`` and send actions through ``session.submit``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from colosseum.core.errors import RuleError
from colosseum.core.municipium import Event, MuniAction, MuniSetup, State, apply, legal, new_game, to_act
from colosseum.core.municipium.bots import MuniBot, make_bot
from colosseum.tui.session import Seat

MuniListener = Callable[[State, list[Event]], None]

__all__ = ["MuniListener", "MuniLocalSession", "Seat"]


class MuniLocalSession:
    """The engine in-process.  ``recorder`` (if given) is called with each applied action and
    its resulting state, before the listeners, so a game log can be appended and flushed."""

    def __init__(
        self,
        setup: MuniSetup,
        seats: tuple[Seat, ...],
        *,
        actions: list[MuniAction] | None = None,
        recorder: Callable[[MuniAction, State], None] | None = None,
    ) -> None:
        if len(seats) != len(setup.players):
            raise ValueError("one seat per player")
        self._state = new_game(setup)  # RuleError for a bad setup
        self.setup = self._state.setup
        self.seats = tuple(seats)
        self._events: list[Event] = []
        self._actions: list[MuniAction] = []
        self._listeners: list[MuniListener] = []
        self._bots: dict[int, MuniBot] = {
            i: make_bot(s.kind, seed=setup.seed * 31 + i) for i, s in enumerate(seats) if s.is_bot
        }
        for a in actions or ():
            self._state, ev = apply(self._state, a)
            self._events.extend(ev)
            self._actions.append(a)
        self.recorder = recorder

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        return self._state

    @property
    def events(self) -> list[Event]:
        return self._events

    @property
    def actions(self) -> list[MuniAction]:
        return self._actions

    def local_seats(self) -> tuple[int, ...]:
        """Seats the person at this terminal may play (hot seat: every human seat)."""
        return tuple(i for i, s in enumerate(self.seats) if not s.is_bot)

    def waiting_for(self) -> int:
        return to_act(self._state)

    def bot_to_act(self) -> bool:
        seat = self.waiting_for()
        return seat >= 0 and self.seats[seat].is_bot

    # ------------------------------------------------------------------ acting
    def add_listener(self, fn: MuniListener) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: MuniListener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def submit(self, action: MuniAction) -> list[Event]:
        """Apply ``action``; raises RuleError (state unchanged) if the engine rejects it."""
        state, events = apply(self._state, action)  # RuleError propagates; nothing changed
        self._state = state
        self._actions.append(action)
        self._events.extend(events)
        if self.recorder is not None:
            self.recorder(action, state)
        for fn in list(self._listeners):
            fn(state, events)
        return events

    def bot_action(self) -> MuniAction | None:
        """The action of the bot to act, or None when a human (or nobody) is to act."""
        seat = self.waiting_for()
        if seat < 0 or seat not in self._bots:
            return None
        return self._bots[seat].act(self._state)

    def step_bot(self) -> bool:
        """Play one bot action; False if no bot is to act."""
        action = self.bot_action()
        if action is None:
            return False
        try:
            self.submit(action)
        except RuleError:
            # A bot must never stall the game: fall back to the first legal action.
            self.submit(legal(self._state)[0])
        return True

    async def run_bots(self, delay: float = 0.0) -> None:
        """Play bot actions until a human must act or the game is over."""
        while self.bot_to_act():
            await asyncio.sleep(delay if delay > 0 else 0)
            self.step_bot()
