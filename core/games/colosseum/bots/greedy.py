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

In the original 2007 edition the same judgements apply to its pieces: a season ticket is valued
as a promoter (+5 each later performance), the Emperor's loge as the temple (2 dice), podiums
count in the performances like gifts, bids stay within the coins held (O-18), only programs
above the numbering floor are considered (O-12), and a first performance that would bar cheaper
programs from purchase is a little less attractive.

Deterministic given its seed (the seed only breaks exact ties).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from colosseum.core.games.colosseum.actions import (
    Action,
    AquilaMove,
    BuildGate,
    BuildLoge,
    BuildTemple,
    BuySeasonTicket,
    ChooseDice,
    ChooseFirstPlayer,
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
    Retire,
    Roll,
    Steal,
)
from colosseum.core.games.colosseum.bots.greedy_deals import MAX_PROPOSALS, GreedyTrader
from colosseum.core.games.colosseum.bots.greedy_nobles import AQUILA_VALUE, _walk
from colosseum.core.games.colosseum.bots.greedy_tiles import spec_table
from colosseum.core.games.colosseum.components import Catalog, load_catalog
from colosseum.core.games.colosseum.model import GameSetup, State, Transfer
from colosseum.core.games.colosseum.offers import Choices, legal, safe_action

__all__ = ["MAX_PROPOSALS", "GreedyBot"]

#: The kinds of investment (G-2), as the investment search tells them apart.
_SPECTACLE: Final = 0
_GATE: Final = 1
_PROMOTER: Final = 2
_TEMPLE: Final = 3
#: A spectacle's value in a bundle it takes no part in: below any a bundle can have (from 0).
_NONE: Final = -1e300


def _part(fit: float, nv: float, up: int, need: int, g: int, left: int, gate_charge: float) -> tuple[float, int, float]:
    """A spectacle's part in a bundle with ``g`` gates, as ``_bundle_value`` folds it (``fit``,
    ``nv``: ``fits_of``; ``up``: 1 if not performed yet; ``need``: its gates): its value if it
    ends the best, ``up``, its strip value now if it needs no more gates (else -1: never above
    the 0 a bundle starts from); none (``_NONE``, 0, -1) if it needs more gates than the rounds
    left can bring."""
    short = need - g if need > g else 0
    if short > left - 1:
        return _NONE, 0, -1.0
    return fit - short * gate_charge, up, nv if short == 0 else -1.0


#: ``money(coins) - money(coins - spent)`` by (money steps, money rest, last round, coins) and
#: coins spent: the investment search asks it for every bundle.
_MONEY_LOST: dict[tuple[object, ...], dict[int, float]] = {}


