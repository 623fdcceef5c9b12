"""The one interface between the client and a game, whatever the game and wherever it runs.

Widgets read ``session.state`` / ``session.events`` and send actions with ``session.submit``;
they never apply rules themselves.  :class:`GameSession` is the interface (typed over the game's
state and action); :class:`LocalSession` runs any game's engine in-process through its
:class:`~colosseum.core.game.Rules`: take-backs (``core.undo``), the follow record, bot pacing
(rush, step, holds) and hints.  What only one game has (Colosseum's bots offering deals to a
person's trade turn, the window before a bot ends a trade turn) comes from :class:`SessionHooks`,
which the game's client part supplies (found by the spec's ``client_path``: this module never
imports a game).  A networked session (``net.remote.RemoteSession``) implements the same
interface over a connection.
"""

from __future__ import annotations

import asyncio
import pickle
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.game import GameSpec, Rules, load_path
from colosseum.core.registry import game_of
from colosseum.core.undo import UndoReach, last_human_seat, undo_reach

from .game_session import EngineSession, Seat

if TYPE_CHECKING:  # the log module is loaded when first needed, after the first frame
    from colosseum.core.gamelog import UndoLine
    from colosseum.core.timeline import Timeline

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")

Listener = Callable[[Any, list[Event]], None]

#: default seconds a bot waits before an action that ends the others' chance to act out of turn
#: (Colosseum: a bot's trade turn stays open for offers from people)
OFFER_WINDOW = 4.0

__all__ = [
    "FollowRecord",
    "GameSession",
    "SERVER_HINT_THINK",
    "Listener",
    "LocalSession",
    "Seat",
    "SessionHooks",
    "Steps",
]


# ====================================================================== the follow record


#: the longest a hint or the review's analysis thinks in a server's client process (it thinks on
#: the server's cores; a local game allows 9 s)
SERVER_HINT_THINK = 3.0


class FollowRecord(Protocol):
    """The record of the moves seen since a session started: what the last move changed (the
    panels' marks: the game's own type, None where the game marks nothing) and what happened
    since a seat last acted."""

    seen_from: int

    @property
    def steps(self) -> Sequence[Any]: ...  # each with ``actor``, the seat that acted

    def record(self, state: Any, events: Sequence[Event]) -> None: ...

    def marks(self) -> Any: ...

    def since(self, seat: int, limit: int = 0) -> list[str]: ...


class Step(NamedTuple):
    actor: int
    events: tuple[Event, ...]
    before: Any
    after: Any


class Steps:
    """The follow record of a game whose client part has none of its own: each step's actor and
    events; no marks; "since your last turn" is each step's sentences."""

    def __init__(self, rules: Rules[Any, Any, Any], state: Any) -> None:
        self.rules = rules
        self.state = state
        self.steps: list[Step] = []
        self.seen_from = 0  # steps before this one were replayed, not watched

    def record(self, state: Any, events: Sequence[Event]) -> None:
        events = tuple(events)
        if any(e.kind == "undo" for e in events):
            keep = next((i for i in range(len(self.steps) - 1, -1, -1) if self.steps[i].before is state), 0)
            del self.steps[keep:]
            self.seen_from = min(self.seen_from, len(self.steps))
            self.state = state
            return
        if state is self.state:
            return
        self.steps.append(Step(self.rules.to_act(self.state), events, self.state, state))
        self.state = state

    __call__ = record

    def marks(self) -> Any:
        return None

    def since(self, seat: int, limit: int = 0) -> list[str]:
        steps = self.steps[self.seen_from :]
        start = next((i + 1 for i in range(len(steps) - 1, -1, -1) if steps[i].actor == seat), 0)
        lines = [" ".join(e.text for e in s.events if e.text) for s in steps[start:]]
        lines = [line for line in lines if line]
        return lines[-limit:] if limit else lines


# ====================================================================== the interface


