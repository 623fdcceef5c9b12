"""The ``greedy`` bot: one-step judgement of every decision, with a simple plan.

It sees only what the engine offers (the state, ``legal``, and the engine's query helpers) and
never deep-copies a state.  The plan, in short:

* Acclaim is the best *single* performance (G-0) plus 3 per Aquila at the end (G-9), so the bot
  builds towards one big final performance.  Phase 1 picks the best pair of investments (G-2:
  different kinds) by their effect on that performance: a medium/large spectacle that fits its
  performers, the gates it needs (medium 3, large 4), promoters (+5 each), a new spectacle to
  perform each round (+5 per earlier performance, G-5.3), with coins valued concavely and a
  reserve kept for auctions.  Classic extras (C-3) are paid with construction tiles or Aquilas
  when worth it.
* Tiles are valued by ``tile_utility``: how well they fill the spectacles the player owns (or
  could still plan), including Star Performers they would win (G-7).  Lots, trades, steals and
  retirements are all judged by differences of that utility.
* Phase 2: a lot is worth the utility it adds; the bot opens the lot with the largest margin at
  the minimum bid and raises by 1 up to its value (never into its Aquilas in the Grand Spectacle).
* Phase 3: it proposes swaps and purchases both sides should like, and accepts a deal only if
  it gains and does not hand another player more (a Star Performer must be paid in full).
* Phase 4: every legal noble move sequence (both dice modes, Temple ranges) is scored by the
  Acclaim of nobles at its own gates, Aquilas won, and nobles left at the gates of players still
  to perform; Aquila moves are made when a noble is worth more than the Aquila.  It performs
  its best spectacle (preferring a new one), spending Aquilas only where that can pay.

Deterministic given its seed (the seed only breaks exact ties).
"""

from __future__ import annotations

import random

from colosseum.core.actions import (
    AcceptDeal,
    Action,
    AquilaMove,
    BuildGate,
    BuildTemple,
    CancelDeal,
    ChooseDice,
    ChooseFirstPlayer,
    CloseDeal,
    ConstructionForAquila,
    EndTurn,
    HirePromoter,
    MoveNoble,
    OpenAuction,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    ProposeDeal,
    Raise,
    RejectDeal,
    Retire,
    Roll,
    Steal,
)
from colosseum.core.catalog import Catalog, Spectacle, load_catalog
from colosseum.core.engine import NOBODY, credit
from colosseum.core.legal import Choices, legal
from colosseum.core.model import State, Transfer

# 2d6: the chance that a noble d spaces behind a gate can be brought onto it by one die or the
# sum (rough: either die showing d, or the sum being d).
_DIE = [0.0] + [11 / 36] * 6 + [0.0] * 30
_SUM = [0.0, 0.0] + [min(i - 1, 13 - i) / 36 for i in range(2, 13)] + [0.0] * 24
REACH = [min(1.0, _DIE[d] + _SUM[d]) for d in range(36)]

AQUILA_VALUE = 3.5  # an Aquila token: 3 Acclaim at the end (G-9) or 6 coins, or a move
MAX_PROPOSALS = 3  # deals the bot proposes per trade turn


