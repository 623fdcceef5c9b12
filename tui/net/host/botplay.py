"""The bots at a table: they play bot seats and stand in for absent players, and, where a game
lets seats act out of turn (``Rules.out_of_turn``), they wait for the people.

* A bot moves after the server's bot delay (so a person may still take back their last decision
  first); a bot that thinks a while (``thinks``) does it off the event loop.  Every decision
  waits its turn in the server's budget for bots (``botbudget``).  A move the rules
  refuse is replaced by the game's ``fallback_action``: a bot never stalls a table.
* While a person at the table composes an action out of turn (``Composing``: Colosseum's deal
  dialog), a bot's move waits, for at most ``COMPOSE_CAP`` seconds from the first opening in
  that turn, and not after that person's connection drops.
* Before a bot's move that only the seat to act could make (ending its trade turn), the people
  who may act out of turn get a moment (``TRADE_WINDOW``, paced with the bots) to do so.
* While a person is to act, each bot may offer them something once a turn (``Rules.bot_offer``:
  Colosseum's deals), after the bot delay.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.game import Rules
from colosseum.core.options import SetupBase

from . import protocol as P
from .botbudget import BotBudget
from .meta import TableMeta, bot_seed, default_bot
from .seats import Seats

log = logging.getLogger("colosseum.net")

#: seconds a bot's turn stays open for people who may act out of turn (paced with the bots)
TRADE_WINDOW = 4.0
#: seconds a person's open dialog holds a bot's move at most (a silent or idle client must not
#: stall the table)
COMPOSE_CAP = 60.0


class Pace(Protocol):
    """The server's timings (``TableServer``)."""

    @property
    def bot_delay(self) -> float: ...
    @property
    def trade_window(self) -> float: ...
    @property
    def compose_cap(self) -> float: ...
    @property
    def budget(self) -> BotBudget: ...


class Played(Protocol):
    """What the bots need of their table (``Table``)."""

    @property
    def id(self) -> str: ...
    @property
    def meta(self) -> TableMeta: ...
    @property
    def rules(self) -> Rules[Any, Any, Any]: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def state(self) -> Any: ...
    @property
    def setup(self) -> SetupBase | None: ...
    @property
    def playing(self) -> bool: ...

    def commit(self, action: Any, *, by_person: bool = False) -> list[Event]: ...

    def broadcast(self, msg: P._Msg) -> None: ...


#: what everyone at a table is told when the server cannot save a bot's move (a full disk), and
#: when it can again; meanwhile the bots wait, trying again a little later each time
CANNOT_SAVE = (
    "The server cannot save the game just now (its disk may be full): the game waits, "
    "and goes on by itself as soon as it can save again."
)
#: the same when it is the database of several hosts that does not answer (not the disk)
DATABASE_AWAY = (
    "The server's database does not answer just now: the game waits, "
    "and goes on by itself as soon as it can save again."
)
SAVES_AGAIN = "The server saves again: the game goes on."
SAVE_RETRY = (2.0, 30.0)  # seconds before the first try again, and at most between tries


