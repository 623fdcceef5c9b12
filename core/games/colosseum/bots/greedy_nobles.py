"""The greedy bot's sense of the track: how likely a noble is brought onto a gate by the dice,
where a noble lands, what each noble and an Aquila are worth (``greedy_tiles`` and
``greedy_value`` read them; the rules' own queries stay in ``queries``)."""

from __future__ import annotations

from collections.abc import Sequence, Set

from colosseum.core.games.colosseum.components import Catalog

__all__ = ["AQUILA_VALUE", "REACH", "Track", "noble_values"]


# 2d6: the chance that a noble d spaces behind a gate can be brought onto it by one die or the
# sum (rough: either die showing d, or the sum being d).
_DIE = [0.0] + [11 / 36] * 6 + [0.0] * 30
_SUM = [0.0, 0.0] + [min(i - 1, 13 - i) / 36 for i in range(2, 13)] + [0.0] * 24
REACH = [min(1.0, _DIE[d] + _SUM[d]) for d in range(36)]

AQUILA_VALUE = 3.5  # an Aquila token: 3 Acclaim at the end (G-9) or 6 coins, or a move

_NOBLE_VALUES: dict[str, tuple[int, ...]] = {}


def noble_values(cat: Catalog) -> tuple[int, ...]:
    """The Acclaim each noble brings to the gate it stands at (G-5.3)."""
    vals = _NOBLE_VALUES.get(cat.variant)
    if vals is None:
        c = cat.common
        vals = _NOBLE_VALUES[cat.variant] = tuple(
            c.emperor_acclaim if k == "emperor" else c.consul_acclaim if k == "consul" else c.senator_acclaim
            for k in cat.noble_kinds
        )
    return vals


_AQUILA_BONUS: dict[int, tuple[Catalog, list[float]]] = {}


def _aquila_bonus(cat: Catalog) -> list[float]:
    """Per track space, the value of an Aquila won by a noble ending there (G-5.1)."""
    hit = _AQUILA_BONUS.get(id(cat))
    if hit is None or hit[0] is not cat:
        bonus = [AQUILA_VALUE if x in cat.aquila_spaces else 0.0 for x in range(cat.track_spaces)]
        hit = _AQUILA_BONUS[id(cat)] = (cat, bonus)
    return hit[1]


def _reach(
    cat: Catalog, nobles: Sequence[int], noble: int, hi: int, occupied: Set[int], direction: int = 1
) -> list[int]:
    """Where ``noble`` lands after 0, 1, ... ``hi`` steps forward (``direction`` 1) or back (-1):
    ``landing`` for every distance in one walk (G-5.1: occupied spaces are skipped and not
    counted; C-4: classic counts every space).  The searches ask ``_walk``, the same walk from
    what they keep at hand."""
    n_sp = cat.track_spaces
    pos = nobles[noble]
    if not cat.rules.skip_occupied:
        return [(pos + direction * s) % n_sp for s in range(hi + 1)]
    out = [pos]
    while len(out) <= hi:
        pos = (pos + direction) % n_sp
        if pos not in occupied:
            out.append(pos)
    return out


def _walk(spaces: int, skip: bool, start: int, hi: int, count: list[int], direction: int = 1) -> list[int]:
    """``_reach`` of the noble standing on ``start``, on a track of ``spaces`` spaces (``skip``:
    the rules' ``skip_occupied``), with the other nobles' spaces told by ``count``: the nobles on
    each space (``Track.count``), the walking one included.  The search of dice moves asks for all
    the distances of a die at once, and moves one noble in ``count`` to walk another after it."""
    if not skip:
        return [(start + direction * s) % spaces for s in range(hi + 1)]
    out = [start]
    pos = start
    while len(out) <= hi:
        pos = (pos + direction) % spaces
        # no other noble there (the walking one is counted on its own space)
        n = count[pos]
        if n == 0 or (n == 1 and pos == start):
            out.append(pos)
    return out


class Track:
    """What the dice search reads of a catalog, as plain attributes (a ``Catalog`` is a msgspec
    Struct: each attribute read of one is a generic lookup, in the compiled build too)."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.spaces: int = cat.track_spaces
        self.skip: bool = cat.rules.skip_occupied
        self.values: tuple[int, ...] = noble_values(cat)
        self.bonus: list[float] = _aquila_bonus(cat)

    def count(self, nobles: Sequence[int]) -> list[int]:
        """The nobles on each space of the track (``_walk`` skips the occupied ones)."""
        out = [0] * self.spaces
        for pos in nobles:
            if pos < self.spaces:
                out[pos] += 1
        return out
