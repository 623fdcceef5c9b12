"""Queries on a Municipium state (influence, ranking, leaders) and ``Ctx``, the working copy an
action is applied to.  Pure functions of the state; no rule changes anything here except
through ``Ctx``'s small setters.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from colosseum.core import rng
from colosseum.core.events import Event
from colosseum.core.games.municipium.catalog import MuniCatalog, load_catalog
from colosseum.core.games.municipium.model import NO_KIND, NOBODY, Player, State


def add(t: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
    """``t`` with ``d`` added at index ``i``."""
    return t[:i] + (t[i] + d,) + t[i + 1 :]


def influence(state: State, seat: int, inst: int) -> int:
    """M-4.1: members there, a crowned member counting 2."""
    p = state.players[seat]
    return p.plain[inst] + 2 * p.crowned[inst]


def temple_pos(state: State, seat: int) -> int:
    """0 = space I.  Before the Temple order exists (initial placement), the seat itself."""
    return state.temple.index(seat) if state.temple else seat


def ranking(state: State, inst: int) -> tuple[int, ...]:
    """M-4.2: seats with influence >= 1 at ``inst``, highest first, ties by the Temple order."""
    temple = state.temple
    present = []
    for s, p in enumerate(state.players):
        v = p.plain[inst] + 2 * p.crowned[inst]  # (``influence``)
        if v > 0:
            present.append((-v, temple.index(s) if temple else s, s))  # (``temple_pos``: no two alike)
    if len(present) > 1:
        present.sort()
    return tuple(t[2] for t in present)


def leader(state: State, inst: int) -> int:
    """The seat first at ``inst`` (``ranking``), or NOBODY."""
    temple = state.temple
    best = NOBODY
    best_key = (0, 0)
    for s, p in enumerate(state.players):
        v = p.plain[inst] + 2 * p.crowned[inst]
        if v > 0:
            key = (-v, temple.index(s) if temple else s)
            if best == NOBODY or key < best_key:
                best, best_key = s, key
    return best


def led_by(state: State, seat: int) -> tuple[int, ...]:
    """Institutions where ``seat`` has most influence, in number order."""
    return tuple(i for i in range(7) if leader(state, i) == seat)


def members_at(p: Player, inst: int) -> int:
    return p.plain[inst] + p.crowned[inst]


def held_total(p: Player) -> int:
    return sum(p.citizens) + p.favours


class Ctx:
    """The state being changed by one action, the catalog and the log lines it produced."""

    def __init__(self, st: State) -> None:
        self.st = st
        self.cat: MuniCatalog = load_catalog()
        self.events: list[Event] = []

    def log(self, kind: str, text: str, seat: int = NOBODY) -> None:
        self.events.append(Event(kind=kind, text=text, seat=seat, round=self.st.turn, phase=self.st.phase))

    def name(self, seat: int) -> str:
        return self.st.players[seat].name

    def set(self, **changes: Any) -> None:
        self.st = replace(self.st, **changes)

    def set_player(self, seat: int, **changes: Any) -> None:
        players = list(self.st.players)
        players[seat] = replace(players[seat], **changes)
        self.st = replace(self.st, players=tuple(players))

    def draw(self) -> int:
        """One random citizen from the bag (its kind), or -1 when the bag is empty (M-12.1)."""
        bag = self.st.bag
        total = sum(bag)
        if total == 0:
            return NO_KIND
        r, x = rng.below(self.st.rng, total, rng.key_of(self.st.setup.secret))
        for k, c in enumerate(bag):
            if x < c:
                self.set(rng=r, bag=add(bag, k, -1))
                return k
            x -= c
        raise AssertionError("unreachable: x < total")

    def to_bag(self, kind: int, count: int = 1) -> None:
        self.set(bag=add(self.st.bag, kind, count))

    def set_banner(self, inst: int, counts: tuple[int, ...]) -> None:
        banners = list(self.st.banners)
        banners[inst] = counts
        self.set(banners=tuple(banners))

    def set_chamber(self, inst: int, kind: int) -> None:
        self.set(chamber=self.st.chamber[:inst] + (kind,) + self.st.chamber[inst + 1 :])

    def set_favour_space(self, inst: int, filled: bool) -> None:
        fs = self.st.favour_spaces
        self.set(favour_spaces=fs[:inst] + (filled,) + fs[inst + 1 :])

    def push(self, *frames: Any) -> None:
        self.set(stack=self.st.stack + tuple(frames))

    def pop(self) -> None:
        self.set(stack=self.st.stack[:-1])

    def replace_top(self, frame: Any) -> None:
        self.set(stack=self.st.stack[:-1] + (frame,))
