"""Public, pure rule queries: what the phases, the bots, the dialogs and the server ask.

Each answer is computed here and nowhere else: the engine's phase handlers call these same
functions, so a caller outside the engine (a bot weighing a move, a dialog describing one)
never re-derives a rule.  Everything is a pure function of its arguments; nothing here changes
a state.  Where a caller is on a hot path (the greedy bot), a query takes what it would
otherwise recompute (``occupied`` in :func:`landing`) as an optional argument.

Contents, by rule:

* standing: :func:`credit` (G-3.4), :func:`bid_limit` (G-3.4 / O-18), :func:`aquilas_left` and
  :func:`aquilas_gained` (O-2 medal supply), :func:`numbering_floor` (O-12), :func:`star_count`, :func:`turn_order`,
  :func:`most_acclaimed` / :func:`least_acclaimed` (G-5.4, G-6.2), :func:`rank` (G-9);
* the board: :func:`gate_owner`, :func:`landing` (where a noble lands, G-5.1 / C-4),
  :func:`noble_step_range` (how far a die moves one, G-5.1 / C-4);
* spectacles: :func:`match`, :func:`missing` / :func:`missings` (G-5.2), :func:`why_not_performable`,
  :func:`breakdown` (G-5.3), :func:`spectacle_by_key`;
* Star Performers (G-7): :func:`star_holder` (the rule), :func:`next_stars` (after any change of
  tiles), :func:`stars_after` (the same from per-seat deltas), :func:`star_need` and
  :func:`stars_held` (one seat's view, for bots);
* seats: :data:`ANY_SEAT_ACTIONS`, :func:`safe_action`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from functools import cache

from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum.actions import (
    CancelDeal,
    ConstructionForAquila,
    ProposeDeal,
)
from colosseum.core.games.colosseum.components import Catalog, Spectacle, load_catalog
from colosseum.core.games.colosseum.model import NOBODY, Player, Result, Standing, State

__all__ = [
    "ANY_SEAT_ACTIONS",
    "NOBODY",
    "NO_STAR",
    "Breakdown",
    "Match",
    "aquilas_gained",
    "aquilas_left",
    "bid_limit",
    "breakdown",
    "performance_total",
    "catalog",
    "credit",
    "gate_owner",
    "landing",
    "least_acclaimed",
    "match",
    "missing",
    "missings",
    "most_acclaimed",
    "next_stars",
    "noble_step_range",
    "numbering_floor",
    "rank",
    "spectacle_by_key",
    "stack_key",
    "star_count",
    "star_holder",
    "star_need",
    "star_needs",
    "stars_after",
    "stars_held",
    "turn_order",
    "why_not_performable",
]

#: ``State.stars`` entry of a tile kind that has no Star Performer.
NO_STAR = -2

#: Action types a seat may send while the game waits on another seat (G-4 deals, C-5 tiles);
#: their handlers check who may send them.
ANY_SEAT_ACTIONS: frozenset[type] = frozenset({ProposeDeal, CancelDeal, ConstructionForAquila})


def catalog(state: State) -> Catalog:
    return load_catalog(state.setup.variant)


def phase_title(state: State) -> str:
    """The short title of ``state``'s phase in its edition's words ("Phase 2 Hire"; the
    original's "Phase 2 Acquire"): the catalog's term ``phase <name>``."""
    return catalog(state).term(f"phase {state.phase}")


def credit(p: Player) -> int:
    """G-3.4: what a player can bid: coins + 6 per Aquila."""
    return p.coins + 6 * p.aquilas


def bid_limit(cat: Catalog, p: Player) -> int:
    """The highest bid ``p`` may make: credit (G-3.4), or the coins held where Aquilas are not
    credit (O-18, the original edition)."""
    return credit(p) if cat.rules.credit else p.coins


def aquilas_left(cat: Catalog, state: State) -> int | None:
    """Aquilas (medals) still in the supply, or None when the supply is unlimited (G-8).  O-2:
    the original has 18 medals; spent ones go back, so the supply is what nobody holds."""
    limit = cat.rules.aquila_supply
    if not limit:
        return None
    return max(0, limit - sum(p.aquilas for p in state.players))


def aquilas_gained(cat: Catalog, state: State, wanted: int) -> int:
    """How many of ``wanted`` Aquilas (medals) a player can take now (O-2: none when the supply
    is empty)."""
    left = aquilas_left(cat, state)
    return wanted if left is None else min(wanted, left)


def numbering_floor(cat: Catalog, p: Player) -> int:
    """O-12: a program bought must have a number above this (0: no numbering rule).  By default
    (``performed``) the highest program ``p`` has performed in an earlier round; with
    ``purchased`` the highest program ``p`` owns."""
    rule = cat.rules.numbering
    if not rule:
        return 0
    ids = p.face_up if rule == "performed" else (*p.face_down, *p.face_up)
    if rule == "performed" and p.arena != NOBODY:
        ids = (*ids, p.arena)
    return max((cat.spectacles[i].number_2007 for i in ids), default=0)


def star_count(state: State, seat: int) -> int:
    return sum(1 for h in state.stars if h == seat)


def turn_order(state: State) -> list[int]:
    n = len(state.players)
    return [(state.first + k) % n for k in range(n)]


def gate_owner(state: State, space: int) -> int:
    for seat, p in enumerate(state.players):
        if space in p.gates:
            return seat
    return NOBODY


def stack_key(p: Player) -> tuple[int, int]:
    """Order on the Acclaim track: further along first; on one space, lower in the stack first
    counts as *further* (G-5.4 ties go to the bottom marker)."""
    return (p.acclaim, -p.seq)


def most_acclaimed(state: State) -> int:
    """Furthest along; tie: bottom marker of the stack (G-5.4, G-6.2)."""
    return max(range(len(state.players)), key=lambda s: stack_key(state.players[s]))


def least_acclaimed(state: State) -> int:
    """Furthest back; tie: top marker of the stack (G-6.2)."""
    return min(range(len(state.players)), key=lambda s: stack_key(state.players[s]))


class Match:
    """How a player's tiles fill a spectacle (G-5.2)."""

    __slots__ = ("matched", "missing", "used")

    def __init__(self, matched: int, missing: int, used: tuple[int, ...]) -> None:
        self.matched = matched
        self.missing = missing
        self.used = used


def match(cat: Catalog, tiles: tuple[int, ...], spec: Spectacle) -> Match:
    used = [0] * len(tiles)
    matched = 0
    for k, need in spec.req:
        u = tiles[k] if tiles[k] < need else need
        used[k] = u
        matched += u
    bal = cat.balatro
    gap = spec.total - matched
    wild = tiles[bal] if tiles[bal] < gap else gap
    used[bal] = wild
    matched += wild
    return Match(matched, spec.total - matched, tuple(used))


def missings(cat: Catalog, tiles: Sequence[int], specs: Iterable[Spectacle]) -> list[int]:
    """How many performers ``tiles`` lack for each of ``specs`` (G-5.2: each requirement filled
    by its own tiles, balatros filling the gap), as ``match(...).missing``.  One call for many
    spectacles: bots value hands by it in their inner loops."""
    bal = tiles[cat.balatro]
    out = []
    for spec in specs:
        matched = 0
        for k, need in spec.req:
            have = tiles[k]
            matched += have if have < need else need
        gap = spec.total - matched
        out.append(gap - (bal if bal < gap else gap))
    return out


def missing(cat: Catalog, tiles: Sequence[int], spec: Spectacle) -> int:
    """How many performers ``tiles`` lack for ``spec`` (G-5.2); see :func:`missings`."""
    return missings(cat, tiles, (spec,))[0]


def spectacle_by_key(cat: Catalog, key: str) -> Spectacle:
    sid = cat.spectacle_index.get(key) if isinstance(key, str) else None
    if sid is None:
        raise RuleError("G-5.2", f"there is no spectacle {key!r}")
    return cat.spectacles[sid]


def why_not_performable(state: State, seat: int, spec: Spectacle) -> str | None:
    """None if ``seat`` may perform ``spec`` now (G-5.2), else the reason."""
    p = state.players[seat]
    if spec.id not in p.face_down and spec.id not in p.face_up:
        return f"{p.name} does not own {spec.name}"
    if len(p.gates) < spec.gates:
        return f"{spec.name} needs {spec.gates} gates; {p.name} has {len(p.gates)}"
    cat = catalog(state)
    if missing(cat, p.tiles, spec) > spec.max_missing:
        least = spec.total - spec.max_missing
        m = match(cat, p.tiles, spec)
        return f"{spec.name} needs at least {least} of its {spec.total} performers; {p.name} has {m.matched}"
    return None


class Breakdown:
    """G-5.3: the Acclaim of one performance, step by step."""

    __slots__ = ("lines", "total", "missing", "matched", "used")

    def __init__(
        self, lines: tuple[tuple[str, int], ...], total: int, missing: int, matched: int, used: tuple[int, ...]
    ) -> None:
        self.lines: tuple[tuple[str, int], ...] = lines
        self.total: int = total
        self.missing: int = missing
        self.matched: int = matched
        self.used: tuple[int, ...] = used


@cache
def _noble_acclaim(variant: str) -> tuple[int, ...]:
    """The Acclaim each noble brings when at a performer's gate, by noble."""
    cat = load_catalog(variant)
    c = cat.common
    return tuple(
        c.emperor_acclaim if kind == "emperor" else c.consul_acclaim if kind == "consul" else c.senator_acclaim
        for kind in cat.noble_kinds
    )


def _parts(state: State, seat: int, spec: Spectacle) -> tuple[Match, int, int, int, int]:
    """G-5.3's counts: the match, the spectacle's base Acclaim, earlier performances, Star
    Performers, and the Acclaim of the nobles at ``seat``'s gates."""
    cat = catalog(state)
    p = state.players[seat]
    m = match(cat, p.tiles, spec)
    base = spec.acclaim_for_missing(m.missing) or 0
    earlier = len(p.face_up) - (1 if spec.id in p.face_up else 0)
    holders = state.stars
    stars = 0
    for k, _ in spec.req:  # the kinds the spectacle needs
        if holders[k] == seat:
            stars += 1
    nobles = 0
    gates = p.gates
    acclaim = _noble_acclaim(cat.variant)
    for i, pos in enumerate(state.nobles):
        if pos in gates:
            nobles += acclaim[i]
    return m, base, earlier, stars, nobles


def breakdown(state: State, seat: int, spec: Spectacle, aquilas: int = 0) -> Breakdown:
    """The full G-5.3 breakdown of ``seat`` performing ``spec`` now, spending ``aquilas``."""
    cat = catalog(state)
    c = cat.common
    p = state.players[seat]
    m, base, earlier, stars, nobles = _parts(state, seat, spec)
    short = f"{m.missing} short" if m.missing else "complete"
    lines = (
        (f"{spec.name} ({short})", base),
        (f"Earlier performances x{earlier}", earlier * c.performed_acclaim),
        (f"{cat.term_start('stars')} x{stars}", stars * c.star_acclaim),
        (f"Nobles at your {cat.term('gates')}", nobles),
        (f"{_title(cat.term('promoters'))} x{p.promoters}", p.promoters * c.promoter_acclaim),
        (f"{_title(cat.term('gifts'))} x{p.gifts}", p.gifts * c.gift_acclaim),
        (f"{_title(cat.term('aquilas'))} spent x{aquilas}", aquilas * c.aquila_acclaim),
    )
    total = sum(v for _, v in lines)
    return Breakdown(lines, total, m.missing, m.matched, m.used)


def performance_total(state: State, seat: int, spec: Spectacle, aquilas: int = 0) -> tuple[int, tuple[int, ...]]:
    """``breakdown(...)``'s total and the tiles used, without composing its lines' text: for
    the engine's quiet path."""
    c = catalog(state).common
    p = state.players[seat]
    m, base, earlier, stars, nobles = _parts(state, seat, spec)
    total = (
        base
        + earlier * c.performed_acclaim
        + stars * c.star_acclaim
        + nobles
        + p.promoters * c.promoter_acclaim
        + p.gifts * c.gift_acclaim
        + aquilas * c.aquila_acclaim
    )
    return total, m.used


def _title(word: str) -> str:
    return word[:1].upper() + word[1:]


def rank(state: State) -> Result:
    """G-9: highest marker; ties: most coins, most Star Performers, bottom of the stack.  O-29
    (the original): no stack; players still tied share the win (and their rank)."""
    shared_ties = catalog(state).rules.end_tie == "shared"

    def key(seat: int) -> tuple[int, int, int, int]:
        p = state.players[seat]
        return (-p.acclaim, -p.coins, -star_count(state, seat), 0 if shared_ties else p.seq)

    keys = [key(seat) for seat in range(len(state.players))]  # each seat's key, once
    order = sorted(range(len(state.players)), key=keys.__getitem__)
    standings = []
    place = 1
    for i, seat in enumerate(order):
        k = keys[seat]
        if i and keys[order[i - 1]] != k:
            place = i + 1
        decided = ""
        if i + 1 < len(order):
            other = keys[order[i + 1]]
            for name, a_, b_ in zip(("acclaim", "coins", "stars", "stack"), k, other, strict=False):
                if a_ != b_:
                    decided = name
                    break
        p = state.players[seat]
        standings.append(
            Standing(
                seat=seat,
                rank=place,
                acclaim=p.acclaim,
                coins=p.coins,
                stars=-k[2],
                seq=p.seq,
                decided_by=decided,
            )
        )
    winners = tuple(seat for seat in order if keys[seat] == keys[order[0]])
    return Result(winner=order[0], standings=tuple(standings), shared=winners if len(winners) > 1 else ())


def landing(cat: Catalog, nobles: Sequence[int], noble: int, steps: int, occupied: Set[int] | None = None) -> int:
    """Where ``noble`` ends after ``steps`` from ``nobles`` (negative: counter-clockwise).
    G-5.1: spaces occupied by another noble are skipped and not counted; C-4: classic counts
    every space.  ``occupied`` (the other nobles' spaces) may be passed in when known."""
    n_sp = cat.track_spaces
    pos = nobles[noble]
    if not cat.rules.skip_occupied:
        return (pos + steps) % n_sp
    if occupied is None:
        occupied = {p for i, p in enumerate(nobles) if i != noble}
    d = 1 if steps > 0 else -1
    left = abs(steps)
    while left:
        pos = (pos + d) % n_sp
        if pos not in occupied:
            left -= 1
    return pos


def noble_step_range(state: State, die: int) -> tuple[int, int]:
    """The distances a noble may move with ``die`` (index, or -1 for the sum), G-5.1 / C-4."""
    pt = state.perform
    assert pt is not None
    cat = catalog(state)
    ranges = cat.rules.temple_ranges and state.players[pt.player].temple
    if die == -1:
        total = sum(pt.dice)
        return (len(pt.dice) if ranges else total, total)
    face = pt.dice[die]
    return (1 if ranges else face, face)


# ---------------------------------------------------------------------- Star Performers (G-7)


def star_holder(counts: Sequence[int], holder: int, minimum: int) -> int:
    """G-7: who holds a Star Performer, given each seat's count of its tiles and its holder so
    far.  The holder keeps it while having the most (ties included) and at least ``minimum``;
    otherwise the one seat with strictly the most (at least ``minimum``) takes it, or nobody."""
    m = max(counts)
    if holder >= 0 and counts[holder] == m and m >= minimum:
        return holder
    return counts.index(m) if m >= minimum and counts.count(m) == 1 else NOBODY


def next_stars(cat: Catalog, players: Sequence[Player], stars: Sequence[int], kinds: Iterable[int]) -> tuple[int, ...]:
    """The Star Performer holders once ``players`` hold their tiles, rechecking ``kinds`` (G-7)."""
    new = list(stars)
    minimum = cat.common.star_minimum
    for k in kinds:
        if stars[k] != NO_STAR:
            new[k] = star_holder([p.tiles[k] for p in players], stars[k], minimum)
    return tuple(new)


def stars_after(state: State, deltas: Mapping[int, Mapping[int, int]]) -> tuple[int, ...]:
    """Star Performer holders if each seat's tiles changed by ``deltas`` ({seat: {kind: +-n}}),
    as the engine would recheck them (G-7)."""
    players = list(state.players)
    kinds: set[int] = set()
    for seat, gained in deltas.items():
        tiles = list(players[seat].tiles)
        for k, n in gained.items():
            tiles[k] += n
        players[seat] = replace(players[seat], tiles=tuple(tiles))
        kinds.update(k for k, n in gained.items() if n)
    return next_stars(catalog(state), players, state.stars, sorted(kinds))


def star_need(state: State, cat: Catalog, seat: int, kind: int) -> int:
    """The fewest ``kind`` tiles with which ``seat`` would hold that Star Performer, the other
    seats' tiles unchanged: :func:`star_holder` solved for one seat (G-7)."""
    other = 0  # the most any other seat holds (counts are never negative)
    for i, q in enumerate(state.players):
        if i != seat and q.tiles[kind] > other:
            other = q.tiles[kind]
    if state.stars[kind] != seat:
        other += 1
    minimum = cat.common.star_minimum
    return other if other > minimum else minimum


def star_needs(state: State, cat: Catalog, seat: int) -> tuple[int, ...]:
    """:func:`star_need` for every kind of ``cat.star_types``, in one pass over the seats (bots
    ask for all of them at once in their inner loops)."""
    others = [q.tiles for i, q in enumerate(state.players) if i != seat]
    stars = state.stars
    minimum = cat.common.star_minimum
    out = []
    for k in cat.star_types:
        # the most any other seat holds of the kind (at least 0), compared by hand: the builtin
        # ``max`` parses its arguments at every call
        other = 0
        for tiles in others:
            if tiles[k] > other:
                other = tiles[k]
        if stars[k] != seat:
            other += 1
        out.append(other if other > minimum else minimum)
    return tuple(out)


def stars_held(state: State, cat: Catalog, seat: int, tiles: Sequence[int]) -> set[int]:
    """Star Performer kinds ``seat`` would hold with ``tiles`` (other seats unchanged), G-7."""
    minimum = cat.common.star_minimum
    return {k for k in cat.star_types if tiles[k] >= minimum and tiles[k] >= star_need(state, cat, seat, k)}


# ---------------------------------------------------------------------- seats