class GameSession(ABC, Generic[StateT, ActionT]):
    """What the client needs from a game, wherever it runs.  The state and action types are
    the game's own (``GameSession[State, Action]`` in a game's client part)."""

    setup: Any
    seats: tuple[Seat, ...]

    @property
    @abstractmethod
    def state(self) -> StateT: ...

    @property
    @abstractmethod
    def events(self) -> list[Event]: ...

    @property
    @abstractmethod
    def actions(self) -> list[ActionT]: ...

    @abstractmethod
    def submit(self, action: ActionT) -> list[Event]:
        """Apply ``action``; raises RuleError (state unchanged) if the engine rejects it."""

    @abstractmethod
    def add_listener(self, fn: Listener) -> None: ...

    def remove_listener(self, fn: Listener) -> None:
        """Stop calling ``fn`` (a session that keeps its listeners forever ignores this)."""

    # ---- the game
    @property
    def spec(self) -> GameSpec:
        return game_of(self.setup)

    @property
    def rules(self) -> Rules[Any, Any, Any]:
        return self.spec.rules()

    @property
    def follow(self) -> FollowRecord:
        """The record of the moves seen since this session started (what the last move
        changed, what happened since a seat last acted)."""
        follow: FollowRecord | None = getattr(self, "_follow", None)
        if follow is None:
            follow = self._follow = hooks_for(self.spec).follow(self.rules, self.state)
            self.add_listener(follow.record)
        return follow

    def local_seats(self) -> tuple[int, ...]:
        """Seats the person at this terminal may play (hot seat: every human seat)."""
        return tuple(i for i, s in enumerate(self.seats) if not s.is_bot)

    def waiting_for(self) -> int:
        return self.rules.to_act(self.state)

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

    # ---- review (``v``)
    def review_timeline(self) -> Timeline:
        """The game so far as this seat may review it (the viewer's positions): here every
        position, replayed from the setup; a table's session gives its seat's view instead."""
        from colosseum.core.timeline import Timeline

        return Timeline(self.rules, self.setup, list(self.actions), reseed=getattr(self, "reseed", None))

    # ---- hints from the game's strongest bot (a table must allow them; a local game does)
    def offers_hint(self) -> bool:
        """Whether a player here may ask the bot what it would do."""
        return False

    #: the longest a hint may think here (seconds; the hint screen's ``h`` asks for longer ones)
    hint_max_think: float = 9.0

    # ---- the bots' pace (a local game plays its bots; a table's server plays them)
    #: bots play without delay until a human must decide (``rush``)
    rushing: bool = False
    #: bot moves play only when ``step()`` is called (one at a time)
    stepping: bool = False

    @property
    def paced(self) -> bool:
        """Whether this session plays bots whose pace ``rush`` and ``step`` set."""
        return False

    def rush(self) -> None:
        """Let the bots run without delay until a human must decide."""

    def step(self) -> None:
        """Let one bot move through (stepping mode)."""

    async def run_bots(self, delay: float = 0.0) -> None:
        """Play bot moves until a human must act (nothing here: the bots are played elsewhere)."""

    def play_quick_bots(self, budget: float) -> int:
        """Play at once the moves of bots that do not think, for at most about ``budget``
        seconds; the number played (nothing here: the bots are played elsewhere)."""
        return 0

    def hold(self, reason: object) -> None:
        """Bots wait (e.g. while a human composes an offer) until ``release(reason)``."""

    def release(self, reason: object) -> None:
        """End the hold ``reason``."""


# ====================================================================== what a game adds


class SessionHooks:
    """What a game's client part adds to a local session; each a neutral default.  One object
    per session (it may keep what it learns about that session's game)."""

    def follow(self, rules: Rules[Any, Any, Any], state: Any) -> FollowRecord:
        """The follow record of a new session whose first position is ``state``."""
        return Steps(rules, state)

    def event_place(self, session: LocalSession, state: Any) -> tuple[int, str]:
        """(round, phase) for an event said at ``state`` (the note of a take-back): the game's
        own words; by default those of the last event before it."""
        last = session.events[-1] if session.events else None
        return (last.round, last.phase) if last is not None else (0, "")

    def bot_offer(self, session: LocalSession) -> Any | None:
        """An action a bot takes out of turn towards a person (Colosseum: a deal proposed to a
        person's trade turn), or None."""
        return None

    def window_before(self, session: LocalSession, action: Any) -> bool:
        """Whether the bot about to take ``action`` should first give the people at this
        keyboard a moment to act out of turn (it ends their chance to)."""
        return False

    def hold_applies(self, session: LocalSession) -> bool:
        """Whether a hold (a person composing an out-of-turn action) stops the bots now."""
        return True


def hooks_for(spec: GameSpec) -> SessionHooks:
    """The hooks of ``spec``'s game: its client part's (loaded by the spec's path), or none."""
    if not spec.client_path:
        return SessionHooks()
    client = load_path(spec.client_path)
    hooks: SessionHooks = client.session_hooks()
    return hooks


# ====================================================================== a game in this process


