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
from colosseum.core.games.colosseum.bots.greedy_nobles import AQUILA_VALUE, _reach, noble_values
from colosseum.core.games.colosseum.components import Catalog, load_catalog
from colosseum.core.games.colosseum.model import State, Transfer
from colosseum.core.games.colosseum.offers import Choices, legal, safe_action

__all__ = ["MAX_PROPOSALS", "GreedyBot"]

#: A candidate investment: kind, cost, action, value of what pays for it (C-3 extras).
_Candidate = tuple[str, int, Action, float]

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
        return action if action in ch.actions else None

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
        classic_aq = cat.rules.endgame_aquila_acclaim == 0
        owned = self.owned_specs(state, seat)
        now_val: dict[int, float] = {}
        fits = self.spectacle_fits(state, cat, seat, (*owned, *state.display), now_val)
        ids = {cat.spectacles[sid].key: sid for sid in state.display}
        ngates = len(p.gates)
        # candidate investments from the legal ones (one gate space: the most attractive)
        cands: list[_Candidate] = []  # kind, cost, action, payment value
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
            # (the kinds by their exact types, the most frequent first: no action type is subclassed)
            if type(a) is PlanSpectacle:
                spec = cat.spectacles[ids[a.spectacle]]
                cands.append(("spectacle", spec.cost, a, pay))
            elif type(a) is BuildGate:
                att = self.gate_attraction(state, cat, a.space) + self.rng.random() * 1e-6
                if extra not in gate_best or att > gate_best[extra][0]:
                    gate_best[extra] = (att, a, pay)
            elif type(a) is HirePromoter or type(a) is BuySeasonTicket:  # O-14: a season ticket is +5 too
                cands.append(("promoter", cat.promoter_price, a, pay))
            elif type(a) is BuildTemple or type(a) is BuildLoge:  # O-15: the loge's 2 dice
                cands.append(("temple", cat.temple_price, a, pay))
        for att, a, pay in gate_best.values():
            cands.append(("gate", c.gate_cost, a, pay - 0.02 * att))

        # ``_bundle_value`` for this decision, with what is the same for every bundle computed
        # once: the owned spectacles' part for each gate count a bundle can reach (folded in the
        # same order, so the same floats), each candidate's effect, the money lost per spend
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
        face_up = p.face_up
        specs_info = {
            sid: (cat.spectacles[sid].gates, fits[sid], sid not in face_up, now_val[sid])
            for sid in (*owned, *ids.values())
        }

        def fold(acc: tuple[float, int, float], sid: int, gates: int) -> tuple[float, int, float]:
            # (``max`` of two written out: the builtin parses its arguments at every call, and
            # this is greedy's innermost loop; ``max(a, b)`` is ``b if b > a else a``)
            need, fit, not_up, nv = specs_info[sid]
            short = need - gates if need > gates else 0
            if short > left - 1:
                return acc
            final, feasible, now = acc
            x = fit - short * gate_charge
            if x > final:
                final = x
            if not_up:
                feasible += 1
            if short == 0 and nv > now:
                now = nv
            return final, feasible, now

        owned_part: dict[int, tuple[float, int, float]] = {}
        for g in range(ngates, ngates + 3):
            acc: tuple[float, int, float] = (0.0, 0, 0.0)
            for sid in owned:
                acc = fold(acc, sid, g)
            owned_part[g] = acc
        perf_acc, prom_acc = c.performed_acclaim, c.promoter_acclaim
        feasible_cap = max(0, left - 1)
        reserve = (self.RESERVE_FIRST if state.round == 1 else self.RESERVE) if left > 1 else None
        coins0 = p.coins
        effects = [
            (
                kind == "gate",
                kind == "promoter",
                kind == "temple",
                ids[a.spectacle] if type(a) is PlanSpectacle else -1,
                cost,
                pay,
            )
            for kind, cost, a, pay in cands
        ]

        def value_of(chosen: tuple[int, ...]) -> float:
            """The value of the candidates at indices ``chosen`` (as ``_bundle_value`` less
            what pays for them)."""
            g, prom, temple, spent, paid = ngates, p.promoters, p.temple, 0, 0.0
            for i in chosen:
                is_gate, is_prom, is_temple, sid, cost, pay = effects[i]
                spent += cost
                paid += pay
                if is_gate:
                    g += 1
                elif is_prom:
                    prom += 1
                elif is_temple:
                    temple = True
            if spent > coins0:
                return -1e9
            acc = owned_part[g]
            for i in chosen:
                sid = effects[i][3]
                if sid >= 0:
                    acc = fold(acc, sid, g)
            final, feasible, now = acc
            v = final + 0.5 * now + perf_acc * (feasible_cap if feasible_cap < feasible else feasible)
            v += prom * prom_acc + (1.0 * left if temple else 0.0)
            lost = money_lost.get(spent)
            if lost is None:
                lost = money_lost[spent] = self.money(state, cat, coins0) - self.money(state, cat, coins0 - spent)
            v -= lost
            coins = coins0 - spent
            if reserve is not None and coins < reserve:
                v -= 0.4 * (reserve - coins)
            return v - paid

        def single_of(i: int) -> float:
            """``value_of((i,))``, inlined likewise."""
            gi, pi_, ti, si, spent, payi = effects[i]
            if spent > coins0:
                return -1e9
            paid = 0.0 + payi
            g = ngates + gi
            acc = owned_part[g]
            if si >= 0:
                acc = fold(acc, si, g)
            final, feasible, now = acc
            v = final + 0.5 * now + perf_acc * (feasible_cap if feasible_cap < feasible else feasible)
            temple = p.temple or ti
            v += (p.promoters + pi_) * prom_acc + (1.0 * left if temple else 0.0)
            lost = money_lost.get(spent)
            if lost is None:
                lost = money_lost[spent] = self.money(state, cat, coins0) - self.money(state, cat, coins0 - spent)
            v -= lost
            coins = coins0 - spent
            if reserve is not None and coins < reserve:
                v -= 0.4 * (reserve - coins)
            return v - paid

        base = value_of(())
        best_v, best_a = base + 0.3, None
        distinct = cat.rules.investment_kinds_distinct
        pairs = len(turn.made) == 0 and cat.rules.investments_per_turn > 1
        plain = [i for i, x in enumerate(cands) if getattr(x[2], "extra", "") == ""] if pairs else []
        # each plain candidate's partners, in the order of the candidates (G-2: a pair is of two
        # different kinds where the variant says so)
        partners: dict[str, list[int]] = {}
        is_plain = [False] * len(cands)
        for i in plain:
            is_plain[i] = True
            kind = cands[i][0]
            if kind not in partners:
                partners[kind] = [j for j in plain if not distinct or cands[j][0] != kind]
        # a pair's value does not depend on its order (sums and maxima): it is computed when its
        # first index comes first (met again with the second, it cannot beat the best by then)
        p_promoters, p_temple = p.promoters, p.temple
        for i, x in enumerate(cands):
            v = single_of(i)
            if v > best_v:
                best_v, best_a = v, x[2]
            # a second investment this turn (G-2: of a different kind) may make the first worth it
            if is_plain[i]:
                # ``value_of((i, j))`` (the same sums in the same order, the same maxima), with
                # the first candidate's part taken for both gate counts the second can make
                gi, pi_, ti, si, ci, payi = effects[i]
                g0 = ngates + gi
                acc0, acc1 = owned_part[g0], owned_part[g0 + 1]
                if si >= 0:
                    acc0 = fold(acc0, si, g0)
                    acc1 = fold(acc1, si, g0 + 1)
                prom_i = p_promoters + pi_
                temple_i = p_temple or ti
                for j in partners[x[0]]:
                    if j <= i:
                        continue
                    gj, pj, tj, sj, cj, payj = effects[j]
                    spent = ci + cj
                    if spent > coins0:
                        v2 = -1e9 - 0.01
                    else:
                        paid = 0.0 + payi + payj
                        if gj:
                            g, acc = g0 + 1, acc1
                        else:
                            g, acc = g0, acc0
                        if sj >= 0:
                            acc = fold(acc, sj, g)
                        final, feasible, now = acc
                        v = final + 0.5 * now + perf_acc * (feasible_cap if feasible_cap < feasible else feasible)
                        temple = temple_i or tj
                        v += (prom_i + pj) * prom_acc + (1.0 * left if temple else 0.0)
                        lost = money_lost.get(spent)
                        if lost is None:
                            lost = money_lost[spent] = self.money(state, cat, coins0) - self.money(
                                state, cat, coins0 - spent
                            )
                        v -= lost
                        coins = coins0 - spent
                        if reserve is not None and coins < reserve:
                            v -= 0.4 * (reserve - coins)
                        v2 = v - paid - 0.01
                    if v2 > best_v:
                        best_v, best_a = v2, x[2]
        if best_a is not None:
            return best_a
        return self._end_invest(state, cat, seat, acts)

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
            gates = p.gates
            vals = noble_values(cat)
            cur_int = int(cur)
            for noble in range(6):
                occupied = {x for i, x in enumerate(nobles) if i != noble}
                here = cur_int - (vals[noble] if nobles[noble] in gates else 0)
                # the landings 1 to 3 spaces either way, from one walk each way (``landing``)
                ahead = _reach(cat, nobles, noble, 3, occupied)
                back = _reach(cat, nobles, noble, 3, occupied, -1)
                for s in (1, 2, 3, -1, -2, -3):
                    dest = ahead[s] if s > 0 else back[-s]
                    g = w * (float(here + (vals[noble] if dest in gates else 0)) - cur)
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
        if act in acts:
            return act
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
