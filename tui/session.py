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
from typing import TYPE_CHECKING

from colosseum.core.games.colosseum import (
    Action,
    EndTurn,
    Event,
    GameSetup,
    ProposeDeal,
    RuleError,
    State,
    may_propose,
    to_act,
)
from colosseum.core.games.colosseum.bots import deal_offer
from colosseum.core.games.colosseum.offers import safe_action
from colosseum.core.games.colosseum.rules import RULES as COLOSSEUM
from colosseum.core.games.colosseum.summary import Follow
from colosseum.core.undo import UndoReach, last_human_seat, undo_reach

from .game_session import EngineSession, Seat

if TYPE_CHECKING:  # the log module is loaded when first needed, after the first frame
    from colosseum.core.gamelog import UndoLine

Listener = Callable[[State, list[Event]], None]

#: default seconds a bot's trade turn stays open for offers from humans
TRADE_WINDOW = 4.0


def _plain(action: Action) -> str:
    """A decision that logs no sentence of its own, in words."""
    mode = getattr(action, "mode", None)
    if mode in ("sum", "split"):
        return f"chose to {'add' if mode == 'sum' else 'split'} the dice"
    from colosseum.core.gamelog import describe_action

    return describe_action(action)


__all__ = ["GameSession", "Listener", "LocalSession", "Seat"]  # Seat lives in game_session now


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

    # ---- hints from the hard bot (a table must allow them; a local game does)
    def offers_hint(self) -> bool:
        """Whether a player here may ask the hard bot what it would do."""
        return False


class LocalSession(EngineSession, GameSession):
    """The engine in-process (the shared :class:`EngineSession` on Colosseum's engine), with
    what only Colosseum has: take-backs, the trade window and holds.  ``recorder`` (if given)
    is called with each applied action and its resulting state, before listeners, so a game
    log can be appended and flushed."""

    setup: GameSetup
    _state: State
    _actions: list[Action]

    def __init__(
        self,
        setup: GameSetup,
        seats: tuple[Seat, ...],
        *,
        actions: list[Action] | None = None,
        recorder: Callable[[Action, State], None] | None = None,
        reseed: tuple[int, int] | None = None,
    ) -> None:
        # Every position and the events up to it, so a decision can be taken back; and the bots
        # as they were before each human decision, so they replay the same moves after an undo.
        self._states: list[State] = []
        self._marks: list[int] = [0]
        self._bot_memo: dict[int, bytes] = {}
        self._replaying = True  # a resumed game's actions: the follow record takes them in
        # A fork may draw new chance from a position on (gamelog.Header.reseed_point).
        super().__init__(COLOSSEUM, setup, seats, actions=actions, recorder=recorder, reseed=reseed)
        self._replaying = False
        # a resumed game shows its last move marked; its summaries start from here
        self._follow.seen_from = len(self._follow.steps)
        self._listeners.append(self._follow.record)
        self._holds: set[object] = set()
        self._steps = 0
        self._offer_memo: dict[tuple[int, int], ProposeDeal | None] = {}

    def _started(self, state: State) -> None:
        self._follow = Follow(state)
        self._states.append(state)

    def _before_commit(self, action: Action) -> None:
        if not self.seats[action.player].is_bot and any(seat.is_bot for seat in self.seats):
            self._bot_memo[len(self._actions)] = pickle.dumps(self._bots)
            if len(self._bot_memo) > 64:  # an undo never reaches that far back in practice
                del self._bot_memo[min(self._bot_memo)]

    def _committed(self, action: Action, state: State, events: list[Event]) -> None:
        if self._replaying:  # (afterwards the follow record is a listener)
            self._follow.record(state, events)
        self._states.append(state)
        self._marks.append(len(self._events))

    @property
    def state(self) -> State:
        return self._state

    @property
    def actions(self) -> list[Action]:
        return self._actions

    def fallback_action(self) -> Action:
        """A bot's refused move: the legal action that changes the least."""
        return safe_action(self._state)

    @property
    def offers_undo(self) -> bool:
        return any(not s.is_bot for s in self.seats)

    def offers_hint(self) -> bool:
        return True

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
        return undo_reach(self.kind, self._states, self._actions, seat, humans)

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
        from colosseum.core.gamelog import UndoLine

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

    # ------------------------------------------------------------------ bots' offers to humans
    #: bots propose deals to a human's trade turn where their valuation finds one (G-4)
    bots_offer: bool = True

    def bot_to_act(self) -> bool:
        return super().bot_to_act() or self.bot_offer() is not None

    def bot_offer(self) -> ProposeDeal | None:
        """A deal a bot proposes to the local human whose trade turn it is (G-4: anyone may
        propose to the active player): each bot at most once a trade turn, clockwise from the
        active player, only a deal the bot's own valuation finds worth it for both sides."""
        st = self._state
        t = st.trade
        if not self.bots_offer or st.phase != "trade" or t is None or t.deal is not None:
            return None
        if self.seats[t.active].is_bot or to_act(st) != t.active or not may_propose(st, t.active):
            return None
        spoken = self._offered_this_turn()
        for k in range(1, st.n):
            seat = (t.active + k) % st.n
            bot = self._bots.get(seat)
            if bot is None or seat in spoken:
                continue
            key = (len(self._actions), seat)
            if key not in self._offer_memo:  # the valuation runs once per position
                self._offer_memo = {kk: v for kk, v in self._offer_memo.items() if kk[0] == key[0]}
                self._offer_memo[key] = deal_offer(bot, st, seat)
            offer = self._offer_memo[key]
            if offer is not None:
                return offer
            # nothing worth offering now: this bot is asked again after the next change
        return None

    def _offered_this_turn(self) -> set[int]:
        """Bots that proposed a deal in this trade turn already (read from the actions, so an
        undo forgets the offers it took back)."""
        st = self._state
        assert st.trade is not None
        out: set[int] = set()
        for i in range(len(self._actions) - 1, -1, -1):
            before = self._states[i]
            if before.phase != "trade" or before.round != st.round or before.trade is None:
                break
            if before.trade.active != st.trade.active:
                break
            a = self._actions[i]
            if isinstance(a, ProposeDeal) and a.player in self._bots:
                out.add(a.player)
        return out

    def bot_action(self) -> Action | None:
        """The move of the bot to act (or a bot's offer to a human's trade turn), or None when a
        human (or nobody) is to act."""
        seat = self.waiting_for()
        if seat < 0 or seat not in self._bots:
            return self.bot_offer()
        return self._bots[seat].act(self._state)

    async def bot_move(self) -> Action | None:
        """``bot_action`` without blocking the event loop: a bot that thinks for a while (the
        search bot) does it in a thread.  None when a human acted meanwhile (think again)."""
        seat = self.waiting_for()
        if seat < 0 or seat not in self._bots:
            return self.bot_offer()
        bot, st = self._bots[seat], self._state
        if not getattr(bot, "thinks", False):
            return bot.act(st)
        action = await asyncio.to_thread(bot.act, st)
        return action if self._state is st else None

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
