"""Phase 5, Closing Ceremonies (G-6): each player who performed retires one performer used in
their spectacle, which then goes face up (G-6.1); the least acclaimed steals a tile from the
most acclaimed (G-6.2); the least acclaimed chooses the next first player, and the next round
begins (G-6.3).

The original edition: the podium comes first (O-24, ties by coins then dice), the lowest marker
may take a normal tile from the podium winner (O-26), and the first player passes clockwise
(O-27).  The podium winner rides along in ``ClosingTurn.victim``.
"""

from __future__ import annotations

from functools import cache

from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum.actions import Action, ChooseFirstPlayer, EndTurn, Retire, Steal
from colosseum.core.games.colosseum.choices import BidOption, Handler, simple
from colosseum.core.games.colosseum.components import Catalog, a_word
from colosseum.core.games.colosseum.context import Ctx, pick_by_coins_and_dice, recheck_stars
from colosseum.core.games.colosseum.model import NOBODY, ClosingTurn, InvestTurn, Player, State
from colosseum.core.games.colosseum.queries import least_acclaimed, most_acclaimed

__all__ = ["HANDLERS", "closing_podium", "closing_retire", "end_turn", "offer", "stealable", "to_act"]


def to_act(state: State) -> int:
    assert state.closing is not None
    return state.closing.player


def closing_podium(ctx: Ctx) -> None:
    """O-24: the highest marker takes a podium (ties: most coins, then 2 dice), then the
    discards (O-25)."""
    top = pick_by_coins_and_dice(ctx, range(ctx.st.n), highest=True, why="podium")
    p = ctx.set_player(top, gifts=ctx.player(top).gifts + 1)
    ctx.st = replace(ctx.st, gifts_left=ctx.st.gifts_left - 1)
    if not ctx.quiet:
        ctx.log("gift", f"{p.name} has the most spectators and takes a podium ({p.gifts} in all).", top)
    closing_retire(ctx, 0, top)


def closing_retire(ctx: Ctx, start: int, podium: int = NOBODY) -> None:
    """G-6.1: in turn order, each player who performed retires one matched tile.  ``podium``:
    this round's podium winner in the original edition (O-26), else -1."""
    st = ctx.st
    for k in range(start, len(st.players)):
        seat = (st.first + k) % len(st.players)
        if st.players[seat].arena != NOBODY:
            ctx.st = replace(ctx.st, turn=k, closing=ClosingTurn(stage="retire", player=seat, victim=podium))
            return
    _closing_steal(ctx, podium)


def _retire(ctx: Ctx, a: Retire) -> None:
    cl = ctx.st.closing
    if ctx.st.phase != "closing" or cl is None or cl.stage != "retire":
        raise RuleError("G-6.1", "performers are retired at the start of the Closing Ceremonies")
    cat = ctx.cat
    k = cat.index.get(a.tile, NOBODY)
    p = ctx.player(a.player)
    if k == NOBODY or not p.arena_used or p.arena_used[k] < 1 or p.tiles[k] < 1:
        usable = ", ".join(cat.codes[i] for i, u in enumerate(p.arena_used) if u and p.tiles[i])
        raise RuleError("G-6.1", f"retire a performer used in your spectacle ({usable})")
    tiles = list(p.tiles)
    tiles[k] -= 1
    box = list(ctx.st.box)
    box[k] += 1
    spec = cat.spectacles[p.arena]
    ctx.set_player(a.player, tiles=tuple(tiles), face_up=p.face_up + (p.arena,), arena=NOBODY, arena_used=())
    ctx.st = replace(ctx.st, box=tuple(box))
    if not ctx.quiet:
        ctx.log("retire", f"{p.name} retires {a_word(cat.tiles[k].name)}; {spec.name} goes face up.", a.player)
    recheck_stars(ctx, (k,))
    closing_retire(ctx, ctx.st.turn + 1, cl.victim)


def stealable(cat: Catalog, p: Player) -> list[int]:
    """G-6.2: a tile of any type, balatros (and classic construction tiles, D-11) included.
    O-26: only normal tiles (the twelve performer types) in the original edition."""
    kinds = cat.performers if cat.rules.steal_tiles == "performers" else cat.holdable
    return [k for k in kinds if p.tiles[k] > 0]


def _closing_steal(ctx: Ctx, podium: int = NOBODY) -> None:
    if ctx.cat.rules.steal_from == "gift":  # O-26: the lowest of the others, from the podium
        most = podium
        others = [s for s in range(ctx.st.n) if s != podium]
        least = pick_by_coins_and_dice(ctx, others, highest=False, why="lowest marker")
        if stealable(ctx.cat, ctx.player(most)):
            ctx.st = replace(ctx.st, closing=ClosingTurn(stage="steal", player=least, victim=most))
            return
        if not ctx.quiet:
            ctx.log("steal", f"{ctx.name(most)} has no normal tile for {ctx.name(least)} to take.", least)
        _closing_first(ctx)
        return
    least = least_acclaimed(ctx.st)
    most = most_acclaimed(ctx.st)
    if stealable(ctx.cat, ctx.player(most)):
        ctx.st = replace(ctx.st, closing=ClosingTurn(stage="steal", player=least, victim=most))
        return
    if not ctx.quiet:
        ctx.log("steal", f"{ctx.name(most)} has no performer for {ctx.name(least)} to steal.", least)
    _closing_first(ctx)


