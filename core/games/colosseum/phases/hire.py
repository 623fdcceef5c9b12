"""Phase 2, Hire Performers (G-3; 2007 auction rules A07-1, A07-2): each player in turn may
open auctions on full markets with their pillar; bids go round clockwise; the winner pays
(Aquilas exchanged as needed, G-3.5) and takes the lot.  Markets are refilled from the bag at
the end of each turn.  Then Phase 3 begins.

The original edition (O-16 to O-18) plays the A07 rules always (a winner's pillar is its "won a
lot" flag), bids with coins only, and refills with the green tile left aside first.
"""

from __future__ import annotations

from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum.actions import Action, EndTurn, OpenAuction, PassBid, Raise
from colosseum.core.games.colosseum.choices import BidOption, Handler, simple
from colosseum.core.games.colosseum.components import Catalog, a_word, load_catalog
from colosseum.core.games.colosseum.context import Ctx, recheck_stars
from colosseum.core.games.colosseum.model import NOBODY, Auction, HireTurn, Player, State, TradeTurn
from colosseum.core.games.colosseum.queries import aquilas_gained, bid_limit

__all__ = [
    "HANDLERS",
    "MARKET_NAMES",
    "can_open_auction",
    "end_turn",
    "offer",
    "one_win_per_phase",
    "refill_markets",
    "start_hire_turn",
    "to_act",
]

MARKET_NAMES = "ABCDE"


def one_win_per_phase(state: State, cat: Catalog) -> bool:
    """A07-1, A07-2: the 2007 auction option, always on in the original edition (O-17)."""
    return cat.rules.one_win_per_phase or "auction-2007" in state.setup.options


def can_open_auction(state: State, seat: int) -> bool:
    """Whether ``seat``, as active player, could open any auction now (G-3.1, G-3.2, A07-1)."""
    h = state.hire
    if h is None or not h.had_pillar or not state.players[seat].pillar:
        return False
    cat = load_catalog(state.setup.variant)
    if bid_limit(cat, state.players[seat]) < cat.common.min_opening_bid:
        return False
    return any(len(m) == 3 and state.pillars[i] == NOBODY for i, m in enumerate(state.markets))


def start_hire_turn(ctx: Ctx) -> None:
    """Begin the hire turn of the player at ``turn``; a player who cannot open any auction
    passes at once (rulebook example: Laura 'must skip her auction')."""
    while True:
        st = ctx.st
        if st.turn >= len(st.players):
            _end_hire_phase(ctx)
            return
        seat = (st.first + st.turn) % len(st.players)
        ctx.st = replace(ctx.st, hire=HireTurn(active=seat, had_pillar=st.players[seat].pillar))
        if can_open_auction(ctx.st, seat):
            return
        if not ctx.quiet:
            if not st.players[seat].pillar:
                why = "has won a lot this phase" if ctx.cat.rules.one_win_per_phase else "has no pillar"
            else:
                why = "cannot open an auction"
            ctx.log("pass", f"{ctx.name(seat)} {why} and passes.", seat)
        _finish_hire_turn(ctx, advance=False)
        ctx.st = replace(ctx.st, turn=ctx.st.turn + 1)


def _finish_hire_turn(ctx: Ctx, advance: bool = True) -> None:
    """End of an active player's turn (G-3): pillars back, markets refilled.  A07-2: the
    pillars leave the markets for the centre of the Colosseum instead of going back to their
    owners, so the emptied markets are refilled all the same."""
    if one_win_per_phase(ctx.st, ctx.cat):
        if any(p != NOBODY for p in ctx.st.pillars):
            ctx.st = replace(ctx.st, pillars=(NOBODY,) * 5)
    else:
        _return_pillars(ctx)
    refill_markets(ctx)
    if advance:
        ctx.st = replace(ctx.st, turn=ctx.st.turn + 1)
        start_hire_turn(ctx)