def _noble_values(cat: Catalog) -> tuple[int, ...]:
    c = cat.common
    return tuple(
        c.emperor_acclaim if k == "emperor" else c.consul_acclaim if k == "consul" else c.senator_acclaim
        for k in cat.noble_kinds
    )


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._proposed: set[tuple] = set()
        self._trade_key: tuple = ()
        self._moves_cache: dict[tuple, tuple[float, list]] = {}
        self._util_cache: dict[tuple, tuple] = {}

    # ================================================================== entry point

    def act(self, state: State) -> Action:
        ch = legal(state)
        return self._checked(ch, self._choose(state, ch))

    def _choose(self, state: State, ch: Choices) -> Action:
        seat = ch.player
        cat = load_catalog(state.setup.variant)
        ph = state.phase
        acts = ch.actions
        if ph == "setup":
            return self._start_gates(state, cat, acts)
        if ph == "invest":
            return self._invest(state, cat, seat, acts)
        if ph == "hire":
            return self._hire(state, cat, seat, ch)
        if ph == "trade":
            return self._trade(state, cat, seat, ch)
        if ph == "perform":
            return self._perform(state, cat, seat, acts)
        if ph == "closing":
            return self._closing(state, cat, seat, acts)
        return acts[-1]

    @staticmethod
    def _checked(ch: Choices, action: Action) -> Action:
        """The chosen action if ``legal`` offers it; otherwise a safe legal one (a pass where
        there is one), so that the bot never stalls a game."""
        if isinstance(action, ProposeDeal):
            if ch.can_propose:
                return action
        elif isinstance(action, (OpenAuction, Raise)):
            market = action.market if isinstance(action, OpenAuction) else -1
            if any(o.market == market and o.low <= action.bid <= o.high for o in ch.bids):
                return action
        elif action in ch.actions:
            return action
        for kind in (PassBid, EndTurn, RejectDeal, CancelDeal):
            for a in ch.actions:
                if isinstance(a, kind):
                    return a
        return ch.actions[0]

    # ================================================================== valuation helpers

    def rounds_total(self, cat: Catalog) -> int:
        return cat.rules.gifts + 1

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

    @staticmethod
    def missing(cat: Catalog, tiles, spec: Spectacle) -> int:
        matched = 0
        for k, need in enumerate(spec.need):
            if need:
                t = tiles[k]
                matched += t if t < need else need
        gap = spec.total - matched
        bal = tiles[cat.balatro]
        return gap - (bal if bal < gap else gap)

    def stars_with(self, state: State, cat: Catalog, seat: int, tiles) -> set[int]:
        """Star Performer types ``seat`` would hold with ``tiles`` (others unchanged), G-7."""
        out = set()
        minimum = cat.common.star_minimum
        for k in cat.star_types:
            c = tiles[k]
            if c < minimum:
                continue
            other = max(p.tiles[k] for i, p in enumerate(state.players) if i != seat)
            h = state.stars[k]
            if c > other or (h == seat and c >= other):
                out.add(k)
        return out

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

    def _util_context(self, state: State, cat: Catalog, seat: int):
        """What ``tile_utility`` needs about ``seat`` in ``state``, computed once per state."""
        key = (seat, cat.variant)
        cached = self._util_cache.get(key)
        if cached is not None and cached[0] is state:
            return cached[1]
        p = state.players[seat]
        ngates = len(p.gates)
        left = self.rounds_left(state, cat)
        before_perform = state.phase in ("setup", "invest", "hire", "trade")
        entries = []  # (need items, total, max_missing, strip, offset, now-eligible, need mask)
        for sid in self.owned_specs(state, seat):
            spec = cat.spectacles[sid]
            short = spec.gates - ngates
            if short > 0 and short > left - (0 if state.phase == "invest" else 1):
                continue
            entries.append((self._needs(spec), spec, 0.0, before_perform and short <= 0))
        if left >= 2 and state.display:
            # spectacles that could still be planned (G-2), at a discount for their cost
            coins = p.coins + 15
            for sid in state.display:
                spec = cat.spectacles[sid]
                if spec.cost <= coins:
                    entries.append((self._needs(spec), spec, -0.35 * spec.cost - 2.0, False))
        minimum = cat.common.star_minimum
        stars = []  # (kind, count needed to hold the star)
        for k in cat.star_types:
            other = max(q.tiles[k] for i, q in enumerate(state.players) if i != seat)
            need = max(minimum, other if state.stars[k] == seat else other + 1)
            stars.append((k, need))
        ctx = (entries, stars, cat.balatro, cat.common.star_acclaim)
        self._util_cache[key] = (state, ctx)
        return ctx

    _needs_cache: dict = {}

    @classmethod
    def _needs(cls, spec: Spectacle):
        got = cls._needs_cache.get((spec.key, spec.total))
        if got is None:
            got = tuple((k, n) for k, n in enumerate(spec.need) if n)
            cls._needs_cache[(spec.key, spec.total)] = got
        return got

    def tile_utility(self, state: State, cat: Catalog, seat: int, tiles) -> float:
        """How much ``tiles`` are worth to ``seat``, in Acclaim-like units: the best spectacle it
        owns (or could still plan) filled with them, a little of the second best and of the best
        one performable this round, and the Star Performers they would hold (G-7)."""
        entries, star_rules, bal, star_acc = self._util_context(state, cat, seat)
        held = [k for k, need in star_rules if tiles[k] >= need]
        best = second = now = -99.0
        nbal = tiles[bal]
        for needs, spec, offset, now_ok in entries:
            matched = 0
            for k, n in needs:
                t = tiles[k]
                matched += t if t < n else n
            gap = spec.total - matched
            miss = gap - (nbal if nbal < gap else gap)
            mm = spec.max_missing
            v = (spec.strip[miss] if miss <= mm else spec.strip[mm] - 3.0 * (miss - mm)) + offset
            for k in held:
                if spec.need[k]:
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
        return u

    def tiles_plus(self, tiles, kinds, sign: int = 1):
        t = list(tiles)
        for k in kinds:
            t[k] += sign
        return t

    # ================================================================== setup (G-1.6)

    def gate_attraction(self, state: State, cat: Catalog, space: int) -> float:
        vals = _noble_values(cat)
        n_sp = cat.track_spaces
        total = 0.0
        for i, pos in enumerate(state.nobles):
            d = (space - pos) % n_sp
            total += vals[i] * REACH[d]
        return total

    def _start_gates(self, state: State, cat: Catalog, acts) -> Action:
        best, best_v = acts[-1], -1e9
        for a in acts:
            if not isinstance(a, PlaceStartGates):
                continue
            n_sp = cat.track_spaces
            v = sum(self.gate_attraction(state, cat, (a.space + d) % n_sp) for d in range(-1, 3))
            v += self.rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best

    # ================================================================== Phase 1 (G-2, C-3)

    def spectacle_fit(self, state: State, cat: Catalog, seat: int, spec: Spectacle) -> float:
        """Expected strip value (plus Star Performers) of ``spec`` for ``seat`` by the last round,
        assuming a few more useful tiles are won each round."""
        p = state.players[seat]
        left = self.rounds_left(state, cat)
        miss = self.missing(cat, p.tiles, spec)
        miss = max(0, miss - int(self.TILES_PER_ROUND * max(0, left - 1)))
        v = self.strip_value(spec, miss)
        for k in self.stars_with(state, cat, seat, p.tiles):
            if spec.need[k]:
                v += cat.common.star_acclaim
        return v

    TILES_PER_ROUND = 1.0
    RESERVE_FIRST = 12  # coins kept after round-1 investments (for auctions)
    RESERVE = 8

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
        investments costing ``spent`` coins."""
        p = state.players[seat]
        c = cat.common
        left = self.rounds_left(state, cat)
        cr = self.coin_rate(state, cat)
        gate_charge = c.gate_cost * cr + 1.0
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
        v -= self.money(state, cat, p.coins) - self.money(state, cat, p.coins - spent)
        coins = p.coins - spent
        if left > 1:
            reserve = self.RESERVE_FIRST if state.round == 1 else self.RESERVE
            if coins < reserve:
                v -= 0.4 * (reserve - coins)
        return v

    MONEY_STEPS = ((15, 0.9), (15, 0.6))
    MONEY_REST = 0.4

    def money(self, state: State, cat: Catalog, coins: int) -> float:
        """Acclaim-like value of holding ``coins`` (concave: the first coins matter most)."""
        if self.last_round(state, cat):
            return 0.1 * coins
        v = 0.0
        for width, rate in self.MONEY_STEPS:
            take = min(coins, width)
            v += take * rate
            coins -= take
            if coins <= 0:
                return v
        return v + coins * self.MONEY_REST

    def _invest(self, state: State, cat: Catalog, seat: int, acts) -> Action:
        p = state.players[seat]
        c = cat.common
        classic_aq = cat.rules.endgame_aquila_acclaim == 0
        owned = self.owned_specs(state, seat)
        fits = {sid: self.spectacle_fit(state, cat, seat, cat.spectacles[sid]) for sid in (*owned, *state.display)}
        now_val = {}
        for sid in fits:
            spec = cat.spectacles[sid]
            miss = self.missing(cat, p.tiles, spec)
            now_val[sid] = self.strip_value(spec, miss) if miss <= spec.max_missing + 1 else 0.0
        ids = {cat.spectacles[sid].key: sid for sid in state.display}
        ngates = len(p.gates)
        # candidate investments from the legal ones (one gate space: the most attractive)
        cands: list[tuple[str, int, Action, float]] = []  # kind, cost, action, payment value
        gate_best: dict[str, tuple[float, Action, float]] = {}
        for a in acts:
            extra = getattr(a, "extra", None)
            if extra is None:
                continue
            pay = 0.0
            if extra == "aquilas":
                pay = cat.rules.extra_investment_aquilas * (2.0 if classic_aq else AQUILA_VALUE)
            elif extra == "construction":
                pay = 1.5
            if isinstance(a, BuildGate):
                att = self.gate_attraction(state, cat, a.space) + self.rng.random() * 1e-6
                if extra not in gate_best or att > gate_best[extra][0]:
                    gate_best[extra] = (att, a, pay)
            elif isinstance(a, HirePromoter):
                cands.append(("promoter", c.promoter_cost, a, pay))
            elif isinstance(a, BuildTemple):
                cands.append(("temple", c.temple_cost, a, pay))
            elif isinstance(a, PlanSpectacle):
                spec = cat.spectacles[ids[a.spectacle]]
                cands.append(("spectacle", spec.cost, a, pay))
        for att, a, pay in gate_best.values():
            cands.append(("gate", c.gate_cost, a, pay - 0.02 * att))

        def value(chosen) -> float:
            specs = list(owned)
            g, prom, temple, spent, paid = ngates, p.promoters, p.temple, 0, 0.0
            for kind, cost, a, pay in chosen:
                spent += cost
                paid += pay
                if kind == "gate":
                    g += 1
                elif kind == "promoter":
                    prom += 1
                elif kind == "temple":
                    temple = True
                else:
                    specs.append(ids[a.spectacle])
            if spent > p.coins:
                return -1e9
            return self._bundle_value(state, cat, seat, fits, now_val, specs, g, prom, temple, spent) - paid

        base = value(())
        best_v, best_a = base + 0.3, None
        distinct = cat.rules.investment_kinds_distinct
        for x in cands:
            v = value((x,))
            if v > best_v:
                best_v, best_a = v, x[2]
            # a second investment this turn (G-2: of a different kind) may make the first worth it
            if getattr(x[2], "extra", "") == "" and len(state.invest.made) == 0 and cat.rules.investments_per_turn > 1:
                for y in cands:
                    if y is x or (distinct and y[0] == x[0]) or getattr(y[2], "extra", "") != "":
                        continue
                    v2 = value((x, y)) - 0.01
                    if v2 > best_v:
                        best_v, best_a = v2, x[2]
        if best_a is not None:
            return best_a
        return self._end_invest(state, cat, seat, acts)

    def _end_invest(self, state: State, cat: Catalog, seat: int, acts) -> Action:
        return next(a for a in acts if isinstance(a, EndTurn))

    # ================================================================== Phase 2 (G-3)

    def lot_value(self, state: State, cat: Catalog, seat: int, lot) -> float:
        p = state.players[seat]
        base = self.tile_utility(state, cat, seat, p.tiles)
        aq = cat.aquila_tile
        kinds = [k for k in lot if k != aq]
        v = self.tile_utility(state, cat, seat, self.tiles_plus(p.tiles, kinds)) - base
        v += AQUILA_VALUE * (len(lot) - len(kinds))
        if cat.rules.construction_for_aquila:
            v += 1.5 * sum(1 for k in kinds if k == cat.construction)
        return v

    def max_bid(self, state: State, cat: Catalog, seat: int, lot) -> int:
        p = state.players[seat]
        v = self.lot_value(state, cat, seat, lot)
        if v <= 0:
            return 0
        cr = self.coin_rate(state, cat)
        limit = int(v / max(cr, 0.05))
        # keep coins for next round's investments unless it is the last round
        budget = p.coins if self.last_round(state, cat) else p.coins - 4
        if self.last_round(state, cat) and cat.rules.endgame_aquila_acclaim == 0:
            budget = credit(p)
        return min(limit, budget)

    def _hire(self, state: State, cat: Catalog, seat: int, ch: Choices) -> Action:
        h = state.hire
        assert h is not None
        if h.auction is not None:
            auc = h.auction
            lot = state.markets[auc.market]
            top = self.max_bid(state, cat, seat, lot)
            bid = auc.high + 1
            opt = ch.bids[0] if ch.bids else None
            if opt is not None and bid <= top and opt.low <= bid <= opt.high:
                return opt.action(seat, bid)
            return PassBid(player=seat)
        best, best_v = None, 0.0
        for opt in ch.bids:
            lot = state.markets[opt.market]
            top = self.max_bid(state, cat, seat, lot)
            if top < opt.low:
                continue
            v = top - opt.low + 0.01 * self.rng.random()
            if v >= best_v:
                best, best_v = opt, v
        if best is not None:
            return best.action(seat, best.low)
        return next(a for a in ch.actions if isinstance(a, EndTurn))

    # ================================================================== Phase 3 (G-4)

    def deal_value(self, state: State, cat: Catalog, seat: int, transfers) -> float:
        """What a deal is worth to ``seat`` (its tiles, coins and Aquilas)."""
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

    def opponent_gain(self, state: State, cat: Catalog, me: int, transfers) -> tuple[float, bool]:
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
            won = self.stars_with(state, cat, o, tiles) - self.stars_with(state, cat, o, p.tiles)
            if won:
                star = True
                g += cat.common.star_acclaim * len(won)
            worst = max(worst, g)
        return worst, star

    def accepts(self, state: State, cat: Catalog, seat: int, transfers) -> bool:
        """G-4: the bot agrees to a deal that improves its position and does not hand another
        player more than it gains (a Star Performer handed over must be paid for in full)."""
        mine = self.deal_value(state, cat, seat, transfers)
        if mine <= 0.5:
            return False
        theirs, star = self.opponent_gain(state, cat, seat, transfers)
        if star:
            return mine >= theirs + 1.0
        return mine >= 0.6 * theirs - 1.0

    def _trade(self, state: State, cat: Catalog, seat: int, ch: Choices) -> Action:
        t = state.trade
        assert t is not None
        acts = ch.actions
        if t.deal is not None:
            good = self.accepts(state, cat, seat, t.deal.transfers)
            for a in acts:
                if isinstance(a, (AcceptDeal, CloseDeal)) and good:
                    return a
            for a in acts:
                if isinstance(a, (RejectDeal, CancelDeal)):
                    return a
            return acts[-1]
        if ch.can_propose and t.active == seat:
            key = (state.setup.seed, state.round, seat)
            if key != self._trade_key:
                self._trade_key = key
                self._proposed = set()
            if len(self._proposed) < MAX_PROPOSALS:
                deal = self.best_deal(state, cat, seat)
                if deal is not None:
                    self._proposed.add(deal)
                    return ProposeDeal(player=seat, transfers=deal)
        return next(a for a in acts if isinstance(a, EndTurn))

    def best_deal(self, state: State, cat: Catalog, seat: int) -> tuple[Transfer, ...] | None:
        """A swap (one tile the bot can spare for one it wants) or a purchase (a wanted tile for
        coins) that helps the bot and that the other side, judged as the bot would judge it,
        should accept."""
        p = state.players[seat]
        kinds = [*cat.performers, cat.balatro]
        util = self.tile_utility
        base = util(state, cat, seat, p.tiles)
        gain = {}
        for k in kinds:
            if any(q.tiles[k] for i, q in enumerate(state.players) if i != seat):
                gain[k] = util(state, cat, seat, self.tiles_plus(p.tiles, (k,))) - base
        wanted = sorted((k for k in gain if gain[k] > 1.0), key=lambda k: -gain[k])[:3]
        if not wanted:
            return None
        loss = {}
        for k in kinds:
            if p.tiles[k]:
                loss[k] = base - util(state, cat, seat, self.tiles_plus(p.tiles, (k,), -1))
        spare = sorted(loss, key=lambda k: loss[k])[:4]
        cr = self.coin_rate(state, cat)
        cands: list[tuple[float, tuple[Transfer, ...]]] = []
        for k in wanted:
            for o, q in enumerate(state.players):
                if o == seat or not q.tiles[k]:
                    continue
                qbase = util(state, cat, o, q.tiles)
                qloss = qbase - util(state, cat, o, self.tiles_plus(q.tiles, (k,), -1))
                for j in spare:
                    mine = gain[k] - loss[j]
                    if j == k or mine <= 0.5:
                        continue
                    q2 = self.tiles_plus(q.tiles, (j,))
                    q2[k] -= 1
                    theirs = util(state, cat, o, q2) - qbase
                    # both sides must like it (the same test as ``accepts``, roughly)
                    if theirs <= 0.5 or mine < 0.6 * theirs - 1.0 or theirs < 0.6 * mine - 1.0:
                        continue
                    tr = (Transfer(seat, o, cat.codes[j], 1), Transfer(o, seat, cat.codes[k], 1))
                    if tr not in self._proposed:
                        cands.append((mine, tr))
                price = max(2, int((qloss + 1.0) / max(cr, 0.1)) + 1)
                if price <= p.coins:
                    mine = gain[k] - price * cr
                    tr = (Transfer(seat, o, "coins", price), Transfer(o, seat, cat.codes[k], 1))
                    if mine > 0.5 and tr not in self._proposed:
                        cands.append((mine, tr))
        cands.sort(key=lambda x: -x[0])
        for _, tr in cands[:4]:
            o = tr[0].receiver
            if self.accepts(state, cat, seat, tr) and self.accepts(state, cat, o, tr):
                return tr
        return None

    # ================================================================== Phase 4 (G-5)

    def walk(self, cat: Catalog, nobles, noble: int, steps: int) -> int:
        """Engine's G-5.1 walk over a nobles tuple (C-4: classic counts every space)."""
        n_sp = cat.track_spaces
        pos = nobles[noble]
        if not cat.rules.skip_occupied:
            return (pos + steps) % n_sp
        occupied = {x for i, x in enumerate(nobles) if i != noble}
        d = 1 if steps > 0 else -1
        left = abs(steps)
        while left:
            pos = (pos + d) % n_sp
            if pos not in occupied:
                left -= 1
        return pos

    def performance(self, state: State, cat: Catalog, seat: int) -> tuple[float, int]:
        """The best strip + stars + earlier-performance part of a performance now (without
        nobles, promoters, gifts, Aquilas), and its spectacle id; (-1, -1) if none."""
        p = state.players[seat]
        best, best_id, best_pref = -1.0, -1, -1e9
        last = self.last_round(state, cat)
        stars = {k for k, h in enumerate(state.stars) if h == seat}
        for sid in (*p.face_down, *p.face_up):
            spec = cat.spectacles[sid]
            if spec.gates > len(p.gates):
                continue
            miss = self.missing(cat, p.tiles, spec)
            if miss > spec.max_missing:
                continue
            v = spec.strip[miss] + cat.common.star_acclaim * sum(1 for k in stars if spec.need[k])
            v += cat.common.performed_acclaim * (len(p.face_up) - (1 if sid in p.face_up else 0))
            # a spectacle performed for the first time adds +5 to every later performance
            pref = v + (cat.common.performed_acclaim if sid in p.face_down and not last else 0)
            if pref > best_pref:
                best_pref, best, best_id = pref, v, sid
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

    def noble_score(self, state: State, cat: Catalog, seat: int, nobles) -> float:
        gates = state.players[seat].gates
        vals = _noble_values(cat)
        return float(sum(vals[i] for i, pos in enumerate(nobles) if pos in gates))

    DENIAL = 0.3  # weight of nobles left at the gates of players still to perform

    def best_moves(self, state: State, cat: Catalog, seat: int, mode: str) -> tuple[float, list[tuple[int, int, int]]]:
        """The best sequence of dice moves in ``mode`` from the current state: (value,
        [(noble, die, steps), ...]).  Value: nobles at the bot's gates (weighted by what this
        performance is worth) plus Aquilas won by ending on Aquila spaces (G-5.1)."""
        pt = state.perform
        assert pt is not None
        key = (
            state.setup.seed,
            state.round,
            seat,
            pt.dice,
            pt.used,
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
        ranges = cat.rules.temple_ranges and state.players[seat].temple
        aq_spaces = cat.aquila_spaces
        gates = frozenset(state.players[seat].gates)
        vals = _noble_values(cat)
        nobles = state.nobles
        walk = self.walk
        # gates of the players who perform after the bot this round: a noble left there helps them
        later = set()
        if self.DENIAL:
            for k in range(state.turn + 1, state.n):
                later.update(state.players[(state.first + k) % state.n].gates)

        # value of a noble standing on a space: its Acclaim at the bot's gates, an Aquila won
        def on(noble: int, dest: int) -> float:
            v = w * vals[noble] if dest in gates else -self.DENIAL * vals[noble] if dest in later else 0.0
            return v + (AQUILA_VALUE if dest in aq_spaces else 0.0)

        base = [
            w * vals[i] if pos in gates else -self.DENIAL * vals[i] if pos in later else 0.0
            for i, pos in enumerate(nobles)
        ]
        total0 = sum(base)
        best_v, best_seq = -1e9, []
        movable = [i for i in range(6) if i not in pt.moved]
        if mode == "sum":
            total = sum(pt.dice)
            lo = len(pt.dice) if ranges else total
            for noble in movable:
                for s in range(lo, total + 1):
                    dest = walk(cat, nobles, noble, s)
                    v = total0 - base[noble] + on(noble, dest)
                    if v > best_v:
                        best_v, best_seq = v, [(noble, -1, s)]
            self._moves_cache[key] = (best_v, best_seq)
            return best_v, best_seq
        used = pt.used if pt.used else (False,) * len(pt.dice)
        dice = [i for i, u in enumerate(used) if not u]

        def rng_of(die: int) -> range:
            face = pt.dice[die]
            return range(1 if ranges else face, face + 1)

        if len(dice) == 1:
            d = dice[0]
            for noble in movable:
                for s in rng_of(d):
                    dest = walk(cat, nobles, noble, s)
                    v = total0 - base[noble] + on(noble, dest)
                    if v > best_v:
                        best_v, best_seq = v, [(noble, d, s)]
        else:
            for d1 in dice:
                d2 = next(x for x in dice if x != d1)
                r2 = rng_of(d2)
                for n1 in movable:
                    for s1 in rng_of(d1):
                        dest1 = walk(cat, nobles, n1, s1)
                        nn1 = list(nobles)
                        nn1[n1] = dest1
                        v1 = total0 - base[n1] + on(n1, dest1)
                        for n2 in movable:
                            if n2 == n1:
                                continue
                            for s2 in r2:
                                dest2 = walk(cat, nn1, n2, s2)
                                v = v1 - base[n2] + on(n2, dest2)
                                if v > best_v:
                                    best_v, best_seq = v, [(n1, d1, s1), (n2, d2, s2)]
        if len(self._moves_cache) > 64:
            self._moves_cache.clear()
        self._moves_cache[key] = (best_v, best_seq)
        return best_v, best_seq

    def _perform(self, state: State, cat: Catalog, seat: int, acts) -> Action:
        pt = state.perform
        assert pt is not None
        p = state.players[seat]
        if pt.stage == "roll":
            return Roll(player=seat)
        if pt.stage == "mode":
            vs, _ = self.best_moves(state, cat, seat, "split")
            vm, _ = self.best_moves(state, cat, seat, "sum")
            return ChooseDice(player=seat, mode="sum" if vm > vs else "split")
        if pt.stage == "move":
            _, seq = self.best_moves(state, cat, seat, pt.mode or "split")
            if seq:
                noble, die, steps = seq[0]
                a = MoveNoble(player=seat, noble=noble, die=die, steps=steps)
                if a in acts:
                    return a
            return next(a for a in acts if isinstance(a, MoveNoble))
        # stage "after": Aquila moves, then perform
        base, sid = self.performance(state, cat, seat)
        classic_aq = cat.rules.endgame_aquila_acclaim == 0
        last = self.last_round(state, cat)
        if sid >= 0 and p.aquilas:
            w = self.noble_weight(state, cat, seat)
            cur = self.noble_score(state, cat, seat, state.nobles)
            cost = AQUILA_VALUE if not classic_aq else (3.0 if last else 2.5)
            best, best_gain = None, cost + 0.5
            for noble in range(6):
                for s in (1, 2, 3, -1, -2, -3):
                    dest = self.walk(cat, state.nobles, noble, s)
                    nn = list(state.nobles)
                    nn[noble] = dest
                    g = w * (self.noble_score(state, cat, seat, nn) - cur)
                    if g > best_gain:
                        best, best_gain = (noble, s), g
            if best is not None:
                a = AquilaMove(player=seat, noble=best[0], steps=best[1])
                if a in acts:
                    return a
        if sid < 0:
            return next(a for a in acts if isinstance(a, EndTurn))
        if classic_aq and last and p.tiles[cat.construction] > 0:
            for a in acts:
                if isinstance(a, ConstructionForAquila):
                    return a
        # G-5.3 step 7: Aquilas spent only when they make this the best performance in a game
        # without end-of-game Acclaim for them (classic), or for the coins in the last round.
        key = cat.spectacles[sid].key
        spend = 0
        if last:
            total = base + self.noble_score(state, cat, seat, state.nobles)
            total += p.promoters * cat.common.promoter_acclaim + p.gifts * cat.common.gift_acclaim
            if classic_aq:
                if total + 3 * p.aquilas > p.acclaim:
                    spend = p.aquilas
            elif total >= p.acclaim:
                spend = p.aquilas
        a = Perform(player=seat, spectacle=key, aquilas=spend)
        if a in acts:
            return a
        return next(x for x in acts if isinstance(x, Perform))

    # ================================================================== Phase 5 (G-6)

    def _closing(self, state: State, cat: Catalog, seat: int, acts) -> Action:
        cl = state.closing
        assert cl is not None
        p = state.players[seat]
        if cl.stage == "retire":
            best, best_v = None, -1e9
            for a in acts:
                if not isinstance(a, Retire):
                    continue
                k = cat.index[a.tile]
                v = self.tile_utility(state, cat, seat, self.tiles_plus(p.tiles, (k,), -1))
                if v > best_v:
                    best, best_v = a, v
            return best if best is not None else acts[-1]
        if cl.stage == "steal":
            victim = state.players[cl.victim]
            base = self.tile_utility(state, cat, seat, p.tiles)
            vbase = self.tile_utility(state, cat, cl.victim, victim.tiles)
            best, best_v = None, -1e9
            for a in acts:
                if not isinstance(a, Steal):
                    continue
                k = cat.index[a.tile]
                v = self.tile_utility(state, cat, seat, self.tiles_plus(p.tiles, (k,))) - base
                v += 0.5 * (vbase - self.tile_utility(state, cat, cl.victim, self.tiles_plus(victim.tiles, (k,), -1)))
                if v > best_v:
                    best, best_v = a, v
            if best is not None:
                return best
            return next(a for a in acts if isinstance(a, EndTurn))
        # G-6.3: the bot takes the first-player marker itself
        for a in acts:
            if isinstance(a, ChooseFirstPlayer) and a.first == seat:
                return a
        return next(a for a in acts if isinstance(a, ChooseFirstPlayer))
