"""How the ``greedy`` bot values tiles: the hands it could perform with, the spectacles that
fit them, the bundles of spectacles and investments it could make, coins kept for later.
``GreedyValuation`` (``greedy_value``) adds lots, deals, performances and noble moves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from colosseum.core.games.colosseum.components import Catalog, Spectacle
from colosseum.core.games.colosseum.model import Player, State, Transfer
from colosseum.core.games.colosseum.queries import (
    NOBODY,
    missing,
    numbering_floor,
    star_needs,
    stars_held,
)

from .greedy_nobles import REACH, noble_values

__all__ = ["SpecTable", "TileValuation", "spec_table"]

#: A sequence of dice moves (noble, die, steps) and its value.
Moves = tuple[float, list[tuple[int, int, int]]]
#: What tile_utility needs about a seat in a state: (spectacle, offset, performable this round)
#: entries, their spectacles, (kind, tiles needed for its Star Performer) pairs, Acclaim per star.
#: An entry, compiled for tile_utility's inner loop: (requirement pairs, total, max missing,
#: strip value by performers missing (``strip_values``), need per kind, offset, performable this
#: round).
_UtilEntry = tuple[tuple[tuple[int, int], ...], int, int, tuple[float, ...], tuple[int, ...], float, bool]
_UtilContext = tuple[list[_UtilEntry], int, list[tuple[int, int]], int]

#: What a seat's utility key was made of (players, stars, display, round, phase, catalog), and
#: the context and utilities of that key.
_UtilParts = tuple[
    tuple[Player, ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    str,
    Catalog,
    tuple[_UtilContext, dict[tuple[int, ...], float]],
]

#: Per spectacle id, what ``_util_context`` reads of it: (requirement pairs, total, max missing,
#: strip values (``strip_values``), need per kind, gates, cost, number, offset when it could
#: still be planned).
_SpecEntry = tuple[tuple[tuple[int, int], ...], int, int, tuple[float, ...], tuple[int, ...], int, int, int, float]


def strip_values(spec: Spectacle) -> tuple[float, ...]:
    """``TileValuation.strip_value`` of ``spec`` for every count of missing performers a hand
    with a tile more or less can reach (as floats: the same values in every sum): the inner
    loops read them from here, and compute them only beyond."""
    mm, strip = spec.max_missing, spec.strip
    return tuple(float(strip[m]) if m <= mm else strip[mm] - 3.0 * (m - mm) for m in range(max(spec.total, mm) + 2))


class SpecTable:
    """The spectacles of a catalog as the bot reads them, by id (once per catalog: a
    ``Spectacle`` is a msgspec Struct, whose every attribute read is a generic lookup, in the
    compiled build too): ``entries`` for ``_util_context``; the id of each key, the gates and cost
    of each, for the investment search."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.entries: list[_SpecEntry] = [
            (
                spec.req,
                spec.total,
                spec.max_missing,
                strip_values(spec),
                spec.need,
                spec.gates,
                spec.cost,
                spec.number_2007,
                -0.35 * spec.cost - 2.0,
            )
            for spec in cat.spectacles
        ]
        self.index: dict[str, int] = {spec.key: sid for sid, spec in enumerate(cat.spectacles)}
        self.gates: list[int] = [spec.gates for spec in cat.spectacles]
        self.costs: list[int] = [spec.cost for spec in cat.spectacles]


_SPEC_TABLES: dict[int, SpecTable] = {}


# ``GreedyValuation._util_shared`` and ``_fits_memo`` of each class
_SHARED_UTILS: dict[type, dict[tuple[object, ...], tuple[_UtilContext, dict[tuple[int, ...], float]]]] = {}
_SHARED_FITS: dict[type, dict[tuple[object, ...], dict[int, tuple[float, float]]]] = {}


def spec_table(cat: Catalog) -> SpecTable:
    """The spectacles of ``cat`` as the bot reads them (built once per catalog)."""
    hit = _SPEC_TABLES.get(id(cat))
    if hit is None or hit.cat is not cat:
        hit = _SPEC_TABLES[id(cat)] = SpecTable(cat)
    return hit


