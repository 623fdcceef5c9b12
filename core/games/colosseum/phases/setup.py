"""Setup (G-1): the new game, the starting gates chosen in reverse turn order (G-1.6), then the
deal: small spectacles, starting tiles, Star Performers and markets (G-1.7 to G-1.9; C-2 for
the classic deal).  Ends by starting Round 1, Phase 1.

The original 2007 edition has no setup decision: arenas stand on fixed positions (O-7), the
first player is the owner of the first arena after the emperor (O-8), and the deal (O-9, O-10)
follows at once, so :func:`start_game` returns a game already in Phase 1.
"""

from __future__ import annotations

from functools import cache

from msgspec.structs import replace

from colosseum.core import rng
from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.games.colosseum.actions import Action, EndTurn, PlaceStartGates
from colosseum.core.games.colosseum.choices import BidOption, Handler
from colosseum.core.games.colosseum.components import OPTIONS, Catalog, load_catalog
from colosseum.core.games.colosseum.context import Ctx, recheck_stars
from colosseum.core.games.colosseum.model import NOBODY, GameSetup, InvestTurn, Player, State
from colosseum.core.games.colosseum.phases.hire import refill_markets
from colosseum.core.games.colosseum.queries import NO_STAR, gate_owner, turn_order

__all__ = ["HANDLERS", "end_turn", "new_game", "offer", "setup_order_seat", "start_game", "to_act"]


def new_game(setup: GameSetup) -> State:
    """The state before the first decision (G-1): nobles placed, first player chosen, markers
    stacked in turn order.  Players then choose starting gates (G-1.6); dealing follows.  In the
    original edition (O-7 to O-10) the whole setup is done: see :func:`start_game`."""
    return start_game(setup)[0]


def start_game(setup: GameSetup) -> tuple[State, list[Event]]:
    """:func:`new_game` and the events of what setup did by itself: nothing in The Grand
    Spectacle (the deal follows the players' gate choices), the whole deal in the original."""
    n = len(setup.players)
    if not 3 <= n <= 5:
        raise RuleError("G-0", f"Colosseum is played by 3 to 5 players, not {n}")
    names = [p.strip() for p in setup.players]
    if any(not p for p in names) or len(set(names)) != n:
        raise RuleError("G-1", "every player needs a distinct, non-empty name")
    cat = load_catalog(setup.variant)  # raises CatalogError for an unknown variant
    for opt in setup.options:
        if opt not in OPTIONS:
            raise RuleError("G-1", f"unknown option {opt!r}")
    try:
        key = rng.key_of(setup.secret)
    except ValueError as err:
        raise RuleError("G-1", f"the setup's secret is not usable: {err}") from None
    state_rng = rng.seed_state(setup.seed, key)
    if setup.first_player is None and cat.rules.first_player == "first-gate":
        first = 0  # O-8: with the arenas of O-7 the first arena after the emperor is seat 0's
    elif setup.first_player is None:
        state_rng, first = rng.below(state_rng, n, key)
    else:
        first = setup.first_player
        if not isinstance(first, int) or not 0 <= first < n:
            raise RuleError("G-1.4", f"first player must be a seat from 0 to {n - 1}")
    nk = len(cat.tiles)
    players = []
    for seat in range(n):
        players.append(
            Player(
                name=names[seat],
                coins=cat.common.starting_coins if setup.starting_coins is None else setup.starting_coins,
                tiles=(0,) * nk,
                # G-1.5 decision: markers stacked in turn order, first player at the bottom.
                seq=(seat - first) % n,
            )
        )
    stars = _start_stars(cat.variant)
    state = State(
        setup=replace(setup, players=tuple(names)),
        rng=state_rng,
        first=first,
        players=tuple(players),
        bag=(0,) * nk,
        markets=((), (), (), (), ()),
        pillars=(NOBODY,) * 5,
        display=cat.display,
        nobles=cat.noble_starts,
        stars=stars,
        promoters_left=cat.promoter_supply,
        gifts_left=cat.rules.gifts,
        box=cat.counts,  # everything starts in the box; setup moves tiles out of it
        next_seq=n,
    )
    if cat.rules.start_gates == "choose":
        return state, []
    # O-7: fixed arenas; the i-th pair clockwise from space 0 goes to the i-th player in turn
    # order, so that the first player owns the first arena after the emperor (O-8).
    ctx = Ctx(state, cat)
    pairs = cat.gate_pairs[n]
    for i, seat in enumerate(turn_order(state)):
        ctx.set_player(seat, gates=pairs[i])
        if not ctx.quiet:
            ctx.log("gate", f"{ctx.name(seat)}'s arena stands on {pairs[i][0]} and {pairs[i][1]}.", seat)
    ctx.st = replace(ctx.st, turn=n)
    _deal(ctx)
    return ctx.st, ctx.events


@cache
def _start_stars(variant: str) -> tuple[int, ...]:
    """Per tile kind: -1 (on the board) for the kinds with a Star Performer, else NO_STAR."""
    cat = load_catalog(variant)
    return tuple(NOBODY if k in cat.star_types else NO_STAR for k in range(len(cat.tiles)))


def setup_order_seat(state: State) -> int:
    """G-1.6: starting gates are chosen in reverse turn order."""
    n = len(state.players)
    return (state.first + n - 1 - state.turn) % n


