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

from colosseum.core import (
    Action,
    EndTurn,
    Event,
    GameSetup,
    RuleError,
    State,
    apply,
    may_propose,
    new_game,
    to_act,
)
from colosseum.core.bots import make_bot
from colosseum.core.queries import safe_action
from colosseum.core.summary import Follow

Listener = Callable[[State, list[Event]], None]

#: default seconds a bot's trade turn stays open for offers from humans
TRADE_WINDOW = 4.0


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

    @property
    def follow(self) -> Follow:
        """The record of the moves seen since this session started (what the last move
        changed, what happened since a seat last acted)."""
        follow: Follow | None = getattr(self, "_follow", None)
        if follow is None:
            follow = self._follow = Follow(self.state)
            self.add_listener(follow.record)
        return follow

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
        self._follow = Follow(self._state)
        for a in actions or ():
            self._state, ev = apply(self._state, a)
            self._events.extend(ev)
            self._actions.append(a)
            self._follow.record(self._state, ev)
        # a resumed game shows its last move marked; its summaries start from here
        self._follow.seen_from = len(self._follow.steps)
        self._listeners.append(self._follow.record)
        self.recorder = recorder
        self._holds: set[object] = set()
        self._steps = 0

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

    async def bot_move(self) -> Action | None:
        """``bot_action`` without blocking the event loop: a bot that thinks for a while (the
        search bot) does it in a thread.  None when a human acted meanwhile (think again)."""
        seat = self.waiting_for()
        if seat < 0 or seat not in self._bots:
            return None
        bot, st = self._bots[seat], self._state
        if not getattr(bot, "thinks", False):
            return bot.act(st)
        action = await asyncio.to_thread(bot.act, st)
        return action if self._state is st else None

    def step_bot(self) -> bool:
        """Play one bot move; False if no bot is to act."""
        action = self.bot_action()
        if action is None:
            return False
        self._play(action)
        return True

    def _play(self, action: Action) -> None:
        try:
            self.submit(action)
        except RuleError:
            # A bot must never stall the game: play the legal action that changes the least.
            self.submit(safe_action(self._state))

    # ------------------------------------------------------------------ pace
    #: seconds a bot waits before it ends its trade turn while a human could still propose
    #: a deal to it (G-4: anyone may); 0: no wait
    trade_window: float = TRADE_WINDOW
    #: bot moves play only when ``step()`` is called (one at a time)
    stepping: bool = False
    #: bots play without delay (and without the trade window) until a human must decide
    rushing: bool = False

    def hold(self, reason: object) -> None:
        """Bots wait (e.g. while a human composes an offer) until ``release(reason)``."""
        self._holds.add(reason)

    def release(self, reason: object) -> None:
        self._holds.discard(reason)

    @property
    def held(self) -> bool:
        """A hold stops the bots while a human composes an offer: in Phase 3 with no deal on
        the table (once it is proposed, the bots answer it)."""
        st = self._state
        return bool(self._holds) and st.phase == "trade" and st.trade is not None and st.trade.deal is None

    def step(self) -> None:
        """Let one bot move through (stepping mode)."""
        self._steps += 1

    def rush(self) -> None:
        """Let the bots run without delay until a human must decide."""
        self.stepping = False
        self.rushing = self.bot_to_act()  # (a human to act already: nothing to run)

    def _humans_may_offer(self) -> bool:
        st = self._state
        return any(may_propose(st, seat) for seat in self.local_seats() if seat != to_act(st))

    async def _wait_turn(self, delay: float) -> None:
        """Wait before a bot move: the delay, any hold, and in stepping mode a step."""
        if delay > 0 and not self.rushing:
            await asyncio.sleep(delay)
        else:
            await asyncio.sleep(0)
        while self.held or (self.stepping and self._steps <= 0 and not self.rushing):
            await asyncio.sleep(0.05)
        if self.stepping and self._steps > 0:
            self._steps -= 1

    async def _trade_window(self, action: Action, delay: float) -> bool:
        """Before a bot ends its trade turn, give local humans a moment to propose a deal
        (only when bots are paced: with no delay they play as fast as they can).  True if
        the game moved on meanwhile (the bot must think again)."""
        st = self._state
        if (
            delay <= 0
            or self.rushing
            or self.trade_window <= 0
            or not isinstance(action, EndTurn)
            or st.phase != "trade"
            or not self._humans_may_offer()
        ):
            return False
        loop = asyncio.get_running_loop()
        end = loop.time() + min(self.trade_window, 20 * delay)  # paced with the bots
        while (loop.time() < end or self.held) and self._state is st and not self.rushing:
            await asyncio.sleep(0.05)
        return self._state is not st

    async def run_bots(self, delay: float = 0.0) -> None:
        """Play bot moves until a human must act or the game is over."""
        try:
            while self.bot_to_act():
                await self._wait_turn(delay)
                action = await self.bot_move()
                if action is None:  # a human acted meanwhile (e.g. proposed a deal)
                    continue
                if await self._trade_window(action, delay):
                    continue
                self._play(action)
        finally:
            if not self.bot_to_act():
                self.rushing = False