def _return_pillars(ctx: Ctx) -> None:
    if any(not p.pillar for p in ctx.st.players):
        players = tuple(p if p.pillar else replace(p, pillar=True) for p in ctx.st.players)
        ctx.st = replace(ctx.st, players=players, pillars=(NOBODY,) * 5)


def _log_short_market(ctx: Ctx, market: int, tiles: int) -> None:
    """G-3 decision: a market the empty bag left short of 3 tiles (it cannot be auctioned)."""
    ctx.log(
        "market", f"The bag is empty: market {MARKET_NAMES[market]} holds only {tiles} tile{'' if tiles == 1 else 's'}."
    )


def refill_markets(ctx: Ctx) -> None:
    """Fill every market that is not full and has no pillar in it (G-3; bag may run dry), in
    board order; O-18: the green tile left aside (O-9) is used first."""
    if not ctx.st.aside:
        _refill_from_bag(ctx)
        return
    markets = list(ctx.st.markets)
    for i in range(5):
        if ctx.st.pillars[i] != NOBODY or len(markets[i]) >= 3:
            continue
        lot = list(markets[i])
        while len(lot) < 3:
            if ctx.st.aside:
                k = ctx.st.aside[0]
                ctx.st = replace(ctx.st, aside=ctx.st.aside[1:])
                if not ctx.quiet:
                    ctx.log(
                        "market",
                        f"The green tile left aside, {a_word(ctx.tile_name(k))}, goes to market {MARKET_NAMES[i]}.",
                    )
                lot.append(k)
                continue
            k = ctx.draw()
            if k == NOBODY:
                break
            lot.append(k)
        markets[i] = tuple(lot)
        if lot and len(lot) < 3:
            if not ctx.quiet:
                _log_short_market(ctx, i, len(lot))
    ctx.st = replace(ctx.st, markets=tuple(markets))


def _refill_from_bag(ctx: Ctx) -> None:
    """:func:`refill_markets` with no tile aside: the tiles are drawn in one go (the same draws
    in the same order; the first market takes the first tiles drawn)."""
    st = ctx.st
    markets = st.markets
    pillars = st.pillars
    wanted = [0, 0, 0, 0, 0]
    for i in range(5):  # a loop, not a comprehension: this runs at the end of every hire turn
        if pillars[i] == NOBODY and len(markets[i]) < 3:
            wanted[i] = 3 - len(markets[i])
    if not any(wanted):
        return
    drawn = ctx.draws(sum(wanted))
    filled = list(markets)
    pos = 0
    for i, want in enumerate(wanted):
        if not want:
            continue
        got = [k for k in drawn[pos : pos + want] if k != NOBODY]
        pos += want
        lot = markets[i] + tuple(got)
        filled[i] = lot
        if lot and len(lot) < 3 and not ctx.quiet:
            _log_short_market(ctx, i, len(lot))
    ctx.st = replace(ctx.st, markets=tuple(filled))


def _end_hire_phase(ctx: Ctx) -> None:
    if one_win_per_phase(ctx.st, ctx.cat):  # A07-2, O-17
        _return_pillars(ctx)
        refill_markets(ctx)
    ctx.st = replace(ctx.st, hire=None, phase="trade", turn=0, trade=TradeTurn(active=ctx.st.first))
    if not ctx.quiet:
        ctx.log("phase", f"Phase 3: {ctx.cat.term('trade phase')}.")