#: ``star_needs`` by seat (catalog, stars, tiles of all, needs): tiles stay the same tuple until they change
_NEEDS: dict[int, tuple[Catalog, tuple[int, ...], list[tuple[int, ...]], tuple[int, ...]]] = {}


def _star_needs(state: State, cat: Catalog, seat: int) -> tuple[int, ...]:
    last, players = _NEEDS.get(seat), state.players
    if last is not None and last[0] is cat and last[1] == state.stars and len(last[2]) == len(players):
        tiles = last[2]
        for i in range(len(tiles)):  # (by index: a ``zip`` with ``strict`` is a generic call)
            if tiles[i] is not players[i].tiles:
                break
        else:
            return last[3]
    needs = star_needs(state, cat, seat)
    _NEEDS[seat] = (cat, state.stars, [q.tiles for q in players], needs)
    return needs


class TileValuation:
    """The greedy bot's valuations of tiles and spectacles, with their per-decision caches."""

    def __init__(self) -> None:
        self._moves_cache: dict[tuple[object, ...], Moves] = {}
        # tile_utility by what it depends on (see ``_util_key``): a decision values the same
        # hands again and again, and so do the decisions of a trade round or an auction
        # _bundle_value's parts fixed by the decision: (state, seat, rounds left, gate charge,
        # money lost by spent coins)
        self._bundle_fixed: tuple[State | None, int, int, float, dict[int, float]] = (None, -1, 0, 0.0, {})
        # the entries of spectacles that could still be planned, by (display, coins + 15, floor)
        self._plan_cat: Catalog | None = None
        self._plan_entries: dict[tuple[tuple[int, ...], int, int], list[_UtilEntry]] = {}
        # Star Performers the seat holds with its tiles, for spectacle_fit: (state, seat, kinds)
        self._held_now: tuple[State | None, int, set[int]] = (None, -1, set())
        # spectacle_fits by (edition, tiles, shift, Star Performers held): id -> (fit, value now)
        self._fits_memo = _SHARED_FITS.setdefault(type(self), {})  # shared by the bots of a class
        # utility contexts and the utilities computed in them, by ``_util_key``: shared by the bots
        # of a class in a process (a context is what its key says; the seat a deal is proposed
        # to values the hands the proposer valued for it)
        self._util_shared = _SHARED_UTILS.setdefault(type(self), {})
        # (seat, id(state)) -> (state, context, utilities): the key of the last states looked up
        self._util_cache: dict[tuple[int, int], tuple[State, _UtilContext, dict[tuple[int, ...], float]]] = {}
        # seat -> what its last key was made of (players, stars, display, round, phase, catalog)
        # and the context and utilities of that key
        self._util_parts: dict[int, _UtilParts] = {}
        # deal_value in the last state asked, by (seat, transfers)
        self._deal_memo: tuple[State | None, dict[tuple[int, tuple[Transfer, ...]], float]] = (None, {})
        # the last (state, seat) looked up and its context and utilities
        self._util_last: tuple[State | None, int, tuple[_UtilContext, dict[tuple[int, ...], float]]] = (
            None,
            -1,
            (([], 0, [], 0), {}),
        )
        # the last performance valued: (state, seat, result); the dice decisions ask it again
        self._perf_last: tuple[tuple[object, ...], tuple[float, int]] = ((), (-1.0, -1))
        # max_bid by what it reads (players, stars, display, round, phase, catalog, seat, lot):
        # by seat, the last of those parts and the bids for each lot valued with them (a hire
        # turn values every lot, an auction's bids ask again for its lot, in states sharing them)
        self._bid_last: dict[int, tuple[object, object, object, int, str, Catalog, dict[tuple[int, ...], int]]] = {}
        # the catalog whose rounds ``rounds_total`` read last, and its rounds
        self._rounds_cat: Catalog | None = None
        self._rounds = 0

    def rounds_total(self, cat: Catalog) -> int:
        if cat is not self._rounds_cat:  # (asked at almost every valuation)
            self._rounds_cat, self._rounds = cat, cat.rounds
        return self._rounds

    def last_round(self, state: State, cat: Catalog) -> bool:
        return state.round >= self.rounds_total(cat)

    def coin_rate(self, state: State, cat: Catalog) -> float:
        """Acclaim one coin is worth to the bot (coins buy promoters, gates, lots)."""
        if self.last_round(state, cat):
            return 0.08 if state.phase in ("hire", "trade", "perform", "closing") else 0.3
        return 0.45

    @staticmethod
    def strip_value(spec: Spectacle, missing: int) -> float:
        """G-5.2 strip, extended below the minimum so that progress still counts."""
        mm = spec.max_missing
        if missing <= mm:
            return spec.strip[missing]
        return spec.strip[mm] - 3.0 * (missing - mm)

    def owned_specs(self, state: State, seat: int) -> list[int]:
        p = state.players[seat]
        out = [*p.face_down, *p.face_up]
        if p.arena != NOBODY:
            out.append(p.arena)
        return out

    def rounds_left(self, state: State, cat: Catalog) -> int:
        """Performances still to come for everyone (this round's counts until Phase 4 ends)."""
        left = self.rounds_total(cat) - state.round
        if state.phase in ("setup", "invest", "hire", "trade", "perform"):
            left += 1
        return left

    def _util_key(self, state: State, cat: Catalog, seat: int) -> tuple[object, ...]:
        """Everything ``_util_context`` reads from ``state`` for ``seat``: equal keys, equal
        contexts, so utilities are shared by the states of a decision sequence (a trade round, an
        auction) in which the seat's prospects do not change."""
        p = state.players[seat]
        left = self.rounds_left(state, cat)
        stars = _star_needs(state, cat, seat)
        plan = (state.display, p.coins, numbering_floor(cat, p) if cat.rules.numbering else -1) if left >= 2 else ()
        return (seat, cat.variant, left, state.phase, p.face_down, p.face_up, p.arena, len(p.gates), plan, stars)

    def _util_context(self, state: State, cat: Catalog, seat: int, needs: tuple[int, ...]) -> _UtilContext:
        """What ``tile_utility`` needs about ``seat`` in ``state`` (see ``_util_key``); ``needs``:
        the tiles needed for each Star Performer (``star_needs``)."""
        p = state.players[seat]
        ngates = len(p.gates)
        left = self.rounds_left(state, cat)
        before_perform = state.phase in ("setup", "invest", "hire", "trade")
        specs = spec_table(cat).entries
        compiled: list[_UtilEntry] = []
        reach = left - (0 if state.phase == "invest" else 1)
        for sid in self.owned_specs(state, seat):
            req, total, mm, strip, need, gates, _, _, _ = specs[sid]
            short = gates - ngates
            if short > 0 and short > reach:
                continue
            compiled.append((req, total, mm, strip, need, 0.0, before_perform and short <= 0))
        if left >= 2 and state.display:
            # spectacles that could still be planned (G-2; O-12: above the numbering floor), at
            # a discount for their cost; the same for every seat with as many coins and the same
            # floor, and through a round
            coins = p.coins + 15
            floor = numbering_floor(cat, p) if cat.rules.numbering else -1
            if self._plan_cat is not cat:
                self._plan_cat = cat
                self._plan_entries.clear()
            pkey = (state.display, coins, floor)
            plan = self._plan_entries.get(pkey)
            if plan is None:
                if len(self._plan_entries) > 256:
                    self._plan_entries.clear()
                plan = self._plan_entries[pkey] = []
                for sid in state.display:
                    req, total, mm, strip, need, _, cost, number, plan_offset = specs[sid]
                    if cost <= coins and number > floor:
                        plan.append((req, total, mm, strip, need, plan_offset, False))
            compiled += plan
        # (kind, count needed to hold its Star Performer, G-7)
        kinds = cat.star_types
        assert len(kinds) == len(needs)
        stars = [(kinds[i], needs[i]) for i in range(len(needs))]
        return (compiled, cat.balatro, stars, cat.common.star_acclaim)

    def _utilities(self, state: State, cat: Catalog, seat: int) -> tuple[_UtilContext, dict[tuple[int, ...], float]]:
        """The utility context of ``seat`` in ``state`` and the utilities computed in it so far."""
        last = self._util_last
        if last[0] is state and last[1] == seat:
            return last[2]
        memo_key = (seat, id(state))
        hit = self._util_cache.get(memo_key)
        if hit is not None and hit[0] is state:
            out = hit[1], hit[2]
            self._util_last = (state, seat, out)
            return out
        # the states of an auction or a trade round share the parts the key is made of (the
        # same objects): the key is then the last one's
        parts = self._util_parts.get(seat)
        if (
            parts is not None
            and parts[0] is state.players
            and parts[1] is state.stars
            and parts[2] is state.display
            and parts[3] == state.round
            and parts[4] == state.phase
            and parts[5] is cat
        ):
            same = parts[6]
            if len(self._util_cache) > 16:
                self._util_cache.clear()
            self._util_cache[memo_key] = (state, same[0], same[1])
            self._util_last = (state, seat, same)
            return same
        key = self._util_key(state, cat, seat)
        shared = self._util_shared.get(key)
        if shared is None:
            if len(self._util_shared) > 256:
                self._util_shared.clear()
            stars = key[-1]
            assert isinstance(stars, tuple)
            shared = (self._util_context(state, cat, seat, stars), {})
            self._util_shared[key] = shared
        self._util_parts[seat] = (state.players, state.stars, state.display, state.round, state.phase, cat, shared)
        if len(self._util_cache) > 16:
            self._util_cache.clear()
        self._util_cache[memo_key] = (state, shared[0], shared[1])
        self._util_last = (state, seat, shared)
        return shared

    def tile_utility(self, state: State, cat: Catalog, seat: int, tiles: Sequence[int]) -> float:
        """How much ``tiles`` are worth to ``seat``, in Acclaim-like units: the best spectacle it
        owns (or could still plan) filled with them, a little of the second best and of the best
        one performable this round, and the Star Performers they would hold (G-7)."""
        (entries, bal_kind, star_rules, star_acc), memo = self._utilities(state, cat, seat)
        key = tuple(tiles)
        known = memo.get(key)
        if known is not None:
            return known
        # the loop of ``missings`` and the Star Performers held, inlined: this is the bots'
        # innermost loop (the same values and the same order of float additions)
        held = [k for k, need in star_rules if key[k] >= need]
        bal = key[bal_kind]
        best = second = now = -99.0
        for req, total, mm, strip, spec_need, offset, now_ok in entries:
            gap = total
            for k, need in req:
                have = key[k]
                gap -= have if have < need else need
            miss = gap - (bal if bal < gap else gap)
            v = (strip[miss] if miss < len(strip) else strip[mm] - 3.0 * (miss - mm)) + offset
            for k in held:
                if spec_need[k]:
                    v += star_acc
            if v > best:
                best, second = v, best
            elif v > second:
                second = v
            if now_ok and v > now:
                now = v
        if best < -90:
            best = 0.0
        if second < -90:
            second = best
        u = best + 0.2 * second + len(held) * 1.0
        if now > -90:
            u += 0.35 * now
        memo[key] = u
        return u

    def tile_utility_each(
        self,
        state: State,
        cat: Catalog,
        seat: int,
        tiles: Sequence[int],
        kinds: Sequence[int],
        sign: int | Sequence[int] = 1,
    ) -> list[float]:
        """``tile_utility`` of ``tiles`` with one tile of each of ``kinds`` in turn added (``sign``
        1) or taken away (-1; a sequence: the sign of each kind in turn): the same values,
        computed from one pass over ``tiles``.

        A tile of kind k changes the gap only of the entries needing more k than ``tiles`` hold
        (whole numbers: the same gaps); when it changes neither the balatros nor the Star
        Performers held, the other entries keep their values, and the best, second and
        performable-now values are maxima of the entries' values, whatever the order they are
        taken in."""
        (entries, bal_kind, star_rules, star_acc), memo = self._utilities(state, cat, seat)
        key = tuple(tiles)
        out: list[float] = []
        todo: list[tuple[int, int, int, tuple[int, ...]]] = []
        signs = [sign] * len(kinds) if isinstance(sign, int) else sign
        for i, k in enumerate(kinds):
            t = list(key)
            sg = signs[i]
            t[k] += sg
            hk = tuple(t)
            known = memo.get(hk)
            out.append(0.0 if known is None else known)
            if known is None:
                todo.append((i, k, sg, hk))
        if not todo:
            return out
        # the pass over ``tiles`` (``tile_utility``'s loop, keeping each entry's gap and value)
        held = [k for k, need in star_rules if key[k] >= need]
        bal = key[bal_kind]
        gaps: list[int] = []
        vals: list[float] = []
        best = second = now = -99.0
        for req, total, mm, strip, spec_need, offset, now_ok in entries:
            gap = total
            for k, need in req:
                have = key[k]
                gap -= have if have < need else need
            gaps.append(gap)
            miss = gap - (bal if bal < gap else gap)
            v = (strip[miss] if miss < len(strip) else strip[mm] - 3.0 * (miss - mm)) + offset
            for k in held:
                if spec_need[k]:
                    v += star_acc
            vals.append(v)
            if v > best:
                best, second = v, best
            elif v > second:
                second = v
            if now_ok and v > now:
                now = v
        if key not in memo:
            if best < -90:
                best = 0.0
            if second < -90:
                second = best
            u = best + 0.2 * second + len(held) * 1.0
            if now > -90:
                u += 0.35 * now
            memo[key] = u
        order = sorted(range(len(vals)), key=vals.__getitem__, reverse=True)
        now_list = [e for e, entry in enumerate(entries) if entry[6]]
        star_need = dict(star_rules)
        for i, k, sg, hk in todo:
            b = key[k]
            h = b + sg
            held2 = held
            need_k = star_need.get(k)
            if need_k is not None and (b >= need_k) != (h >= need_k):
                held2 = [k2 for k2, need in star_rules if hk[k2] >= need]
            bal2 = hk[bal_kind]
            best = second = now = -99.0
            # a tile of kind k more (less) takes one from (adds one to) the gap of the entries
            # needing at least the larger of the two counts, and leaves the others' gaps
            thr = (h if h > b else b) or 1
            if held2 is not held or bal2 != bal:
                for e, (_, _, mm, strip, spec_need, offset, now_ok) in enumerate(entries):
                    gap = gaps[e]
                    if spec_need[k] >= thr:
                        gap -= sg
                    miss = gap - (bal2 if bal2 < gap else gap)
                    v = (strip[miss] if miss < len(strip) else strip[mm] - 3.0 * (miss - mm)) + offset
                    for k2 in held2:
                        if spec_need[k2]:
                            v += star_acc
                    if v > best:
                        best, second = v, best
                    elif v > second:
                        second = v
                    if now_ok and v > now:
                        now = v
            else:
                new: dict[int, float] = {}
                for e, entry in enumerate(entries):
                    if entry[4][k] < thr:
                        continue
                    _, _, mm, strip, spec_need, offset, _ = entry
                    gap = gaps[e] - sg
                    miss = gap - (bal if bal < gap else gap)
                    v = (strip[miss] if miss < len(strip) else strip[mm] - 3.0 * (miss - mm)) + offset
                    for k2 in held:
                        if spec_need[k2]:
                            v += star_acc
                    new[e] = v
                    if v > best:
                        best, second = v, best
                    elif v > second:
                        second = v
                # the two best of the other entries: the first two of the base's order
                taken = 0
                for e in order:
                    if e in new:
                        continue
                    v = vals[e]
                    if v > best:
                        best, second = v, best
                    elif v > second:
                        second = v
                    taken += 1
                    if taken == 2:
                        break
                for e in now_list:
                    v = new.get(e, vals[e])
                    if v > now:
                        now = v
            if best < -90:
                best = 0.0
            if second < -90:
                second = best
            u = best + 0.2 * second + len(held2) * 1.0
            if now > -90:
                u += 0.35 * now
            memo[hk] = u
            out[i] = u
        return out

    def tiles_plus(self, tiles: Sequence[int], kinds: Iterable[int], sign: int = 1) -> list[int]:
        t = list(tiles)
        for k in kinds:
            t[k] += sign
        return t

    # ================================================================== setup (G-1.6)

    def gate_attraction(self, state: State, cat: Catalog, space: int) -> float:
        vals = noble_values(cat)
        n_sp = cat.track_spaces
        total = 0.0
        for i, pos in enumerate(state.nobles):
            d = (space - pos) % n_sp
            total += vals[i] * REACH[d]
        return total

    # ================================================================== Phase 1 (G-2, C-3)

    def spectacle_fit(self, state: State, cat: Catalog, seat: int, spec: Spectacle) -> float:
        """Expected strip value (plus Star Performers) of ``spec`` for ``seat`` by the last round,
        assuming a few more useful tiles are won each round."""
        p = state.players[seat]
        left = self.rounds_left(state, cat)
        miss = missing(cat, p.tiles, spec)
        miss = max(0, miss - int(self.TILES_PER_ROUND * max(0, left - 1)))
        v = self.strip_value(spec, miss)
        held = self._held_now
        if held[0] is not state or held[1] != seat:  # the same for every spectacle of a decision
            held = self._held_now = (state, seat, stars_held(state, cat, seat, p.tiles))
        for k in held[2]:
            if spec.need[k]:
                v += cat.common.star_acclaim
        return v

    def spectacle_fits(
        self, state: State, cat: Catalog, seat: int, sids: Iterable[int], now: dict[int, float] | None = None
    ) -> dict[int, float]:
        """``spectacle_fit`` of each of ``sids`` (by id), with what they share computed once; with
        ``now``, also each one's strip value with the tiles held now (0 if more than one
        performer beyond its minimum is missing) into ``now``, from the same count of missing
        performers."""
        sids = list(sids)
        known = self.fits_of(state, cat, seat, sids)
        out = {}
        for sid in sids:
            v, nv = known[sid]
            if now is not None:
                now[sid] = nv
            out[sid] = v
        return out

    def fits_of(self, state: State, cat: Catalog, seat: int, sids: Sequence[int]) -> dict[int, tuple[float, float]]:
        """(``spectacle_fit``, strip value now) by id, of ``sids`` at least: what
        ``spectacle_fits`` gives, as it remembers them."""
        p = state.players[seat]
        left = self.rounds_left(state, cat)
        shift = int(self.TILES_PER_ROUND * max(0, left - 1))
        held = self._held_now
        if held[0] is not state or held[1] != seat:
            held = self._held_now = (state, seat, stars_held(state, cat, seat, p.tiles))
        kinds = held[2]
        # a spectacle's values depend only on the tiles, the shift and the Star Performers held:
        # remembered by them, so the decisions of an investment phase share them
        fkey = (cat.variant, p.tiles, shift, frozenset(kinds))
        known = self._fits_memo.get(fkey)
        if known is None:
            if len(self._fits_memo) > 256:
                self._fits_memo.clear()
            known = self._fits_memo[fkey] = {}
        entries = spec_table(cat).entries
        tiles = p.tiles
        bal = tiles[cat.balatro]
        star_acc = cat.common.star_acclaim if kinds else 0
        for sid in sids:
            if sid in known:
                continue
            req, total, mm, strip, need, _, _, _, _ = entries[sid]
            # ``missings``, inlined (as in ``tile_utility``)
            gap = total
            for k, n in req:
                have = tiles[k]
                gap -= have if have < n else n
            miss = gap - (bal if bal < gap else gap)
            # ``strip_value`` (``strip_values``), now and with ``shift`` more useful tiles
            nv = (strip[miss] if miss < len(strip) else strip[mm] - 3.0 * (miss - mm)) if miss <= mm + 1 else 0.0
            m = miss - shift if miss > shift else 0
            v = strip[m] if m < len(strip) else strip[mm] - 3.0 * (m - mm)
            for k in kinds:
                if need[k]:
                    v += star_acc
            known[sid] = (v, nv)
        return known

    TILES_PER_ROUND = 1.0
    RESERVE_FIRST = 12  # coins kept after round-1 investments (for auctions)
    RESERVE = 8

    MONEY_STEPS = ((15, 0.9), (15, 0.6))
    MONEY_REST = 0.4

    def money(self, state: State, cat: Catalog, coins: int) -> float:
        """Acclaim-like value of holding ``coins`` (concave: the first coins matter most)."""
        if self.last_round(state, cat):
            return 0.1 * coins
        v = 0.0
        for width, rate in self.MONEY_STEPS:
            take = width if width < coins else coins
            v += take * rate
            coins -= take
            if coins <= 0:
                return v
        return v + coins * self.MONEY_REST

    # ================================================================== Phase 2 (G-3)