def _steal(ctx: Ctx, a: Steal) -> None:
    cl = ctx.st.closing
    if ctx.st.phase != "closing" or cl is None or cl.stage != "steal":
        raise RuleError("G-6.2", "the least acclaimed steals after performers are retired")
    cat = ctx.cat
    k = cat.index.get(a.tile, NOBODY)
    victim = ctx.player(cl.victim)
    if k not in stealable(cat, victim):
        raise RuleError("G-6.2", f"{victim.name} has no {a.tile} to steal")
    vt, tt = list(victim.tiles), list(ctx.player(a.player).tiles)
    vt[k] -= 1
    tt[k] += 1
    ctx.set_player(cl.victim, tiles=tuple(vt))
    ctx.set_player(a.player, tiles=tuple(tt))
    verb = "takes" if cat.rules.steal_from == "gift" else "steals"
    if not ctx.quiet:
        ctx.log("steal", f"{ctx.name(a.player)} {verb} {a_word(cat.tiles[k].name)} from {victim.name}.", a.player)
    recheck_stars(ctx, (k,))
    _closing_first(ctx)


def _closing_first(ctx: Ctx) -> None:
    if ctx.cat.rules.next_first == "clockwise":  # O-27: the first player passes to the left
        _next_round(ctx, (ctx.st.first + 1) % ctx.st.n)
        return
    least = least_acclaimed(ctx.st)
    ctx.st = replace(ctx.st, closing=ClosingTurn(stage="first", player=least))


def _choose_first(ctx: Ctx, a: ChooseFirstPlayer) -> None:
    cl = ctx.st.closing
    if ctx.st.phase != "closing" or cl is None or cl.stage != "first":
        raise RuleError("G-6.3", "the first player is chosen at the end of the Closing Ceremonies")
    if not isinstance(a.first, int) or not 0 <= a.first < len(ctx.st.players):
        raise RuleError("G-6.3", f"choose a seat from 0 to {len(ctx.st.players) - 1}")
    if not ctx.quiet:
        ctx.log("first", f"{ctx.name(a.player)} chooses {ctx.name(a.first)} as first player.", a.player)
    _next_round(ctx, a.first)


def _next_round(ctx: Ctx, first: int) -> None:
    if ctx.cat.rules.next_first == "clockwise":
        if not ctx.quiet:
            ctx.log("first", f"The first player passes to {ctx.name(first)}.", first)
    rnd = ctx.st.round + 1
    ctx.st = replace(
        ctx.st,
        closing=None,
        round=rnd,
        first=first,
        phase="invest",
        turn=0,
        invest=InvestTurn(player=first),
    )
    if not ctx.quiet:
        ctx.log("phase", f"Round {rnd} begins. Phase 1: Make Investments.", first)


def end_turn(ctx: Ctx, a: EndTurn) -> None:
    cl = ctx.st.closing
    assert cl is not None
    if cl.stage != "steal":
        raise RuleError("G-6", "this step of the Closing Ceremonies cannot be skipped")
    if not ctx.quiet:
        ctx.log("pass", f"{ctx.name(a.player)} steals nothing.", a.player)
    _closing_first(ctx)


@cache
def _first_players(seat: int, n: int) -> tuple[Action, ...]:
    return tuple(ChooseFirstPlayer(player=seat, first=i) for i in range(n))


@cache
def _tile_action(kind: type, seat: int, code: str) -> Action:
    action: Action = kind(player=seat, tile=code)
    return action


def offer(state: State, seat: int, cat: Catalog, acts: list[Action], bids: list[BidOption]) -> bool:
    """By stage: the performers ``seat`` may retire (G-6.1), the tiles it may steal or none
    (G-6.2), or the seats it may make first player (G-6.3)."""
    cl = state.closing
    assert cl is not None
    p = state.players[seat]
    if cl.stage == "retire":
        for k, u in enumerate(p.arena_used):
            if u and p.tiles[k]:
                acts.append(_tile_action(Retire, seat, cat.codes[k]))
    elif cl.stage == "steal":
        victim = state.players[cl.victim]
        acts.extend(_tile_action(Steal, seat, cat.codes[k]) for k in stealable(cat, victim))
        acts.append(simple(EndTurn, seat))
    else:
        acts += _first_players(seat, state.n)
    return False


HANDLERS: dict[type, Handler] = {Retire: _retire, Steal: _steal, ChooseFirstPlayer: _choose_first}