def _open_auction(ctx: Ctx, a: OpenAuction) -> None:
    st = ctx.st
    h = st.hire
    if st.phase != "hire" or h is None:
        raise RuleError("G-3", "auctions are held in Phase 2")
    if h.auction is not None:
        raise RuleError("G-3", "an auction is already running")
    if not h.had_pillar:
        raise RuleError("A07-1", "you may conduct an auction only if you had your pillar at the start of your turn")
    if not isinstance(a.market, int) or not 0 <= a.market < 5:
        raise RuleError("G-3.1", "markets are A to E")
    if len(st.markets[a.market]) != 3:
        raise RuleError("G-3.1", f"market {MARKET_NAMES[a.market]} does not hold 3 tiles")
    p = st.players[a.player]
    low = ctx.cat.common.min_opening_bid
    if not isinstance(a.bid, int):
        raise RuleError("G-3.2", "a bid is a whole number of coins")
    if a.bid < low:
        raise RuleError("G-3.2", f"opening bid must be at least {low}")
    _check_limit(ctx, p, a.bid)
    out = tuple(not q.pillar for q in st.players)
    if not ctx.quiet:
        lot = ctx.tiles_text(st.markets[a.market])
        ctx.log("auction", f"{p.name} opens market {MARKET_NAMES[a.market]} ({lot}) at {a.bid}.", a.player)
    auction = Auction(market=a.market, high=a.bid, bidder=a.player, out=out, to_bid=a.player)
    ctx.st = replace(ctx.st, hire=replace(h, auction=auction, auctions=h.auctions + 1))
    _advance_auction(ctx, a.player)


def _check_limit(ctx: Ctx, p: Player, bid: int) -> None:
    limit = bid_limit(ctx.cat, p)
    if bid > limit:
        if ctx.cat.rules.credit:
            raise RuleError("G-3.4", f"{p.name} can bid at most {limit} (coins + 6 per Aquila)")
        raise RuleError("O-18", f"{p.name} can bid at most {limit} (coins only, no credit)")


def _advance_auction(ctx: Ctx, after: int) -> None:
    """G-3.3: the next player clockwise who can still bid; those who cannot raise pass."""
    h = ctx.st.hire
    assert h is not None and h.auction is not None
    auc = h.auction
    n = len(ctx.st.players)
    out = list(auc.out)
    seat = after
    for _ in range(n):
        seat = (seat + 1) % n
        if seat == auc.bidder or out[seat]:
            continue
        if bid_limit(ctx.cat, ctx.player(seat)) <= auc.high:
            out[seat] = True
            if not ctx.quiet:
                ctx.log("pass", f"{ctx.name(seat)} cannot raise and passes.", seat)
            continue
        ctx.st = replace(ctx.st, hire=replace(h, auction=replace(auc, out=tuple(out), to_bid=seat)))
        return
    ctx.st = replace(ctx.st, hire=replace(h, auction=replace(auc, out=tuple(out))))
    _win_auction(ctx)


def _raise(ctx: Ctx, a: Raise) -> None:
    h = ctx.st.hire
    if ctx.st.phase != "hire" or h is None or h.auction is None:
        raise RuleError("G-3.3", "there is no auction to bid in")
    auc = h.auction
    p = ctx.player(a.player)
    if not isinstance(a.bid, int):
        raise RuleError("G-3.3", "a bid is a whole number of coins")
    if a.bid <= auc.high:
        raise RuleError("G-3.3", f"a raise must be more than {auc.high}")
    _check_limit(ctx, p, a.bid)
    if not ctx.quiet:
        ctx.log("bid", f"{p.name} raises to {a.bid}.", a.player)
    ctx.st = replace(ctx.st, hire=replace(h, auction=replace(auc, high=a.bid, bidder=a.player)))
    _advance_auction(ctx, a.player)


def _pass_bid(ctx: Ctx, a: PassBid) -> None:
    h = ctx.st.hire
    if ctx.st.phase != "hire" or h is None or h.auction is None:
        raise RuleError("G-3.3", "there is no auction to pass in")
    auc = h.auction
    out = list(auc.out)
    out[a.player] = True
    if not ctx.quiet:
        ctx.log("pass", f"{ctx.name(a.player)} passes.", a.player)
    ctx.st = replace(ctx.st, hire=replace(h, auction=replace(auc, out=tuple(out))))
    _advance_auction(ctx, a.player)


