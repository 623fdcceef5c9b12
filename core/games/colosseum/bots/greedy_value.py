"""How the ``greedy`` bot values things: tiles, coins, investments, lots, deals and noble moves.

The decisions (``greedy.py``) compare candidate actions by these values; everything here is a
judgement of the bot, in Acclaim-like units.  The rules it relies on (how many performers a
spectacle misses, where a noble lands, who would hold a Star Performer) are the engine's own
queries (:mod:`colosseum.core.games.colosseum.queries`), never re-derived here.
"""

from __future__ import annotations

from collections.abc import Sequence

from colosseum.core.games.colosseum.components import Catalog
from colosseum.core.games.colosseum.model import State, Transfer
from colosseum.core.games.colosseum.queries import (
    bid_limit,
    missing,
    noble_step_range,
    numbering_floor,
    stars_held,
)

from .greedy_nobles import AQUILA_VALUE, _aquila_bonus, _reach, noble_values
from .greedy_tiles import TileValuation

__all__ = ["GreedyValuation"]


class GreedyValuation(TileValuation):
    """The greedy bot's valuations, with their per-decision caches: tiles and spectacles
    (``TileValuation``), lots, deals, performances and noble moves."""

    #: the least acclaim a coin counts for when the bot caps its bids (D-69)
    WORTH_RATE = 0.25
    #: whether the bot raises in one jump to where it expects to win (``GreedyBot.raise_to``)
    JUMP_BIDS = True

    def lot_value(self, state: State, cat: Catalog, seat: int, lot: Sequence[int]) -> float:
        p = state.players[seat]
        base = self.tile_utility(state, cat, seat, p.tiles)
        aq = cat.aquila_tile
        kinds = [k for k in lot if k != aq]
        v = self.tile_utility(state, cat, seat, self.tiles_plus(p.tiles, kinds)) - base
        v += AQUILA_VALUE * (len(lot) - len(kinds))
        if cat.rules.construction_for_aquila:
            v += 1.5 * sum(1 for k in kinds if k == cat.construction)
        return v

    def max_bid(self, state: State, cat: Catalog, seat: int, lot: Sequence[int]) -> int:
        players, stars, display = state.players, state.stars, state.display
        last = self._bid_last.get(seat)
        if (
            last is None
            or last[0] is not players
            or last[1] is not stars
            or last[2] is not display
            or last[3] != state.round
            or last[4] != state.phase
            or last[5] is not cat
        ):
            last = (players, stars, display, state.round, state.phase, cat, {})
            self._bid_last[seat] = last
        tops = last[6]
        lkey = tuple(lot)
        top = tops.get(lkey)
        if top is None:
            top = tops[lkey] = self._max_bid(state, cat, seat, lot)
        return top

    def _max_bid(self, state: State, cat: Catalog, seat: int, lot: Sequence[int]) -> int:
        p = state.players[seat]
        v = self.lot_value(state, cat, seat, lot)
        if v <= 0:
            return 0
        cr = self.coin_rate(state, cat)
        # never above what the lot is worth (D-69): in the last round, where coins buy little,
        # still at WORTH_RATE acclaim a coin at least (a lot worth 4 is not worth 50 coins)
        worth_rate = self.WORTH_RATE
        limit = int(v / (worth_rate if worth_rate > cr else cr))  # max() written out: cheaper
        # keep coins for next round's investments unless it is the last round
        budget = p.coins if self.last_round(state, cat) else p.coins - 4
        if self.last_round(state, cat) and cat.rules.endgame_aquila_acclaim == 0:
            budget = bid_limit(cat, p)
        return budget if budget < limit else limit

    # ================================================================== Phase 3 (G-4)

    def deal_value(self, state: State, cat: Catalog, seat: int, transfers: Sequence[Transfer]) -> float:
        """What a deal is worth to ``seat`` (its tiles, coins and Aquilas)."""
        # both sides' ``accepts`` of a deal ask each side's value of it: remembered in a state
        memo_state, memo = self._deal_memo
        if memo_state is not state:
            memo = {}
            self._deal_memo = (state, memo)
        key = (seat, tuple(transfers))
        v = memo.get(key)
        if v is None:
            v = memo[key] = self._deal_value(state, cat, seat, transfers)
        return v

    def _deal_value(self, state: State, cat: Catalog, seat: int, transfers: Sequence[Transfer]) -> float:
        p = state.players[seat]
        tiles = list(p.tiles)
        coins = aq = 0
        touched = False
        for tr in transfers:
            sign = 1 if tr.receiver == seat else -1 if tr.giver == seat else 0
            if not sign:
                continue
            if tr.item == "coins":
                coins += sign * tr.count
            elif tr.item == "aquilas":
                aq += sign * tr.count
            else:
                tiles[cat.index[tr.item]] += sign * tr.count
                touched = True
        v = coins * self.coin_rate(state, cat) + aq * AQUILA_VALUE
        if touched:
            if any(t < 0 for t in tiles):
                return -1e9
            v += self.tile_utility(state, cat, seat, tiles) - self.tile_utility(state, cat, seat, p.tiles)
        return v

    def opponent_gain(self, state: State, cat: Catalog, me: int, transfers: Sequence[Transfer]) -> tuple[float, bool]:
        """The largest gain of another party (counting Star Performers it would win, +4 each),
        and whether the deal hands another party a Star Performer."""
        worst = 0.0
        star = False
        parties = {tr.giver for tr in transfers} | {tr.receiver for tr in transfers}
        for o in parties:
            if o == me:
                continue
            g = self.deal_value(state, cat, o, transfers)
            p = state.players[o]
            tiles = list(p.tiles)
            for tr in transfers:
                if tr.item in ("coins", "aquilas"):
                    continue
                k = cat.index[tr.item]
                if tr.receiver == o:
                    tiles[k] += tr.count
                elif tr.giver == o:
                    tiles[k] -= tr.count
            won = stars_held(state, cat, o, tiles) - stars_held(state, cat, o, p.tiles)
            if won:
                star = True
                g += cat.common.star_acclaim * len(won)
            worst = max(worst, g)
        return worst, star

    def accepts(self, state: State, cat: Catalog, seat: int, transfers: Sequence[Transfer]) -> bool:
        """G-4: the bot agrees to a deal that improves its position and does not hand another
        player more than it gains (a Star Performer handed over must be paid for in full)."""
        mine = self.deal_value(state, cat, seat, transfers)
        if mine <= 0.5:
            return False
        theirs, star = self.opponent_gain(state, cat, seat, transfers)
        if star:
            return mine >= theirs + 1.0
        return mine >= 0.6 * theirs - 1.0

    # ================================================================== Phase 4 (G-5)

    def performance(self, state: State, cat: Catalog, seat: int) -> tuple[float, int]:
        """The best strip + stars + earlier-performance part of a performance now (without
        nobles, promoters, gifts, Aquilas), and its spectacle id; (-1, -1) if none."""
        # it reads the seats, the Star Performers, the display and the round (the same through
        # a turn's dice decisions, whose states are new each time)
        last, out = self._perf_last
        if (
            last
            and last[0] is state.players
            and last[1] is state.stars
            and last[2] is state.display
            and last[3] == state.round
            and last[4] == seat
            and last[5] is cat
        ):
            return out
        out = self._performance(state, cat, seat)
        self._perf_last = ((state.players, state.stars, state.display, state.round, seat, cat), out)
        return out

    def _performance(self, state: State, cat: Catalog, seat: int) -> tuple[float, int]:
        p = state.players[seat]
        best, best_id, best_pref = -1.0, -1, -1e9
        last = self.last_round(state, cat)
        stars = {k for k, h in enumerate(state.stars) if h == seat}
        numbered = bool(cat.rules.numbering)
        floor = numbering_floor(cat, p) if numbered else 0
        for sid in (*p.face_down, *p.face_up):
            spec = cat.spectacles[sid]
            if spec.gates > len(p.gates):
                continue
            miss = missing(cat, p.tiles, spec)
            if miss > spec.max_missing:
                continue
            need = spec.need
            v = spec.strip[miss] + cat.common.star_acclaim * len([k for k in stars if need[k]])
            v += cat.common.performed_acclaim * (len(p.face_up) - (1 if sid in p.face_up else 0))
            # a spectacle performed for the first time adds +5 to every later performance
            pref = float(v + (cat.common.performed_acclaim if sid in p.face_down and not last else 0))
            if numbered and sid in p.face_down and not last:
                # O-12: performing a program bars buying any program numbered below it later
                pref -= self.NUMBERING_COST * sum(
                    1 for d in state.display if floor < cat.spectacles[d].number_2007 < spec.number_2007
                )
            if pref > best_pref:
                best_pref, best, best_id = pref, float(v), sid
        return best, best_id

    def noble_weight(self, state: State, cat: Catalog, seat: int) -> float:
        """What one Acclaim of nobles at the bot's gates is worth in this performance."""
        p = state.players[seat]
        base, sid = self.performance(state, cat, seat)
        if sid < 0:
            return 0.0
        if self.last_round(state, cat):
            fixed = base + p.promoters * cat.common.promoter_acclaim + p.gifts * cat.common.gift_acclaim
            nob = self.noble_score(state, cat, seat, state.nobles)
            if fixed + nob + 12 < p.acclaim:
                return 0.1
            return 1.0
        return 0.75

    def noble_score(self, state: State, cat: Catalog, seat: int, nobles: Sequence[int]) -> float:
        gates = state.players[seat].gates
        vals = noble_values(cat)
        total = 0  # (a loop: a generator for ``sum`` cost more than the sum)
        for i, pos in enumerate(nobles):
            if pos in gates:
                total += vals[i]
        return float(total)

    DENIAL = 0.3  # weight of nobles left at the gates of players still to perform
    NUMBERING_COST = 0.3  # per display program a first performance would bar from purchase (O-12)

    def best_moves(self, state: State, cat: Catalog, seat: int, mode: str) -> tuple[float, list[tuple[int, int, int]]]:
        """The best sequence of dice moves in ``mode`` from the current state: (value,
        [(noble, die, steps), ...]).  Value: nobles at the bot's gates (weighted by what this
        performance is worth) plus Aquilas won by ending on Aquila spaces (G-5.1)."""
        pt = state.perform
        assert pt is not None
        # the dice used as the search reads them (none used before the mode is chosen; the sum
        # does not read them): the move after the mode is chosen finds the search made for it
        used = (pt.used if pt.used else (False,) * len(pt.dice)) if mode != "sum" else None
        key = (
            state.setup.seed,
            state.round,
            seat,
            pt.dice,
            used,
            pt.moved,
            state.nobles,
            mode,
            state.players[seat].gates,
            state.players[seat].tiles,
        )
        cached = self._moves_cache.get(key)
        if cached is not None:
            return cached
        w = self.noble_weight(state, cat, seat)
        gates = frozenset(state.players[seat].gates)
        vals = noble_values(cat)
        nobles = state.nobles
        n_sp = cat.track_spaces
        # the other nobles' spaces, once per noble for the moves from the current position
        skip = cat.rules.skip_occupied
        occ = [{x for i, x in enumerate(nobles) if i != j} for j in range(len(nobles))]
        # gates of the players who perform after the bot this round: a noble left there helps them
        later: set[int] = set()
        if self.DENIAL:
            for k in range(state.turn + 1, state.n):
                later.update(state.players[(state.first + k) % state.n].gates)
        # value of a noble standing on a space: its Acclaim at the bot's gates (or, negative, at
        # the gates of a player still to perform), an Aquila won on an Aquila space
        mult = [w if x in gates else -self.DENIAL if x in later else 0.0 for x in range(n_sp)]
        bonus = _aquila_bonus(cat)
        base = [mult[pos] * vals[i] if pos < n_sp else 0.0 for i, pos in enumerate(nobles)]
        total0 = sum(base)
        best_v, best_seq = -1e9, []
        movable = [i for i in range(6) if i not in pt.moved]
        if mode == "sum":
            lo, total = noble_step_range(state, -1)
            for noble in movable:
                dests = _reach(cat, nobles, noble, total, occ[noble])
                rest = total0 - base[noble]
                val = vals[noble]
                for s in range(lo, total + 1):
                    dest = dests[s]
                    v = rest + (mult[dest] * val + bonus[dest])
                    if v > best_v:
                        best_v, best_seq = v, [(noble, -1, s)]
            self._moves_cache[key] = (best_v, best_seq)
            return best_v, best_seq
        assert used is not None
        dice = [i for i, u in enumerate(used) if not u]

        def rng_of(die: int) -> range:
            lo, hi = noble_step_range(state, die)
            return range(lo, hi + 1)

        if len(dice) == 1:
            d = dice[0]
            r = rng_of(d)
            for noble in movable:
                dests = _reach(cat, nobles, noble, r.stop - 1, occ[noble])
                rest = total0 - base[noble]
                val = vals[noble]
                for s in r:
                    dest = dests[s]
                    v = rest + (mult[dest] * val + bonus[dest])
                    if v > best_v:
                        best_v, best_seq = v, [(noble, d, s)]
        else:
            ranges = {d: rng_of(d) for d in dice}
            # every noble's landings from where it stands, once for both dice (a walk's first
            # landings do not depend on how far it goes)
            hi_all = max(r.stop - 1 for r in ranges.values())
            walks = {n: _reach(cat, nobles, n, hi_all, occ[n]) for n in movable}
            for d1 in dice:
                d2 = next(x for x in dice if x != d1)
                r1 = ranges[d1]
                r2 = ranges[d2]
                hi2 = r2.stop - 1
                # the second noble's landings and their values with the nobles where they stand;
                # a first move changes them only when it vacates or takes a space on that walk
                on2 = {}
                span2 = {}
                for n2 in movable:
                    dests2 = walks[n2]
                    on2[n2] = [mult[d] * vals[n2] + bonus[d] for d in dests2[: hi2 + 1]]
                    span2[n2] = (dests2[hi2] - nobles[n2]) % n_sp
                for n1 in movable:
                    dests1 = walks[n1]
                    left = nobles[n1]
                    for s1 in r1:
                        dest1 = dests1[s1]
                        nn1: list[int] | None = None
                        v1 = total0 - base[n1] + (mult[dest1] * vals[n1] + bonus[dest1])
                        for n2 in movable:
                            if n2 == n1:
                                continue
                            onv = on2[n2]
                            if skip:
                                start, span = nobles[n2], span2[n2]
                                if 0 < (left - start) % n_sp <= span or 0 < (dest1 - start) % n_sp <= span:
                                    if nn1 is None:
                                        nn1 = list(nobles)
                                        nn1[n1] = dest1
                                    occ2 = {x for i, x in enumerate(nn1) if i != n2}
                                    val = vals[n2]
                                    onv = [mult[d] * val + bonus[d] for d in _reach(cat, nn1, n2, hi2, occ2)]
                            rest = v1 - base[n2]
                            for s2 in r2:
                                v = rest + onv[s2]
                                if v > best_v:
                                    best_v, best_seq = v, [(n1, d1, s1), (n2, d2, s2)]
        if len(self._moves_cache) > 64:
            self._moves_cache.clear()
        self._moves_cache[key] = (best_v, best_seq)
        return best_v, best_seq
