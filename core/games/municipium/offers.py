"""``legal(state)``: every action the player to act may take, as concrete actions.

Agreement with the engine (every listed action applies; nothing else of the same decision
does) is a property test.  Large choices are split into small steps by the engine itself
(a rearrangement is a series of ``Relocate``), so each list stays short.
"""

from __future__ import annotations

from colosseum.core.games.municipium import powers
from colosseum.core.games.municipium.actions import (
    BasilicaDraw,
    DrawCommon,
    EmporiumDraw,
    GreatFamilyOption,
    KeepCitizens,
    MuniAction,
    Pass,
    PlaceChamber,
    PlaceCitizen,
    PlaceMember,
    PlayFamily,
    UsePower,
)
from colosseum.core.games.municipium.board import Ctx
from colosseum.core.games.municipium.engine import to_act
from colosseum.core.games.municipium.events import chamber_options
from colosseum.core.games.municipium.model import (
    BasilicaFrame,
    ChamberFrame,
    CitizenEventFrame,
    EmporiumFrame,
    ForumFrame,
    GreatFamilyFrame,
    OfferFrame,
    PlaceFrame,
    RearrangeFrame,
    State,
    TavernFrame,
)
from colosseum.core.games.municipium.moves import move_options


def legal(state: State) -> tuple[MuniAction, ...]:
    seat = to_act(state)
    if seat < 0:
        return ()
    ctx = Ctx(state)
    cat = ctx.cat
    out: list[MuniAction] = []
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, PlaceFrame):
            for k, c in enumerate(state.held):
                if c:
                    kid = cat.kinds[k].id
                    out.extend(PlaceCitizen(player=seat, kind=kid, institution=i) for i in cat.places[k])
        elif isinstance(top, CitizenEventFrame):
            banner = state.banners[top.institution]
            out.extend(KeepCitizens(player=seat, leave=cat.kinds[k].id) for k in range(4) if banner[k])
        elif isinstance(top, GreatFamilyFrame):
            out += [
                GreatFamilyOption(player=seat, option="governor"),
                GreatFamilyOption(player=seat, option="rearrange"),
            ]
        elif isinstance(top, OfferFrame):
            out.extend(UsePower(player=seat, institution=i) for i in top.options)
            out.append(Pass(player=seat))
        elif isinstance(top, TavernFrame):
            out.extend(powers.pull_options(ctx))
        elif isinstance(top, EmporiumFrame):
            out += [EmporiumDraw(player=seat), Pass(player=seat)]
        elif isinstance(top, BasilicaFrame):
            out.extend(powers.exchange_options(ctx, seat))
            if sum(state.bag):
                out.append(BasilicaDraw(player=seat))
        elif isinstance(top, ForumFrame):
            out.extend(powers.take_options(ctx, seat))
        elif isinstance(top, RearrangeFrame):
            out.extend(powers.relocate_options(ctx, seat))
            out.append(Pass(player=seat))
        elif isinstance(top, ChamberFrame):
            k = next(i for i, c in enumerate(state.held) if c)
            out.extend(PlaceChamber(player=seat, institution=i) for i in chamber_options(ctx, k))
        return tuple(out)
    if state.phase == "place":
        return tuple(PlaceMember(player=seat, institution=i) for i in range(7))
    if state.phase == "move":
        return (Pass(player=seat), *move_options(cat, state.players[seat], seat))
    out.append(DrawCommon(player=seat))
    out.extend(PlayFamily(player=seat, card=c) for c in state.players[seat].family)
    return tuple(out)
