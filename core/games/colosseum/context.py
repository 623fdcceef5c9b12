"""The reducer's working context, and the effects several phases share.

``Ctx`` is a state under construction plus the events an action produced so far: each phase
handler (``core/phases/*``) reads and replaces ``ctx.st`` and logs through ``ctx.log``.  It
lives in its own module, below both the engine (which creates it) and the phases (which use
it), so that neither imports the other.

Shared effects: :func:`recheck_stars` (G-7, after any change of tiles, in every phase that moves
tiles) and :func:`end_game` (G-9, reached from the performances, G-5.4).  The rules themselves
are the pure queries in :mod:`colosseum.core.games.colosseum.queries`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from colosseum.core import rng
from colosseum.core.events import Event
from colosseum.core.games.colosseum.components import Catalog
from colosseum.core.games.colosseum.model import NOBODY, Player, State
from colosseum.core.games.colosseum.queries import next_stars, rank, turn_order

__all__ = ["Ctx", "end_game", "pick_by_coins_and_dice", "recheck_stars"]


class Ctx:
    """A state under construction plus the events produced so far.

    ``quiet``: no event is recorded, and the handlers skip composing the log's sentences
    (``if not ctx.quiet: ctx.log(...)``), which was a good part of an action's cost; the states
    are the same.  For playouts, which throw the events away."""

    __slots__ = ("st", "cat", "events", "quiet")

    def __init__(self, st: State, cat: Catalog, quiet: bool = False) -> None:
        self.st = st
        self.cat = cat
        self.events: list[Event] = []
        self.quiet = quiet

    def log(self, kind: str, text: str, seat: int = NOBODY) -> None:
        self.events.append(Event(kind=kind, text=text, seat=seat, round=self.st.round, phase=self.st.phase))

    def name(self, seat: int) -> str:
        return self.st.players[seat].name

    def player(self, seat: int) -> Player:
        return self.st.players[seat]

    def set_player(self, seat: int, **changes: Any) -> Player:
        st = self.st
        players = list(st.players)
        p = players[seat] = replace(players[seat], **changes)
        self.st = replace(st, players=tuple(players))
        return p

    def set(self, **changes: Any) -> None:
        self.st = replace(self.st, **changes)

    def draw(self) -> int:
        """Draw one tile from the bag (uniform over tiles); -1 if the bag is empty."""
        bag = self.st.bag
        total = sum(bag)
        if total == 0:
            return NOBODY
        s, r = rng.below(self.st.rng, total, rng.key_of(self.st.setup.secret))
        kind = 0
        while r >= bag[kind]:
            r -= bag[kind]
            kind += 1
        nb = list(bag)
        nb[kind] -= 1
        self.st = replace(self.st, rng=s, bag=tuple(nb))
        return kind

    def draws(self, count: int) -> list[int]:
        """``count`` draws in a row, as many calls of :meth:`draw` would give them (-1 for each
        once the bag is empty), with one change of the state (the deal and every market refill
        draw through this)."""
        st = self.st
        bag = list(st.bag)
        total = sum(bag)
        s, zs = rng.u64s(st.rng, min(count, total), rng.key_of(st.setup.secret))
        out = []
        for z in zs:
            r = z % total
            kind = 0
            while r >= bag[kind]:
                r -= bag[kind]
                kind += 1
            bag[kind] -= 1
            total -= 1
            out.append(kind)
        if out:
            self.st = replace(st, rng=s, bag=tuple(bag))
        out += [NOBODY] * (count - len(out))
        return out

    def rolls(self, count: int) -> tuple[int, ...]:
        """``count`` dice rolled in a row, as many calls of :meth:`roll`, with one change of the
        state."""
        s, zs = rng.u64s(self.st.rng, count, rng.key_of(self.st.setup.secret))
        self.st = replace(self.st, rng=s)
        return tuple(z % 6 + 1 for z in zs)

    def roll(self) -> int:
        s, r = rng.below(self.st.rng, 6, rng.key_of(self.st.setup.secret))
        self.st = replace(self.st, rng=s)
        return r + 1

    def tile_name(self, kind: int, count: int = 1) -> str:
        return self.cat.name_of(kind, count)

    def tiles_text(self, kinds: Iterable[int]) -> str:
        return ", ".join(self.cat.tiles[k].name for k in kinds) or "nothing"


def recheck_stars(ctx: Ctx, kinds: Iterable[int]) -> None:
    """G-7, for each tile kind whose counts may have changed: move the Star Performers and log
    each move (in the order of ``kinds``)."""
    kinds = tuple(kinds)
    st = ctx.st
    stars = st.stars
    new = next_stars(ctx.cat, st.players, stars, kinds)
    if new == stars:
        return
    ctx.st = replace(st, stars=new)
    if ctx.quiet:
        return
    players = st.players
    for k in kinds:
        h, holder = stars[k], new[k]
        if holder == h:
            continue
        name = f"{ctx.cat.tiles[k].name} {ctx.cat.term('star')}"  # "the Torch star card" (O-2)
        if holder == NOBODY:
            ctx.log("star", f"The {name} returns to the board.", h)
        elif h == NOBODY:
            ctx.log("star", f"{players[holder].name} takes the {name}.", holder)
        else:
            ctx.log("star", f"{players[holder].name} takes the {name} from {players[h].name}.", holder)


def pick_by_coins_and_dice(ctx: Ctx, seats: Iterable[int], highest: bool, why: str) -> int:
    """O-24 / O-26: the seat among ``seats`` with the highest (or lowest) marker; tie: the most
    (or fewest) coins; still tied, each tied player rolls 2 dice and the highest (or lowest) sum
    is taken, the players tied again rolling again.  Rolls are logged (``why`` names the step)."""
    sign = 1 if highest else -1
    players = ctx.st.players
    tied = list(seats)
    best = max(sign * players[s].acclaim for s in tied)
    tied = [s for s in tied if sign * players[s].acclaim == best]
    if len(tied) > 1:
        best = max(sign * players[s].coins for s in tied)
        tied = [s for s in tied if sign * players[s].coins == best]
    while len(tied) > 1:
        sums = {}
        for s in tied:
            a, b = ctx.roll(), ctx.roll()
            sums[s] = a + b
            if not ctx.quiet:
                ctx.log("roll", f"{ctx.name(s)} rolls {a} and {b} for the {why} tie.", s)
        best = max(sign * v for v in sums.values())
        tied = [s for s in tied if sign * sums[s] == best]
    return tied[0]


def end_game(ctx: Ctx) -> None:
    """G-9 (C-6: no Acclaim for Aquilas in the classic game; O-29: medals are worth nothing,
    players still tied share the win)."""
    st = ctx.st
    per = ctx.cat.rules.endgame_aquila_acclaim
    ctx.st = replace(ctx.st, phase="over")
    for seat in turn_order(st):
        p = ctx.player(seat)
        if not p.aquilas:
            continue
        if per:
            gain = per * p.aquilas
            new = p.acclaim + gain
            ctx.set_player(seat, acclaim=new, aquilas=0, seq=ctx.st.next_seq)
            ctx.st = replace(ctx.st, next_seq=ctx.st.next_seq + 1)
            if not ctx.quiet:
                aquilas, acclaim = ctx.cat.count_term(p.aquilas, "aquilas"), ctx.cat.term("acclaim")
                ctx.log("aquila", f"{p.name} returns {aquilas} for {gain} {acclaim}: {p.acclaim} to {new}.", seat)
        elif ctx.cat.rules.end_tie == "shared":  # the original (O-29)
            ctx.set_player(seat, aquilas=0)
            if not ctx.quiet:
                aquilas = ctx.cat.count_term(p.aquilas, "aquilas")
                worth = "is" if p.aquilas == 1 else "are"
                ctx.log("aquila", f"{p.name}'s {aquilas} {worth} worth nothing at the end.", seat)
        else:
            ctx.set_player(seat, aquilas=0)
            if not ctx.quiet:
                aquilas, acclaim = ctx.cat.count_term(p.aquilas, "aquilas"), ctx.cat.term("acclaim")
                ctx.log("aquila", f"{p.name} discards {aquilas} (no {acclaim} in the classic game).", seat)
    result = rank(ctx.st)
    ctx.st = replace(ctx.st, result=result)
    if ctx.quiet:
        return
    acclaim = f"{ctx.player(result.winner).acclaim} {ctx.cat.term('acclaim')}"
    if result.shared:
        names = " and ".join(ctx.name(s) for s in result.shared)
        ctx.log("over", f"The game is over. {names} share the win with {acclaim}.", result.winner)
        return
    ctx.log("over", f"The game is over. {ctx.name(result.winner)} wins with {acclaim}.", result.winner)