class LocalSession(EngineSession, GameSession[Any, Any]):
    """Any game's engine in-process (the shared :class:`EngineSession`), with take-backs, the
    follow record, the bots' pace and hints.  ``recorder`` (if given) is called with each applied
    action and its resulting state, before listeners, so a game log can be appended and flushed.
    ``rules`` default to the game whose setup ``setup`` is; ``hooks`` to its client part's."""

    def __init__(
        self,
        setup: Any,
        seats: tuple[Seat, ...],
        *,
        actions: list[Any] | None = None,
        recorder: Callable[[Any, Any], None] | None = None,
        reseed: tuple[int, int] | None = None,
        rules: Rules[Any, Any, Any] | None = None,
        hooks: SessionHooks | None = None,
    ) -> None:
        found = rules.spec if rules is not None else game_of(setup)
        self.hooks = hooks if hooks is not None else hooks_for(found)
        # Every position and the events up to it, so a decision can be taken back; and the bots
        # as they were before each human decision, so they replay the same moves after an undo.
        self._states: list[Any] = []
        self._marks: list[int] = [0]
        self._bot_memo: dict[int, bytes] = {}
        self._replaying = True  # a resumed game's actions: the follow record takes them in
        # A fork may draw new chance from a position on (gamelog.Header.reseed_point).
        super().__init__(rules or found.rules(), setup, seats, actions=actions, recorder=recorder, reseed=reseed)
        self._replaying = False
        # a resumed game shows its last move marked; its summaries start from here
        self._follow.seen_from = len(self._follow.steps)
        self._listeners.append(self._follow.record)
        self._holds: set[object] = set()
        self._steps = 0

    @property
    def spec(self) -> GameSpec:
        return self._rules.spec

    @property
    def follow(self) -> FollowRecord:
        return self._follow

    @property
    def states(self) -> list[Any]:
        """Every position of the game that stands (``states[i]`` after ``i`` actions)."""
        return self._states

    def _started(self, state: Any) -> None:
        self._follow: FollowRecord = self.hooks.follow(self._rules, state)
        self._states.append(state)

    def _before_commit(self, action: Any) -> None:
        if not self.seats[action.player].is_bot and any(seat.is_bot for seat in self.seats):
            self._bot_memo[len(self._actions)] = pickle.dumps(self._bots)
            if len(self._bot_memo) > 64:  # an undo never reaches that far back in practice
                del self._bot_memo[min(self._bot_memo)]

    def _committed(self, action: Any, state: Any, events: list[Event]) -> None:
        if self._replaying:  # (afterwards the follow record is a listener)
            self._follow.record(state, events)
        self._states.append(state)
        self._marks.append(len(self._events))

    @property
    def state(self) -> Any:
        return self._state

    @property
    def actions(self) -> list[Any]:
        return self._actions

    def remove_listener(self, fn: Listener) -> None:
        EngineSession.remove_listener(self, fn)

    # ------------------------------------------------------------------ taking back
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
        if self._rules.is_over(self._state):  # the log is closed at the end: nothing may follow it
            return UndoReach(seat=-1, reason="the game is over", short="game over")
        if seat is None:
            seat = last_human_seat(self._actions, humans)
            if seat is None:
                return UndoReach(seat=-1, reason="nothing to take back yet", short="nothing yet")
        return undo_reach(self._rules, self._states, self._actions, seat, humans)

    def undo(self, seat: int | None = None) -> UndoLine:
        """Take back ``seat``'s last decision and every move after it (the bots' replies, D-70:
        the note counts them).  The withdrawn actions
        are told to the recorder as an undo line (the log keeps them); listeners are called
        with the restored state and one "undo" event."""
        reach = self.undo_reach(seat)
        if not reach.targets:
            raise RuleError("G-0", reach.reason)
        at = reach.targets[0]
        withdrawn = self._actions[at:]
        who = self._rules.names(self._state)[reach.seat]
        mine = withdrawn[0]
        # the sentences of the decision itself (not an earlier "took back" note kept at that position)
        said = [e.text for e in self._events[self._marks[at] : self._marks[at + 1]] if e.kind != "undo"]
        what = said[0] if said else self._rules.describe(mine)
        if what.startswith(who + " "):
            what = what[len(who) + 1 :]
        what = what.rstrip(".")
        replies = len(withdrawn) - 1  # D-70: the bots' moves after it go with it (they replay them)
        if replies:
            what += f", and the {replies} bot move{'s' if replies > 1 else ''} after it"
        from colosseum.core.gamelog import UndoLine

        line = UndoLine(
            undo=at + 1,
            through=len(self._actions),
            seat=reach.seat,
            name=who,
            time=time.time(),
            text=f"{who} took back: {what}",
        )
        del self._actions[at:], self._states[at + 1 :], self._marks[at + 1 :]
        del self._events[self._marks[at] :]
        self._state = self._states[at]
        memo = self._bot_memo.get(at)
        if memo is not None:
            self._bots = pickle.loads(memo)  # noqa: S301 - our own bytes, made by this process
        for k in [k for k in self._bot_memo if k > at]:
            del self._bot_memo[k]
        when, phase = self.hooks.event_place(self, self._state)
        event = Event(kind="undo", text=line.text, seat=reach.seat, round=when, phase=phase)
        self._events.append(event)
        self._marks[at] += 1
        record = getattr(self.recorder, "record_undo", None)
        if record is not None:
            record(line)
        for fn in list(self._listeners):
            fn(self._state, [event])
        return line

    # ------------------------------------------------------------------ bots' offers to people
    #: bots take actions out of turn towards a person where the game has them (``SessionHooks.bot_offer``)
    bots_offer: bool = True

    def bot_to_act(self) -> bool:
        return super().bot_to_act() or self.bot_offer() is not None

    def bot_offer(self) -> Any | None:
        """An action a bot takes out of turn towards the person to act (the game's hook)."""
        return self.hooks.bot_offer(self) if self.bots_offer else None

    def bot_action(self) -> Any | None:
        """The move of the bot to act (or a bot's offer to a person), or None when a human (or
        nobody) is to act."""
        seat = self.waiting_for()
        if seat < 0 or seat not in self._bots:
            return self.bot_offer()
        return self._bots[seat].act(self._state)

    async def bot_move(self) -> Any | None:
        """``bot_action`` without blocking the event loop: a bot that thinks for a while (a
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
    #: seconds a bot waits before an action that ends the people's chance to act out of turn
    #: (``SessionHooks.window_before``); 0: no wait
    offer_window: float = OFFER_WINDOW

    @property
    def paced(self) -> bool:
        return any(s.is_bot for s in self.seats)

    def hold(self, reason: object) -> None:
        """Bots wait (e.g. while a human composes an offer) until ``release(reason)``."""
        self._holds.add(reason)

    def release(self, reason: object) -> None:
        self._holds.discard(reason)

    @property
    def held(self) -> bool:
        """A hold stops the bots while the game says it applies (Colosseum: in Phase 3 with no
        deal on the table; once one is proposed, the bots answer it)."""
        return bool(self._holds) and self.hooks.hold_applies(self)

    def step(self) -> None:
        """Let one bot move through (stepping mode)."""
        self._steps += 1

    def rush(self) -> None:
        """Let the bots run without delay until a human must decide."""
        self.stepping = False
        self.rushing = self.bot_to_act()  # (a human to act already: nothing to run)

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

    async def _offer_window(self, action: Any, delay: float) -> bool:
        """Before a bot action that ends the people's chance to act out of turn, give them a
        moment (only when bots are paced: with no delay they play as fast as they can).  True
        if the game moved on meanwhile (the bot must think again)."""
        st = self._state
        if delay <= 0 or self.rushing or self.offer_window <= 0 or not self.hooks.window_before(self, action):
            return False
        loop = asyncio.get_running_loop()
        end = loop.time() + min(self.offer_window, 20 * delay)  # paced with the bots
        while (loop.time() < end or self.held) and self._state is st and not self.rushing:
            await asyncio.sleep(0.05)
        return self._state is not st

    def play_quick_bots(self, budget: float) -> int:
        """Play at once, without the event loop, the moves of bots that do not think (no search
        bot), until a person or a thinking bot is to act or ``budget`` seconds have gone by;
        the number played.  For a game whose bots play without delay: their first moves can be
        made before the game's first frame, so that frame shows the first person's decision."""
        import time

        end = time.perf_counter() + budget
        played = 0
        while not self.held and not self.stepping and time.perf_counter() < end:
            seat = self.waiting_for()
            bot = self._bots.get(seat) if seat >= 0 else None
            if bot is None or getattr(bot, "thinks", False):
                break  # a person (or nobody) to act, or a bot that thinks in a thread
            self._play(bot.act(self._state))
            played += 1
        return played

    async def run_bots(self, delay: float = 0.0) -> None:
        """Play bot moves until a human must act or the game is over."""
        try:
            while self.bot_to_act():
                await self._wait_turn(delay)
                action = await self.bot_move()
                if action is None:  # a human acted meanwhile (e.g. proposed a deal)
                    continue
                if await self._offer_window(action, delay):
                    continue
                self._play(action)
        finally:
            if not self.bot_to_act():
                self.rushing = False
