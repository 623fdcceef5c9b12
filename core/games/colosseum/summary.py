"""What the last moves did, for people following the table.  Pure Python, no UI.

``Follow`` records every applied action as a ``Step`` (who acted, whose turn it was, the events
and the states around it).  From those it answers two questions a client asks:

* ``marks()``: what the latest run of actions by one player changed (``Changes``: nobles moved
  and where to, markets emptied or refilled, Acclaim markers moved, coins/Aquilas/tiles per
  seat, spectacles performed).  It is computed by comparing states, never by re-deriving rules.
* ``since(seat)``: one plain line per turn played since ``seat`` last acted, made from the
  engine's own log sentences.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

import msgspec

from colosseum.core.events import Event
from colosseum.core.games.colosseum.engine import to_act
from colosseum.core.games.colosseum.model import NOBODY, State

__all__ = ["Changes", "Follow", "Step", "changes", "turn_line", "last_move", "turn_owner"]


class Changes(msgspec.Struct, frozen=True, kw_only=True):
    """What a run of actions changed, seat by seat and place by place (empty: nothing)."""

    actor: int = NOBODY
    nobles: tuple[int, ...] = ()  # nobles (0 emperor, 1-2 consuls, 3-5 senators) that moved
    spaces: tuple[int, ...] = ()  # where the moved nobles stand now (their path's end)
    origins: tuple[int, ...] = ()  # where they stood before
    gates: tuple[int, ...] = ()  # track spaces with a gate built
    markets: tuple[int, ...] = ()  # markets emptied, refilled or with a pillar moved
    acclaim: tuple[int, ...] = ()  # Acclaim change per seat (0: unchanged)
    coins: tuple[int, ...] = ()  # coin change per seat
    aquilas: tuple[int, ...] = ()  # Aquila change per seat
    tiles: tuple[int, ...] = ()  # change in tiles held per seat
    # tiles given plus tiles received per seat, type by type (a swap moves tiles without
    # changing how many a seat holds)
    tiles_moved: tuple[int, ...] = ()
    performed: tuple[tuple[int, int], ...] = ()  # (seat, spectacle) performed

    @property
    def empty(self) -> bool:
        return not (
            self.nobles
            or self.gates
            or self.markets
            or any(self.acclaim)
            or any(self.coins)
            or any(self.aquilas)
            or any(self.tiles)
            or any(self.tiles_moved)
            or self.performed
        )

    def seat_changed(self, seat: int) -> bool:
        values = (self.acclaim, self.coins, self.aquilas, self.tiles, self.tiles_moved)
        return any(0 <= seat < len(v) and v[seat] for v in values)


def changes(before: State, after: State, actor: int = NOBODY) -> Changes:
    """Compare two states of one game."""
    moved = tuple(i for i, (a, b) in enumerate(zip(before.nobles, after.nobles, strict=False)) if a != b)
    gates: set[int] = set()
    performed = []
    for seat, (p, q) in enumerate(zip(before.players, after.players, strict=False)):
        gates.update(set(q.gates) - set(p.gates))
        if q.arena != NOBODY and q.arena != p.arena:
            performed.append((seat, q.arena))
    markets = tuple(
        i
        for i in range(min(len(before.markets), len(after.markets)))
        if before.markets[i] != after.markets[i] or before.pillars[i] != after.pillars[i]
    )
    pairs = list(zip(before.players, after.players, strict=False))
    return Changes(
        actor=actor,
        nobles=moved,
        spaces=tuple(after.nobles[i] for i in moved),
        origins=tuple(before.nobles[i] for i in moved),
        gates=tuple(sorted(gates)),
        markets=markets,
        acclaim=tuple(q.acclaim - p.acclaim for p, q in pairs),
        coins=tuple(q.coins - p.coins for p, q in pairs),
        aquilas=tuple(q.aquilas - p.aquilas for p, q in pairs),
        tiles=tuple(sum(q.tiles) - sum(p.tiles) for p, q in pairs),
        tiles_moved=tuple(sum(abs(b - a) for a, b in zip(p.tiles, q.tiles, strict=False)) for p, q in pairs),
        performed=tuple(performed),
    )


def turn_owner(state: State) -> int:
    """Whose turn it is in ``state`` (the active player of an auction or a trade turn, not
    whoever answers a bid or a deal), else the seat to act."""
    if state.phase == "invest" and state.invest is not None:
        return state.invest.player
    if state.phase == "hire" and state.hire is not None:
        return state.hire.active
    if state.phase == "trade" and state.trade is not None:
        return state.trade.active
    if state.phase == "perform" and state.perform is not None:
        return state.perform.player
    return to_act(state)


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One applied action: who acted, whose turn it was, what it logged, the states around it."""

    actor: int
    owner: int
    round: int
    phase: str
    events: tuple[Event, ...]
    before: State
    after: State


