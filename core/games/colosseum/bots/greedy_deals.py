"""The ``greedy`` bot's trading (G-4): which deal to accept, which to propose (a swap of a tile
it can spare for one it wants, or a purchase), at most ``MAX_PROPOSALS`` a turn; the values it
compares come from ``GreedyValuation``.

It bargains as a person would (D-69): it never asks a player again this round for a tile that
player refused it (nor proposes anything to a player who answered "not this round"), and a deal
it has just rejected it may send back edited, with the coins changed to a price it would accept
(a counter-offer), once."""

from __future__ import annotations

from colosseum.core.errors import RuleError
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
from colosseum.core.games.colosseum.phases.trade import check_deal

__all__ = ["MAX_COUNTER_COINS", "MAX_PROPOSALS", "GreedyTrader", "asked_of", "refused_asks"]

MAX_PROPOSALS = 3  # deals the bot proposes per trade turn
MAX_COUNTER_COINS = 12  # how far a counter-offer moves the coins of the deal it answers


def asked_of(transfers: tuple[Transfer, ...], proposer: int, other: int) -> frozenset[str]:
    """The items a deal asks ``other`` to give ``proposer`` other than coins: what a person
    means by "the same proposal" ("your Horse again")."""
    return frozenset(
        tr.item for tr in transfers if tr.giver == other and tr.receiver == proposer and tr.item != "coins"
    )


def refused_asks(state: State, seat: int) -> tuple[set[int], set[tuple[int, str]]]:
    """What ``seat`` may not propose again this round (D-69): the players who answered it "not
    this round", and (player, item) for each item a player refused to give it."""
    closed: set[int] = set()
    asks: set[tuple[int, str]] = set()
    for r in state.refusals:
        if r.proposer != seat:
            continue
        if r.whole_round:
            closed.add(r.by)
        for item in asked_of(r.transfers, seat, r.by):
            asks.add((r.by, item))
    return closed, asks


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
                if good and (type(a) is AcceptDeal or type(a) is CloseDeal):
                    return a
            for a in acts:
                if type(a) is RejectDeal or type(a) is CancelDeal:
                    return a
            return acts[-1]
        if ch.can_propose and t.active == seat:
            key = (state.setup.seed, state.round, seat)
            if key != self._trade_key:
                self._trade_key = key
                self._proposed = set()
            if len(self._proposed) < MAX_PROPOSALS:
                deal = self.counter_offer(state, cat, seat)
                if deal is None or deal in self._proposed:
                    deal = self.best_deal(state, cat, seat)
                if deal is not None:
                    self._proposed.add(deal)
                    return ProposeDeal(player=seat, transfers=deal)
        return next(a for a in acts if type(a) is EndTurn)

    def best_deal(self, state: State, cat: Catalog, seat: int) -> tuple[Transfer, ...] | None:
        """A swap (one tile the bot can spare for one it wants) or a purchase (a wanted tile for
        coins) that helps the bot and that the other side, judged as the bot would judge it,
        should accept."""
        p = state.players[seat]
        kinds = [*cat.performers, cat.balatro]
        util = self.tile_utility
        closed, refused = refused_asks(state, seat)
        others = [q.tiles for i, q in enumerate(state.players) if i != seat and i not in closed]
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
            code = cat.codes[k]
            for o, q in enumerate(state.players):
                if o == seat or not q.tiles[k] or o in closed or (o, code) in refused:
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

    def counter_offer(self, state: State, cat: Catalog, seat: int) -> tuple[Transfer, ...] | None:
        """The deal ``seat`` has just rejected (the last thing that happened in this trade turn),
        sent back with the coins moved to where ``seat`` would accept it and its proposer, as
        ``seat`` judges, still gains; None when no such price exists or that was refused too."""
        t = state.trade
        if t is None or t.deal is not None or not state.refusals:
            return None
        r = state.refusals[-1]
        if r.by != seat or r.proposer == seat or r.active != t.active or r.at != t.proposals:
            return None
        other = r.proposer
        parties = {p for tr in r.transfers for p in (tr.giver, tr.receiver)}
        if parties != {seat, other} or seat != t.active and other != t.active:
            return None
        closed, refused = refused_asks(state, seat)
        if other in closed:
            return None
        # the coins ``other`` pays ``seat`` in the deal (negative: ``seat`` pays)
        paid = sum(tr.count if tr.giver == other else -tr.count for tr in r.transfers if tr.item == "coins")
        goods = tuple(tr for tr in r.transfers if tr.item != "coins")
        if any((other, item) in refused for item in asked_of(goods, seat, other)):
            return None
        mine, theirs = state.players[seat].coins, state.players[other].coins
        for c in range(paid + 1, paid + MAX_COUNTER_COINS + 1):
            if c > theirs or -c > mine:
                break
            coins = (
                (Transfer(other, seat, "coins", c),)
                if c > 0
                else (Transfer(seat, other, "coins", -c),)
                if c < 0
                else ()
            )
            deal = goods + coins
            if not deal or not self._fair_counter(state, cat, seat, other, deal):
                continue
            return deal
        return None

    def _fair_counter(self, state: State, cat: Catalog, seat: int, other: int, deal: tuple[Transfer, ...]) -> bool:
        if self.deal_value(state, cat, other, deal) <= 0.5 or not self.accepts(state, cat, seat, deal):
            return False
        try:
            check_deal(state, deal, seat)
        except RuleError:
            return False
        return True