def _win_auction(ctx: Ctx) -> None:
    """G-3.5 to G-3.7."""
    cat = ctx.cat
    h = ctx.st.hire
    assert h is not None and h.auction is not None
    auc = h.auction
    w = auc.bidder
    p = ctx.player(w)
    price = auc.high
    coins, aquilas = p.coins, p.aquilas
    sold = 0
    if coins < price:  # G-3.5: exchange Aquilas for 6 coins each until covered; change kept
        rate = cat.common.aquila_coins
        sold = -(-(price - coins) // rate)
        coins += sold * rate
        aquilas -= sold
    coins -= price
    lot = ctx.st.markets[auc.market]
    tiles = list(p.tiles)
    box = list(ctx.st.box)
    gained = 0
    for k in lot:
        if k == cat.aquila_tile:  # G-3.6
            box[k] += 1
            gained += 1
        else:
            tiles[k] += 1
    lost = gained - aquilas_gained(cat, ctx.st, gained)  # O-2: none when the supply is empty
    gained -= lost
    aquilas += gained
    ctx.set_player(w, coins=coins, aquilas=aquilas, tiles=tuple(tiles), pillar=False)
    markets = list(ctx.st.markets)
    markets[auc.market] = ()
    pillars = list(ctx.st.pillars)
    pillars[auc.market] = w
    ctx.st = replace(
        ctx.st, markets=tuple(markets), pillars=tuple(pillars), box=tuple(box), hire=replace(h, auction=None)
    )
    if not ctx.quiet:
        extra = ""
        if sold:
            extra += f", exchanging {sold} Aquila{'s' if sold > 1 else ''}"
        aq = cat.term("aquila")
        if gained:
            extra += (
                f"; the {aq} tile{'s become' if gained > 1 else ' becomes'} {gained} {aq}{'s' if gained > 1 else ''}"
            )
        if lost:
            extra += f"; no {aq} is left for {lost} {aq} tile{'s' if lost > 1 else ''}"
        ctx.log(
            "win",
            f"{p.name} wins market {MARKET_NAMES[auc.market]} ({ctx.tiles_text(lot)}) for {price}{extra}.",
            w,
        )
    recheck_stars(ctx, set(lot))
    if w == h.active:  # G-3.7
        _finish_hire_turn(ctx)
    elif not can_open_auction(ctx.st, h.active):
        if not ctx.quiet:
            ctx.log("pass", f"{ctx.name(h.active)} cannot open another auction; the turn ends.", h.active)
        _finish_hire_turn(ctx)


def to_act(state: State) -> int:
    h = state.hire
    assert h is not None
    return h.auction.to_bid if h.auction else h.active


def end_turn(ctx: Ctx, a: EndTurn) -> None:
    h = ctx.st.hire
    assert h is not None
    if h.auction is not None:
        raise RuleError("G-3.3", "an auction is running: raise or pass")
    if not ctx.quiet:
        ctx.log("pass", f"{ctx.name(a.player)} passes.", a.player)
    _finish_hire_turn(ctx)


def offer(state: State, seat: int, cat: Catalog, acts: list[Action], bids: list[BidOption]) -> bool:
    """A raise range and a pass in a running auction (G-3.3, G-3.4); otherwise opening bids on
    the full, free markets (G-3.1, G-3.2) and the end of the turn."""
    h = state.hire
    assert h is not None
    p = state.players[seat]
    if h.auction is not None:
        bids.append(BidOption(market=-1, low=h.auction.high + 1, high=bid_limit(cat, p)))
        acts.append(simple(PassBid, seat))
    else:
        if can_open_auction(state, seat):
            for i, m in enumerate(state.markets):
                if len(m) == 3 and state.pillars[i] == NOBODY:
                    bids.append(BidOption(market=i, low=cat.common.min_opening_bid, high=bid_limit(cat, p)))
        acts.append(simple(EndTurn, seat))
    return False


HANDLERS: dict[type, Handler] = {OpenAuction: _open_auction, Raise: _raise, PassBid: _pass_bid}
