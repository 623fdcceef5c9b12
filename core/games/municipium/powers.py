"""The seven institution powers (M-8) and the rearrangement shared by Great Family (M-6.4 b)
and the Praetorium (M-8.6).  A power with choices pushes its frame; its actions land here."""

from __future__ import annotations

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium.actions import Exchange, Pull, Relocate, Take
from colosseum.core.games.municipium.board import Ctx, add, influence, members_at
from colosseum.core.games.municipium.events import gain
from colosseum.core.games.municipium.model import (
    NO_KIND,
    BasilicaFrame,
    EmporiumFrame,
    ForumFrame,
    PlaceFrame,
    RearrangeFrame,
    TavernFrame,
)

TEMPLE, TAVERN, BATHS, EMPORIUM, BASILICA, FORUM, PRAETORIUM = range(7)


def use_power(ctx: Ctx, seat: int, inst: int) -> None:
    ctx.log("power", f"{ctx.name(seat)} uses the power of the {ctx.cat.inst_name(inst)}.", seat)
    if inst == TEMPLE:
        temple_reorder(ctx)
    elif inst == TAVERN:
        ctx.push(TavernFrame(player=seat))
    elif inst == BATHS:
        baths(ctx, seat)
    elif inst == EMPORIUM:
        ctx.push(EmporiumFrame(player=seat, mark=ctx.st.citizen_events))
    elif inst == BASILICA:
        ctx.push(BasilicaFrame(player=seat))
    elif inst == FORUM:
        ctx.push(ForumFrame(player=seat))
    else:
        ctx.push(RearrangeFrame(player=seat, left=ctx.cat.counts.members))


def temple_reorder(ctx: Ctx) -> None:
    """M-8.0: stable sort of the discs by Temple influence (crowned count 2)."""
    st = ctx.st
    order = tuple(sorted(st.temple, key=lambda s: -influence(st, s, TEMPLE)))
    ctx.set(temple=order)
    ctx.log("temple", "Temple order: " + ", ".join(ctx.name(s) for s in order) + ".")


def baths(ctx: Ctx, seat: int) -> None:
    """M-8.2: your Baths members to the Temple, then crown one uncrowned member there."""
    p = ctx.st.players[seat]
    plain = add(add(p.plain, BATHS, -p.plain[BATHS]), TEMPLE, p.plain[BATHS])
    crowned = add(add(p.crowned, BATHS, -p.crowned[BATHS]), TEMPLE, p.crowned[BATHS])
    moved = members_at(p, BATHS)
    ctx.set_player(seat, plain=plain, crowned=crowned)
    if moved:
        what = "a member" if moved == 1 else f"{moved} members"
        ctx.log("move", f"{ctx.name(seat)} moves {what} from the Baths to the Temple.", seat)
    if plain[TEMPLE] and ctx.st.wreaths > 0:
        ctx.set_player(seat, plain=add(plain, TEMPLE, -1), crowned=add(crowned, TEMPLE, 1))
        ctx.set(wreaths=ctx.st.wreaths - 1)
        ctx.log("crown", f"{ctx.name(seat)} crowns a member in the Temple.", seat)


def pull_options(ctx: Ctx) -> list[Pull]:
    """M-8.1: every colour, every source but the Tavern, every non-empty mix of pieces."""
    seat = ctx.st.stack[-1].player
    out: list[Pull] = []
    for owner, p in enumerate(ctx.st.players):
        for i in range(7):
            if i == TAVERN:
                continue
            for c in range(p.crowned[i] + 1):
                for k in range(p.plain[i] + 1):
                    if k + c:
                        out.append(Pull(player=seat, owner=owner, frm=i, plain=k, crowned=c))
    return out


def pull(ctx: Ctx, a: Pull) -> None:
    p = ctx.st.players[a.owner] if 0 <= a.owner < ctx.st.n else None
    if p is None or a.frm == TAVERN or not 0 <= a.frm < 7:
        raise RuleError("M-8.1", "pull from another institution, members of a player in the game")
    if a.plain < 0 or a.crowned < 0 or a.plain + a.crowned == 0:
        raise RuleError("M-8.1", "pull one member or more")
    if a.plain > p.plain[a.frm] or a.crowned > p.crowned[a.frm]:
        raise RuleError("M-8.1", f"{p.name} has not that many members at the {ctx.cat.inst_name(a.frm)}")
    plain = add(add(p.plain, a.frm, -a.plain), TAVERN, a.plain)
    crowned = add(add(p.crowned, a.frm, -a.crowned), TAVERN, a.crowned)
    ctx.set_player(a.owner, plain=plain, crowned=crowned)
    ctx.pop()
    ctx.log(
        "move",
        f"{ctx.name(a.player)} pulls {a.plain + a.crowned} of {p.name}'s members from the "
        f"{ctx.cat.inst_name(a.frm)} to the Tavern.",
        a.player,
    )


def emporium_draw(ctx: Ctx, seat: int) -> None:
    """M-8.3: one citizen, placed before the next is drawn."""
    k = ctx.draw()
    if k == NO_KIND:  # legal() never offers it; the frame ends on an empty bag
        raise RuleError("M-12.1", "the bag is empty")
    ctx.set(held=add(ctx.st.held, k, 1))
    ctx.log("draw", f"{ctx.name(seat)} draws {ctx.cat.a_kind(k)}.", seat)
    ctx.push(PlaceFrame(player=seat))