class BotPlay:
    def __init__(self, table: Played, pace: Pace) -> None:
        self.table = table
        self.pace = pace
        self.bots: dict[int, Any] = {}
        self._task: asyncio.Task[None] | None = None
        # dialogs open: seat -> since (monotonic), and since when in which turn
        self.composing: dict[int, float] = {}
        self._compose_first: dict[int, tuple[object, float]] = {}
        self._offered: dict[object, set[int]] = {}  # a person's turn -> the bots that offered
        self.unsaved = 0  # bot moves in a row the server could not save (a full disk)

    @property
    def rules(self) -> Rules[Any, Any, Any]:
        return self.table.rules

    def bot_for(self, seat: int) -> Any:
        """The bot playing ``seat`` (its kind, or the default level for a person's seat)."""
        kind = self.table.meta.seats[seat].kind
        name = kind if kind != "human" else default_bot(self.rules)
        bot = self.bots.get(seat)
        if bot is None or getattr(bot, "name", name) != name:
            bot = self.rules.make_bot(name, bot_seed(self.table.setup, seat))
            self.bots[seat] = bot
        return bot

    def controls(self, seat: int) -> bool:
        """A bot plays ``seat`` now (a bot's seat, a free one, or a stand-in)."""
        return not self.table.seats.person_plays(seat)

    def _turn(self, state: Any) -> object:
        """Which turn ``state`` is in (a bot offers a person once a turn)."""
        try:
            key: object = self.rules.step_key(state, "turn")
        except ValueError:
            key = None
        return key

    # ---------------------------------------------------------------- the run
    def kick(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        t = self.table
        while t.playing:
            seat = self.rules.to_act(t.state)
            if seat < 0:
                return
            if not self.controls(seat):
                if not await self._offer():
                    return
                continue
            await asyncio.sleep(self.pace.bot_delay)
            if not t.playing or self.rules.to_act(t.state) != seat or not self.controls(seat):
                continue
            try:
                bot, before = self.bot_for(seat), t.state
                action = await self._decide(bot, before)
                if action is None or t.state is not before:
                    continue  # the game moved on while the bot waited its turn or thought
                if await self._window(seat, action):
                    continue  # someone acted meanwhile: the bot thinks again
                try:
                    try:
                        t.commit(action)
                    except RuleError:
                        t.commit(self.rules.fallback_action(t.state))  # a bot must never stall a table
                except OSError as err:  # not saved, so not made: wait, say so, try again later
                    await self._cannot_save(err)
                    continue
                self._saved_again()
            except Exception:  # noqa: BLE001 - a bot's bug must stop its table's bots, not the server
                log.exception("table %s: bot for seat %d failed", t.id, seat)
                return

    async def _decide(self, bot: Any, before: Any) -> Any:
        """The bot's action in ``before``, within the server's budget for bots (``botbudget``:
        one decision at a time over all tables, people's tables first, thinking shorter under
        load); None if the game moved on while it waited for its turn."""
        budget = self.pace.budget
        async with budget.decision(person=bool(self.table.seats.conns)):
            if self.table.state is not before:
                return None
            if not getattr(bot, "thinks", False):
                return bot.act(before)
            own = getattr(bot, "own_think", None)
            if own is None:
                own = bot.own_think = bot.think  # (None: a bot of fixed playouts, not timed)
            if own is not None:
                bot.think = budget.think(own)
            thought = asyncio.ensure_future(asyncio.to_thread(bot.act, before))  # off the event loop
            try:
                return await asyncio.shield(thought)
            except asyncio.CancelledError:  # (the table closes) the slot is held until it is done
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait([thought])
                raise

    async def _cannot_save(self, err: OSError) -> None:
        self.unsaved += 1
        if self.unsaved == 1:
            log.error("table %s: a bot's move not saved (%s): the table waits", self.table.id, err)
            from .limits import database_away

            if not getattr(err, "fenced", False):  # (fenced: the table leaves this host, its people told)
                self.table.broadcast(P.Error(message=DATABASE_AWAY if database_away(err) else CANNOT_SAVE, code="disk"))
        first, most = SAVE_RETRY
        await asyncio.sleep(min(most, first * 2 ** min(self.unsaved - 1, 8)))

    def _saved_again(self) -> None:
        if self.unsaved:
            log.warning("table %s: saving again after %d tries", self.table.id, self.unsaved)
            self.unsaved = 0
            self.table.broadcast(P.Error(message=SAVES_AGAIN, code="disk"))

    # ---------------------------------------------------------------- offers to a person
    def _may_offer(self, state: Any) -> list[int]:
        """The bots that may still offer the person to act something in this turn."""
        active = self.rules.to_act(state)
        if active < 0 or self.controls(active) or active in self.composing:
            return []
        offered = self._offered.get(self._turn(state), set())
        return [
            s
            for s in range(self.table.seats.count)
            if s != active and s not in offered and self.controls(s) and self.rules.out_of_turn(state, s)
        ]

    async def _offer(self) -> bool:
        """A bot's offer to the person to act, after the bots' delay (so the person may still
        take back their last decision first).  True if one was made, or the game moved on."""
        st = self.table.state
        if not self._may_offer(st):
            return False
        await asyncio.sleep(self.pace.bot_delay)
        if self.table.state is not st:
            return True  # the game moved on: look again
        offer = self.bot_offer()
        if offer is None:
            return False
        try:
            self.table.commit(offer)
        except RuleError:  # the bot found an offer the rules refuse: none
            log.warning("table %s: seat %d's offer refused by the rules", self.table.id, offer.player)
            return False
        return True

    def bot_offer(self) -> Any:
        """What a bot offers the person to act now (each bot at most once a turn), or None."""
        st = self.table.state
        bots = self._may_offer(st)
        if not bots:
            return None
        key = self._turn(st)
        offered = self._offered.setdefault(key, set())
        if len(self._offered) > 4:  # only the current turn matters
            for k in [k for k in self._offered if k != key]:
                del self._offered[k]
        for seat in bots:
            offered.add(seat)
            offer = self.rules.bot_offer(self.bot_for(seat), st, seat)
            if offer is not None:
                return offer
        return None

    # ---------------------------------------------------------------- people acting out of turn
    async def _window(self, seat: int, action: Any) -> bool:
        """Before a bot's move, while people at the table may act out of turn: the moment for
        them to (a move only the seat to act could make: ending a trade turn), and while one
        of them composes such an action, the wait for it.  True if the game moved on."""
        st = self.table.state
        people = [
            s
            for s in range(self.table.seats.count)
            if s != seat and not self.controls(s) and self.rules.out_of_turn(st, s)
        ]
        if not people:
            return False
        window = min(self.pace.trade_window, 20 * self.pace.bot_delay)  # fast tables hardly wait
        if self._anyones(st, people[0], action):
            window = 0.0  # an offer of the bot's own waits only for a person composing one
        if window <= 0 and not self.composers(seat):
            return False
        loop = asyncio.get_running_loop()
        end = loop.time() + window
        while self.table.state is st and (loop.time() < end or self.composers(seat)):
            await asyncio.sleep(0.05)
        return self.table.state is not st

    def _anyones(self, state: Any, other: int, action: Any) -> bool:
        """Whether ``action`` is of a kind another seat could send now too (an offer, not the
        end of a turn)."""
        try:
            theirs = msgspec.structs.replace(action, player=other)
        except (TypeError, AttributeError):
            return False
        return self.rules.may_act(state, other, theirs)

    def compose(self, seat: int, on: bool) -> None:
        """The person at ``seat`` opened (``on``) or closed a dialog for an action out of turn.
        The cap counts from the first opening in a turn: closing and opening the dialog again
        does not start it afresh."""
        if not on:
            self.composing.pop(seat, None)
            return
        turn = self._turn(self.table.state) if self.table.state is not None else None
        first = self._compose_first.get(seat)
        since = first[1] if first is not None and first[0] == turn and turn is not None else time.monotonic()
        self._compose_first[seat] = (turn, since)
        self.composing[seat] = since

    def composers(self, active: int) -> list[int]:
        """Seats (other than ``active``) composing an action out of turn now, which the game
        lets them make; a dialog open longer than ``compose_cap`` seconds holds nothing any more."""
        st = self.table.state
        if st is None:
            return []
        now = time.monotonic()
        cap = self.pace.compose_cap
        present = self.table.seats.present
        return [
            s
            for s, since in self.composing.items()
            if s != active and s in present and now - since < cap and self.rules.out_of_turn(st, s)
        ]

    def left(self, seat: int) -> None:
        self.composing.pop(seat, None)