# Log lines a turn's summary leaves out: the give and take of an auction (its result says
# who won and for how much), dice, turn ends and phase headings.
_NOISE = frozenset({"bid", "pass", "end", "phase", "roll"})
_RESULTS = frozenset({"perform", "win", "trade"})
MAX_LINE = 160  # characters in a turn's line: the log has the rest
#: a performance's sentence: "Becky performs X: 9 + 5 = 14 Acclaim; ..." (the edition's word for
#: the score, "14 spectators" in the original)
_PERFORM = re.compile(r"^(?P<head>.*? performs .+?): .*?= (?P<score>-?\d+ [^;]+);.*$")


def _phrase(event: Event) -> str:
    text = event.text.strip().rstrip(".")
    if event.kind == "perform":
        m = _PERFORM.match(text)
        if m:
            return f"{m['head']} for {m['score']}"
    return text


def turn_line(steps: Sequence[Step], names: Sequence[str]) -> str:
    """One plain line for a turn (consecutive steps of one owner): the engine's sentences for
    what mattered, the owner's name said once."""
    events = [e for s in steps for e in s.events]
    kept = [e for e in events if e.kind not in _NOISE]
    if steps and steps[0].phase == "setup":  # the deal of the game's start is on the boards
        kept = [e for e in kept if e.kind == "gate"]
    if any(e.kind == "win" for e in kept):  # the win names the market and the price
        kept = [e for e in kept if e.kind != "auction"]
    if any(e.kind == "trade" for e in kept):  # a closed deal says what changed hands
        kept = [e for e in kept if e.kind != "deal"]
    # what a turn came to first (a line may be cut at the screen's edge): the spectacle,
    # the lot won, the deal closed; then the moves that led there
    kept.sort(key=lambda e: e.kind not in _RESULTS)
    owner = steps[0].owner if steps else NOBODY
    if not kept:  # a turn that did nothing but bid, pass or end: its player's last word
        kept = [e for e in events if e.seat == owner and e.kind != "phase"][-1:]
    name = names[owner] if 0 <= owner < len(names) else ""
    phrases: list[str] = []
    for e in kept:
        p = _phrase(e)
        if phrases and name and p.startswith(name + " "):
            p = p[len(name) + 1 :]
        if p and p not in phrases:
            phrases.append(p)
    line = "; ".join(phrases)
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 3].rstrip() + "..."