class GreedyBot(GreedyTrader):
    """Decisions, phase by phase; the values they compare come from :class:`GreedyValuation`."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self._proposed: set[tuple[Transfer, ...]] = set()
        self._trade_key: tuple[int, ...] = ()
        # the catalog of the last game setup seen (``load_catalog`` hashes its name each time)
        self._setup: GameSetup | None = None
        self._cat: Catalog | None = None

    def fork(self) -> GreedyBot:
        """A twin that makes the choices this bot would make from now on (its generator's state
        and the deals it proposed this turn), without touching this one (the shared caches
        are pure memos)."""
        twin = GreedyBot()
        twin.rng.setstate(self.rng.getstate())
        twin._proposed = set(self._proposed)
        twin._trade_key = self._trade_key
        return twin

    # ================================================================== entry point

    def act(self, state: State) -> Action:
        ch = legal(state)
        chosen = self._checked(ch, self._choose(state, ch))
        # never needed in real games (tested), but a bot must never stall one
        return chosen if chosen is not None else safe_action(state)

    def _choose(self, state: State, ch: Choices) -> Action:
        seat = ch.player
        setup, cat = state.setup, self._cat
        if setup is not self._setup or cat is None:
            cat = self._cat = load_catalog(setup.variant)
            self._setup = setup
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
    def _checked(ch: Choices, action: Action) -> Action | None:
        """The chosen action if ``legal`` offers it (None if not: the caller falls back to
        :func:`~colosseum.core.games.colosseum.offers.safe_action`)."""
        if type(action) is ProposeDeal:
            return action if ch.can_propose else None
        if type(action) is OpenAuction or type(action) is Raise:
            market = action.market if type(action) is OpenAuction else -1
            if any(o.market == market and o.low <= action.bid <= o.high for o in ch.bids):
                return action
            return None
        acts = ch.actions
        for x in acts:  # an action as offered (by identity: cheaper than comparing each)
            if x is action:
                return action
        return action if action in acts else None

    # ================================================================== setup (G-1.6)

    def _start_gates(self, state: State, cat: Catalog, acts: Sequence[Action]) -> Action:
        best, best_v = acts[-1], -1e9
        for a in acts:
            if type(a) is not PlaceStartGates:
                continue
            n_sp = cat.track_spaces
            v = sum(self.gate_attraction(state, cat, (a.space + d) % n_sp) for d in range(-1, 3))
            v += self.rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best

    # ================================================================== Phase 1 (G-2, C-3)

    def _invest(self, state: State, cat: Catalog, seat: int, acts: Sequence[Action]) -> Action:
        turn = state.invest
        assert turn is not None
        p = state.players[seat]
        c = cat.common
        rules = cat.rules
        classic_aq = rules.endgame_aquila_acclaim == 0
        owned = self.owned_specs(state, seat)
        table = spec_table(cat)
        ids, costs = table.index, table.costs
        # (fit, strip value now) by spectacle id
        fits = self.fits_of(state, cat, seat, (*owned, *state.display))
        ngates = len(p.gates)
        aq_pay = rules.extra_investment_aquilas * (2.0 if classic_aq else AQUILA_VALUE)
        # candidate investments from the legal ones (one gate space: the most attractive), as
        # parallel lists: kind, cost, action, value of what pays for it (C-3 extras), whether it is
        # a regular one, and its spectacle (-1: none); the kinds by their exact types, the most
        # frequent first (no action type is subclassed; the other actions, Aquila exchanges and
        # the end of the turn, are not investments)
        kinds: list[int] = []
        cost: list[int] = []
        cands: list[Action] = []
        pays: list[float] = []
        plain: list[bool] = []
        sids: list[int] = []
        gate_best: dict[str, tuple[float, Action, float]] = {}
        for a in acts:
            if type(a) is PlanSpectacle:
                sid, kind, extra = ids[a.spectacle], _SPECTACLE, a.extra
                price = costs[sid]
            elif type(a) is BuildGate:
                extra = a.extra
                pay = aq_pay if extra == "aquilas" else 1.5 if extra == "construction" else 0.0
                att = self.gate_attraction(state, cat, a.space) + self.rng.random() * 1e-6
                if extra not in gate_best or att > gate_best[extra][0]:
                    gate_best[extra] = (att, a, pay)
                continue
            elif type(a) is HirePromoter or type(a) is BuySeasonTicket:  # O-14: a season ticket is +5 too
                sid, kind, extra, price = -1, _PROMOTER, a.extra, cat.promoter_price
            elif type(a) is BuildTemple or type(a) is BuildLoge:  # O-15: the loge's 2 dice
                sid, kind, extra, price = -1, _TEMPLE, a.extra, cat.temple_price
            else:
                continue
            kinds.append(kind)
            cost.append(price)
            cands.append(a)
            pays.append(aq_pay if extra == "aquilas" else 1.5 if extra == "construction" else 0.0)
            plain.append(extra == "")
            sids.append(sid)
        for paid_by, (att, a, pay) in gate_best.items():
            kinds.append(_GATE)
            cost.append(c.gate_cost)
            cands.append(a)
            pays.append(pay - 0.02 * att)
            plain.append(paid_by == "")
            sids.append(-1)

        # ``_bundle_value`` for this decision, with what is the same for every bundle computed
        # once: the owned spectacles' part for each gate count a bundle can reach, each
        # candidate's part, the money lost per spend
        fixed = self._bundle_fixed
        if fixed[0] is not state or fixed[1] != seat:
            fixed = self._bundle_fixed = (
                state,
                seat,
                self.rounds_left(state, cat),
                c.gate_cost * self.coin_rate(state, cat) + 1.0,
                {},
            )
        _, _, left, gate_charge, _ = fixed
        # the money lost by spending, by coins spent: it depends only on the coins held,
        # whether this is the last round and the money curve, so it is kept across decisions
        mkey = (self.MONEY_STEPS, self.MONEY_REST, self.last_round(state, cat), p.coins)
        money_lost = _MONEY_LOST.get(mkey)
        if money_lost is None:
            if len(_MONEY_LOST) > 1024:
                _MONEY_LOST.clear()
            money_lost = _MONEY_LOST[mkey] = {}
        # the owned spectacles folded (their best value, how many are still to perform, the best
        # performable now) with ``ngates`` gates, one more and two more, in their order; each
        # candidate's spectacle part (``_part``) with ``ngates`` gates and one more (a pair holds
        # one gate at most: one regular gate space is a candidate)
        face_up = p.face_up
        gates_of = table.gates
        own_top: list[float] = []
        own_up: list[int] = []
        own_now: list[float] = []
        for g in range(ngates, ngates + 3):
            final, feasible, now = 0.0, 0, 0.0
            for sid in owned:
                fit, nv = fits[sid]
                top, up, nv = _part(fit, nv, 0 if sid in face_up else 1, gates_of[sid], g, left, gate_charge)
                if top > final:
                    final = top
                feasible += up
                if nv > now:
                    now = nv
            own_top.append(final)
            own_up.append(feasible)
            own_now.append(now)
        top0: list[float] = []
        up0: list[int] = []
        now0: list[float] = []
        top1: list[float] = []
        up1: list[int] = []
        now1: list[float] = []
        for sid in sids:
            if sid < 0:
                top, up, nv = _NONE, 0, -1.0
                top_, up_, nv_ = _NONE, 0, -1.0
            else:
                fit, nv = fits[sid]
                up = 0 if sid in face_up else 1
                top_, up_, nv_ = _part(fit, nv, up, gates_of[sid], ngates + 1, left, gate_charge)
                top, up, nv = _part(fit, nv, up, gates_of[sid], ngates, left, gate_charge)
            top0.append(top)
            up0.append(up)
            now0.append(nv)
            top1.append(top_)
            up1.append(up_)
            now1.append(nv_)

        perf_acc, prom_acc = c.performed_acclaim, c.promoter_acclaim
        feasible_cap = max(0, left - 1)
        has_reserve = left > 1
        reserve = (self.RESERVE_FIRST if state.round == 1 else self.RESERVE) if has_reserve else 0
        coins0 = p.coins
        p_promoters, p_temple = p.promoters, p.temple
        temple_acc = 1.0 * left
        # the money lost by each spend (at most the coins held), as asked (``_money_lost``)
        lost_at: list[float | None] = [None] * (coins0 + 1)

        # the value of investing nothing
        v = own_top[0] + 0.5 * own_now[0] + perf_acc * (feasible_cap if feasible_cap < own_up[0] else own_up[0])
        v += p_promoters * prom_acc + (temple_acc if p_temple else 0.0)
        v -= self._money_lost(state, cat, money_lost, coins0, 0)
        if has_reserve and coins0 < reserve:
            v -= 0.4 * (reserve - coins0)
        best_v, best_a = v - 0.0 + 0.3, None  # (less nothing paid, as ``_bundle_value`` gives it)

        distinct = rules.investment_kinds_distinct
        pairs = len(turn.made) == 0 and rules.investments_per_turn > 1
        regular = [i for i in range(len(cands)) if plain[i]] if pairs else []
        after = 0  # regular[after:]: the regular candidates after the one in hand
        # each candidate alone, then (a second investment this turn may make the first worth it)
        # with each regular candidate after it (G-2: of a different kind where the variant says
        # so): a pair's value does not depend on its order (sums and maxima), so it is computed
        # when its first index comes first (met again with the second, it cannot beat the best by
        # then); the same sums in the same order, the same maxima as ``_bundle_value``
        for i in range(len(cands)):
            ki = kinds[i]
            ci = cost[i]
            payi = pays[i]
            prom_i = p_promoters + (1 if ki == _PROMOTER else 0)
            temple_i = p_temple or ki == _TEMPLE
            # the owned spectacles and this candidate's, with its gates and a gate more; the
            # parts of a second candidate with as many gates
            if ki == _GATE:
                final_a, feasible_a, now_a = own_top[1], own_up[1], own_now[1]
                final_b, feasible_b, now_b = own_top[2], own_up[2], own_now[2]
                tops, ups, nows = top1, up1, now1
            else:
                final_a, feasible_a, now_a = own_top[0], own_up[0] + up0[i], own_now[0]
                if top0[i] > final_a:
                    final_a = top0[i]
                if now0[i] > now_a:
                    now_a = now0[i]
                final_b, feasible_b, now_b = own_top[1], own_up[1] + up1[i], own_now[1]
                if top1[i] > final_b:
                    final_b = top1[i]
                if now1[i] > now_b:
                    now_b = now1[i]
                tops, ups, nows = top0, up0, now0
            if ci > coins0:
                v = -1e9
            else:
                paid = 0.0 + payi
                v = final_a + 0.5 * now_a + perf_acc * (feasible_cap if feasible_cap < feasible_a else feasible_a)
                v += prom_i * prom_acc + (temple_acc if temple_i else 0.0)
                lost = lost_at[ci]
                if lost is None:
                    lost = lost_at[ci] = self._money_lost(state, cat, money_lost, coins0, ci)
                v -= lost
                coins = coins0 - ci
                if has_reserve and coins < reserve:
                    v -= 0.4 * (reserve - coins)
                v = v - paid
            if v > best_v:
                best_v, best_a = v, cands[i]
            while after < len(regular) and regular[after] <= i:
                after += 1
            if not plain[i]:
                continue
            for j in regular[after:]:
                kj = kinds[j]
                if distinct and kj == ki:
                    continue
                spent = ci + cost[j]
                if spent > coins0:
                    v2 = -1e9 - 0.01
                else:
                    paid = 0.0 + payi + pays[j]
                    if kj == _GATE:  # (no spectacle of its own)
                        final, feasible, now = final_b, feasible_b, now_b
                    else:
                        final, feasible, now = final_a, feasible_a + ups[j], now_a
                        if tops[j] > final:
                            final = tops[j]
                        if nows[j] > now:
                            now = nows[j]
                    v = final + 0.5 * now + perf_acc * (feasible_cap if feasible_cap < feasible else feasible)
                    temple = temple_i or kj == _TEMPLE
                    v += (prom_i + (1 if kj == _PROMOTER else 0)) * prom_acc + (temple_acc if temple else 0.0)
                    lost = lost_at[spent]
                    if lost is None:
                        lost = lost_at[spent] = self._money_lost(state, cat, money_lost, coins0, spent)
                    v -= lost
                    coins = coins0 - spent
                    if has_reserve and coins < reserve:
                        v -= 0.4 * (reserve - coins)
                    v2 = v - paid - 0.01
                if v2 > best_v:
                    best_v, best_a = v2, cands[i]
        if best_a is not None:
            return best_a
        return self._end_invest(state, cat, seat, acts)

    def _money_lost(self, state: State, cat: Catalog, known: dict[int, float], coins: int, spent: int) -> float:
        """``money(coins) - money(coins - spent)``, remembered in ``known`` (``_MONEY_LOST``)."""
        lost = known.get(spent)
        if lost is None:
            lost = known[spent] = self.money(state, cat, coins) - self.money(state, cat, coins - spent)
        return lost

    def _end_invest(self, state: State, cat: Catalog, seat: int, acts: Sequence[Action]) -> Action:
        return next(a for a in acts if type(a) is EndTurn)

    # ================================================================== Phase 2 (G-3)

    def _hire(self, state: State, cat: Catalog, seat: int, ch: Choices) -> Action:
        h = state.hire
        assert h is not None
        if h.auction is not None:
            auc = h.auction
            lot = state.markets[auc.market]
            top = self.max_bid(state, cat, seat, lot)
            bid = self.raise_to(state, cat, seat, lot, top)
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
        return next(a for a in ch.actions if type(a) is EndTurn)

    def raise_to(self, state: State, cat: Catalog, seat: int, lot: Sequence[int], top: int) -> int:
        """The bid to raise the auction on ``lot`` to (D-69): one coin above the high bid, or,
        where the bot expects to outlast every other bidder still in (their highest bids as its
        own valuation sees them), one coin above the highest of those in one jump: the price a
        coin-at-a-time round would reach anyway, without the round."""
        h = state.hire
        assert h is not None and h.auction is not None
        auc = h.auction
        bid = auc.high + 1
        if not self.JUMP_BIDS or bid > top:
            return bid
        rivals = [s for s in range(state.n) if s != seat and not auc.out[s]]
        theirs = max((self.max_bid(state, cat, s, lot) for s in rivals), default=0)
        if theirs < top:
            bid = max(bid, theirs + 1)
        return bid

    # ================================================================== Phase 3 (G-4)

    def _perform(self, state: State, cat: Catalog, seat: int, acts: Sequence[Action]) -> Action:
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
            return next(a for a in acts if type(a) is MoveNoble)
        # stage "after": Aquila moves, then perform
        base, sid = self.performance(state, cat, seat)
        classic_aq = cat.rules.endgame_aquila_acclaim == 0
        last = self.last_round(state, cat)
        if sid >= 0 and p.aquilas:
            w = self.noble_weight(state, cat, seat)
            cur = self.noble_score(state, cat, seat, state.nobles)
            cost = AQUILA_VALUE if not classic_aq else (3.0 if last else 2.5)
            best, best_gain = None, cost + 0.5
            # noble_score after one noble moves, from the score now: the scores are sums of
            # whole Acclaim, so the same floats as scoring each position again
            nobles = state.nobles
            tr = self.track(cat)
            vals, count = tr.values, tr.count(nobles)
            own = [False] * tr.spaces  # the bot's gates, by space
            for space in p.gates:
                own[space] = True
            cur_int = int(cur)
            for noble in range(6):
                start = nobles[noble]
                val = vals[noble]
                here = cur_int - (val if own[start] else 0)
                # the landings 1 to 3 spaces either way, from one walk each way (``landing``)
                ahead = _walk(tr.spaces, tr.skip, start, 3, count)
                back = _walk(tr.spaces, tr.skip, start, 3, count, -1)
                for s in (1, 2, 3, -1, -2, -3):
                    dest = ahead[s] if s > 0 else back[-s]
                    g = w * (float(here + (val if own[dest] else 0)) - cur)
                    if g > best_gain:
                        best, best_gain = (noble, s), g
            if best is not None:
                aq = AquilaMove(player=seat, noble=best[0], steps=best[1])
                if aq in acts:
                    return aq
        if sid < 0:
            return next(a for a in acts if type(a) is EndTurn)
        if classic_aq and last and p.tiles[cat.construction] > 0:
            for x in acts:
                if type(x) is ConstructionForAquila:
                    return x
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
        act = Perform(player=seat, spectacle=key, aquilas=spend)
        for x in reversed(acts):  # (the performances come last: the legal one, as offered)
            if x == act:
                return x
        return next(x for x in acts if type(x) is Perform)

    # ================================================================== Phase 5 (G-6)

    def _closing(self, state: State, cat: Catalog, seat: int, acts: Sequence[Action]) -> Action:
        cl = state.closing
        assert cl is not None
        p = state.players[seat]
        if cl.stage == "retire":
            best: Action | None = None
            best_v = -1e9
            retires = [a for a in acts if type(a) is Retire]
            kinds = [cat.index[r.tile] for r in retires]
            for r, v in zip(retires, self.tile_utility_each(state, cat, seat, p.tiles, kinds, -1), strict=True):
                if v > best_v:
                    best, best_v = r, v
            return best if best is not None else acts[-1]
        if cl.stage == "steal":
            victim = state.players[cl.victim]
            best = None
            best_v = -1e9
            steals = [a for a in acts if type(a) is Steal]
            kinds = [cat.index[st.tile] for st in steals]
            # each pass also values the hand itself
            gains = self.tile_utility_each(state, cat, seat, p.tiles, kinds)
            losses = self.tile_utility_each(state, cat, cl.victim, victim.tiles, kinds, -1)
            base = self.tile_utility(state, cat, seat, p.tiles)
            vbase = self.tile_utility(state, cat, cl.victim, victim.tiles)
            for st, u, uv in zip(steals, gains, losses, strict=True):
                v = u - base
                v += 0.5 * (vbase - uv)
                if v > best_v:
                    best, best_v = st, v
            if best is not None:
                return best
            return next(a for a in acts if type(a) is EndTurn)
        # G-6.3: the bot takes the first-player marker itself
        for a in acts:
            if type(a) is ChooseFirstPlayer and a.first == seat:
                return a
        return next(a for a in acts if type(a) is ChooseFirstPlayer)
