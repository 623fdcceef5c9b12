"""Phase 3, Trade Performers (G-4): in turn order each player is the active player of a trade
turn; anyone may propose a deal that includes the active player (at most a few per turn), every
party answers in turn clockwise from the active player, and the active player closes it.  Star
Performers follow the tiles (G-7).  Then Phase 4 begins.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from msgspec.structs import replace

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
from colosseum.core.games.colosseum.choices import BidOption, Handler, simple
from colosseum.core.games.colosseum.components import Catalog, load_catalog
from colosseum.core.games.colosseum.context import Ctx, recheck_stars
from colosseum.core.games.colosseum.model import NOBODY, Deal, PerformTurn, Player, Refusal, State, TradeTurn, Transfer

__all__ = [
    "HANDLERS",
    "MAX_TRANSFERS",
    "TRADABLE_EXTRA",
    "check_deal",
    "deal_pending",
    "describe_deal",
    "end_turn",
    "may_propose",
    "offer",
    "to_act",
    "tradable_items",
]

MAX_TRANSFERS = 24


def to_act(state: State) -> int:
    """The active player, or while a deal waits for answers the next party to answer."""
    t = state.trade
    assert t is not None
    if t.deal is not None:
        pending = _pending(t.active, t.deal.answers)
        if pending != NOBODY:
            return pending
    return t.active


def deal_pending(state: State) -> int:
    """The next party (clockwise from the active player) who has not answered the deal."""
    t = state.trade
    if t is None or t.deal is None:
        return NOBODY
    return _pending(t.active, t.deal.answers)


def _pending(active: int, answers: tuple[str, ...]) -> int:
    if "pending" not in answers:
        return NOBODY
    n = len(answers)
    for k in range(n):
        seat = (active + k) % n
        if answers[seat] == "pending":
            return seat
    return NOBODY


TRADABLE_EXTRA = ("coins", "aquilas")


@cache
def tradable_items(variant: str) -> frozenset[str]:
    """G-4: performer tiles (balatros too; construction tiles in the classic game, D-11),
    coins and Aquilas."""
    cat = load_catalog(variant)
    extra = set(TRADABLE_EXTRA) if cat.rules.aquilas_tradable else {"coins"}  # O-19: no medals
    return frozenset({cat.codes[k] for k in cat.holdable} | extra)


def _holding(cat: Catalog, p: Player, item: str) -> int:
    if item == "coins":
        return p.coins
    if item == "aquilas":
        return p.aquilas
    return p.tiles[cat.index[item]]


def check_deal(state: State, transfers: tuple[Transfer, ...], proposer: int) -> None:
    """Raise RuleError if ``transfers`` is not a valid deal in this trade turn (G-4)."""
    cat = load_catalog(state.setup.variant)
    t = state.trade
    assert t is not None
    n = len(state.players)
    if not transfers:
        raise RuleError("G-4", "a deal needs at least one transfer")
    if len(transfers) > MAX_TRANSFERS:
        raise RuleError("G-4", f"a deal has at most {MAX_TRANSFERS} transfers")
    ok = tradable_items(cat.variant)
    need: dict[tuple[int, str], int] = {}
    parties = set()
    for tr in transfers:
        if not isinstance(tr, Transfer):
            raise RuleError("G-4", "malformed transfer")
        if not (0 <= tr.giver < n and 0 <= tr.receiver < n) or tr.giver == tr.receiver:
            raise RuleError("G-4", "each transfer goes from one player to another")
        if tr.item not in ok:
            if not cat.rules.aquilas_tradable:
                raise RuleError("O-19", f"{tr.item!r} cannot be traded: only asset tiles and coins")
            raise RuleError("G-4", f"{tr.item!r} cannot be traded: only performer tiles, balatros, coins and Aquilas")
        if not isinstance(tr.count, int) or tr.count < 1:
            raise RuleError("G-4", "each transfer moves at least 1")
        need[(tr.giver, tr.item)] = need.get((tr.giver, tr.item), 0) + tr.count
        parties.add(tr.giver)
        parties.add(tr.receiver)
    if t.active not in parties:
        raise RuleError("G-4", f"every deal must include the active player, {state.players[t.active].name}")
    if proposer not in parties:
        raise RuleError("G-4", "you can propose only a deal you take part in")
    for r in state.refusals:  # D-69: "not this round"
        if r.whole_round and r.proposer == proposer and r.by in parties:
            who = state.players[r.by].name
            raise RuleError("G-4", f"{who} asked for no more offers from {state.players[proposer].name} this round")
    for (giver, item), cnt in need.items():
        have = _holding(cat, state.players[giver], item)
        if have < cnt:
            what = item if item in TRADABLE_EXTRA else cat.name_of(cat.index[item], 2)
            raise RuleError("G-4", f"{state.players[giver].name} has {have} {what}, not {cnt}")


def _propose(ctx: Ctx, a: ProposeDeal) -> None:
    st = ctx.st
    t = st.trade
    if st.phase != "trade" or t is None:
        raise RuleError("G-4", "deals are made in Phase 3")
    if t.deal is not None:
        raise RuleError("G-4", "a deal is already on the table")
    limit = ctx.cat.common.max_deal_proposals
    if t.proposals >= limit:
        raise RuleError("G-4", f"at most {limit} deals may be proposed in one trade turn")
    transfers = tuple(a.transfers)
    check_deal(st, transfers, a.player)
    answers = [""] * len(st.players)
    for tr in transfers:
        answers[tr.giver] = answers[tr.receiver] = "pending"
    answers[a.player] = "accepted"
    deal = Deal(proposer=a.player, transfers=transfers, answers=tuple(answers))
    ctx.st = replace(ctx.st, trade=replace(t, deal=deal, proposals=t.proposals + 1))
    if not ctx.quiet:
        ctx.log("deal", f"{ctx.name(a.player)} proposes: {describe_deal(st, transfers)}.", a.player)


def describe_deal(state: State, transfers: Iterable[Transfer]) -> str:
    cat = load_catalog(state.setup.variant)
    parts = []
    for tr in transfers:
        if tr.item in TRADABLE_EXTRA:
            what = f"{tr.count} {tr.item if tr.count > 1 else tr.item[:-1]}"
        else:
            what = f"{tr.count} {cat.name_of(cat.index[tr.item], tr.count)}"
        parts.append(f"{state.players[tr.giver].name} gives {state.players[tr.receiver].name} {what}")
    return "; ".join(parts)


def _answer(ctx: Ctx, seat: int, accept: bool, whole_round: bool = False) -> None:
    t = ctx.st.trade
    if ctx.st.phase != "trade" or t is None or t.deal is None:
        raise RuleError("G-4", "there is no deal to answer")
    if t.deal.answers[seat] != "pending":
        raise RuleError("G-4", f"{ctx.name(seat)} has no answer to give on this deal")
    if accept:
        answers = list(t.deal.answers)
        answers[seat] = "accepted"
        ctx.st = replace(ctx.st, trade=replace(t, deal=replace(t.deal, answers=tuple(answers))))
        if not ctx.quiet:
            ctx.log("deal", f"{ctx.name(seat)} accepts.", seat)
    else:
        # D-69: the round remembers it, so that nobody is asked the same again this round
        deal = t.deal
        refusal = Refusal(
            by=seat,
            proposer=deal.proposer,
            transfers=deal.transfers,
            active=t.active,
            at=t.proposals,
            whole_round=whole_round,
        )
        ctx.st = replace(ctx.st, trade=replace(t, deal=None), refusals=(*ctx.st.refusals, refusal))
        if not ctx.quiet:
            if whole_round:
                text = f"{ctx.name(seat)} rejects the deal: no more offers from {ctx.name(deal.proposer)} this round."
            else:
                text = f"{ctx.name(seat)} rejects the deal."
            ctx.log("deal", text, seat)


def _close_deal(ctx: Ctx, a: CloseDeal) -> None:
    t = ctx.st.trade
    if ctx.st.phase != "trade" or t is None or t.deal is None:
        raise RuleError("G-4", "there is no deal to close")
    if a.player != t.active:
        raise RuleError("G-4", "only the active player closes deals")
    if "pending" in t.deal.answers:
        raise RuleError("G-4", "every party must accept before the deal is closed")
    deal = t.deal
    check_deal(ctx.st, deal.transfers, deal.proposer)  # G-4: givers must own what they give now
    cat = ctx.cat
    players = list(ctx.st.players)
    kinds = set()
    for tr in deal.transfers:
        g, r = players[tr.giver], players[tr.receiver]
        if tr.item == "coins":
            g, r = replace(g, coins=g.coins - tr.count), replace(r, coins=r.coins + tr.count)
        elif tr.item == "aquilas":
            g, r = replace(g, aquilas=g.aquilas - tr.count), replace(r, aquilas=r.aquilas + tr.count)
        else:
            k = cat.index[tr.item]
            kinds.add(k)
            gt, rt = list(g.tiles), list(r.tiles)
            gt[k] -= tr.count
            rt[k] += tr.count
            g, r = replace(g, tiles=tuple(gt)), replace(r, tiles=tuple(rt))
        players[tr.giver], players[tr.receiver] = g, r
    ctx.st = replace(ctx.st, players=tuple(players), trade=replace(t, deal=None, deals_closed=t.deals_closed + 1))
    if not ctx.quiet:
        ctx.log("trade", f"Deal closed: {describe_deal(ctx.st, deal.transfers)}.", a.player)
    recheck_stars(ctx, kinds)  # G-4, G-7


def _cancel_deal(ctx: Ctx, a: CancelDeal) -> None:
    t = ctx.st.trade
    if ctx.st.phase != "trade" or t is None or t.deal is None:
        raise RuleError("G-4", "there is no deal to cancel")
    if a.player not in (t.active, t.deal.proposer):
        raise RuleError("G-4", "only the active player or the proposer can withdraw a deal")
    ctx.st = replace(ctx.st, trade=replace(t, deal=None))
    if not ctx.quiet:
        ctx.log("deal", f"{ctx.name(a.player)} withdraws the deal.", a.player)


def _next_trader(ctx: Ctx) -> None:
    st = ctx.st
    turn = st.turn + 1
    if turn < len(st.players):
        ctx.st = replace(ctx.st, turn=turn, trade=TradeTurn(active=(st.first + turn) % len(st.players)))
        return
    ctx.st = replace(ctx.st, trade=None, refusals=(), phase="perform", turn=0, perform=PerformTurn(player=st.first))
    if not ctx.quiet:
        ctx.log("phase", f"Phase 4: Perform a {ctx.cat.term_start('spectacle')}.")


def end_turn(ctx: Ctx, a: EndTurn) -> None:
    t = ctx.st.trade
    assert t is not None
    if t.deal is not None:
        raise RuleError("G-4", "a deal is on the table: close or cancel it first")
    if not ctx.quiet:
        ctx.log("end", f"{ctx.name(a.player)} ends the trade turn.", a.player)
    _next_trader(ctx)


def may_propose(state: State, seat: int) -> bool:
    """G-4: any player may propose a deal while no deal is on the table."""
    t = state.trade
    if state.phase != "trade" or t is None or t.deal is not None:
        return False
    return t.proposals < load_catalog(state.setup.variant).common.max_deal_proposals


@cache
def _answers(seat: int) -> tuple[Action, ...]:
    """A party's answers to a deal, built once: accept, refuse, and refuse "not this round"
    (D-69: no more offers from the proposer this round), offered last."""
    return (simple(AcceptDeal, seat), simple(RejectDeal, seat), RejectDeal(player=seat, whole_round=True))


def offer(state: State, seat: int, cat: Catalog, acts: list[Action], bids: list[BidOption]) -> bool:
    """An answer to the deal on the table (its next party), or closing or cancelling it (the
    active player); with no deal, a proposal (up to the limit) and the end of the turn."""
    t = state.trade
    assert t is not None
    if t.deal is not None:
        # ``seat`` is the one to act: the next party to answer while any answer is pending
        if "pending" in t.deal.answers:
            acts += _answers(seat)
        else:
            acts += (simple(CloseDeal, seat), simple(CancelDeal, seat))
        return False
    acts.append(simple(EndTurn, seat))
    return t.proposals < cat.common.max_deal_proposals


def _accept(ctx: Ctx, a: AcceptDeal) -> None:
    _answer(ctx, a.player, True)


def _reject(ctx: Ctx, a: RejectDeal) -> None:
    _answer(ctx, a.player, False, a.whole_round)


HANDLERS: dict[type, Handler] = {
    ProposeDeal: _propose,
    AcceptDeal: _accept,
    RejectDeal: _reject,
    CloseDeal: _close_deal,
    CancelDeal: _cancel_deal,
}