def _place_start_gates(ctx: Ctx, a: PlaceStartGates) -> None:
    st = ctx.st
    if st.phase != "setup":
        raise RuleError("G-1.6", "starting gates are placed only during setup")
    pairs = ctx.cat.gate_pairs[len(st.players)]
    pair = next((p for p in pairs if p[0] == a.space), None)
    if pair is None:
        offered = ", ".join(f"{x}-{y}" for x, y in pairs)
        raise RuleError("G-1.6", f"{a.space} does not start a starting gate pair ({offered})")
    if gate_owner(st, pair[0]) != NOBODY or gate_owner(st, pair[1]) != NOBODY:
        raise RuleError("G-1.6", f"gate pair {pair[0]}-{pair[1]} is taken")
    ctx.set_player(a.player, gates=pair)
    if not ctx.quiet:
        ctx.log("gate", f"{ctx.name(a.player)} places starting gates on {pair[0]} and {pair[1]}.", a.player)
    ctx.st = replace(ctx.st, turn=st.turn + 1)
    if ctx.st.turn == len(st.players):
        _deal(ctx)


def _deal(ctx: Ctx) -> None:
    """G-1.7 to G-1.9: small spectacles, starting tiles, stars, markets."""
    cat = ctx.cat
    st = ctx.st
    n = len(st.players)
    order = turn_order(st)
    s = st.rng
    key = rng.key_of(st.setup.secret)
    smalls: dict[int, list[int]] = {seat: [] for seat in range(n)}
    if cat.rules.small_deal == "piles":
        piles = {}
        for name in "ABC":
            s, piles[name] = rng.shuffled(s, tuple(i for i in cat.smalls if cat.spectacles[i].pile == name), key)
        pos = {"A": 0, "B": 0, "C": 0}
        for seat in order:
            a_tile = piles["A"][pos["A"]]
            pos["A"] += 1
            icon = cat.spectacles[a_tile].icon
            b_tile = piles[icon][pos[icon]]
            pos[icon] += 1
            smalls[seat] = [a_tile, b_tile]
    elif cat.rules.small_deal == "numbered":  # O-10: one of #1-5 and one of #6-10, face up
        s, low = rng.shuffled(s, tuple(i for i in cat.smalls if cat.spectacles[i].number_2007 <= 5), key)
        s, high = rng.shuffled(s, tuple(i for i in cat.smalls if cat.spectacles[i].number_2007 > 5), key)
        for i, seat in enumerate(order):
            smalls[seat] = [low[i], high[i]]
    else:  # C-2: shuffle all and deal two each
        s, deck = rng.shuffled(s, cat.smalls, key)
        for i, seat in enumerate(order):
            smalls[seat] = [deck[2 * i], deck[2 * i + 1]]
    ctx.st = replace(ctx.st, rng=s)
    for seat in range(n):
        ctx.set_player(seat, face_down=tuple(smalls[seat]))
        if not ctx.quiet:
            names = " and ".join(cat.label(cat.spectacles[i]) for i in smalls[seat])
            ctx.log("deal", f"{ctx.name(seat)} is dealt {names}.", seat)
    # G-1.8 starting tiles
    box = list(cat.counts)
    start = list(cat.starting)
    for k in range(len(box)):
        box[k] -= start[k]
    ctx.st = replace(ctx.st, bag=tuple(start))
    green = cat.rules.green_markets
    if green:  # O-9: 15 green tiles fill the markets before the deal
        refill_markets(ctx)
        if not ctx.quiet:
            ctx.log("market", "The markets are filled with green starting tiles.")
    per = cat.starting_per_player[n]
    drawn = ctx.draws(per * n)  # the same draws in the same order as one call per player
    for i, seat in enumerate(order):
        tiles = list(ctx.player(seat).tiles)
        got = drawn[i * per : (i + 1) * per]
        for k in got:
            tiles[k] += 1
        ctx.set_player(seat, tiles=tuple(tiles))
        if not ctx.quiet:
            ctx.log("deal", f"{ctx.name(seat)} draws {ctx.tiles_text(sorted(got))}.", seat)
    if green:  # O-9: the green tiles left over lie face down by the board
        aside = []
        while sum(ctx.st.bag):
            aside.append(ctx.draw())
        ctx.st = replace(ctx.st, aside=tuple(aside))
        if aside:
            if not ctx.quiet:
                ctx.log(
                    "market", f"{len(aside)} green tile{'s' if len(aside) > 1 else ''} left face down by the board."
                )
    # G-1.9 the rest of the standard tiles join the undealt starting tiles
    bag = list(ctx.st.bag)
    for k in range(len(bag)):
        bag[k] += box[k]
        box[k] = 0
    ctx.st = replace(ctx.st, bag=tuple(bag), box=tuple(box))
    recheck_stars(ctx, cat.star_types)
    if not green:
        refill_markets(ctx)
    ctx.st = replace(ctx.st, phase="invest", turn=0, invest=InvestTurn(player=ctx.st.first))
    if not ctx.quiet:
        ctx.log("phase", f"Round 1 begins. {ctx.name(ctx.st.first)} is first player.", ctx.st.first)


def to_act(state: State) -> int:
    return setup_order_seat(state)


def end_turn(ctx: Ctx, a: EndTurn) -> None:
    raise RuleError("G-1.6", "choose a starting gate pair")


def offer(state: State, seat: int, cat: Catalog, acts: list[Action], bids: list[BidOption]) -> bool:
    """G-1.6: the starting gate pairs still free."""
    taken = {g for q in state.players for g in q.gates}
    for a, b in cat.gate_pairs[state.n]:
        if a not in taken and b not in taken:
            acts.append(PlaceStartGates(player=seat, space=a))
    return False


HANDLERS: dict[type, Handler] = {PlaceStartGates: _place_start_gates}
