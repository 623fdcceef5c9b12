"""The three events and what they pay out: sets (M-9), the governor event (M-7.1), citizen
placement and the citizen event (M-7.2), in the resolution order of M-10."""

from __future__ import annotations

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium.board import Ctx, add, ranking
from colosseum.core.games.municipium.model import NO_KIND, NOBODY, OPTION_SINGLE, ChamberFrame, CitizenEventFrame


def gain(ctx: Ctx, seat: int, kind: int, count: int = 1) -> None:
    """``seat`` gains citizens, then exchanges sets at once (M-9.1, M-10.2)."""
    p = ctx.st.players[seat]
    ctx.set_player(seat, citizens=add(p.citizens, kind, count))
    exchange_sets(ctx, seat)


def gain_favour(ctx: Ctx, seat: int) -> None:
    p = ctx.st.players[seat]
    ctx.set_player(seat, favours=p.favours + 1)
    exchange_sets(ctx, seat)


def next_set(citizens: tuple[int, ...], favours: int) -> tuple[tuple[int, ...], int] | None:
    """M-9.2/M-9.3: the complete set that ``citizens`` and ``favours`` held make, real citizens
    first, favours for the missing kinds: the citizens left and the favours it takes; None when
    they make none.  (The greedy bot counts the sets an option brings with it too.)"""
    missing = citizens.count(0)
    if favours < missing:
        return None
    return tuple(c - 1 if c else 0 for c in citizens), missing


def exchange_sets(ctx: Ctx, seat: int) -> None:
    """M-9.2/M-9.3: while a complete set is held (``next_set``), exchange it for a decurion;
    citizens to the bag, favours to the supply."""
    while True:
        p = ctx.st.players[seat]
        found = next_set(p.citizens, p.favours)
        if found is None:
            return
        citizens, missing = found
        for k, c in enumerate(p.citizens):
            if c:
                ctx.to_bag(k)
        ctx.set_player(seat, citizens=citizens, favours=p.favours - missing, decurions=p.decurions + 1)
        ctx.set(favour_supply=ctx.st.favour_supply + missing)
        used = f" (with {missing} favour{'s' if missing != 1 else ''})" if missing else ""
        ctx.log(
            "set",
            f"{ctx.name(seat)} exchanges a full set{used} for a decurion ({p.decurions + 1}).",
            seat,
        )


# ---------------------------------------------------------------- M-7.1 governor event


def governor_event(ctx: Ctx) -> None:
    """Advance the governor clockwise and run the event at the new chamber (M-7.1, M-10.3)."""
    st = ctx.st
    g = ctx.cat.route[st.governor]
    ctx.set(governor=g)
    ctx.log("governor", f"The governor moves to the {ctx.cat.inst_name(g)}.")
    r = ranking(ctx.st, g)
    first = r[0] if r else NOBODY
    second = r[1] if len(r) > 1 else NOBODY
    if first != NOBODY and ctx.st.favour_spaces[g]:
        ctx.set_favour_space(g, False)
        ctx.log("favour", f"{ctx.name(first)} receives the governor's favour.", first)
        gain_favour(ctx, first)
    elif first == NOBODY:
        ctx.log("governor", "Nobody has members there: nobody receives the favour.")
    single = OPTION_SINGLE in ctx.st.setup.options
    kind = ctx.st.chamber[g]
    if kind != NO_KIND:
        ctx.set_chamber(g, NO_KIND)
        if second != NOBODY:
            ctx.log("citizen", f"{ctx.name(second)} receives the chamber's {ctx.cat.kind_name(kind)}.", second)
            gain(ctx, second, kind)
        else:
            ctx.to_bag(kind)
            ctx.log("citizen", f"The chamber's {ctx.cat.kind_name(kind)} goes back to the bag.")
    if not ctx.st.favour_spaces[g] and ctx.st.favour_supply > 0:
        ctx.set_favour_space(g, True)
        ctx.set(favour_supply=ctx.st.favour_supply - 1)
    if ctx.st.n < 3:
        return
    if single:
        # also recovers a chamber citizen that an empty bag could not replace earlier (M-12.1)
        if all(c == NO_KIND for c in ctx.st.chamber):
            draw_single_chamber(ctx, ctx.st.active)
        return
    new = ctx.draw()
    if new != NO_KIND:
        ctx.set_chamber(g, new)
        ctx.log("citizen", f"{ctx.cat.a_kind(new).capitalize()} is drawn for the {ctx.cat.inst_owner(g)} chamber.")