def exchange_options(ctx: Ctx, seat: int) -> list[Exchange]:
    """M-8.4 (a): every way to hand in exactly 3 held items."""
    p = ctx.st.players[seat]
    out: list[Exchange] = []
    for f in range(min(p.favours, 3) + 1):
        for a in range(min(p.citizens[0], 3 - f) + 1):
            for b in range(min(p.citizens[1], 3 - f - a) + 1):
                for c in range(min(p.citizens[2], 3 - f - a - b) + 1):
                    d = 3 - f - a - b - c
                    if d <= p.citizens[3]:
                        out.append(Exchange(player=seat, citizens=(a, b, c, d), favours=f))
    return out


def exchange(ctx: Ctx, a: Exchange) -> None:
    p = ctx.st.players[a.player]
    if len(a.citizens) != 4 or min(a.citizens) < 0 or a.favours < 0 or sum(a.citizens) + a.favours != 3:
        raise RuleError("M-8.4", "hand in exactly 3 citizens and/or favours")
    if a.favours > p.favours or any(x > h for x, h in zip(a.citizens, p.citizens, strict=True)):
        raise RuleError("M-8.4", "you do not hold those citizens and favours")
    for k, c in enumerate(a.citizens):
        if c:
            ctx.to_bag(k, c)
    ctx.set_player(
        a.player,
        citizens=tuple(h - x for h, x in zip(p.citizens, a.citizens, strict=True)),
        favours=p.favours - a.favours,
        decurions=p.decurions + 1,
    )
    ctx.set(favour_supply=ctx.st.favour_supply + a.favours)
    ctx.pop()
    ctx.log("set", f"{p.name} hands in 3 at the Basilica for a decurion ({p.decurions + 1}).", a.player)


def basilica_draw(ctx: Ctx, seat: int) -> None:
    k = ctx.draw()
    if k == NO_KIND:
        raise RuleError("M-12.1", "the bag is empty: the Basilica's draw cannot be chosen")
    ctx.pop()
    ctx.log("draw", f"{ctx.name(seat)} draws {ctx.cat.a_kind(k)} at the Basilica.", seat)
    gain(ctx, seat, k)


def take_options(ctx: Ctx, seat: int) -> list[Take]:
    """M-8.5: a citizen of another player or of any banner (never a favour, never a chamber's)."""
    out: list[Take] = []
    for s, p in enumerate(ctx.st.players):
        if s != seat:
            out.extend(Take(player=seat, kind=ctx.cat.kinds[k].id, seat=s) for k in range(4) if p.citizens[k])
    for i, banner in enumerate(ctx.st.banners):
        out.extend(Take(player=seat, kind=ctx.cat.kinds[k].id, institution=i) for k in range(4) if banner[k])
    return out


def take(ctx: Ctx, a: Take) -> None:
    k = ctx.cat.kind_index.get(a.kind, NO_KIND)
    if k == NO_KIND:
        raise RuleError("M-8.5", f"unknown citizen kind {a.kind!r}")
    if (a.seat == -1) == (a.institution == -1) or min(a.seat, a.institution) < -1:
        raise RuleError("M-8.5", "take from one other player or one banner")
    if a.seat >= 0:
        if a.seat == a.player or a.seat >= ctx.st.n or ctx.st.players[a.seat].citizens[k] == 0:
            raise RuleError("M-8.5", f"that player holds no {ctx.cat.kind_name(k)} to take")
        victim = ctx.st.players[a.seat]
        ctx.set_player(a.seat, citizens=add(victim.citizens, k, -1))
        where = victim.name
    else:
        if a.institution >= 7 or ctx.st.banners[a.institution][k] == 0:
            raise RuleError("M-8.5", f"no {ctx.cat.kind_name(k)} on that banner")
        ctx.set_banner(a.institution, add(ctx.st.banners[a.institution], k, -1))
        where = f"the {ctx.cat.inst_name(a.institution)}"
    ctx.pop()
    ctx.log("take", f"{ctx.name(a.player)} takes {ctx.cat.a_kind(k)} from {where}.", a.player)
    gain(ctx, a.player, k)


def relocate_options(ctx: Ctx, seat: int) -> list[Relocate]:
    p = ctx.st.players[seat]
    out: list[Relocate] = []
    for frm in range(7):
        for crowned, count in ((False, p.plain[frm]), (True, p.crowned[frm])):
            if count:
                out.extend(Relocate(player=seat, frm=frm, to=to, crowned=crowned) for to in range(7) if to != frm)
    return out


def relocate(ctx: Ctx, a: Relocate) -> None:
    top = ctx.st.stack[-1]
    assert isinstance(top, RearrangeFrame)
    p = ctx.st.players[a.player]
    if not (0 <= a.frm < 7 and 0 <= a.to < 7) or a.frm == a.to:
        raise RuleError("M-6.4", "relocate a member to another institution")
    field = "crowned" if a.crowned else "plain"
    counts: tuple[int, ...] = getattr(p, field)
    if counts[a.frm] == 0:
        raise RuleError(
            "M-6.4", f"you have no {'crowned ' if a.crowned else ''}member at the {ctx.cat.inst_name(a.frm)}"
        )
    ctx.set_player(a.player, **{field: add(add(counts, a.frm, -1), a.to, 1)})
    ctx.replace_top(RearrangeFrame(player=a.player, left=top.left - 1))
    ctx.log(
        "move",
        f"{ctx.name(a.player)} moves a member from the {ctx.cat.inst_name(a.frm)} to the {ctx.cat.inst_name(a.to)}.",
        a.player,
    )
