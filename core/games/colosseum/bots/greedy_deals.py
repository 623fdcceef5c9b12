"""The ``greedy`` bot's trading (G-4): which deal to accept, which to propose (a swap of a tile
it can spare for one it wants, or a purchase), at most ``MAX_PROPOSALS`` a turn; the values it
compares come from ``GreedyValuation``."""

from __future__ import annotations

from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    Action,
    CancelDeal,
    CloseDeal,
    EndTurn,
    ProposeDeal,
    RejectDeal,
)
from colosseum.core.games.colosseum.bots.greedy_value import GreedyValuation
from colosseum.core.games.colosseum.components import Catalog
from colosseum.core.games.colosseum.model import State, Transfer
from colosseum.core.games.colosseum.offers import Choices

__all__ = ["MAX_PROPOSALS", "GreedyTrader"]

MAX_PROPOSALS = 3  # deals the bot proposes per trade turn


class GreedyTrader(GreedyValuation):
    """Phase 3 of the greedy bot (``GreedyBot`` adds every other decision)."""

    _proposed: set[tuple[Transfer, ...]]
    _trade_key: tuple[int, ...]

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
        others = [q.tiles for i, q in enumerate(state.players) if i != seat]
        offered = [k for k in kinds if any(t[k] for t in others)]
        mine_kinds = [k for k in kinds if p.tiles[k]]
        # a tile more of each kind offered and a tile less of each kind held, from one pass (which
        # also values the hand itself)
        nof = len(offered)
        each = self.tile_utility_each(
            state, cat, seat, p.tiles, offered + mine_kinds, [1] * nof + [-1] * len(mine_kinds)
        )
        base = util(state, cat, seat, p.tiles)
        gain = {}
        for k, u in zip(offered, each[:nof], strict=True):
            gain[k] = u - base
        wanted = sorted((k for k in gain if gain[k] > 1.0), key=lambda k: -gain[k])[:3]
        if not wanted:
            return None
        loss = {}
        for k, u in zip(mine_kinds, each[nof:], strict=True):
            loss[k] = base - u
        spare = sorted(loss, key=lambda k: loss[k])[:4]
        cr = self.coin_rate(state, cat)
        cands: list[tuple[float, tuple[Transfer, ...]]] = []
        for k in wanted:
            for o, q in enumerate(state.players):
                if o == seat or not q.tiles[k]:
                    continue
                # their hand without k, with k back and with each spare tile for it instead: one
                # pass over the former
                q_k = self.tiles_plus(q.tiles, (k,), -1)
                swaps = [j for j in spare if j != k and gain[k] - loss[j] > 0.5]
                qbase, *theirs_after = self.tile_utility_each(state, cat, o, q_k, [k, *swaps])
                after = dict(zip(swaps, theirs_after, strict=True))
                qloss = qbase - util(state, cat, o, q_k)
                for j in spare:
                    mine = gain[k] - loss[j]
                    if j == k or mine <= 0.5:
                        continue
                    theirs = after[j] - qbase
                    # both sides must like it (the same test as ``accepts``, roughly)
                    if theirs <= 0.5 or mine < 0.6 * theirs - 1.0 or theirs < 0.6 * mine - 1.0:
                        continue
                    tr: tuple[Transfer, ...] = (Transfer(seat, o, cat.codes[j], 1), Transfer(o, seat, cat.codes[k], 1))
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