class Follow:
    """The record of a game's steps, fed with each new state and its events (a session
    listener)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.steps: list[Step] = []
        # steps before this one were replayed, not watched (a resumed game): summaries of
        # what happened "since your last turn" leave them out
        self.seen_from = 0
        self._marks: tuple[int, Step | None, Changes] | None = None

    def record(self, state: State, events: Iterable[Event]) -> None:
        events = tuple(events)
        if any(e.kind == "undo" for e in events):
            self.rewind(state)
            return
        before = self.state
        if state is before:
            return
        self.steps.append(
            Step(
                actor=to_act(before),
                owner=turn_owner(before),
                round=before.round,
                phase=before.phase,
                events=events,
                before=before,
                after=state,
            )
        )
        self.state = state

    __call__ = record

    def rewind(self, state: State) -> None:
        """Moves were taken back to ``state``: forget the steps after it, so the marks and
        the summaries show the position after the undo, not the withdrawn moves."""
        keep = next((i for i in range(len(self.steps) - 1, -1, -1) if self.steps[i].before is state), None)
        if keep is None:  # not the same object (a copy from elsewhere): compare by value
            keep = next((i for i in range(len(self.steps) - 1, -1, -1) if self.steps[i].before == state), None)
        del self.steps[keep or 0 :]  # None: taken back past everything recorded, start afresh
        self.seen_from = min(self.seen_from, len(self.steps))
        self.state = state

    def marks(self, upto: int | None = None) -> Changes:
        """What the last run of actions by one player changed (up to step ``upto``,
        exclusive; default all): marked until someone else acts."""
        if upto is not None:
            return marks(self.steps[:upto])
        # asked at every redraw: kept until a step is added or taken back (steps are frozen)
        count, last = len(self.steps), (self.steps[-1] if self.steps else None)
        cached = self._marks
        if cached is not None and cached[0] == count and cached[1] is last:
            return cached[2]
        result = marks(self.steps)
        self._marks = (count, last, result)
        return result

    def since(self, seat: int, limit: int = 0) -> list[str]:
        """One line per turn played since ``seat`` last acted (the last ``limit`` lines if
        given); empty when nobody else has acted since."""
        return since(self.steps[self.seen_from :], seat, limit)


def marks(steps: Sequence[Step]) -> Changes:
    def state_at(i: int) -> State:
        return steps[i - 1].after if i > 0 else steps[0].before

    return last_move([s.actor for s in steps], state_at, len(steps))


#: ``changes`` of one action's two states, by the states themselves (kept with the result, so
#: an object's id is never reused while it is a key): the last move is worked out again at every
#: redraw, looking back through the bids and passes before it
_STEP_CHANGES: dict[tuple[int, int], tuple[State, State, Changes]] = {}
_STEP_CHANGES_LIMIT = 128


def _step_changes(before: State, after: State) -> Changes:
    key = (id(before), id(after))
    kept = _STEP_CHANGES.get(key)
    if kept is not None and kept[0] is before and kept[1] is after:
        return kept[2]
    if len(_STEP_CHANGES) >= _STEP_CHANGES_LIMIT:
        _STEP_CHANGES.clear()
    result = changes(before, after)
    _STEP_CHANGES[key] = (before, after, result)
    return result


def last_move(actors: Sequence[int], state_at: Callable[[int], State], end: int) -> Changes:
    """What the last run of actions by one player changed, up to ``end`` actions:
    ``actors[i]`` played action i, ``state_at(i)`` is the state after i actions.  Actions
    that changed nothing marked (a bid, a pass) are looked through, so the result of an
    auction stays marked while the next players pass."""
    if end <= 0:
        return Changes()
    last = end
    while last > 1 and _step_changes(state_at(last - 1), state_at(last)).empty:
        last -= 1
    actor = actors[last - 1]
    first = last - 1
    while first > 0 and actors[first - 1] == actor:
        first -= 1
    run = changes(state_at(first), state_at(last), actor)
    # a spectacle performed and put face up within the run shows in neither end state
    performed = {p for i in range(first, last) for p in _step_changes(state_at(i), state_at(i + 1)).performed}
    return msgspec.structs.replace(run, performed=tuple(sorted(performed)))


def since(steps: Sequence[Step], seat: int, limit: int = 0) -> list[str]:
    start = len(steps)
    while start > 0 and steps[start - 1].actor != seat:
        start -= 1
    recent = steps[start:]
    if not recent:
        return []
    names = [p.name for p in recent[-1].after.players]
    groups: list[list[Step]] = []
    for s in recent:
        g = groups[-1] if groups else None
        if g is not None and (g[0].owner, g[0].round, g[0].phase) == (s.owner, s.round, s.phase):
            g.append(s)
        else:
            groups.append([s])
    lines = [line for line in (turn_line(g, names) for g in groups) if line]
    return lines[-limit:] if limit > 0 else lines
