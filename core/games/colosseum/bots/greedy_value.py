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
    noble_step_range,
    numbering_floor,
    stars_held,
)

from .greedy_nobles import AQUILA_VALUE, Track, _walk, noble_values
from .greedy_tiles import TileValuation, spec_table

__all__ = ["GreedyValuation"]


class GreedyValuation(TileValuation):
    """The greedy bot's valuations, with their per-decision caches: tiles and spectacles
    (``TileValuation``), lots, deals, performances and noble moves."""

    #: the least acclaim a coin counts for when the bot caps its bids (D-69)
    WORTH_RATE = 0.25
    #: whether the bot raises in one jump to where it expects to win (``GreedyBot.raise_to``)
    JUMP_BIDS = True
    #: the catalog's track as the dice searches read it (``track``)
    _track: Track | None = None

    # ================================================================== Phase 1 (G-2, C-3)

    def _bundle_value(
        self,
        state: State,
        cat: Catalog,
        seat: int,
        fits: dict[int, float],
        now_val: dict[int, float],
        specs: list[int],
        ngates: int,
        promoters: int,
        temple: bool,
        spent: int,
    ) -> float:
        """Acclaim-like value of owning ``specs`` with ``ngates`` gates after this turn's
        investments costing ``spent`` coins: what ``GreedyBot._invest`` computes for every bundle
        of investments (less what pays for them), with the parts they share computed once.  Not
        called in play: the plain form the search is checked against
        (tests/core/test_greedy_invest_reference.py: the very same choices)."""
        p = state.players[seat]
        c = cat.common
        fixed = self._bundle_fixed
        if fixed[0] is not state or fixed[1] != seat:
            left0 = self.rounds_left(state, cat)
            cr0 = self.coin_rate(state, cat)
            fixed = self._bundle_fixed = (state, seat, left0, c.gate_cost * cr0 + 1.0, {})
        _, _, left, gate_charge, money_lost = fixed
        final = 0.0
        feasible = 0
        now = 0.0
        for sid in specs:
            spec = cat.spectacles[sid]
            short = max(0, spec.gates - ngates)
            if short > left - 1:
                continue
            v = fits[sid] - short * gate_charge
            final = max(final, v)
            if sid not in p.face_up:
                feasible += 1
            if short == 0:
                now = max(now, now_val[sid])
        v = final + 0.5 * now + c.performed_acclaim * min(feasible, max(0, left - 1))
        v += promoters * c.promoter_acclaim + (1.0 * left if temple else 0.0)
        lost = money_lost.get(spent)
        if lost is None:
            lost = money_lost[spent] = self.money(state, cat, p.coins) - self.money(state, cat, p.coins - spent)
        v -= lost
        coins = p.coins - spent
        if left > 1:
            reserve = self.RESERVE_FIRST if state.round == 1 else self.RESERVE
            if coins < reserve:
                v -= 0.4 * (reserve - coins)
        return v

    # ================================================================== Phase 2 (G-3)

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
        entries = spec_table(cat).entries
        face_down, face_up, ngates, tiles = p.face_down, p.face_up, len(p.gates), p.tiles
        bal = tiles[cat.balatro]
        star_acc, perf_acc = cat.common.star_acclaim, cat.common.performed_acclaim
        for sid in (*face_down, *face_up):
            req, total, mm, strip, need, gates, _, number, _ = entries[sid]
            if gates > ngates:
                continue
            # ``missing``, inlined (as in ``tile_utility``)
            gap = total
            for k, n in req:
                have = tiles[k]
                gap -= have if have < n else n
            miss = gap - (bal if bal < gap else gap)
            if miss > mm:
                continue
            v = strip[miss] + star_acc * len([k for k in stars if need[k]])
            v += perf_acc * (len(face_up) - (1 if sid in face_up else 0))
            # a spectacle performed for the first time adds +5 to every later performance
            pref = float(v + (perf_acc if sid in face_down and not last else 0))
            if numbered and sid in face_down and not last:
                # O-12: performing a program bars buying any program numbered below it later
                pref -= self.NUMBERING_COST * sum(1 for d in state.display if floor < entries[d][7] < number)
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

    def track(self, cat: Catalog) -> Track:
        """The catalog's track as the dice searches read it (kept while the catalog is the same)."""
        tr = self._track
        if tr is None or tr.cat is not cat:
            tr = self._track = Track(cat)
        return tr

    def best_moves(self, state: State, cat: Catalog, seat: int, mode: str) -> tuple[float, list[tuple[int, int, int]]]:
        """The best sequence of dice moves in ``mode`` from the current state: (value,
        [(noble, die, steps), ...]).  Value: nobles at the bot's gates (weighted by what this
        performance is worth) plus Aquilas won by ending on Aquila spaces (G-5.1)."""
        pt = state.perform
        assert pt is not None
        p = state.players[seat]
        # the dice used as the search reads them (none used before the mode is chosen; the sum
        # does not read them): the move after the mode is chosen finds the search made for it
        used = (pt.used if pt.used else (False,) * len(pt.dice)) if mode != "sum" else None
        moved = pt.moved
        nobles = state.nobles
        key = (state.setup.seed, state.round, seat, pt.dice, used, moved, nobles, mode, p.gates, p.tiles)
        cached = self._moves_cache.get(key)
        if cached is not None:
            return cached
        w = self.noble_weight(state, cat, seat)
        tr = self.track(cat)
        n_sp, skip, vals, bonus = tr.spaces, tr.skip, tr.values, tr.bonus
        count = tr.count(nobles)  # what the walks skip (G-5.1)
        # value of a noble standing on a space: its Acclaim at the bot's gates (or, negative, at
        # the gates of the players who perform after the bot this round: a noble left there helps
        # them), an Aquila won on an Aquila space; the bot's own gates first
        mult = [0.0] * n_sp
        denial = self.DENIAL
        if denial:
            n = len(state.players)
            for k in range(state.turn + 1, n):
                for x in state.players[(state.first + k) % n].gates:
                    mult[x] = -denial
        for x in p.gates:
            mult[x] = w
        base = [mult[pos] * vals[i] if pos < n_sp else 0.0 for i, pos in enumerate(nobles)]
        total0 = sum(base)
        best_v, best_seq = -1e9, []
        movable = [i for i in range(6) if i not in moved]
        if mode == "sum":
            lo, total = noble_step_range(state, -1)
            for noble in movable:
                dests = _walk(n_sp, skip, nobles[noble], total, count)
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
        # each die's distances (``noble_step_range``), by die
        lows = [0] * len(used)
        highs = [0] * len(used)
        for d in dice:
            lows[d], highs[d] = noble_step_range(state, d)
        if len(dice) == 1:
            d = dice[0]
            lo, hi = lows[d], highs[d]
            for noble in movable:
                dests = _walk(n_sp, skip, nobles[noble], hi, count)
                rest = total0 - base[noble]
                val = vals[noble]
                for s in range(lo, hi + 1):
                    dest = dests[s]
                    v = rest + (mult[dest] * val + bonus[dest])
                    if v > best_v:
                        best_v, best_seq = v, [(noble, d, s)]
        else:
            # every noble's landings from where it stands, once for both dice (a walk's first
            # landings do not depend on how far it goes)
            hi_all = 0
            for d in dice:
                if highs[d] > hi_all:
                    hi_all = highs[d]
            walks: list[list[int]] = [[] for _ in nobles]
            for n in movable:
                walks[n] = _walk(n_sp, skip, nobles[n], hi_all, count)
            for d1 in dice:
                d2 = d1
                for x in dice:
                    if x != d1:
                        d2 = x
                        break
                lo1, hi1, lo2, hi2 = lows[d1], highs[d1], lows[d2], highs[d2]
                # the second noble's landings and their values with the nobles where they stand,
                # from ``lo2`` steps; a first move changes them only when it vacates or takes a
                # space on that walk
                on2: list[list[float]] = [[] for _ in nobles]
                span2 = [0] * len(nobles)
                for n2 in movable:
                    dests2 = walks[n2]
                    val = vals[n2]
                    on2[n2] = [mult[dest] * val + bonus[dest] for dest in dests2[lo2 : hi2 + 1]]
                    span2[n2] = (dests2[hi2] - nobles[n2]) % n_sp
                for n1 in movable:
                    dests1 = walks[n1]
                    left = nobles[n1]
                    val1 = vals[n1]
                    for s1 in range(lo1, hi1 + 1):
                        dest1 = dests1[s1]
                        v1 = total0 - base[n1] + (mult[dest1] * val1 + bonus[dest1])
                        for n2 in movable:
                            if n2 == n1:
                                continue
                            rest = v1 - base[n2]
                            start = nobles[n2]
                            if skip and (
                                0 < (left - start) % n_sp <= span2[n2] or 0 < (dest1 - start) % n_sp <= span2[n2]
                            ):
                                # its walk with the first noble moved, valued as it goes
                                count[left] -= 1
                                count[dest1] += 1
                                dests = _walk(n_sp, skip, start, hi2, count)
                                count[left] += 1
                                count[dest1] -= 1
                                val = vals[n2]
                                for s2 in range(lo2, hi2 + 1):
                                    dest = dests[s2]
                                    v = rest + (mult[dest] * val + bonus[dest])
                                    if v > best_v:
                                        best_v, best_seq = v, [(n1, d1, s1), (n2, d2, s2)]
                                continue
                            onv = on2[n2]
                            for s2 in range(lo2, hi2 + 1):
                                v = rest + onv[s2 - lo2]
                                if v > best_v:
                                    best_v, best_seq = v, [(n1, d1, s1), (n2, d2, s2)]
        if len(self._moves_cache) > 64:
            self._moves_cache.clear()
        self._moves_cache[key] = (best_v, best_seq)
        return best_v, best_seq
