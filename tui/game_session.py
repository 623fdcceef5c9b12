"""What every local game session shares, whatever the game: :class:`EngineSession`.

A session is the one interface between the client and a game: widgets read ``session.state``
and ``session.events`` and send actions with ``session.submit``; they never apply rules
themselves.  The engine runs in-process through the game's :class:`~colosseum.core.game.Rules`
(``new_game``, ``apply``, ``to_act``, ``make_bot``); this base keeps the state, the events and the
actions, calls the ``recorder`` (the autosave: ``tui.storage.Recorder``) and the listeners after
each action, and plays the bot seats.  :class:`colosseum.tui.session.LocalSession` adds take-backs,
the follow record, bot pacing and the hooks a game's client part supplies.

Imports no Textual, and nothing of the client above it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.game import Rules

Listener = Callable[[Any, list[Event]], None]
Recorder = Callable[[Any, Any], None]

__all__ = ["EngineSession", "Listener", "Seat"]


def reseeded(state: Any, position: int, point: tuple[int, int] | None) -> Any:
    """``core.gamelog.reseeded``: the log module is loaded only for a game with a reseed point
    (a fork), not before a new game's first frame."""
    if point is None:
        return state
    from colosseum.core.gamelog import reseeded as at_point

    return at_point(state, position, point)


class Seat(msgspec.Struct, frozen=True):
    """Who plays a seat: 'human', or a bot name (a level, or a name the game's bots know)."""

    kind: str = "human"

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


class EngineSession:
    """A game run in-process by its ``rules``.  ``actions`` are replayed first (a resumed game);
    ``recorder`` (if given) is called with each applied action and its resulting state, before
    the listeners, so a game log can be appended and flushed; ``reseed``: new chance from a
    position on (see ``gamelog.Header.reseed_point``)."""

    def __init__(
        self,
        rules: Rules[Any, Any, Any],
        setup: Any,
        seats: tuple[Any, ...],
        *,
        actions: list[Any] | None = None,
        recorder: Recorder | None = None,
        reseed: tuple[int, int] | None = None,
    ) -> None:
        if len(seats) != len(setup.players):
            raise ValueError("one seat per player")
        known = rules.bot_names()
        for i, seat in enumerate(seats):  # (a bot it cannot make would stall the game at its turn)
            if seat.is_bot and seat.kind not in known:
                raise ValueError(
                    f"seat {i + 1} is played by {seat.kind!r}, a bot this version does not have"
                    f" (it has {', '.join(known)})"
                )
        self._rules = rules
        self.reseed = reseed
        self._state: Any = reseeded(rules.new_game(setup), 0, reseed)  # RuleError for a bad setup
        self.setup: Any = self._state.setup
        self.seats = tuple(seats)
        self._events: list[Event] = []
        self._actions: list[Any] = []
        self._listeners: list[Listener] = []
        self._made_bots: dict[int, Any] | None = None  # made on first use (see ``_bots``)
        self._started(self._state)
        for a in actions or ():
            state, ev = rules.apply(self._state, a)
            self._state = reseeded(state, len(self._actions) + 1, reseed)
            self._events.extend(ev)
            self._actions.append(a)
            self._committed(a, self._state, ev)
        self.recorder = recorder

    @property
    def rules(self) -> Rules[Any, Any, Any]:
        """The game's rules (the engine this session runs)."""
        return self._rules

    @property
    def _bots(self) -> dict[int, Any]:
        """The bots of the bot seats, made when first asked for: a bot's module (its
        valuations) is not needed to draw the game, so it loads after the first paint."""
        if self._made_bots is None:
            seed = self.setup.seed
            self._made_bots = {
                i: self._rules.make_bot(s.kind, seed * 31 + i) for i, s in enumerate(self.seats) if s.is_bot
            }
        return self._made_bots

    @_bots.setter
    def _bots(self, bots: dict[int, Any]) -> None:
        self._made_bots = bots

    @property
    def bots(self) -> dict[int, Any]:
        """The bot of each bot seat, by seat."""
        return self._bots

    # ---- what a session adds (each a no-op here)
    def _started(self, state: Any) -> None:
        """The first position, before any action (also before a resumed game's replay)."""

    def _before_commit(self, action: Any) -> None:
        """A submitted action was applied by the engine and is about to stand."""

    def _committed(self, action: Any, state: Any, events: list[Event]) -> None:
        """An action stands (replayed or submitted); before the recorder and the listeners."""

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> Any:
        return self._state

    @property
    def events(self) -> list[Event]:
        return self._events

    @property
    def actions(self) -> list[Any]:
        return self._actions

    def local_seats(self) -> tuple[int, ...]:
        """Seats the person at this terminal may play (hot seat: every human seat)."""
        return tuple(i for i, s in enumerate(self.seats) if not s.is_bot)

    def waiting_for(self) -> int:
        return self._rules.to_act(self._state)

    def bot_to_act(self) -> bool:
        seat = self.waiting_for()
        return seat >= 0 and self.seats[seat].is_bot

    # ------------------------------------------------------------------ acting
    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def submit(self, action: Any) -> list[Event]:
        """Apply ``action``; raises RuleError (state unchanged) if the engine rejects it."""
        state, events = self._rules.apply(self._state, action)  # RuleError propagates; nothing changed
        state = reseeded(state, len(self._actions) + 1, self.reseed)
        self._before_commit(action)
        self._state = state
        self._actions.append(action)
        self._events.extend(events)
        self._committed(action, state, events)
        if self.recorder is not None:
            self.recorder(action, state)
        for fn in list(self._listeners):
            fn(state, events)
        return events

    def fallback_action(self) -> Any:
        """What a bot plays when its own action is refused (the rules say: a bot never stalls)."""
        return self._rules.fallback_action(self._state)

    def bot_action(self) -> Any | None:
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
        self._play(action)
        return True

    def _play(self, action: Any) -> None:
        try:
            self.submit(action)
        except RuleError:
            # A bot must never stall the game.
            self.submit(self.fallback_action())

    async def run_bots(self, delay: float = 0.0) -> None:
        """Play bot actions until a human must act or the game is over."""
        while self.bot_to_act():
            await asyncio.sleep(delay if delay > 0 else 0)
            self.step_bot()