def chamber_options(ctx: Ctx, kind: int) -> tuple[int, ...]:
    """M-13.2: chambers a single chamber citizen of ``kind`` may go to."""
    return tuple(i for i in ctx.cat.places[kind] if i in ctx.cat.chambers)


def draw_single_chamber(ctx: Ctx, chooser: int) -> None:
    """M-13.2: draw the one chamber citizen; ``chooser`` places it when it has a choice."""
    k = ctx.draw()
    if k == NO_KIND:
        return
    options = chamber_options(ctx, k)
    if len(options) == 1:
        ctx.set_chamber(options[0], k)
        return
    ctx.set(held=add(ctx.st.held, k, 1))
    ctx.push(ChamberFrame(player=chooser))


def place_chamber(ctx: Ctx, seat: int, inst: int) -> None:
    k = next(i for i, c in enumerate(ctx.st.held) if c)
    if inst not in chamber_options(ctx, k):
        raise RuleError("M-13.2", f"{ctx.cat.a_kind(k)} may not go to the {ctx.cat.inst_owner(inst)} chamber")
    ctx.set(held=add(ctx.st.held, k, -1))
    ctx.set_chamber(inst, k)
    ctx.pop()
    ctx.log(
        "citizen", f"{ctx.name(seat)} puts the chamber {ctx.cat.kind_name(k)} at the {ctx.cat.inst_name(inst)}.", seat
    )


# ---------------------------------------------------------------- M-7.2 citizens


def place_citizen(ctx: Ctx, seat: int, kind: int, inst: int) -> bool:
    """Put a held citizen on a banner (M-7.2); run the citizen event if it makes 3.  Returns
    whether an event happened.  The caller has checked the held citizen exists."""
    if inst not in ctx.cat.places[kind]:
        raise RuleError("M-7.2", f"{ctx.cat.a_kind(kind)} may not be placed at the {ctx.cat.inst_name(inst)}")
    ctx.set(held=add(ctx.st.held, kind, -1))
    banner = add(ctx.st.banners[inst], kind, 1)
    ctx.set_banner(inst, banner)
    ctx.log("place", f"{ctx.name(seat)} places {ctx.cat.a_kind(kind)} at the {ctx.cat.inst_name(inst)}.", seat)
    if sum(banner) < 3:
        return False
    start_citizen_event(ctx, inst)
    return True


def start_citizen_event(ctx: Ctx, inst: int) -> None:
    """M-7.2: 3 citizens on a banner.  The first player chooses the 2 they keep, unless all
    choices are the same (one kind) or nobody is there."""
    ctx.set(citizen_events=ctx.st.citizen_events + 1)
    ctx.log("event", f"Citizen event at the {ctx.cat.inst_name(inst)}.")
    banner = ctx.st.banners[inst]
    r = ranking(ctx.st, inst)
    if not r:
        for k, c in enumerate(banner):
            if c:
                ctx.to_bag(k, c)
        ctx.set_banner(inst, (0, 0, 0, 0))
        ctx.log("event", "Nobody is there: the 3 citizens go back to the bag.")
        return
    kinds = [k for k, c in enumerate(banner) if c]
    if len(kinds) == 1:
        finish_citizen_event(ctx, inst, kinds[0])
        return
    ctx.push(CitizenEventFrame(player=r[0], institution=inst))


def finish_citizen_event(ctx: Ctx, inst: int, leave: int) -> None:
    """M-10.4: first player's 2 → their sets → second player's 1 → their sets → leftovers."""
    banner = ctx.st.banners[inst]
    if banner[leave] == 0:
        raise RuleError("M-7.2", f"there is no {ctx.cat.kind_name(leave)} to leave at the {ctx.cat.inst_name(inst)}")
    r = ranking(ctx.st, inst)
    keep = add(banner, leave, -1)
    ctx.set_banner(inst, (0, 0, 0, 0))
    first = r[0]
    names = " and ".join(ctx.cat.kind_name(k, c) if c > 1 else ctx.cat.a_kind(k) for k, c in enumerate(keep) if c)
    ctx.log("citizen", f"{ctx.name(first)} takes {names}.", first)
    p = ctx.st.players[first]
    ctx.set_player(first, citizens=tuple(a + b for a, b in zip(p.citizens, keep, strict=True)))
    exchange_sets(ctx, first)
    if len(r) > 1:
        ctx.log("citizen", f"{ctx.name(r[1])} takes the {ctx.cat.kind_name(leave)}.", r[1])
        gain(ctx, r[1], leave)
    else:
        ctx.to_bag(leave)
        ctx.log("citizen", f"The {ctx.cat.kind_name(leave)} goes back to the bag.")
